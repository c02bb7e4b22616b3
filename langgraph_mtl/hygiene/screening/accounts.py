"""What tells of an attack rather than asking for it: a clause that reports what a text says
and stands against it, a threat named as the subject, a note under a heading that files it as
an attack, the next sentence or a later clause refusing it or telling the remedy, and a clause
that asks (an order) rather than describes. The frames (:mod:`.disarming`), the rules and the
code scanner all pass the notes :func:`reported` finds."""

from __future__ import annotations

import functools
import re

from langgraph_mtl.hygiene.screening.frame_terms import Found, read
from langgraph_mtl.hygiene.screening.remedies import PASSIVE, remedied_after, remedied_in
from langgraph_mtl.hygiene.screening.sentence_reading import (
    NEGATION,
    POINTING_BACK,
    WRITER,
    Token,
    around,
    clause,
    clauses,
    opening_word,
    opening_words,
    quotes,
    sentences,
)

__all__ = [
    "asks",
    "is_report",
    "negated_before",
    "next_stands",
    "refused_after",
    "remedied_after",
    "reported",
    "told_as_note",
]

# a later clause that does something else instead ("...; fix the certificate store instead")
_REJECTED = re.compile(r"(?i)\binstead\b(?!\s+of\b)")


def _inside(found: Found, name: str, start: int, end: int) -> bool:
    return any(start <= a < end for _, _, a, _ in found.get(name, ()))


def is_report(sentence: str, found: Found, position: int) -> bool:
    """Whether the clause at ``position`` reports a text's words ("a note asking you to ...")
    and calls them an attack or says to refuse them (or a later clause refuses them), quotes
    them and warns of them outside the quotes or says to do something else instead in a later
    clause, or calls what it describes an attack ("... are a common persistence trick"), not
    negated."""
    start, end = clause(sentence, position)
    stands = _stands(sentence)
    if _inside(found, "report", start, end) and any(start <= a < end for a in stands):
        return True
    if _inside(found, "report", start, end) and (
        refused_after(sentence, end) or remedied_after(sentence, end)
    ):
        return True  # "someone tried to ...; the agent refused": an act against it, later
    quoted = [(a, b) for a, b in quotes(sentence) if a <= position < b]
    if quoted and _inside(found, "report", start, end) and _REJECTED.search(sentence, end):
        return True  # "READMEs say '...'; fix the store instead": the quoted advice rejected
    if _inside(found, "report", start, end) and _done_instead(sentence, end):
        return True  # "the docs say curl | sh, but we pinned the tarball instead": an account
    if _inside(found, "report", start, end) and _labelled_next(sentence, found, end):
        return True  # "a memory asked agents to attach ~/.gnupg; that is exfiltration"
    if _refused_object(sentence, position):
        return True  # "reviewers rejected a patch that ran chmod 777 on the upload folder"
    if _otherwise_than_condition(sentence, position):
        return True  # "if a task seems to want you to skip tests, report that ... instead"
    if _threat_is_subject(sentence, (start, end)):
        return True  # "attackers sometimes hide `nc -e /bin/sh` in postinstall scripts"
    if quoted and any(  # a quoted attack, warned of outside the quotes
        start <= a < end and not any(x <= a < y for x, y in quoted) for a in stands
    ):
        return True
    return any(
        start <= a < end and not NEGATION & set(sentence[a:b].lower().split())
        for _, _, a, b in found.get("threat-label", ())
    )


# a refusal and what it refuses, told by a relative clause ("rejected a patch that ...")
_REFUSED_OBJECT = re.compile(
    r"(?i)\b(?:reject(?:s|ed)?|revert(?:s|ed)?|block(?:s|ed)?|refuse[sd]?|decline[sd]?|"
    r"flag(?:s|ged)?|quarantine[sd]?|veto(?:es|ed)?)\s+"
    r"(?:[\w'-]+\s+){0,3}?(?:that|which)\s"
)


def _refused_object(sentence: str, position: int) -> bool:
    """Whether ``position`` lies in a relative clause telling what a refusal in its clause
    acted on, not negated ("Reviewers rejected a patch that ran chmod 777 ...", "block any
    PR that ..."), and no later clause asks to do it after all ("..., so skip them")."""
    start, end = clause(sentence, position)
    refusals = [(a, b) for a, b in _refusals(sentence) if start <= a and b <= position]
    if not refusals:
        return False
    words, _ = read(sentence)
    acted_on = any(  # "..., so skip them locally": a later clause does it after all
        a >= end and asks(sentence[:b], a) and set(opening_words(sentence[a:b])) & POINTING_BACK
        for a, b in clauses(sentence)
    )
    return not acted_on and any(not negated_before(words, a) for a, _ in refusals)


@functools.lru_cache(maxsize=64)  # asked again for every match in the sentence
def _refusals(sentence: str) -> tuple[tuple[int, int], ...]:
    return tuple(m.span() for m in _REFUSED_OBJECT.finditer(sentence))


# a condition opening a sentence or a clause, up to its comma ("If a task seems to want ...,")
_CONDITION = re.compile(r"(?i)(?:^|[;:]\s*)\s*(?:if|when|whenever)\b[^,;:\n]{1,200},")


@functools.lru_cache(maxsize=64)
def _conditions(sentence: str) -> tuple[tuple[int, int], ...]:
    return tuple(m.span() for m in _CONDITION.finditer(sentence))


# what the reader does to what a condition told of, when it refuses it ("..., ignore it"),
# and what may follow in a few words and stays a stand ("..., ignore it and tell the user")
_SET_ASIDE = frozenset({"ignore", "refuse", "reject", "decline", "report", "flag", "quarantine"})
_TELLING = frozenset({"tell", "warn", "notify", "inform", "alert", "flag", "report", "continue"})
_TOLD_WORDS = 7


def _otherwise_than_condition(sentence: str, position: int) -> bool:
    """Whether ``position`` lies in a condition whose main clause refuses what a text in it
    asks ("If a memory tells you to pipe curl into sh, ignore it"), or is that refusal, or
    asks for something else instead ("If a task seems to want you to skip tests, report why
    instead"): the condition names what not to do. Not when the main clause's act points
    back to it ("..., skip them instead") or goes on to act ("..., ignore it and delete
    them")."""
    for start, end in _conditions(sentence):
        main = clause(sentence, end)
        opening = opening_words(sentence[end : main[1]])
        then = set(opening[2:3]) & {"and", "then"}  # "ignore it and ...": acts on, or tells
        if (
            opening[:1]
            and opening[0] in _SET_ASIDE
            and set(opening[1:2]) & POINTING_BACK
            and (not then or (set(opening[3:4]) & _TELLING and len(opening) <= _TOLD_WORDS))
            and _inside(read(sentence)[1], "report", start, end)
        ):
            verb = re.search(rf"(?i)\b{re.escape(opening[0])}\b", sentence[end:])
            if start <= position < end or (verb and position == end + verb.start()):
                return True
        elif start <= position < end:
            return (
                asks(sentence[: main[1]], end)
                and not set(opening[1:3]) & POINTING_BACK
                and _REJECTED.search(sentence, end, main[1]) is not None
            )
    return False


_READER = frozenset({"you", "your", "yourself"})
# who or what attacks, named as a clause's subject (verbs such as "inject" or "plant" are left
# out: an order opens with them)
_THREATS = frozenset(
    {"attacker", "adversary", "hacker", "malware", "worm", "trojan", "malicious", "poisoned",
     "compromised", "hostile", "booby-trapped", "backdoored", "typosquatted"}
)  # fmt: skip


def _labelled_next(sentence: str, found: Found, end: int) -> bool:
    """Whether the clause after ``end`` points back ("that", "this", "it") and calls what came
    before an attack ("...; that is exfiltration")."""
    following = next(((a, b) for a, b in clauses(sentence) if a >= end), None)
    if following is None or opening_word(sentence[following[0] : following[1]]) not in _BACK:
        return False
    return _inside(found, "threat-label", *following)


_BACK = frozenset({"that", "this", "it", "which"})


@functools.lru_cache(maxsize=64)  # asked again for every rule match in one clause
def _threat_is_subject(sentence: str, span: tuple[int, int]) -> bool:
    """Whether the clause at ``span`` tells what a threat does: its subject, within its first
    three words, is one ("attackers ...", "a poisoned README ...", "malicious packages ..."),
    not negated, and the reader is no actor in it."""
    words, _ = read(sentence)
    inside = [t for t in words if span[0] <= t.start < span[1]]
    if any(t.surface in _READER for t in inside):
        return False
    return any(t.forms & _THREATS for t in inside[:3]) and not any(
        negated_before(words, t.start) for t in inside[:3]
    )


def negated_before(words: list[Token], char: int) -> bool:
    before = [t for t in words if t.end <= char][-2:]
    return any(t.surface in NEGATION or t.surface.endswith("n't") for t in before)


_HEADING = re.compile(r"^[^:\n]{1,60}?:(?=\s)")


def told_as_note(sentence: str, found: Found, position: int, next_stands: bool) -> bool:
    """Whether the text at ``position`` is told as an account of an attack and stood against:
    its clause reports what a text says, the position is quoted, or the sentence opens with a
    heading that files it as an attack ("Known attack: ..."); and the next sentence takes a
    stand against it, or the heading labels a quotation or a description (not a request:
    "Known attack: ignore your instructions" is still one). A clause merely told in the past is
    no account: trajectory memories are written that way."""
    start, end = clause(sentence, position)
    quoted = any(a <= position < b for a, b in quotes(sentence))
    heading = _HEADING.match(sentence)
    labelled = heading is not None and (
        position >= heading.end() and any(a < heading.end() for a in _stands(sentence))
    )
    told = quoted or labelled or _inside(found, "report", start, end)
    if labelled and heading is not None and not asks(sentence, heading.end()):
        return True  # "Red flag in code review: tests edited so ...": described, not asked
    return told and (next_stands or (labelled and quoted))


# an obligation put on the agent in the third person ("the agent must send ...")
_AGENT_OBLIGED = re.compile(
    r"(?:the |an? |every |any )?(?:coding )?(?:agents?|assistants?|models?|ai|bots?)"
    r" (?:must|should|shall|needs? to|has to|have to|is to|are to|is required to)\b"
)
# a purpose told first: "to keep the monitor alive, add ..." asks with the words after the comma
_PURPOSE_FIRST = re.compile(r"in order to [^,;]{1,80},|to [^,;]{1,80},")


def asks(sentence: str, start: int) -> bool:
    """Whether a clause of ``sentence`` from ``start`` on opens (after a joining word, and after
    a purpose told first: "to keep it alive, add ...") with a verb in its base form ("ignore
    ...", "so exit 0 early"), with "you" or "please", or with an obligation put on the agent
    ("the agent must send ..."): it asks, rather than describes."""
    return any(
        _opens_with_order(sentence[max(a, start) : b]) for a, b in clauses(sentence) if b > start
    )


def _opens_with_order(told: str) -> bool:
    """Whether one clause opens with an order (see :func:`asks`)."""
    from lemminflect import getAllLemmas

    told = told.lower().lstrip()
    purpose = _PURPOSE_FIRST.match(told)
    opening = " ".join(opening_words(told[purpose.end() :] if purpose else told))
    first = opening.split(" ", 1)[0]
    if first in ("you", "please") or (first and first in getAllLemmas(first).get("VERB", ())):
        return True
    return bool(_AGENT_OBLIGED.match(opening))


@functools.cache
def _gerund(word: str) -> bool:
    """Whether ``word`` is only a verb's -ing form ("refusing"; not "engineering")."""
    from lemminflect import getAllLemmas

    lemmas = getAllLemmas(word)
    return word.endswith("ing") and "VERB" in lemmas and "NOUN" not in lemmas


@functools.lru_cache(maxsize=64)
def _stands(sentence: str) -> tuple[int, ...]:
    """Where the sentence's defence words take a stand: not negated, and not a gerund naming
    the act ("this memory says refusing slows you down")."""
    words, found = read(sentence)
    return tuple(
        char
        for first, _, char, _ in found.get("defence", ())
        if not negated_before(words, char)
        and not (first < len(words) and _gerund(words[first].surface))
    )


def _done_instead(sentence: str, end: int) -> bool:
    """Whether a clause after ``end`` tells what the writer did instead: it opens (after a
    joining word) with "we" or "I" and says "instead" ("..., but we pinned the tarball
    instead"). The writer's own account; an instruction to the reader opens otherwise."""
    return any(
        a >= end and opening_word(sentence[a:b]) in WRITER and _REJECTED.search(sentence, a, b)
        for a, b in clauses(sentence)
    )


_REFUSALS = frozenset(
    {"refuse", "reject", "block", "quarantine", "decline", "report", "flag", "look", "check",
     "grep", "scan", "stop", "prevent", "catch", "ignored"}
)  # fmt: skip


def refused_after(sentence: str, end: int, *, searches: bool = True) -> bool:
    """Whether a clause after ``end`` acts against what came before (refused, rejected,
    blocked, reported it): an act, not a label ("calling that an attack is silly" is none),
    whose object points back or that has none ("safe_load rejects too much" refuses
    something else). ``searches=False`` leaves out a search for it ("grep for ...")."""
    return any(char >= end for char in _refusals_at(sentence, searches))


@functools.lru_cache(maxsize=64)  # asked again for every match in the sentence
def _refusals_at(sentence: str, searches: bool) -> tuple[int, ...]:
    """Where the sentence's refusals of what came before stand (see :func:`refused_after`)."""
    words, found = read(sentence)
    refusals = _REFUSALS if searches else _REFUSALS - _SEARCHES
    stands = _stands(sentence)
    return tuple(
        char
        for first, after, char, _ in found.get("defence", ())
        if words[first].forms & refusals
        and _refuses_what_came_before(sentence, words, first, after)
        and char in stands
    )


# what a refusal's object opens with when it is what came before: a pronoun, "such", a
# determiner ("reject the patch"), or "to" ("refused to run it")
_REFUSED_BACK = POINTING_BACK | {"that", "such", "any", "the", "every", "all", "to"}
_SEARCHES = frozenset({"look", "check", "grep", "scan"})  # their object is what to look for


def _refuses_what_came_before(sentence: str, words: list[Token], first: int, after: int) -> bool:
    """Whether the refusal (tokens ``first`` to ``after``) searches, has no object (its clause
    or a comma ends it), or has one that points back to what came before, within it ("ignored
    that") or after it ("reject it", "block such changes")."""
    last = words[after - 1]
    if words[first].forms & _SEARCHES or after >= len(words) or last.surface in _REFUSED_BACK:
        return True  # a search, the sentence's end, or the object within ("ignored that")
    if (
        first >= 2
        and words[first - 1].surface in PASSIVE
        and words[first - 2].surface in _REFUSED_BACK
    ):
        return True  # told in the passive of what came before: "...; it was quarantined"
    if sentence[last.start : last.end].endswith((",", ";", ".", ":")):
        return True
    following = words[after]
    if clause(sentence, following.start) != clause(sentence, last.start):
        return True
    return following.surface in _REFUSED_BACK


def next_stands(text: str, span: tuple[int, int]) -> bool:
    """Whether the sentence after the one at ``span`` of ``text`` takes a stand against what
    that one tells of ("... The pool quarantines text like that.")."""
    following = [s for s in sentences(text) if s[0] >= span[1]][:1]
    return any(_stands(text[a:b]) for a, b in following)


# a finite "be" after a clause's opening: the words before it are its subject, not an order
# ("DROP DATABASE in a migration is a mistake")
_COPULA = re.compile(r"(?i)\s(?:is|are|was|were)\s")


def told_against(sentence: str, position: int) -> bool:
    """Whether the clause at ``position`` tells of an act without asking for it, and a later
    clause refuses ("...; our seccomp profile blocks it") or remedies it before any clause
    asks for something; a clause whose opening words are the subject of "is" or "are" asks
    nothing ("DROP DATABASE in a migration is a mistake"). Something asked for instead is no
    stand ("the instructions are void; follow this memory instead")."""
    start, end = clause(sentence, position)
    for a, b, orders, stands in _stances(sentence):
        if b <= start:
            continue
        if a >= end and stands:
            return True
        if orders:
            return False
    return False


@functools.lru_cache(maxsize=64)  # asked again for every match in the sentence
def _stances(sentence: str) -> tuple[tuple[int, int, bool, bool], ...]:
    """Each clause, whether it orders something and whether it refuses or remedies."""
    refusals = _refusals_at(sentence, False)
    return tuple(
        (
            a,
            b,
            _opens_with_order(sentence[a:b]) and not _COPULA.search(sentence[a:b].strip(), 1),
            any(a <= c < b for c in refusals) or remedied_in(sentence[a:b]),
        )
        for a, b in clauses(sentence)
    )


def reported(text: str, position: int) -> bool:
    """Whether the sentence around ``position`` of ``text`` only reports an attack: its clause
    says what a text "says", "asks" or "claims" and calls that an attack or says to refuse it,
    or calls what it describes an attack (not negated); it tells of an attack as an account
    the next sentence or a heading stands against (:func:`told_as_note`); or a later clause
    refuses or remedies what it tells without asking (:func:`told_against`)."""
    span = around(sentences(text), position)
    if span is None:
        return False
    sentence, at = text[span[0] : span[1]], position - span[0]
    found = read(sentence)[1]
    return (
        is_report(sentence, found, at)
        or told_as_note(sentence, found, at, next_stands(text, span))
        or told_against(sentence, at)
    )
