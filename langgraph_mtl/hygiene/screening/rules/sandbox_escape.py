"""Screening rules of the category "sandbox-escape": disabling or escaping the sandbox removes the
isolation every run relies on."""

from __future__ import annotations

import re

from langgraph_mtl.hygiene.screening.rules.parts import rule

__all__ = ["RULES"]

RULES: list[tuple[str, re.Pattern[str]]] = [
    ("sandbox-escape", rule(
        r"\b(?:disable|turn off|switch off|escape|bypass|break out of|get around|circumvent)\s+"
        r"(?:the |your |any |all )?(?:sandbox\w*|safety (?:checks?|filters?|rules)|guardrails?|"
        r"restrictions|content filters?|seccomp|bwrap|bubblewrap|screening)\b")),
]  # fmt: skip
