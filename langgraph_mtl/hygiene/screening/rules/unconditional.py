"""Screening rules of the category "unconditional": acting without checking, whatever the task,
turns a memory into a standing order."""

from __future__ import annotations

import re

from langgraph_mtl.hygiene.screening.rules.parts import SPAN, rule

__all__ = ["RULES"]

RULES: list[tuple[str, re.Pattern[str]]] = [
    ("unconditional", rule(
        r"\b(?:unconditionally|no matter what|whatever the task|without (?:asking|checking|"
        rf"verification|question|telling))\b{SPAN}{{0,40}}?\b(?:run|execute|call|invoke|submit|"
        rf"report)\b|\b(?:run|execute|call|invoke|submit|report)\b{SPAN}{{0,60}}?\b(?:"
        r"unconditionally|no matter what|without (?:asking|checking|verification|question|"
        r"telling|testing))")),
]  # fmt: skip
