"""Screening rules of the category "persistence": start-up files, hooks and scheduled jobs make one
run's change act on every later one."""

from __future__ import annotations

import re

from langgraph_mtl.hygiene.screening.rules.parts import EGRESS, FETCH, RUN, SPAN, near, rule

__all__ = ["RULES"]

# points where code runs later or elsewhere: start-up files, hooks, schedulers, preloads
STARTUP_HOOKS = (
    r"(?:\bPYTHONSTARTUP\b|\bsitecustomize(?:\.py)?\b|\busercustomize(?:\.py)?\b|"
    r"\bsite-packages/[\w.-]{0,100}\.pth\b|"
    r"\bLD_PRELOAD\b|\bBASH_ENV\b|\bPROMPT_COMMAND\b|\.bashrc\b|\.bash_profile\b|\.zshrc\b|"
    r"\.profile\b|\bcrontab\b|/etc/cron|\bcron\.d\b|(?<![/\w.-])systemd\b(?![/.\w-])|\.git/hooks\b|\bgit hooks?\b|"
    r"\brc\.local\b|/etc/profile\b|\bauthorized_keys\b|/etc/sudoers\b|\bNOPASSWD\b|"
    r"\b(?:pre|post)-(?:commit|push|merge|checkout|receive|rewrite|applypatch) hooks?\b|"
    r"\.config/autostart\b|\bLaunchAgents\b|\bLaunchDaemons\b|/etc/init\.d\b|\.pip/pip\.conf\b|"
    r"\bpip\.conf\b|\.pydistutils\.cfg\b)"
)

# verbs that plant or change something where it will run
_PLANT = (
    r"(?:\b(?:add|adds|adding|added|append\w*|insert\w*|writ(?:e|es|ing)|wrote|written|put|"
    r"puts|install\w*|creat\w*|drop\w*|place\w*|set|sets|setting|export\w*|register\w*|edit\w*|"
    r"modif\w*|chmod\w*|chown\w*|echo\w*|schedul\w*)\b|>>)"
)

# Python's own start-up files, and code put there to run before anything else
_PY_STARTUP = r"\b(?:sitecustomize|usercustomize)(?:\.py)?\b|\.pth files?\b|\bPYTHONSTARTUP\b"

_PUT_CODE = (
    rf"\b(?:put|place|plant|hide|drop|stash|insert|register)\b{SPAN}{{0,15}}?\b(?:your|the|a|"
    rf"an|our|any|some)\b{SPAN}{{0,15}}?\b(?:hooks?|patch\w*|code|payload|overrides?|"
    r"monkey-?patch\w*|shims?|wrappers?)\b"
)

RULES: list[tuple[str, re.Pattern[str]]] = [
    ("persistence", rule(near(STARTUP_HOOKS, FETCH + "|" + EGRESS + "|" + RUN))),
    ("persistence", rule(near(_PLANT, r"\bauthorized_keys\b|/etc/sudoers\b|\bNOPASSWD\b"))),
    ("persistence", rule(near(_PY_STARTUP, _PUT_CODE))),
    ("persistence", rule(r"\bPATH=['\"]?(?:/tmp|/dev/shm|/var/tmp|\.)(?:/[^\s:'\"]*)?:")),
]  # fmt: skip
