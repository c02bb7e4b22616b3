"""Placeholders a model writes instead of code it did not copy (``# ... rest of the code``,
``// existing logic here``): a change that brings one in would delete that code, so it is
refused with the line, and the model asked for the code itself."""

from __future__ import annotations

import re

__all__: list[str] = []  # used within the agent package only

_COMMENT = re.compile(r"^\s*(?:#|//|/\*|--)\s*(?P<said>.*?)\s*(?:\*/)?\s*$")
_ELLIPSIS = re.compile(r"^(?:\.{3}|…)|(?:\.{3}|…)$")
_OMITTED = re.compile(
    r"\b(?:rest|remainder) of (?:the |this |your )?(?:code|file|function|method|class|"
    r"implementation|body|logic)\b"
    r"|\b(?:existing|original|previous|remaining|other)\b.*"
    r"\b(?:here|unchanged|as before|omitted|remains?|stays?)\W*$",
    re.IGNORECASE,
)


def placeholder_line(before: str, after: str) -> str | None:
    """The first comment line in ``after`` that stands for code left out (an ellipsis, "rest
    of the code", "existing logic here") and that ``before`` does not hold; None if none."""
    held = {line.strip() for line in before.splitlines()}
    for line in after.splitlines():
        mark = _COMMENT.match(line)
        if not mark or line.strip() in held:
            continue
        said = mark.group("said")
        if _ELLIPSIS.search(said) or _OMITTED.search(said):
            return line.strip()
    return None
