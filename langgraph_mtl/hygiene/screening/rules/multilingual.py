"""Screening rules of the category "multilingual": the same override written in another language is
the same attack."""

from __future__ import annotations

import re

from langgraph_mtl.hygiene.screening.languages import FOREIGN_OVERRIDE, FOREIGN_ROLE
from langgraph_mtl.hygiene.screening.rules.parts import SPAN, rule

__all__ = ["RULES"]

RULES: list[tuple[str, re.Pattern[str]]] = [
    ("multilingual", rule("|".join(
        rf"(?:(?:{verb}){SPAN}{{0,40}}?(?:{noun})|(?:{noun}){SPAN}{{0,12}}?(?:{verb}))"
        for _, verb, noun in FOREIGN_OVERRIDE
    ) + "|" + FOREIGN_ROLE)),
]  # fmt: skip
