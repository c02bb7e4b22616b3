"""A file shown to the model: fenced and labelled with its language.

An unlabelled fence is not a neutral choice. Shown ``solution.py`` in a bare ```` ``` ```` fence
and asked for its complete content, Qwen2.5-Coder-1.5B answers ``obj['solution']`` for about
half of HumanEval's tasks; labelled ```` ```python ````, it writes the function. The label comes
from the file's name (Pygments' lexer registry), and the fence is longer than any run of
backticks in the text, so a file that holds fences itself cannot close it early.
"""

from __future__ import annotations

import functools
import re

from pygments.lexers import find_lexer_class_for_filename

__all__: list[str] = []  # used within the agent package only

_TICKS = re.compile(r"`{3,}")


@functools.lru_cache(maxsize=256)
def language_of(path: str) -> str:
    """The fence label for a file name (``"python"`` for ``solution.py``), or ``""`` if the
    name says nothing (``Makefile`` does, ``notes`` does not)."""
    name = path.replace("\\", "/").rsplit("/", 1)[-1]
    lexer = find_lexer_class_for_filename(name) if name else None
    return lexer.aliases[0] if lexer is not None and lexer.aliases else ""


def fence_file(path: str, text: str) -> str:
    """``text`` in a Markdown code fence labelled with ``path``'s language."""
    longest = max((len(run) for run in _TICKS.findall(text)), default=0)
    ticks = "`" * max(3, longest + 1)
    body = text if text.endswith("\n") else text + "\n"
    return f"{ticks}{language_of(path)}\n{body}{ticks}"
