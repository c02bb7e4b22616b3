"""The screening rules, one module per category: each rule a category and a pattern over one
view of the text. A rule's id is its category and its place in that module's list
(``override/1``); how the rules are applied is :mod:`..rule_handling`, why each category
exists and what it must let through is ``catalogue.toml``."""

from __future__ import annotations

import re

from langgraph_mtl.hygiene.screening.rules import (
    addressed_to_agent,
    authority,
    covering_tracks,
    destructive,
    exfiltration,
    fake_markup,
    multilingual,
    override,
    persistence,
    prompt_leak,
    remote_exec,
    role_change,
    sandbox_escape,
    unconditional,
    verifier_gaming,
)
from langgraph_mtl.hygiene.screening.rules.verb_number import either_number

__all__ = ["CATEGORIES", "RULES"]

# in the order the verdict gives its reasons
CATEGORIES = (
    override,
    multilingual,
    role_change,
    fake_markup,
    addressed_to_agent,
    prompt_leak,
    exfiltration,
    remote_exec,
    unconditional,
    authority,
    verifier_gaming,
    sandbox_escape,
    destructive,
    persistence,
    covering_tracks,
)

# each rule reads its verbs and nouns in either number (see :mod:`.verb_number`)
RULES: list[tuple[str, re.Pattern[str]]] = [
    (name, either_number(pattern)) for module in CATEGORIES for name, pattern in module.RULES
]
