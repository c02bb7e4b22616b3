"""Screening rules of the category "covering-tracks": erasing history or logs hides what a run did
from the people who review it."""

from __future__ import annotations

import re

from langgraph_mtl.hygiene.screening.rules.parts import SPAN, rule

__all__ = ["RULES"]

# the trail an attack would hide: shell history, logs, audit records; and an act done so that
# nobody, or the user not, sees it (the user seeing it is the opposite: "so the reviewer knows
# where it ran")
_TRACKS = (
    r"(?:\bHISTFILE\s*=\s*/dev/null|\bunset\s+HISTFILE\b|\bHISTSIZE\s*=\s*0\b|\bhistory\s+-c\b|"
    r"\bset\s+\+o\s+history\b|\b(?:rm|shred|truncate|wipe\w*|clear\w*|delet\w*|eras\w*)\b"
    rf"{SPAN}{{0,40}}?(?:\.bash_history|\.zsh_history|/var/log\b|audit (?:log|trail)s?|"
    r"\bjournalctl\b)|\b(?:leave|leaves|leaving) no (?:trace|traces|record|records|logs?)\b|"
    r"\b(?:logs?|history) (?:stay|stays|remain|remains) (?:clean|empty)\b|\bso (?:that )?"
    r"(?:(?:no ?one|nobody) (?:sees|notices|knows|finds out|can tell)|the (?:user|reviewers?|"
    r"operator|maintainers?) (?:(?:doesn't|does not|won't|will not|can't|cannot) (?:see|"
    r"notice|know|find out|tell)|(?:never )?(?:sees|notices|knows|finds out) nothing|never "
    r"(?:sees|notices|knows|finds out)))\b)"
)

RULES: list[tuple[str, re.Pattern[str]]] = [
    ("covering-tracks", rule(_TRACKS)),
]  # fmt: skip
