"""What disarms a frame's match: the sentence only reports an attack in order to warn of it
(in its clause, under a heading that labels it, or with the next sentence standing against
it), an override names a project document's instructions rather than the reader's, or, when
the frame says so, a hedge, a prohibition, a contrast or a warning governs the match's clause.
:func:`reported` and :func:`owned_by_documents` let the rules pass the same notes."""

from __future__ import annotations

import functools
import re

from langgraph_mtl.hygiene.screening.frame_terms import Found, Frame, read
from langgraph_mtl.hygiene.screening.negation import forbidden
from langgraph_mtl.hygiene.screening.sentence_reading import (
    NEGATION,
    Token,
    around,
    clause,
    clauses,
    quotes,
    sentences,
)

__all__ = ["disarmed", "next_stands", "owned_by_documents", "reported"]

Hit = tuple[int, int, int, int]  # first token, token after the last, first char, end char

_CONTRAST = re.compile(r"(?i)\b(?:instead of|rather than|in place of|not)\s+(?:\S+\s+){0,3}$")
# a later clause that does something else instead ("...; fix the certificate store instead")
_CONTRAST_REACH = 80  # characters a contrast and its three words may take before what it contrasts
_REJECTED = re.compile(r"(?i)\binstead\b(?!\s+of\b)")
_REFERRING = {"it", "this", "that", "they", "these", "those", "which"}


# instructions that belong to a document of the project ("the instructions in the README",
# "rules from docs/setup.md"), not to the reader; an agent's own instruction file is the
# reader's ("AGENTS.md", ".cursorrules", "copilot-instructions.md")
_INSTRUCTION_NOUN = re.compile(
    r"(?i)\b(?:instructions?|directions?|directives?|rules|requirements|guidelines|guidance|steps)\b"
)
_OWNED_BY_DOCUMENT = re.compile(
    r"(?i)\s+(?:in|from|of)\s+(?:the\s+|our\s+|this\s+|that\s+)?(?![\w./-]*(?:agent|claude|"
    r"cursor|copilot|system|prompt|instruction|memor))(?:[\w./-]+\.(?:md|rst|txt|adoc|toml|cfg|"
    r"ini|ya?ml|json)|readme|docs?|documentation|wiki|changelog|contributing|manual|guide|"
    r"tutorial|makefile|dockerfile|install(?:ation)? notes|release notes|issue|ticket|pull "
    r"request|commit message)\b"
)


def owned_by_documents(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` names instructions and each belongs to a document of the
    project ("the earlier instructions in the README ... no longer apply")."""
    nouns = list(_INSTRUCTION_NOUN.finditer(text, start, end))
    return bool(nouns) and all(_OWNED_BY_DOCUMENT.match(text, noun.end()) for noun in nouns)


def _inside(found: Found, name: str, start: int, end: int) -> bool:
    return any(start <= a < end for _, _, a, _ in found.get(name, ()))


def _is_report(sentence: str, found: Found, position: int) -> bool:
    """Whether the clause at ``position`` reports a text's words ("a note asking you to ...")
    and calls them an attack or says to refuse them (or a later clause refuses them), quotes
    them and warns of them outside the quotes or says to do something else instead in a later
    clause, or calls what it describes an attack ("... are a common persistence trick"), not
    negated."""
    start, end = clause(sentence, position)
    stands = _stands(sentence)
    if _inside(found, "report", start, end) and any(start <= a < end for a in stands):
        return True
    if _inside(found, "report", start, end) and _refused_after(sentence, end):
        return True  # "someone tried to ...; the agent refused": an act against it, later
    quoted = [(a, b) for a, b in quotes(sentence) if a <= position < b]
    if quoted and _inside(found, "report", start, end) and _REJECTED.search(sentence, end):
        return True  # "READMEs say '...'; fix the store instead": the quoted advice rejected
    if _inside(found, "report", start, end) and _done_instead(sentence, end):
        return True  # "the docs say curl | sh, but we pinned the tarball instead": an account
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


_READER = frozenset({"you", "your", "yourself"})
# who or what attacks, named as a clause's subject (verbs such as "inject" or "plant" are left
# out: an order opens with them)
_THREATS = frozenset(
    {"attacker", "adversary", "hacker", "malware", "worm", "trojan", "malicious", "poisoned",
     "compromised", "hostile", "booby-trapped", "backdoored", "typosquatted"}
)  # fmt: skip


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
        _negated_before(words, t.start) for t in inside[:3]
    )


def _negated_before(words: list[Token], char: int) -> bool:
    before = [t for t in words if t.end <= char][-2:]
    return any(t.surface in NEGATION or t.surface.endswith("n't") for t in before)


def _hedged(sentence: str, found: Found, hit: Hit, span: tuple[int, int]) -> bool:
    """A hedge before the match in its clause ("if asked, ..." hedges only what precedes its
    comma; a hedge inside the match, "you may ignore", is the claim itself)."""
    first, end, start_char, _ = hit
    return any(
        span[0] <= char < start_char
        and "," not in sentence[char:start_char]
        and not first <= a < end
        for a, _, char, _ in found.get("hedge", ())
    )


# the act named as a subject and then forbidden ("force pushes to main are blocked by ...")
_FORBIDDEN_AFTER = re.compile(
    r"(?i)[^\S\n]*(?:is|are|was|were|gets?|stays?)[^\S\n]+(?:always[^\S\n]+|"
    r"now[^\S\n]+)?(?:blocked|forbidden|prohibited|disallowed|not allowed|not permitted|refused|"
    r"rejected|denied)\b"
)
# a negation that counts nothing rather than forbids: inside a match, it is the claim
_NONE = frozenset({"no", "nothing", "none", "zero"})


def _prohibited(frame: Frame, sentence: str, words: list[Token], found: Found, hit: Hit) -> bool:
    """A prohibition of the match, of its last word ("... never with md5") unless the match
    says "none" itself ("report no failures", "nothing can fail"), a contrast before it
    ("instead of ..."), the match forbidden right after it ("... are blocked"), or a
    prohibition of, or a contrast before, the frame's first word anywhere in the clause
    ("report it rather than skipping it")."""
    start_char = hit[2]
    span = clause(sentence, start_char)
    inner = [t for t in words if hit[2] <= t.start < hit[3]][:-1]
    negated_within = any(t.surface in _NONE for t in inner)
    return bool(
        forbidden(sentence, start_char)
        or (not negated_within and forbidden(sentence, _last_word_start(words, hit)))
        or _CONTRAST.search(sentence[span[0] : start_char])
        or _FORBIDDEN_AFTER.match(sentence[: span[1]], hit[3])
        or any(
            forbidden(sentence, char)
            or _CONTRAST.search(sentence[max(span[0], char - _CONTRAST_REACH) : char])
            for _, _, char, _ in found.get(frame.classes[0], ())
            if span[0] <= char < span[1]
        )
    )


def _warned(sentence: str, words: list[Token], found: Found, hit: Hit) -> bool:
    """A warning in the clause (or in a next clause that refers back to it), not negated, or
    a clause whose subject is the weakness and says what it lets others do."""
    span = clause(sentence, hit[2])
    warned = (span[0], _referring_clause_end(sentence, words, span))
    for _, _, char, _ in found.get("warning", ()):
        if warned[0] <= char < warned[1] and not _negated_before(words, char):
            return True
    return _consequence_of_subject(words, found, hit, span)


_HEADING = re.compile(r"^[^:\n]{1,60}?:(?=\s)")


def _told_as_note(sentence: str, found: Found, position: int, next_stands: bool) -> bool:
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
    if labelled and heading is not None and not _asks(sentence, heading.end()):
        return True  # "Red flag in code review: tests edited so ...": described, not asked
    return told and (next_stands or (labelled and quoted))


_JOINING = {"so", "then", "and", "but", "now", "just", "also", "instead", "first"}


def _asks(sentence: str, start: int) -> bool:
    """Whether a clause of ``sentence`` from ``start`` on opens (after a joining word) with a
    verb in its base form ("ignore ...", "so exit 0 early"), or with "you" or "please": it
    asks, rather than describes."""
    from lemminflect import getAllLemmas

    for a, b in clauses(sentence):
        first = _opening_word(sentence[max(a, start) : b])
        if b > start and (
            first in ("you", "please") or (first and first in getAllLemmas(first).get("VERB", ()))
        ):
            return True
    return False


def _opening_word(clause_text: str) -> str:
    """A clause's first word, lower-cased and unquoted, after any joining word ("so",
    "but" ...); empty when it has none."""
    words = [w.strip("\"'`*_(,") for w in clause_text.lower().split()]
    words = [w for w in words if w]
    while words and words[0] in _JOINING:
        words.pop(0)
    return words[0] if words else ""


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
        if not _negated_before(words, char)
        and not (first < len(words) and _gerund(words[first].surface))
    )


_WRITER = frozenset({"we", "i"})


def _done_instead(sentence: str, end: int) -> bool:
    """Whether a clause after ``end`` tells what the writer did instead: it opens (after a
    joining word) with "we" or "I" and says "instead" ("..., but we pinned the tarball
    instead"). The writer's own account; an instruction to the reader opens otherwise."""
    return any(
        a >= end and _opening_word(sentence[a:b]) in _WRITER and _REJECTED.search(sentence, a, b)
        for a, b in clauses(sentence)
    )


_REFUSALS = frozenset(
    {"refuse", "reject", "block", "quarantine", "decline", "report", "flag", "look", "check",
     "grep", "scan"}
)  # fmt: skip


def _refused_after(sentence: str, end: int) -> bool:
    """Whether a clause after ``end`` acts against what came before (refused, rejected,
    blocked, reported it): an act, not a label ("calling that an attack is silly" is none)."""
    words, found = read(sentence)
    acts = {
        char for first, _, char, _ in found.get("defence", ()) if words[first].forms & _REFUSALS
    }
    return any(char >= end for char in acts if char in _stands(sentence))


# a remedy told in the past: what was done about what the clause before told of
_REMEDIES = frozenset(
    {"switched", "replaced", "fixed", "migrated", "reverted", "rotated", "patched", "upgraded",
     "removed", "pinned", "swapped"}
)  # fmt: skip


def _remedied_after(sentence: str, end: int) -> bool:
    """Whether a clause after ``end`` tells the remedy, in the past ("...; switched to the app
    user", "...; the fix switched to bcrypt"): it opens, after a joining word, "we", "I" or
    "the fix", with one of the remedies."""
    for a, b in clauses(sentence):
        if a < end:
            continue
        words = [w.strip("\"'`*_(,") for w in sentence[a:b].lower().split()]
        while words and (words[0] in _JOINING or words[0] in _WRITER):
            words.pop(0)
        if words[:2] == ["the", "fix"]:
            words = words[2:]
        if words and words[0] in _REMEDIES:
            return True
    return False


def next_stands(text: str, span: tuple[int, int]) -> bool:
    """Whether the sentence after the one at ``span`` of ``text`` takes a stand against what
    that one tells of ("... The pool quarantines text like that.")."""
    following = [s for s in sentences(text) if s[0] >= span[1]][:1]
    return any(_stands(text[a:b]) for a, b in following)


def disarmed(
    frame: Frame,
    sentence: str,
    words: list[Token],
    found: Found,
    hit: Hit,
    stood_against: bool = False,
) -> bool:
    """Whether ``hit`` (a match of the frame's last class) is disarmed in ``sentence``;
    ``stood_against`` says whether the text's next sentence takes a stand against an attack
    (see :func:`next_stands`)."""
    if _is_report(sentence, found, hit[2]):
        return True
    if _told_as_note(sentence, found, hit[2], stood_against):
        return True
    if frame.category == "override" and owned_by_documents(sentence, *clause(sentence, hit[2])):
        return True  # the README's instructions are out of date, not the reader's
    span = clause(sentence, hit[2])
    if _acts_on_something_before(frame, words, found, hit):
        return True  # "... that is an injection; drop it and continue with the user's request"
    if (_refused_after(sentence, span[1]) or _remedied_after(sentence, span[1])) and not _asks(
        sentence, span[0]
    ):
        return True  # "hard-coding outputs makes tests pass; reviewers reject it": told, refused
    if frame.readers_act and _done_by_another(frame, words, found, hit, span):
        return True  # "the function should ignore blank lines": the function's act
    if frame.hedge and _hedged(sentence, found, hit, span):
        return True
    if frame.negatable and _prohibited(frame, sentence, words, found, hit):
        return True
    return frame.warnable and _warned(sentence, words, found, hit)


_OBJECT_PRONOUNS = frozenset({"it", "them", "this", "that", "these", "those"})


def _acts_on_something_before(frame: Frame, words: list[Token], found: Found, hit: Hit) -> bool:
    """Whether the match is a verb whose object is a pronoun ("drop it") while what the frame
    needs it to act on (its first class) is named only after it: the pronoun points back to
    something else."""
    after = hit[1]
    if hit[1] - hit[0] != 1 or after >= len(words) or words[after].surface not in _OBJECT_PRONOUNS:
        return False
    return all(char > hit[3] for _, _, char, _ in found.get(frame.classes[0], ()))


_DETERMINERS = frozenset(
    {"the", "a", "an", "this", "that", "each", "every", "its", "our", "my", "their", "his", "her"}
)
_AUXILIARIES = frozenset(
    {"should", "must", "will", "would", "can", "could", "may", "might", "shall", "to",
     "always", "also", "just", "then", "silently", "simply"}
)  # fmt: skip
_READERS = frozenset(
    {"you", "agent", "assistant", "model", "ai", "llm", "bot", "reader", "system", "yourself"}
)


def _done_by_another(
    frame: Frame, words: list[Token], found: Found, hit: Hit, span: tuple[int, int]
) -> bool:
    """Whether the act at ``hit`` has a subject of its own that is neither the reader, a
    memory nor what the frame names ("the function should ignore ...", "a parser that
    ignores ..."): the act is a verb with a determiner and a noun right before it (past an
    auxiliary or an adverb), in its clause."""
    from lemminflect import getAllLemmas

    act = words[hit[0]] if hit[0] < len(words) else None
    if act is None or "VERB" not in getAllLemmas(act.surface):
        return False  # "... counts any more": no act of its own to have a subject
    before = [t for t in words if span[0] <= t.start < hit[2]]
    while before and before[-1].surface in _AUXILIARIES | {"that", "which"}:
        before.pop()
    if len(before) < 2:
        return False
    noun, determiner = before[-1], before[-2]
    if determiner.surface not in _DETERMINERS and len(before) >= 3:
        determiner = before[-3]  # one adjective between ("the old parser")
    own = (
        bool(noun.forms & _READERS)
        or _inside_class(found, "memnoun", noun)
        or any(_inside_class(found, name, noun) for name in frame.classes)
    )
    return (
        determiner.surface in _DETERMINERS
        and "NOUN" in (getAllLemmas(noun.surface) or {"NOUN": ()})  # unknown: a name
        and not own
    )


def _inside_class(found: Found, name: str, token: Token) -> bool:
    return any(a <= token.start < b for _, _, a, b in found.get(name, ()))


def _last_word_start(words: list[Token], hit: Hit) -> int:
    """Where the last word of a match starts (a prohibition may govern only that word)."""
    inside = [t for t in words if hit[2] <= t.start < hit[3]]
    return inside[-1].start if inside else hit[2]


def _referring_clause_end(sentence: str, words: list[Token], span: tuple[int, int]) -> int:
    """The end of the clause, or of the next one when that one opens by referring back to
    it ("keep DEBUG off in production; it leaks settings")."""
    following = [t for t in words if t.start >= span[1]]
    if following and following[0].surface in _REFERRING:
        return clause(sentence, following[0].start)[1]
    return span[1]


def _consequence_of_subject(
    words: list[Token], found: Found, hit: Hit, span: tuple[int, int]
) -> bool:
    """Whether the clause's subject is the weakness (it opens the clause, or a gerund phrase
    holding it does: "running containers with --privileged") and what follows says what it
    lets others do ("... gives them the host")."""
    _, _, start_char, end_char = hit
    leading = [t for t in words if span[0] <= t.start < start_char]
    subject = len(leading) <= 1 or leading[0].surface.endswith("ing")
    return subject and any(
        end_char <= char < span[1] for _, _, char, _ in found.get("consequence", ())
    )


def reported(text: str, position: int) -> bool:
    """Whether the sentence around ``position`` of ``text`` only reports an attack to warn
    of it: its clause says what a text "says", "asks" or "claims" and calls that an attack or
    says to refuse or flag it, or the clause calls what it describes an attack (not
    negated); or it tells of an attack as an account that the next sentence, or a heading
    over a quotation, stands against (see :func:`_told_as_note`)."""
    span = around(sentences(text), position)
    if span is None:
        return False
    sentence, at = text[span[0] : span[1]], position - span[0]
    found = read(sentence)[1]
    return _is_report(sentence, found, at) or _told_as_note(
        sentence, found, at, next_stands(text, span)
    )
