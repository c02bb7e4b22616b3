"""Screening rules of the category "role-change": a memory that gives the agent a new identity or
mode tries to lift its instructions."""

from __future__ import annotations

import re

from langgraph_mtl.hygiene.screening.rules.parts import rule

__all__ = ["RULES"]

RULES: list[tuple[str, re.Pattern[str]]] = [
    ("role-change", rule(
        r"\b(?:you are now (?:an?|the|my|in|acting|no|DAN)\b|you'?re now (?:an?|the|my)\b|"
        r"from now on,? you (?:are|will|must|act|obey|follow)|you are no longer|act as (?:an? )?"
        r"(?:unrestricted|jailbroken|root|admin)|new (?:system )?instructions?\s*:|developer mode|"
        r"(?-i:\bDAN\b)|jailbr(?:oken|eak)|pretend (?:to be|you are) (?:the )?(?:system|admin|root)|"
        r"switch roles|enter (?:god|admin|debug) mode)")),
    ("role-change", rule(r"\bnew (?:system )?instructions? (?:follow|below|are as follows)\b")),
    ("role-change", rule(
        r"(?<!if )(?<!If )(?<!when )\byou are (?:now )?(?:the |an? )?(?:admin\w*|root|owner|"
        r"superuser|maintainer|operator|system)\b(?! of\b)")),
    # a role without limits, or rules declared not to apply
    ("role-change", rule(
        r"\b(?:act|behave|respond|operate|answer|work)\w* (?:as|like) (?:an? |the )?(?:"
        r"unrestricted|unfiltered|uncensored|jailbroken|unaligned)\b|\b(?:(?:now|on|for you|this (?:"
        r"session|chat|task)),? anything goes|anything goes (?:now|for you|here|from now)|no rules "
        r"apply|(?:the )?rules (?:do not|don'?t) apply)\b(?! (?:to|for|in|on|when|if|inside|under) )")),
]  # fmt: skip
