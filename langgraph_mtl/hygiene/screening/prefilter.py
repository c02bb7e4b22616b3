"""A rule is skipped on a text that holds none of the words any match of it must contain.

The words come from the rule's parsed pattern (:func:`required_words`): a run of literal
characters, or for an alternation one word from each branch. The check is exact for ASCII text
and ASCII words (a case-insensitive match of an ASCII word is the word in the lower-cased text).
A word with a character that matches no ASCII character, even case-insensitively (``ö``, Greek
letters, but not the long s or the Kelvin sign), cannot occur in ASCII text: a branch that needs
one is dropped, and a rule all of whose branches need one never runs on ASCII text. A text
with other characters, and a rule without such words, run the rule as before."""

from __future__ import annotations

import functools
import importlib
import math
import re
from collections.abc import Iterable, Sequence
from typing import Any

__all__ = ["Prefilter", "required_words"]

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


def _sequence(items: Iterable[tuple[Any, Any]]) -> Words | None:
    """Words one of which every match of this sequence contains (the most selective found)."""
    c = importlib.import_module("re._constants")  # the parser's own opcodes

    best: Words | None = None
    run: list[str] = []

    def consider(words: Words | None) -> None:
        nonlocal best
        if words is None or not all(words):
            return
        possible = _possible(words) if words else words
        if possible is None:
            return
        if best is None or _selectivity(possible) > _selectivity(best):
            best = frozenset(w.lower() for w in possible)

    for op, av in items:
        if op is c.LITERAL:
            run.append(chr(av))
            continue
        if run:
            consider(frozenset({"".join(run)}))
            run = []
        if op is c.SUBPATTERN:
            consider(_sequence(av[-1]))
        elif op is c.ATOMIC_GROUP:
            consider(_sequence(av))
        elif op is c.BRANCH:
            branches = [_sequence(branch) for branch in av[1]]
            if all(branch is not None for branch in branches):
                consider(frozenset().union(*branches))  # type: ignore[arg-type]
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT) and av[0] >= 1:
            consider(_sequence(av[2]))
    if run:
        consider(frozenset({"".join(run)}))
    return best


def required_words(pattern: re.Pattern[str]) -> Words | None:
    """Lower-cased ASCII words one of which any match of ``pattern`` in ASCII text contains
    (none: it never matches ASCII text), or ``None`` when none are known (the rule then always
    runs)."""
    try:
        parsed = importlib.import_module("re._parser").parse(pattern.pattern, pattern.flags)
    except Exception:  # another Python's parser: no words, the rule always runs
        return None
    return _sequence(parsed)


class Prefilter:
    """Per rule, its required words; :meth:`candidates` lists the rules that can match a text.
    Every rule's words are found in one pass over the text (an Aho-Corasick automaton)."""

    def __init__(self, patterns: Iterable[re.Pattern[str]]) -> None:
        import ahocorasick

        self.words = [required_words(pattern) for pattern in patterns]
        self._always = [i for i, words in enumerate(self.words) if words is None]
        rules_of: dict[str, list[int]] = {}
        for index, words in enumerate(self.words):
            for word in words or ():
                rules_of.setdefault(word, []).append(index)
        self._automaton = ahocorasick.Automaton()
        for word, indexes in rules_of.items():
            self._automaton.add_word(word, indexes)
        if rules_of:
            self._automaton.make_automaton()

    def candidates(self, text: str, lowered: str) -> Sequence[int]:
        """The indexes of the rules that can match ``text`` (``lowered``: it lower-cased), in
        order: every rule for text that is not ASCII, else those whose words it holds (and
        those without known words)."""
        if not text.isascii():
            return range(len(self.words))
        found = set(self._always)
        if len(self._automaton):
            for _, indexes in self._automaton.iter(lowered):
                found.update(indexes)
        return sorted(found)
