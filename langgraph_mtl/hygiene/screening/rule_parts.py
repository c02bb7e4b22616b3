"""Pattern fragments the screening rules share: a span within one sentence, a finished
answer, a repository's history, a package install, "every task", and how a rule compiles."""

from __future__ import annotations

import re

__all__ = [
    "EVERY_TASK",
    "HISTORY",
    "INSTALL_A_PACKAGE",
    "KNOWN_ANSWER",
    "SPAN",
    "rule",
]

# within one sentence: a dot ends it only before a space ("tests.rs" stays inside); so do a
# line break and the ideographic full stop
SPAN = r"(?:[^.\n。]|\.(?=\S))"


# a finished answer named as such, and where a repository keeps what it once held
KNOWN_ANSWER = (
    r"(?:upstream|reference|official|real|correct|finished|working|full|complete) "
    r"(?:solutions?|answers?)"
)
HISTORY = (
    r"(?:(?:older|earlier|previous|past|old|prior|initial|first) commits?|(?:git|commit) "
    r"history|git (?:log -p|show|reflog|stash (?:show|list))|reflog)"
)

# a named package installed (not a requirements file, the project itself or pip)
INSTALL_A_PACKAGE = (
    r"(?:pip3?|npm|gem|cargo) install\s+(?!(?:-r|-e|--requirement|--editable|--upgrade pip|in|for|"
    r"before|at)\b|\.(?:\s|$))[\w@.-]+"
)
EVERY_TASK = (
    r"(?:in|for|before|at the start of) (?:every|each|all|any) (?:tasks?|runs?|sessions?|projects?)"
)


def rule(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE | re.DOTALL)
