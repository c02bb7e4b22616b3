"""Screening a text: every rule over every view of it (as written, normalised, digits read as
letters, decoded where it shows an encoding, glossed into English where it is in another
language), and a classifier's opinion when no rule matched but the text is undecided."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from langgraph_mtl.hygiene.gloss import gloss
from langgraph_mtl.hygiene.screening.classifier import Classifier
from langgraph_mtl.hygiene.screening.negation import forbidden
from langgraph_mtl.hygiene.screening.rules import GATES, NEGATABLE, RULES, UNDECIDED
from langgraph_mtl.hygiene.screening.text import LEET, normalise
from langgraph_mtl.hygiene.views import decoded_views

__all__ = ["Screening", "screen"]


@dataclass(frozen=True)
class Screening:
    """What screening found: the rule names that matched (empty when clean)."""

    reasons: tuple[str, ...] = ()

    @property
    def flagged(self) -> bool:
        return bool(self.reasons)


def _matches(text: str) -> set[str]:
    found = set()
    lowered = text.lower()
    for name, pattern in RULES:
        gate = GATES.get(name)
        if gate is not None and not gate.search(lowered):
            continue
        for match in pattern.finditer(text):
            if name in NEGATABLE and forbidden(text, match.start()):
                continue  # "never run rm -rf /" is advice
            found.add(name)
            break
    return found


def screen(*texts: str, classifier: Classifier | None = None) -> Screening:
    """Screen texts for attempts to instruct the reading agent. When no rule matches but the
    text is undecided (it mentions the agent, instructions or secrets, or uses another script),
    ``classifier`` (see :func:`model_classifier`) is asked; ``True`` flags it as ``model``."""
    joined = "\n".join(texts)
    plain = normalise(joined)
    found: set[str] = set()
    decoded = [normalise(view) for view in decoded_views(joined)]
    as_written = unicodedata.normalize("NFKC", joined)  # Cyrillic words before lookalike mapping
    glossed = [g for view in (as_written, plain, *decoded) if (g := gloss(view)) is not None]
    views = (joined, plain, plain.translate(LEET), *decoded, *glossed)
    for view in dict.fromkeys(views):  # distinct views only
        found |= _matches(view)
    reasons = tuple(name for name in dict.fromkeys(n for n, _ in RULES) if name in found)
    undecided = not reasons and classifier is not None and UNDECIDED.search(plain)
    if undecided and classifier is not None and classifier(plain[:4000]):
        reasons = ("model",)
    return Screening(reasons)
