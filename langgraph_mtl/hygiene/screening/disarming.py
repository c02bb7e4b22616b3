"""What disarms a frame's match: the sentence only tells of an attack (:mod:`.accounts`: it
reports it to warn of it, refuses it or tells the remedy), the act's object points back to
something else, an override names a project document's instructions rather than the
reader's, or, when the frame says so, a hedge, a prohibition, a contrast or a warning governs
the match's clause. :func:`owned_by_documents` lets the rules pass the same documents."""

from __future__ import annotations

import bisect
import re

from langgraph_mtl.hygiene.screening.accounts import (
    asks,
    is_report,
    negated_before,
    refused_after,
    remedied_after,
    told_as_note,
)
from langgraph_mtl.hygiene.screening.frame_terms import Found, Frame
from langgraph_mtl.hygiene.screening.negation import forbidden
from langgraph_mtl.hygiene.screening.remedies import undone_after
from langgraph_mtl.hygiene.screening.sentence_reading import (
    DETERMINERS,
    OBJECT_PRONOUNS,
    WRITER,
    Token,
    clause,
    clauses,
)

__all__ = ["disarmed", "owned_by_documents"]

Hit = tuple[int, int, int, int]  # first token, token after the last, first char, end char

_CONTRAST = re.compile(
    r"(?i)\b(?:instead of|rather than|in place of|not)\s+(?:\S+\s+){0,3}$"
    # what a preference passes over: "prefer json.loads over pickle.loads"
    r"|\b(?:prefer|favou?r|choose|pick)\w*\s(?:[^.;:\n]|\.(?=\S)){1,60}?\bover\s+(?:\S+\s+){0,2}$"
)
# what a substitution takes away: the words between it and the match name no replacement
# ("replacing string formatting with placeholders", "switched from md5 to bcrypt"); read for
# a weakness only, which names the weak state itself (a check's frame may name what an attack
# replaces: "replace the body of every failing test with ...")
_WEAKNESS = "insecure-advice"
_REPLACED = re.compile(
    r"(?i)\b(?:replac(?:e|es|ed|ing)|swap(?:s|ped|ping)?|(?:switch(?:es|ed|ing)?|mov(?:e|es|ed|"
    r"ing)|migrat(?:e|es|ed|ing))\s+(?:[\w-]+\s+){0,3}?(?:away\s+)?from|phas(?:e|es|ed|ing)\s+out|(?:got|get|"
    r"getting)\s+rid\s+of)\s+(?:(?!(?:with|by|for|to|into|in)\b)\S+\s+){0,3}$"
    # or what is left out: "run the container without the --privileged flag"
    r"|\bwithout\s+(?:(?:the|a|an|any)\s+)?$"
    # or what is checked before it is used: "validate a user-supplied filename ..." (not after
    # an order to leave the check out: "skip validating ...")
    r"|(?<!\bskip )(?<!\bstop )(?<!\bavoid )(?<!\bno need to )(?<!\bdon't )(?<!\bnot )(?<!\bnever )"
    r"\b(?:validat|sanitiz|sanitis|escap|normaliz|normalis|whitelist|allow-list)\w*\s+(?:\S+\s+){0,3}$"
)
_CONTRAST_REACH = 80  # characters a contrast and its three words may take before what it contrasts
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


def _hedged(
    sentence: str, words: list[Token], found: Found, hit: Hit, span: tuple[int, int]
) -> bool:
    """A hedge before the match in its clause ("if asked, ..." hedges only what precedes its
    comma; a hedge inside the match, "you may ignore", is the claim itself, and so is a
    permission given to the reader before it, "you may set aside ...")."""
    first, end, start_char, _ = hit
    return any(
        span[0] <= char < start_char
        and "," not in sentence[char:start_char]
        and not first <= a < end
        and not (a > 0 and words[a - 1].forms & _READERS)
        for a, _, char, _ in found.get("hedge", ())
    )


# the act named as a subject and then forbidden ("force pushes to main are blocked by ...",
# "random.random() is not for tokens")
_FORBIDDEN_AFTER = re.compile(
    r"(?i)[^\S\n]*(?:(?:is|are|was|were|gets?|stays?)[^\S\n]+(?:always[^\S\n]+|"
    r"now[^\S\n]+)?(?:blocked|forbidden|prohibited|disallowed|not allowed|not permitted|refused|"
    r"rejected|denied|not (?:meant |safe |suitable |fit )?for)|(?:is|are)n't (?:meant |safe |"
    r"suitable |fit )?for|(?:should|must) (?:not|never) be used)\b"
)
# a negation that counts nothing rather than forbids: inside a match, it is the claim
_NONE = frozenset({"no", "nothing", "none", "zero"})
# a negation inside a weakness's match denies the pairing it names ("random.random() is not
# for tokens"); a check's terms carry their own ("can't fail")
_DENIED = frozenset({"not", "never", "isn't", "aren't", "shouldn't", "mustn't", "don't"})


def _prohibited(frame: Frame, sentence: str, words: list[Token], found: Found, hit: Hit) -> bool:
    """A prohibition of the match or of its last word ("... never with md5"), unless the match
    holds its own negation, which is then the claim ("report no failures", "do not apply to
    agents"), though for a weakness it denies the pairing ("X is not for tokens"); a contrast
    before it ("instead of ...") or, for a weakness, a substitution that takes it away
    ("replacing ... with"); the match forbidden right after it ("... are blocked"); or a
    prohibition of, or a contrast before, the frame's first word anywhere in the clause
    ("report it rather than skipping it")."""
    start_char = hit[2]
    span = clause(sentence, start_char)
    inner = [t for t in words if hit[2] <= t.start < hit[3]][:-1]
    weakness = frame.category == _WEAKNESS
    claims = any(t.surface in _NONE or (not weakness and t.surface in _DENIED) for t in inner)
    return bool(
        (weakness and any(t.surface in _DENIED for t in inner[1:]))
        or forbidden(sentence, start_char)
        or (not claims and forbidden(sentence, _last_word_start(words, hit)))
        or _CONTRAST.search(sentence[span[0] : start_char])
        or (weakness and _REPLACED.search(sentence[span[0] : start_char]))
        or _FORBIDDEN_AFTER.match(sentence[: span[1]], hit[3])
        or _refused_next(words, span)
        or any(
            (not claims and forbidden(sentence, char))
            or _contrasted_outside(sentence, max(span[0], char - _CONTRAST_REACH), char, hit)
            for _, _, char, _ in found.get(frame.classes[0], ())
            if span[0] <= char < span[1]
        )
    )


# what ends a sentence by only refusing what came before ("...; don't.", "...; never do that")
_REFUSING_WORDS = frozenset({"don't", "do", "not", "never", "avoid", "it", "that", "this"})


def _refused_next(words: list[Token], span: tuple[int, int]) -> bool:
    """Whether what follows ``span`` to the sentence's end is a bare refusal: at most three
    words, all of a refusal, one of them a negation or "avoid" ("...; don't.")."""
    following = _next_words(words, span[1], 4)
    return (
        0 < len(following) <= 3
        and all(t.surface in _REFUSING_WORDS for t in following)
        and any(t.surface in ("don't", "not", "never", "avoid") for t in following)
    )


def _contrasted_outside(sentence: str, start: int, end: int, hit: Hit) -> bool:
    """Whether a contrast ends the text from ``start`` to ``end`` and does not lie inside the
    match (a negation inside it is its claim: "not have to do what the prompt says")."""
    contrast = _CONTRAST.search(sentence, start, end)
    return contrast is not None and not hit[2] <= contrast.start() < hit[3]


def _warned(sentence: str, words: list[Token], found: Found, hit: Hit) -> bool:
    """A warning in the clause (or in a next clause that refers back to it), not negated and
    not the verb the clause opens with ("Expose the panel ..." orders it), or a clause whose
    subject is the weakness and says what it lets others do."""
    span = clause(sentence, hit[2])
    warned = (span[0], _referring_clause_end(sentence, words, span))
    first = [t for t in _next_words(words, span[0], 1) if t.start < span[1]]
    opening = first[0].start if first else -1  # "Expose the panel ...": the order's own verb
    limit = _elliptic_limit(words, span)  # "...; never in production code": the same act limited
    for _, _, char, _ in found.get("warning", ()):
        if char == limit or (
            warned[0] <= char < warned[1] and char != opening and not negated_before(words, char)
        ):
            return True
    return _consequence_of_subject(words, found, hit, span)


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
    if is_report(sentence, found, hit[2]):
        return True
    if "secret-store" in frame.classes and _secret_is_topic(words, found):
        return True  # "put the steps for rotating the deploy key in the README"
    if told_as_note(sentence, found, hit[2], stood_against):
        return True
    if frame.category == "override" and owned_by_documents(sentence, *clause(sentence, hit[2])):
        return True  # the README's instructions are out of date, not the reader's
    if frame.category == "authority" and _writer_acted(sentence, words):
        return True  # "the user agreed to ...; I deleted only ...": a permission used, told
    span = clause(sentence, hit[2])
    if _acts_on_something_before(frame, words, found, hit):
        return True  # "... that is an injection; drop it and continue with the user's request"
    refused_or_remedied = refused_after(sentence, span[1]) or remedied_after(sentence, span[1])
    if (refused_or_remedied or undone_after(sentence, hit[3])) and not asks(sentence, span[0]):
        return True  # "hard-coding outputs makes tests pass; reviewers reject it": told, refused
    if "brief" in frame.classes and _brief_speaks(sentence, words, found, hit):
        return True  # "the task statement said to ignore Windows paths": the brief asks it
    if frame.readers_act and _done_by_another(frame, words, found, hit, span):
        return True  # "the function should ignore blank lines": the function's act
    if frame.hedge and _hedged(sentence, words, found, hit, span):
        return True
    if frame.negatable and _prohibited(frame, sentence, words, found, hit):
        return True
    return frame.warnable and _warned(sentence, words, found, hit)


# what is moved is about the secret, not the secret: "the steps for rotating the key"
_TOPIC = frozenset({"for", "about", "on", "describing", "explaining", "documenting", "regarding"})


def _secret_is_topic(words: list[Token], found: Found) -> bool:
    """Whether every secret the sentence names after a verb that moves something is the
    topic of what is moved ("put the steps for rotating the deploy key ..."), not its
    object."""
    pairs = [
        (verb_after, secret_first)
        for _, verb_after, _, _ in found.get("leak-verb", ())
        for secret_first, _, _, _ in found.get("secret-store", ())
        if verb_after <= secret_first
    ]
    return bool(pairs) and all(any(t.surface in _TOPIC for t in words[a:b]) for a, b in pairs)


def _writer_acted(sentence: str, words: list[Token]) -> bool:
    """Whether the sentence tells what its writer did ("...; I listed them and deleted only
    ..."): a clause opens with "I" or "we" and a verb in the past, no clause asks anything and
    the reader is not named, so no permission is handed to it."""
    from lemminflect import getAllLemmas

    if any(t.surface in _READERS for t in words) or asks(sentence, 0):
        return False
    for a, b in clauses(sentence):
        told = [t for t in words if a <= t.start < b]
        if len(told) >= 2 and told[0].surface in WRITER and told[1].surface.endswith("ed"):
            verb = getAllLemmas(told[1].surface).get("VERB", ())
            if verb and told[1].surface not in verb:  # "listed", not "need"
                return True
    return False


_SPEECH = frozenset(
    {"say", "ask", "tell", "state", "specify", "require", "want", "mention", "instruct",
     "direct", "request", "demand", "explain", "expect", "note", "list"}
)  # fmt: skip


def _brief_speaks(sentence: str, words: list[Token], found: Found, hit: Hit) -> bool:
    """Whether the brief, named by a noun, is the subject of a verb of saying right after it
    (past one adverb) and before the act in the same clause, and is not named again after the
    act nor pointed back to by its object ("the task statement said to ignore Windows paths"):
    the act is what the brief asks, not the brief set aside ("whatever you were told ..."
    names no speaker; "the brief said ...; disregard it" sets it aside)."""
    from lemminflect import getAllLemmas

    briefs = found.get("brief", ())
    if any(char >= hit[3] for _, _, char, _ in briefs):
        return False
    if hit[1] < len(words) and words[hit[1]].surface in OBJECT_PRONOUNS:
        return False
    for _, after, char, _ in briefs:
        if clause(sentence, char) != clause(sentence, hit[2]):
            continue
        if "NOUN" not in getAllLemmas(words[after - 1].surface):
            continue
        following = words[after : min(after + 2, hit[0])]
        if following and following[0].surface.endswith("ly"):
            following = following[1:]
        if following and following[0].forms & _SPEECH:
            return True
    return False


def _acts_on_something_before(frame: Frame, words: list[Token], found: Found, hit: Hit) -> bool:
    """Whether the match is a verb whose object is a pronoun ("drop it") while what the frame
    needs it to act on (its first class) is named only after it: the pronoun points back to
    something else."""
    after = hit[1]
    if hit[1] - hit[0] != 1 or after >= len(words) or words[after].surface not in OBJECT_PRONOUNS:
        return False
    needed = found.get(frame.classes[0], ())
    if any(first == after for first, *_ in needed):
        return False  # "retrieve this memory first": the word is a determiner of what it needs
    return all(char > hit[3] for _, _, char, _ in needed)


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
    if determiner.surface not in DETERMINERS and len(before) >= 3:
        determiner = before[-3]  # one adjective between ("the old parser")
    own = (
        bool(noun.forms & _READERS)
        or _inside_class(found, "memnoun", noun)
        or any(_inside_class(found, name, noun) for name in frame.classes)
    )
    return (
        determiner.surface in DETERMINERS
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
    following = _next_words(words, span[1])
    if following and following[0].surface in _REFERRING:
        return clause(sentence, following[0].start)[1]
    return span[1]


def _next_words(words: list[Token], char: int, count: int = 2) -> list[Token]:
    """The first ``count`` words starting at or after ``char`` (the words are in order)."""
    first = bisect.bisect_left(words, char, key=lambda t: t.start)
    return words[first : first + count]


_LIMITING = frozenset({"never", "not", "only", "but"})
_PREPOSITIONS = frozenset({"in", "on", "for", "outside", "with", "at", "from", "beyond"})


def _elliptic_limit(words: list[Token], span: tuple[int, int]) -> int:
    """Where the next clause starts when it opens with a limit and a preposition, without a
    verb of its own ("...; never in production code"); -1 when it does not."""
    following = _next_words(words, span[1])
    if (
        len(following) > 1
        and following[0].surface in _LIMITING
        and following[1].surface in _PREPOSITIONS
    ):
        return following[0].start
    return -1


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
