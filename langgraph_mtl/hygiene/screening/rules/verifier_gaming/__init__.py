"""Screening rules of the category "verifier-gaming": a pass earned by fooling the check
teaches cheating, not coding. One module per way of fooling it; the rules' ids follow the
order below (``verifier-gaming/1`` is the first rule of :mod:`.tests_bent`)."""

from __future__ import annotations

import re

from langgraph_mtl.hygiene.screening.rules.verifier_gaming import (
    answers_copied,
    checker_exploited,
    run_faked,
    tests_bent,
)

__all__ = ["RULES"]

RULES: list[tuple[str, re.Pattern[str]]] = [
    *tests_bent.RULES,
    *run_faked.RULES,
    *answers_copied.RULES,
    *checker_exploited.RULES,
]
