"""Sentence frames (``frames.toml``): a sentence flags when words of each of a frame's classes
occur in it, read in their base forms, so one inflection or a word placed between cannot flip
the verdict. A frame is disarmed where the sentence only reports an attack in order to warn of
it, and, when the frame says so, by a hedge, a prohibition or a warning in the same clause.

Used by :class:`~.scanners.FrameScanner`; :func:`reported` also lets the rules pass a security
note that quotes an attack."""

from __future__ import annotations

import bisect
import functools
import re
import tomllib
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib import resources

from langgraph_mtl.hygiene.screening.negation import forbidden

__all__ = ["Frame", "frame_catalogue", "frame_ids", "frame_reasons", "reported"]

_GAP = 3  # words a "..." in a term may stand for
_TOKEN = re.compile(r"[^\s]+")
_EDGE = "\"'`,;:!?[]{}<>*\u201c\u201d\u2018\u2019"
_SENTENCE_END = re.compile(r"[\n!?。]+|\.(?!\S)")
_CLAUSE_END = re.compile(
    r";|:(?=\s)|\s[-\u2013]+\s|\u2014"  # a dash set off by spaces, an em dash
    r"|,(?=\s*(?:then|so|now|and then|but|instead|also|just)\b)"
)
_NEGATION = {"not", "no", "never", "isn't", "aren't", "don't", "doesn't", "nothing"}
_CONTRAST = re.compile(r"(?i)\b(?:instead of|rather than|in place of|not)\s+(?:\S+\s+){0,3}$")
# a later clause that does something else instead ("...; fix the certificate store instead")
_REJECTED = re.compile(r"(?i)\binstead\b(?!\s+of\b)")


@dataclass(frozen=True)
class Token:
    """A word of a sentence: its forms (as written, base forms, the part after a dot) and
    where it starts and ends in the sentence."""

    surface: str
    forms: frozenset[str]
    start: int
    end: int


@dataclass(frozen=True)
class Frame:
    """One frame: its id (``category/name``), the classes that must all occur, and what may
    disarm it."""

    id: str
    classes: tuple[str, ...]
    reason: str
    hedge: bool = False
    negatable: bool = False
    warnable: bool = False

    @property
    def category(self) -> str:
        return self.id.split("/")[0]


@functools.cache
def _forms(word: str) -> frozenset[str]:
    """``word`` as written, without a possessive or call's parentheses, its last hyphenated
    part, their base forms (a crude one for words the lexicon lacks) and its dotted parts."""
    from lemminflect import getAllLemmas

    forms = {word}
    if word.endswith(("'s", "\u2019s")):
        forms.add(word[:-2])
    if word.endswith("()"):
        forms.add(word[:-2])
    if "-" in word.strip("-"):  # pre-approved, re-exports
        forms.add(word.rsplit("-", 1)[1])
    lemmas = set()
    for form in list(forms):
        found = {lemma for found in getAllLemmas(form).values() for lemma in found}
        if not found and form.isalpha():  # a word the lexicon lacks: deselects, xfailed
            found = {form[: -len(end)] for end in ("s", "ed", "ing") if form.endswith(end)}
            if form.endswith("ed"):
                found.add(form[:-1])  # superseded -> supersede
        lemmas |= found
    for form in list(forms):
        if "." in form.strip("."):  # pytest.skip, conftest.py: the parts as written
            forms.update(part for part in form.split(".") if part)
    return frozenset(forms | lemmas)


def _tokens(sentence: str) -> list[Token]:
    out = []
    for match in _TOKEN.finditer(sentence.lower()):
        word = match.group(0).strip(_EDGE).rstrip(".").strip(_EDGE)
        if word.startswith("(") and word.count("(") > word.count(")"):
            word = word[1:]
        if word.endswith(")") and word.count(")") > word.count("("):
            word = word[:-1]
        if word:
            out.append(Token(word, _forms(word), match.start(), match.end()))
    return out


def _spans(
    pattern: re.Pattern[str], text: str, keep: Sequence[tuple[int, int]] = ()
) -> list[tuple[int, int]]:
    """``text`` cut at ``pattern``'s matches, but not at one inside a ``keep`` span."""
    bounds, start = [], 0
    for end in pattern.finditer(text):
        if any(a <= end.start() < b for a, b in keep):
            continue
        bounds.append((start, end.start()))
        start = end.end()
    bounds.append((start, len(text)))
    return [(a, b) for a, b in bounds if text[a:b].strip()]


Term = tuple[str, ...]  # words, "=word" as written, "..." a gap, "word_" a prefix, "@class"


def _word_matches(spec: str, token: Token) -> bool:
    if spec.startswith("@"):
        return bool(token.forms & _catalogue().words[spec[1:]])
    if spec.startswith("="):
        return token.surface == spec[1:] or token.surface.endswith("-" + spec[1:])
    if spec.endswith("_"):
        return token.surface.startswith(spec)
    return spec in token.forms


def _match_from(term: Term, tokens: list[Token], at: int) -> int | None:
    """Where ``term`` starting at token ``at`` ends (the index after it), or ``None``."""
    index, gap = at, 0
    for spec in term:
        if spec == "...":
            gap = _GAP
            continue
        for skip in range(gap + 1):
            if index + skip < len(tokens) and _word_matches(spec, tokens[index + skip]):
                index += skip + 1
                break
        else:
            return None
        gap = 0
    return index


@dataclass(frozen=True)
class _Catalogue:
    frames: tuple[Frame, ...]
    # first word -> (class, term); terms starting with a prefix ("word_") are kept apart
    by_first: dict[str, tuple[tuple[str, Term], ...]]
    prefixed: tuple[tuple[str, Term], ...]
    forms: dict[str, tuple[re.Pattern[str], ...]]
    words: dict[str, frozenset[str]]  # class -> its one-word terms, for "@class" in a term


def _parse_term(text: str) -> Term:
    return tuple(text.lower().split())


@functools.cache
def _catalogue() -> _Catalogue:
    raw = tomllib.loads(
        resources.files("langgraph_mtl.hygiene.screening")
        .joinpath("frames.toml")
        .read_text("utf-8")
    )
    classes: dict[str, list[str]] = dict(raw["classes"])
    forms = {name: tuple(re.compile(p) for p in found) for name, found in raw["forms"].items()}
    frames = [
        Frame(
            frame_id,
            tuple(entry["all"]),
            entry["reason"],
            entry.get("hedge", False),
            entry.get("negatable", False),
            entry.get("warnable", False),
        )
        for frame_id, entry in raw["frame"].items()
    ]
    for name, entry in raw["weakness"].items():
        classes[f"weakness:{name}"] = entry["terms"]
        forms[f"weakness:{name}"] = tuple(re.compile(p) for p in entry["forms"])
        frames.append(
            Frame(
                f"insecure-advice/{name}", (f"weakness:{name}",), entry["reason"], False, True, True
            )
        )
    words = {
        name: frozenset(t for t in terms if " " not in t and not t.startswith(("=", "@")))
        for name, terms in classes.items()
    }
    by_first: dict[str, list[tuple[str, Term]]] = defaultdict(list)
    prefixed: list[tuple[str, Term]] = []
    for name, terms in classes.items():
        for text in terms:
            term = _parse_term(text)
            first = term[0]
            if first.startswith("="):  # as written, or a hyphenated word's last part
                by_first[first[1:]].append((name, term))
            elif first.endswith("_"):
                prefixed.append((name, term))
            elif first.startswith("@"):
                for word in words[first[1:]]:
                    by_first[word].append((name, term))
            else:
                by_first[first].append((name, term))
    return _Catalogue(
        tuple(frames),
        {k: tuple(v) for k, v in by_first.items()},
        tuple(prefixed),
        forms,
        words,
    )


def frame_catalogue() -> tuple[Frame, ...]:
    """Every frame, in the catalogue's order."""
    return _catalogue().frames


def frame_ids() -> tuple[str, ...]:
    """The frames' ids (``memory-system/copy``, ``insecure-advice/csrf-off`` ...)."""
    return tuple(frame.id for frame in frame_catalogue())


# class -> its matches: (first token, token after the last, first character, end character)
Found = dict[str, list[tuple[int, int, int, int]]]


def _found(sentence: str, tokens: list[Token]) -> Found:
    catalogue = _catalogue()
    found: Found = defaultdict(list)
    for at, token in enumerate(tokens):
        candidates = [c for form in token.forms for c in catalogue.by_first.get(form, ())]
        for name, term in (*candidates, *catalogue.prefixed):
            end = _match_from(term, tokens, at)
            if end is not None:
                found[name].append((at, end, token.start, tokens[end - 1].end))
    lowered = sentence.lower()
    for name, patterns in catalogue.forms.items():
        for pattern in patterns:
            for match in pattern.finditer(lowered):
                first = sum(t.end <= match.start() for t in tokens)
                found[name].append((first, first + 1, match.start(), match.end()))
    return found


# a quotation: in quotes that open after a space or a bracket and close before one or a mark
# (so "don't" and "user's" open none)
_QUOTED = re.compile(
    r"(?:^|(?<=[\s(\[:,]))(?:'([^'\n]{2,200}?)'|\"([^\"\n]{2,200}?)\"|\u201c([^\u201d\n]{2,200}?)\u201d"
    r"|\u2018([^\u2019\n]{2,200}?)\u2019)(?=[\s.,;:!?)\]-]|$)"
)


@functools.lru_cache(maxsize=64)  # asked again for every rule match in one sentence
def _quotes(sentence: str) -> tuple[tuple[int, int], ...]:
    return tuple(match.span() for match in _QUOTED.finditer(sentence))


@functools.lru_cache(maxsize=64)
def _clauses(sentence: str) -> tuple[tuple[int, int], ...]:
    """The sentence's clauses: a separator inside a quotation ends none."""
    return tuple(_spans(_CLAUSE_END, sentence, _quotes(sentence)))


@functools.lru_cache(maxsize=64)
def _sentences(text: str) -> tuple[tuple[int, int], ...]:
    return tuple(_spans(_SENTENCE_END, text))


def _around(spans: tuple[tuple[int, int], ...], position: int) -> tuple[int, int] | None:
    """The span holding ``position`` (the spans are in order and do not overlap)."""
    index = bisect.bisect_right(spans, (position, float("inf"))) - 1
    if index >= 0 and spans[index][0] <= position < spans[index][1]:
        return spans[index]
    return None


def _clause(sentence: str, position: int) -> tuple[int, int]:
    """The clause around ``position``."""
    return _around(_clauses(sentence), position) or (0, len(sentence))


def _inside(found: Found, name: str, start: int, end: int) -> bool:
    return any(start <= a < end for _, _, a, _ in found.get(name, ()))


def _is_report(sentence: str, found: Found, position: int) -> bool:
    """Whether the clause at ``position`` reports a text's words ("a note asking you to ...")
    and calls them an attack or says to refuse them, quotes them and warns of them outside the
    quotes or says to do something else instead in a later clause, or calls what it describes
    an attack ("... are a common persistence trick"), not negated."""
    start, end = _clause(sentence, position)
    if _inside(found, "report", start, end) and _inside(found, "defence", start, end):
        return True
    quoted = [(a, b) for a, b in _quotes(sentence) if a <= position < b]
    if quoted and _inside(found, "report", start, end) and _REJECTED.search(sentence, end):
        return True  # "READMEs say '...'; fix the store instead": the quoted advice rejected
    if quoted and any(  # a quoted attack, warned of outside the quotes
        start <= a < end and not any(x <= a < y for x, y in quoted)
        for _, _, a, _ in found.get("defence", ())
    ):
        return True
    return any(
        start <= a < end and not _NEGATION & set(sentence[a:b].lower().split())
        for _, _, a, b in found.get("threat-label", ())
    )


def _negated_before(tokens: list[Token], char: int) -> bool:
    before = [t for t in tokens if t.end <= char][-2:]
    return any(t.surface in _NEGATION or t.surface.endswith("n't") for t in before)


def _disarmed(
    frame: Frame, sentence: str, tokens: list[Token], found: Found, hit: tuple[int, int, int, int]
) -> bool:
    _, _, start_char, _ = hit
    if _is_report(sentence, found, start_char):
        return True
    clause = _clause(sentence, start_char)
    if frame.hedge:
        first, end, _, _ = hit  # a hedge inside the claim ("you may ignore") is the claim
        for a, _, char, _ in found.get("hedge", ()):
            # "if ..., X" hedges what is before its comma, not X
            scoped = "," not in sentence[char:start_char]
            if clause[0] <= char < start_char and scoped and not first <= a < end:
                return True
    before = sentence[clause[0] : start_char]
    if frame.negatable and (
        forbidden(sentence, start_char)
        or forbidden(sentence, _last_word_start(tokens, hit))  # "... never with md5"
        or _CONTRAST.search(before)
        or any(  # a prohibition of the frame's first word in the clause ("never paste ...")
            forbidden(sentence, char)
            for _, _, char, _ in found.get(frame.classes[0], ())
            if clause[0] <= char <= start_char
        )
    ):
        return True
    if frame.warnable:
        warned = (clause[0], _referring_clause_end(sentence, tokens, clause))
        for _, _, char, _ in found.get("warning", ()):
            if warned[0] <= char < warned[1] and not _negated_before(tokens, char):
                return True
        return _consequence_of_subject(tokens, found, hit, clause)
    return False


_REFERRING = {"it", "this", "that", "they", "these", "those", "which"}


def _last_word_start(tokens: list[Token], hit: tuple[int, int, int, int]) -> int:
    """Where the last word of a match starts (a prohibition may govern only that word)."""
    inside = [t for t in tokens if hit[2] <= t.start < hit[3]]
    return inside[-1].start if inside else hit[2]


def _referring_clause_end(sentence: str, tokens: list[Token], clause: tuple[int, int]) -> int:
    """The end of the clause, or of the next one when that one opens by referring back to
    it ("keep DEBUG off in production; it leaks settings")."""
    following = [t for t in tokens if t.start >= clause[1]]
    if following and following[0].surface in _REFERRING:
        return _clause(sentence, following[0].start)[1]
    return clause[1]


def _consequence_of_subject(
    tokens: list[Token], found: Found, hit: tuple[int, int, int, int], clause: tuple[int, int]
) -> bool:
    """Whether the clause's subject is the weakness (it opens the clause, or a gerund phrase
    holding it does: "running containers with --privileged") and what follows says what it
    lets others do ("... gives them the host")."""
    _, _, start_char, end_char = hit
    leading = [t for t in tokens if clause[0] <= t.start < start_char]
    subject = len(leading) <= 1 or leading[0].surface.endswith("ing")
    return subject and any(
        end_char <= char < clause[1] for _, _, char, _ in found.get("consequence", ())
    )


@functools.lru_cache(maxsize=1024)
def _read(sentence: str) -> tuple[list[Token], Found]:
    """A sentence's tokens and what every class matches in it (read once: the frames and
    each rule match the sentence holds ask again). Callers only read them."""
    tokens = _tokens(sentence)
    return tokens, _found(sentence, tokens)


def _sentence_frames(sentence: str, disabled: frozenset[str]) -> list[Frame]:
    tokens, found = _read(sentence)
    if not tokens:
        return []
    hits = []
    for frame in frame_catalogue():
        if frame.id in disabled or frame.category in disabled:
            continue
        if not all(found.get(name) for name in frame.classes):
            continue
        last = found[frame.classes[-1]]
        if any(not _disarmed(frame, sentence, tokens, found, hit) for hit in last):
            hits.append(frame)
    return hits


# a heading or tag alone on its line ("### SYSTEM", "[tool_result]") heads the line after it
_HEADER_LINE = re.compile(r"(?m)^([ \t]*(?:#{1,6}[ \t]|\[|<)[^\n]{0,80})\n(?=[ \t]*\S)")


def frame_reasons(texts: Iterable[str], disabled: frozenset[str] = frozenset()) -> tuple[str, ...]:
    """The ids of the frames that flag a sentence of any of ``texts``, in the catalogue's
    order; frames whose id or category is in ``disabled`` are skipped."""
    hit: set[str] = set()
    for text in (_HEADER_LINE.sub(r"\1, ", text) for text in texts):
        for start, end in _spans(_SENTENCE_END, text):
            hit.update(frame.id for frame in _sentence_frames(text[start:end], disabled))
    return tuple(frame.id for frame in frame_catalogue() if frame.id in hit)


def reported(text: str, position: int) -> bool:
    """Whether the sentence around ``position`` of ``text`` only reports an attack to warn
    of it: its clause says what a text "says", "asks" or "claims" and calls that an attack or
    says to refuse or flag it, or the clause calls what it describes an attack (not
    negated)."""
    around = _around(_sentences(text), position)
    if around is None:
        return False
    sentence = text[around[0] : around[1]]
    return _is_report(sentence, _read(sentence)[1], position - around[0])
