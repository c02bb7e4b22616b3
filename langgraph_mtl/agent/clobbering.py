"""Commands that would empty a file they read: ``cat add.py > add.py``, ``sed ... f > f``,
``sort f | uniq > f``. The shell truncates a ``>`` target before any command of the pipeline
reads it, so the file is lost; such a command is refused before it runs."""

from __future__ import annotations

import os
import shlex
from collections.abc import Callable

__all__: list[str] = []  # used within the agent package only

_SEPARATORS = {";", "&&", "||", "&", "\n", ";;", "(", ")"}
_TRUNCATING = {">", ">|", "&>"}
_NOT_READ = _TRUNCATING | {">>", "&>>", "<<", "<<<"}  # what follows these is not a file read
_OPERATORS = _NOT_READ | {"<", "|", "|&", ">&", "<&"}


def _tokens(command: str) -> list[str]:
    lexer = shlex.shlex(command, posix=True, punctuation_chars=";&|()<>")
    lexer.whitespace_split = True
    lexer.commenters = ""
    return list(lexer)


def _same(a: str, b: str) -> bool:
    return os.path.normpath(a) == os.path.normpath(b)


def clobbered_input(command: str, exists: Callable[[str], bool] = lambda _: True) -> str | None:
    """The file a pipeline of ``command`` both names as a word and truncates with ``>``, when
    ``exists`` says there is something to lose in it; else None. A command ``shlex`` cannot
    split is left to the shell."""
    try:
        tokens = _tokens(command)
    except ValueError:
        return None
    segment: list[str] = []
    for token in [*tokens, ";"]:
        if token not in _SEPARATORS:
            segment.append(token)
            continue
        targets = [
            segment[i + 1]
            for i, t in enumerate(segment[:-1])
            if t in _TRUNCATING and not segment[i + 1].startswith("&")
        ]
        # every word of the pipeline except what an output redirect or a here-document names
        readers = {
            t
            for i, t in enumerate(segment)
            if t not in _OPERATORS and (i == 0 or segment[i - 1] not in _NOT_READ)
        }
        for target in targets:
            if any(_same(target, word) for word in readers) and exists(target):
                return target
        segment = []
    return None
