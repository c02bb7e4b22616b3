"""Pattern fragments more than one category's rules use: a span within one sentence, a way off
the machine, getting code and running it, two phrases near each other, and how a rule
compiles. A fragment one category uses lives in that category's module."""

from __future__ import annotations

import re

__all__ = [
    "EGRESS",
    "EGRESS_PATTERN",
    "FETCH",
    "RUN",
    "SPAN",
    "near",
    "rule",
]

# within one sentence: a dot ends it only before a space ("tests.rs" stays inside); so do a
# line break and the ideographic full stop
SPAN = r"(?:[^.\n。]|\.(?=\S))"


# a way off the machine: a remote address or a tool that talks to one
EGRESS = (
    r"(?:https?://(?!(?:localhost|127\.0\.0\.1|\[::1\])\b)|\bftp://|\bwebhooks?\b|\bpastebin\b|"
    r"\bpaste (?:site|service|bin)\b|\b(?:nc|ncat|netcat|socat|telnet)\s+[\w.-]+\s+\d{2,5}\b|"
    r"\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b(?<!127\.0\.0\.1)|\bs3://|\bscp\b|\brsync\b|"
    r"\b[\w.+-]{1,64}@[\w-]{1,63}\.[a-z]{2,}\b)"
)

# getting code from elsewhere and running it
FETCH = r"\b(?:download\w*|fetch\w*|pull\w*|retriev\w*|curl|wget|requests\.get|urlopen)\b"

RUN = (
    r"(?:\b(?:exec|execs|eval|evals)\b|\b(?:exec|eval)\(|\bexecut\w* (?:it|them|that|the (?:file|"
    r"script|payload|code|result))\b|\b(?:runs?|source|sources|import|imports) (?:it|them|that|"
    r"the (?:downloaded|fetched|remote) \w+)\b|\|\s*(?:sudo\s+)?(?:ba|z)?sh\b|\|\s*python3?\b)"
)


def near(first: str, second: str, reach: int = 80) -> str:
    """``first`` and ``second`` in one sentence, in either order."""
    return (
        rf"(?:{first}){SPAN}{{0,{reach}}}?(?:{second})|(?:{second}){SPAN}{{0,{reach}}}?"
        rf"(?:{first})"
    )


def rule(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE | re.DOTALL)


EGRESS_PATTERN = rule(EGRESS)  # a way off the machine, on its own
