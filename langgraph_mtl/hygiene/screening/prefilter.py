"""A rule is skipped on a text that lacks words every match of it must contain.

The words come from the rule's parsed pattern (:func:`alternatives`): one way per branch of its
first alternation, each a few groups of words, every match holding a word of each group of one
way. A group is a run of literal characters, or for a further alternation one word from each
branch; the most selective group of a way is always checked, and up to two more of rare words.
The check is exact for ASCII text and ASCII words (a case-insensitive match of an ASCII word
is the word in the lower-cased text). A word with a character that matches no ASCII character,
even case-insensitively (``ö``, Greek letters, but not the long s or the Kelvin sign), cannot
occur in ASCII text: a branch that needs one is dropped, and a rule all of whose branches need
one never runs on ASCII text. A text with other characters, and a rule without such words, run
the rule as before. The frames' forms use the same prefilter."""

from __future__ import annotations

import functools
import importlib
import math
import re
from collections.abc import Iterable, Sequence
from typing import Any

__all__ = ["Prefilter", "alternatives", "required_words"]

Words = frozenset[str]


# words found in nearly every English text: a rule that needs one of them is as good as one
# that needs none, so a rarer word of the same rule is chosen when there is one
# fmt: off
_COMMON = frozenset({
    "a", "an", "and", "any", "all", "are", "as", "at", "be", "by", "for", "from", "in", "into",
    "is", "it", "its", "of", "on", "or", "out", "that", "the", "this", "to", "with", "you",
    "your", "ai",
})
# fmt: on
_RARE = 3  # a group past the best is checked when its shortest word has this many letters
_MORE_GROUPS = 2  # and at most this many such groups
_MAX_WAYS = 64  # a pattern's alternation split into at most this many ways


def _selectivity(words: Words) -> float:
    """How rarely a text holds one of ``words``: the shortest word's length, a word made only
    of common words (" of the ") counting as none; no words at all (never in ASCII text) is
    the rarest."""
    if not words:
        return math.inf
    return min(0 if set(w.lower().split()) <= _COMMON else len(w.strip()) for w in words)


@functools.cache
def _in_ascii(char: str) -> bool:
    """Whether ``char`` matches some ASCII character, case-insensitively (the long s matches s)."""
    literal = re.compile(re.escape(char), re.IGNORECASE)
    return char.isascii() or any(literal.fullmatch(chr(code)) for code in range(128))


def _possible(words: Words) -> Words | None:
    """``words`` without those that cannot occur in ASCII text, or ``None`` when one of them
    is not ASCII but may match ASCII text (nothing is then known)."""
    kept = set()
    for word in words:
        if not all(map(_in_ascii, word)):
            continue  # a character no ASCII text matches: never there
        if not word.isascii():
            return None
        kept.add(word)
    return frozenset(kept)


def _groups(items: Iterable[tuple[Any, Any]]) -> list[Words]:
    """Groups of words such that every match of this sequence contains a word of each group;
    an empty group: no match in ASCII text."""
    c = importlib.import_module("re._constants")  # the parser's own opcodes

    groups: list[Words] = []
    run: list[str] = []

    def consider(words: Words | None) -> None:
        if words is None or not all(words):
            return
        possible = _possible(words) if words else words
        if possible is not None:
            groups.append(frozenset(w.lower() for w in possible))

    for op, av in items:
        if op is c.LITERAL:
            run.append(chr(av))
            continue
        if run:
            consider(frozenset({"".join(run)}))
            run = []
        if op is c.SUBPATTERN:
            groups.extend(_groups(av[-1]))
        elif op is c.ATOMIC_GROUP:
            groups.extend(_groups(av))
        elif op is c.BRANCH:
            branches = [_best(_groups(branch)) for branch in av[1]]
            if all(branch is not None for branch in branches):
                consider(frozenset().union(*branches))  # type: ignore[arg-type]
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT) and av[0] >= 1:
            groups.extend(_groups(av[2]))
    if run:
        consider(frozenset({"".join(run)}))
    return groups


def _best(groups: Sequence[Words]) -> Words | None:
    """The most selective of ``groups`` (the first of equals), or ``None`` when there are none."""
    return max(groups, key=_selectivity, default=None)


def _parse(pattern: re.Pattern[str]) -> Any:
    try:
        return importlib.import_module("re._parser").parse(pattern.pattern, pattern.flags)
    except Exception:  # another Python's parser: no words, the rule always runs
        return None


def required_words(pattern: re.Pattern[str]) -> Words | None:
    """Lower-cased ASCII words one of which any match of ``pattern`` in ASCII text contains
    (none: it never matches ASCII text), or ``None`` when none are known (the rule then always
    runs)."""
    parsed = _parse(pattern)
    return None if parsed is None else _best(_groups(parsed))


Alternative = tuple[Words, ...]  # groups of words: a match holds a word of each


def _chosen(groups: list[Words]) -> Alternative | None:
    """The most selective group, then up to ``_MORE_GROUPS`` more not made of common words."""
    best = _best(groups)
    if best is None:
        return None
    rare = sorted(
        dict.fromkeys(g for g in groups if g != best and _selectivity(g) >= _RARE),
        key=_selectivity,
        reverse=True,
    )
    return (best, *rare[:_MORE_GROUPS])


def _ways(items: Any) -> list[list[Words]]:
    """The groups of each way through ``items``: its first alternation (in a group or not)
    split into one way per branch, with the groups before and after it; at most
    ``_MAX_WAYS``, else one way."""
    c = importlib.import_module("re._constants")
    for index, (op, av) in enumerate(items):
        if op is c.BRANCH:
            inner = [way for branch in av[1] for way in _ways(branch)]
        elif op is c.SUBPATTERN:
            inner = _ways(av[-1])
            if len(inner) == 1:
                continue
        else:
            continue
        before, after = _groups(items[:index]), _groups(items[index + 1 :])
        if len(inner) > _MAX_WAYS:
            break
        return [before + way + after for way in inner]
    return [_groups(items)]


def alternatives(pattern: re.Pattern[str]) -> tuple[Alternative, ...] | None:
    """Ways a match of ``pattern`` in ASCII text can hold words, one per branch of its first
    alternation: each match holds a word of every group of one of them (none: it never
    matches ASCII text). ``None`` when a way has no known words (the rule always runs)."""
    parsed = _parse(pattern)
    if parsed is None:
        return None
    found = []
    for groups in _ways(parsed):
        chosen = _chosen(groups)
        if chosen is None:
            return None
        if all(chosen):  # a group no ASCII text holds: this branch never matches it
            found.append(chosen)
    return tuple(dict.fromkeys(found))


class Prefilter:
    """Per rule, its :func:`alternatives`; :meth:`candidates` lists the rules that can match a
    text (a word of each group of one alternative found in it). Every rule's words are found
    in one pass over the text (an Aho-Corasick automaton)."""

    def __init__(self, patterns: Iterable[re.Pattern[str]]) -> None:
        import ahocorasick

        self.alternatives = [alternatives(pattern) for pattern in patterns]
        self._always = [i for i, ways in enumerate(self.alternatives) if ways is None]
        # word -> (rule, alternative, group) for every group holding it
        places: dict[str, list[tuple[int, int, int]]] = {}
        for index, ways in enumerate(self.alternatives):
            for way, groups in enumerate(ways or ()):
                for place, words in enumerate(groups):
                    for word in words:
                        places.setdefault(word, []).append((index, way, place))
        self._automaton = ahocorasick.Automaton()
        for word, found in places.items():
            self._automaton.add_word(word, found)
        if places:
            self._automaton.make_automaton()

    def candidates(self, text: str, lowered: str) -> Sequence[int]:
        """The indexes of the rules that can match ``text`` (``lowered``: it lower-cased), in
        order: every rule for text that is not ASCII, else those with a word of each group of
        one of their alternatives in it (and those without known words)."""
        if not text.isascii():
            return range(len(self.alternatives))
        held: set[tuple[int, int, int]] = set()
        if len(self._automaton):
            for _, found in self._automaton.iter(lowered):
                held.update(found)
        met: dict[tuple[int, int], int] = {}
        for index, way, _ in held:
            met[index, way] = met.get((index, way), 0) + 1
        ways = self.alternatives
        chosen = {i for (i, w), count in met.items() if count == len(ways[i][w])}  # type: ignore[index]
        return sorted([*self._always, *chosen])
