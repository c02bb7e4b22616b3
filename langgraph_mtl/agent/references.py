"""Where an output points: the files and line numbers that a traceback (``File "a.py", line
3``), a compiler or test runner (``a.py:3``) or a search hit names, in the order it names them.
The briefing resolves them to the workspace's files; an edit follows those of its own file."""

from __future__ import annotations

import re

__all__: list[str] = []  # used within the agent package only

_REFERENCE = re.compile(r"(?<![\w./-])(/?(?:[\w.-]+/)*[\w.-]+\.\w+)(?:\", line |:)(\d+)")


def file_lines(text: str) -> list[tuple[str, int]]:
    """Each (file name as written, line) that ``text`` names, in order."""
    return [(match[1], int(match[2])) for match in _REFERENCE.finditer(text)]


def lines_of(path: str, text: str) -> list[int]:
    """The lines ``text`` names in ``path``, written as it is or under a folder (an absolute
    path in a traceback), in order; never a longer name ending the same way."""
    return [line for name, line in file_lines(text) if name == path or name.endswith(f"/{path}")]
