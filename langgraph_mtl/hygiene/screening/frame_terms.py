"""The frame catalogue (``frames.toml``) and what its classes' terms match in a sentence.

A term is a run of words read in their base forms: ``"=word"`` as written, ``"word_"`` a
prefix, ``"@class"`` any one-word term of a class, ``"..."`` up to three words between. A
term of one or two plain words is also found however the text splits or joins it
("smokescreen", "smoke screen", "smoke-screen"; "hard-code", "hardcoded"). A class may also
list regular expressions (``forms``); a group named ``at`` marks the words a form stands on
(a contrast or a prohibition before them disarms it)."""

from __future__ import annotations

import functools
import re
import tomllib
from collections import defaultdict
from dataclasses import dataclass
from importlib import resources

from langgraph_mtl.hygiene.screening.prefilter import Prefilter
from langgraph_mtl.hygiene.screening.sentence_reading import (
    Token,
    joins_clauses,
    tokens,
    used_as_noun,
)

__all__ = ["Found", "Frame", "frames", "read", "settings_as_code"]

_GAP = 3  # words a "..." in a term may stand for
# a compound read from two words only when each has this many letters ("in put" is no "input")
_COMPOUND_PART = 3
_ENDINGS = ("", "s", "es", "d", "ed", "ing")

Term = tuple[str, ...]
# class -> its matches: (first token, token after the last, first character, end character)
Found = dict[str, list[tuple[int, int, int, int]]]


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
    readers_act: bool = False

    @property
    def category(self) -> str:
        return self.id.split("/")[0]


@dataclass(frozen=True)
class _Catalogue:
    frames: tuple[Frame, ...]
    # first word -> (class, term); terms starting with a prefix ("word_") are kept apart
    by_first: dict[str, tuple[tuple[str, Term], ...]]
    prefixed: tuple[tuple[str, Term], ...]
    forms: dict[str, tuple[re.Pattern[str], ...]]
    words: dict[str, frozenset[str]]  # class -> its one-word terms, for "@class" in a term
    # a plain term of one or two words, without spaces or hyphens -> the classes listing it
    compact: dict[str, tuple[str, ...]]
    verbs: frozenset[str]  # the classes of verbs: none matches a word used as a noun


_FLAG = re.compile(r"--([a-z][a-z-]*)(?:\\b)?")


def _flags_as_settings(forms: list[str]) -> list[str]:
    """A switch given as a flag (``--privileged``) also given as a setting
    (``privileged=true``, as :func:`settings_as_code` writes ``privileged: true``); a flag
    that turns something off (``--no-...``) is left as it is."""
    return [
        rf"\b{re.escape(m.group(1))}\s*=\s*(?:true|yes|on|1)\b"
        for form in forms
        if (m := _FLAG.fullmatch(form)) and not m.group(1).startswith("no")
    ]


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
            entry.get("readers-act", False),
        )
        for frame_id, entry in raw["frame"].items()
    ]
    for name, entry in raw["weakness"].items():
        classes[f"weakness:{name}"] = entry["terms"]
        forms[f"weakness:{name}"] = tuple(
            re.compile(p) for p in (*entry["forms"], *_flags_as_settings(entry["forms"]))
        )
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
    compact: dict[str, list[str]] = defaultdict(list)
    for name, terms in classes.items():
        for text in terms:
            term = tuple(text.lower().split())
            if len(term) <= 2 and all(w.replace("-", "").isalpha() for w in term):
                compact["".join(term).replace("-", "")].append(name)
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
        {k: tuple(v) for k, v in compact.items()},
        frozenset(raw["verbs"]),
    )


def frames() -> tuple[Frame, ...]:
    """Every frame, in the catalogue's order."""
    return _catalogue().frames


def _word_matches(spec: str, token: Token) -> bool:
    if spec.startswith("@"):
        return bool(token.forms & _catalogue().words[spec[1:]])
    if spec.startswith("="):
        return token.surface == spec[1:] or token.surface.endswith("-" + spec[1:])
    if spec.endswith("_"):
        return token.surface.startswith(spec)
    return spec in token.forms


def _match_from(term: Term, sentence: str, words: list[Token], at: int) -> int | None:
    """Where ``term`` starting at token ``at`` ends (the index after it), or ``None``: a term
    spans no end of a clause ("... printed to logs; the credentials file ..." is two claims)."""
    index, gap = at, 0
    for spec in term:
        if spec == "...":
            gap = _GAP
            continue
        for skip in range(gap + 1):
            if index + skip >= len(words):
                return None
            if _word_matches(spec, words[index + skip]):
                # what lies before the word must not end a clause (read only for a word that
                # matches: once an end lies behind, it lies behind every later word too)
                if index > at and joins_clauses(
                    sentence[words[index - 1].start : words[index + skip].start]
                ):
                    return None  # the term would run into the next clause
                index += skip + 1
                break
        else:
            return None
        gap = 0
    return index


def _compounds(words: list[Token]) -> list[tuple[int, int, str]]:
    """Each hyphenated word and each pair of neighbouring words written together, without
    hyphens (first token, token after the last, the joined letters): how a compound term is
    looked up."""
    out = []
    for at, token in enumerate(words):
        one = token.surface.replace("-", "")
        if one.isalpha():
            if one != token.surface:
                out.append((at, at + 1, one))
            after = words[at + 1].surface.replace("-", "") if at + 1 < len(words) else ""
            if min(len(one), len(after)) >= _COMPOUND_PART and after.isalpha():
                out.append((at, at + 2, one + after))
    return out


def _compound_terms(words: list[Token]) -> list[tuple[str, int, int]]:
    """Terms found written as one word or as two words other than the catalogue's own way."""
    compact = _catalogue().compact
    found = []
    for first, end, joined in _compounds(words):
        for ending in _ENDINGS:
            if ending and not joined.endswith(ending):
                continue
            stem = joined[: len(joined) - len(ending)] if ending else joined
            for name in compact.get(stem, ()) + compact.get(stem + "e", ()):
                found.append((name, first, end))
    return found


def _noun_for_verb(name: str, words: list[Token], first: int, end: int) -> bool:
    """Whether a one-word match of a class of verbs is a noun where it stands."""
    return end == first + 1 and name in _catalogue().verbs and used_as_noun(words, first)


@functools.cache
def _plain_words(term: Term) -> frozenset[str]:
    """The words of ``term`` matched by their base forms alone: a sentence without one of them
    holds no match of it."""
    return frozenset(
        s for s in term if s != "..." and not s.startswith(("@", "=")) and s[-1] != "_"
    )


def _found(sentence: str, words: list[Token]) -> Found:
    catalogue = _catalogue()
    found: Found = defaultdict(list)
    held = frozenset().union(*(token.forms for token in words))
    for at, token in enumerate(words):
        candidates = [c for form in token.forms for c in catalogue.by_first.get(form, ())]
        for name, term in (*candidates, *catalogue.prefixed):
            if not _plain_words(term) <= held:
                continue
            end = _match_from(term, sentence, words, at)
            if end is not None and not _noun_for_verb(name, words, at, end):
                found[name].append((at, end, token.start, words[end - 1].end))
    starts = {(name, hit[0]) for name, hits in found.items() for hit in hits}
    for name, first, end in _compound_terms(words):
        if (name, first) not in starts and not _noun_for_verb(name, words, first, end):
            starts.add((name, first))
            found[name].append((first, end, words[first].start, words[end - 1].end))
    lowered = sentence.lower()
    views = dict.fromkeys((lowered, settings_as_code(lowered)))
    forms, prefilter = _forms()
    chances = [(view, frozenset(prefilter.candidates(view, view))) for view in views]
    for index in sorted(frozenset().union(*(can for _, can in chances))):
        name, pattern = forms[index]
        matches = {
            m.span(): m for view, can in chances if index in can for m in pattern.finditer(view)
        }
        for match in matches.values():
            if joins_clauses(match.group(0)):
                continue  # "md5 is fine for cache keys, but hash passwords ...": two claims
            # a form's group "at" marks the words it stands on, for what disarms it
            start, end = match.span("at") if "at" in pattern.groupindex else match.span()
            first = sum(t.end <= start for t in words)
            found[name].append((first, first + 1, start, end))
    return found


@functools.cache
def _forms() -> tuple[tuple[tuple[str, re.Pattern[str]], ...], Prefilter]:
    """Every class's forms in the catalogue's order, and a prefilter over them."""
    forms = tuple((name, p) for name, patterns in _catalogue().forms.items() for p in patterns)
    return forms, Prefilter(pattern for _, pattern in forms)


# a setting told in prose, read as the code it stands for, in as many characters (so what a
# form finds keeps its place): "verify_signature turned off" as "verify_signature=false",
# "set access-control-allow-origin to *" as "access-control-allow-origin= *"
_SWITCHED_OFF = re.compile(
    r"(?<=[\w-])[^\S\n]+(?:is[^\S\n]+|was[^\S\n]+)?(?:turned|switched|set)[^\S\n]+"
    r"(?:off|to[^\S\n]+(?:false|0|off|none))\b"
)
_SET_TO = re.compile(r"\bset[^\S\n]+([\w.-]+)[^\S\n]+to[^\S\n]+(?=\S)")


# a setting written as YAML or JSON ("privileged: true", '"verify": false'), read as
# "key=value": its quotes as spaces and its colon as "="; only before a setting's kind of value
# (a switch, a number, a wildcard, an empty or a list), so that a heading ("Insight: the ...")
# leaves the sentence as it is and its forms are read once
_KEY_VALUE = re.compile(
    r"""(?<![\w/])["']?[a-z_][\w.-]*["']?[^\S\n]*:(?=[^\S\n]*["']?(?:(?:true|false|yes|no|on|"""
    r"""off|none|null|disabled|enabled|all|host)\b|\d|\*|/dev/null|["'\[{]))"""
)


def settings_as_code(lowered: str) -> str:
    """``lowered`` with its settings told in prose, or written as YAML or JSON, written as
    code, in as many characters."""
    text = _SWITCHED_OFF.sub(lambda m: "=false".ljust(len(m.group(0))), lowered)
    text = _SET_TO.sub(
        lambda m: " " * 4 + m.group(1) + "=".ljust(len(m.group(0)) - 4 - len(m.group(1))), text
    )
    return _KEY_VALUE.sub(lambda m: m.group(0).replace('"', " ").replace("'", " ")[:-1] + "=", text)


@functools.lru_cache(maxsize=1024)
def read(sentence: str) -> tuple[list[Token], Found]:
    """A sentence's tokens and what every class matches in it (read once: the frames and
    each rule match the sentence holds ask again). Callers only read them."""
    words = tokens(sentence)
    return words, _found(sentence, words)
