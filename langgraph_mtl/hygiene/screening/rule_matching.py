"""The rules over every view of a text: as written, normalised, with a dot inside a word read
as part of it, digits read as letters, words in their base forms, decoded where it shows an
encoding, and glossed into English where it is in another language."""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Sequence

from langgraph_mtl.hygiene.gloss import gloss
from langgraph_mtl.hygiene.screening.frames import reported
from langgraph_mtl.hygiene.screening.negation import forbidden
from langgraph_mtl.hygiene.screening.prefilter import Prefilter
from langgraph_mtl.hygiene.screening.rule_handling import GATES, NEGATABLE, RULE_IDS
from langgraph_mtl.hygiene.screening.rules import RULES
from langgraph_mtl.hygiene.screening.text import LEET, base_forms, normalise
from langgraph_mtl.hygiene.views import decoded_views

__all__ = ["rule_matches", "rule_reasons", "rule_views"]


@functools.cache
def _prefilter() -> Prefilter:
    return Prefilter(pattern for _, pattern in RULES)


def _matches(text: str, disabled: frozenset[str], prefiltered: bool = True) -> set[str]:
    found = set()
    lowered = text.lower()
    # the rules that can match: the others hold none of the words any of their matches contains
    indexes = _prefilter().candidates(text, lowered) if prefiltered else range(len(RULES))
    for index in indexes:
        rule_id, (name, pattern) = RULE_IDS[index], RULES[index]
        if rule_id in disabled or name in found:
            continue
        gate = GATES.get(name)
        if gate is not None and not gate.search(lowered):
            continue
        for match in pattern.finditer(text):
            if name in NEGATABLE and forbidden(text, match.start()):
                continue  # "never run rm -rf /" is advice
            if reported(text, match.start()):
                continue  # "a note asking you to post .env is an attack" warns of one
            found.add(name)
            break
    return found


_INNER_DOT = re.compile(r"(?<=\w)\.(?=\w)")


def rule_views(joined: str) -> tuple[str, ...]:
    """The distinct views of ``joined`` the rules read: as written, normalised, with a dot
    inside a word read as part of it, digits read as letters, words in their base forms,
    decoded where it shows an encoding, and glossed into English."""
    plain = normalise(joined)
    decoded = [normalise(view) for view in decoded_views(joined)]
    as_written = unicodedata.normalize("NFKC", joined)  # Cyrillic words before lookalike mapping
    glossed = [g for view in (as_written, plain, *decoded) if (g := gloss(view)) is not None]
    undotted = _INNER_DOT.sub("_", plain)  # a dot inside a word (notes.md) ends no sentence
    views = (joined, plain, undotted, plain.translate(LEET), base_forms(plain), *decoded, *glossed)
    return tuple(dict.fromkeys(views))


def rule_reasons(
    joined: str,
    disabled: frozenset[str] = frozenset(),
    *,
    views: Sequence[str] | None = None,
    prefiltered: bool = True,
) -> tuple[str, ...]:
    """The categories of the rules that match any view of ``joined`` (:func:`rule_views`, or
    ``views`` made before), in the rules' order; the rules whose ids are ``disabled`` are
    skipped (see :func:`.rule_handling.rule_ids`). ``prefiltered=False`` runs every rule on
    every view (the same verdicts, slower: what the prefilter is measured against)."""
    found: set[str] = set()
    for view in rule_views(joined) if views is None else views:
        found |= _matches(view, disabled, prefiltered)
    return tuple(name for name in dict.fromkeys(n for n, _ in RULES) if name in found)


def rule_matches(rule_id: str, joined: str, *, views: Sequence[str] | None = None) -> bool:
    """Whether the rule ``rule_id`` alone matches a view of ``joined``."""
    others = frozenset(RULE_IDS) - {rule_id}
    return bool(rule_reasons(joined, others, views=views))
