"""A rule is skipped on a text that holds none of the words any match of it must contain.

The words come from the rule's parsed pattern (:func:`required_words`): a run of literal
characters, or for an alternation one word from each branch. The check is exact for ASCII text
and ASCII words (a case-insensitive match of an ASCII word is the word in the lower-cased text);
a text with other characters, and a rule without such words, run the rule as before."""

from __future__ import annotations

import importlib
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


def _selectivity(words: Words) -> int:
    """How rarely a text holds one of ``words``: the shortest word's length, a word made only
    of common words (" of the ") counting as none."""
    return min(0 if set(w.lower().split()) <= _COMMON else len(w.strip()) for w in words)


def _sequence(items: Iterable[tuple[Any, Any]]) -> Words | None:
    """Words one of which every match of this sequence contains (the most selective found)."""
    c = importlib.import_module("re._constants")  # the parser's own opcodes

    best: Words | None = None
    run: list[str] = []

    def consider(words: Words | None) -> None:
        nonlocal best
        if not words or not all(w.isascii() and w for w in words):
            return
        if best is None or _selectivity(words) > _selectivity(best):
            best = frozenset(w.lower() for w in words)

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
            if all(branches):
                consider(frozenset().union(*branches))  # type: ignore[arg-type]
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT) and av[0] >= 1:
            consider(_sequence(av[2]))
    if run:
        consider(frozenset({"".join(run)}))
    return best


def required_words(pattern: re.Pattern[str]) -> Words | None:
    """Lower-cased ASCII words one of which any match of ``pattern`` contains, or ``None``
    when none are known (the rule then always runs)."""
    try:
        parsed = importlib.import_module("re._parser").parse(pattern.pattern, pattern.flags)
    except Exception:  # another Python's parser: no words, the rule always runs
        return None
    return _sequence(parsed)


class Prefilter:
    """Per rule, its required words; :meth:`candidates` lists the rules that can match a text."""

    def __init__(self, patterns: Iterable[re.Pattern[str]]) -> None:
        self.words = [required_words(pattern) for pattern in patterns]
        # every rule's words, each looked for once per text
        self._needles = tuple(sorted({w for words in self.words if words for w in words}))

    def candidates(self, text: str, lowered: str) -> Sequence[int]:
        """The indexes of the rules that can match ``text`` (``lowered``: it lower-cased), in
        order: every rule for text that is not ASCII, else those whose words it holds (and
        those without known words)."""
        if not text.isascii():
            return range(len(self.words))
        held = {word for word in self._needles if word in lowered}
        return [
            i for i, words in enumerate(self.words) if words is None or not words.isdisjoint(held)
        ]
