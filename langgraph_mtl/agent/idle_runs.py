"""A check that checks nothing: running a Python file that only defines functions.

A small model's commonest check of a function it wrote is ``python solution.py``: the file
defines the function and calls nothing, so the run succeeds silently whatever the function
does, and the model submits. This says so and names a run that does check: the examples in
the file's docstrings (``python -m doctest -v``), or a call of the task's function.
"""

from __future__ import annotations

import ast
import re
import shlex
from pathlib import Path

__all__ = ["idle_run_hint"]

_SILENT = re.compile(r"\A\[exit code 0\]\s*\(no output\)\s*\Z")
_PYTHON = re.compile(r"python(?:3(?:\.\d+)?)?")
_DEFINING = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
IDLE = "NOTE: running {path} only defines its functions and calls none, so it checked nothing."
DOCTEST = " Run the examples in its docstrings: `python -m doctest -v {path}`."
CALL = (
    " Call the function on the task's examples and compare with what they expect: "
    '`python -c "from {module} import {name}; print({name}(...))"`.'
)


def idle_run_hint(command: str, observation: str, workspace: str | Path, task: str = "") -> str:
    """After ``python FILE.py`` ran silently and FILE.py only defines things, a note saying
    the run checked nothing and what to run instead; else nothing."""
    if not _SILENT.match(observation.strip()):
        return ""
    try:
        words = shlex.split(command)
    except ValueError:
        return ""
    if len(words) != 2 or not _PYTHON.fullmatch(words[0]) or not words[1].endswith(".py"):
        return ""
    path = words[1].removeprefix("./")
    target = Path(workspace) / path
    try:
        text = target.read_text(encoding="utf-8")
        tree = ast.parse(text)
    except (OSError, UnicodeDecodeError, SyntaxError, ValueError):
        return ""
    functions = [n.name for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    if not functions or not all(_only_defines(node) for node in tree.body):
        return ""
    note = IDLE.format(path=path)
    if ">>>" in text:
        return f"\n{note}{DOCTEST.format(path=path)}"
    if "/" in path:
        return f"\n{note}"
    named = [f for f in functions if not f.startswith("_") and re.search(rf"\b{f}\b", task)]
    name = (named or [f for f in functions if not f.startswith("_")] or functions)[0]
    return f"\n{note}{CALL.format(module=Path(path).stem, name=name)}"


def _only_defines(node: ast.stmt) -> bool:
    """Whether a top-level statement only defines (imports, definitions, constants, a
    docstring), so running the module does nothing visible."""
    if isinstance(node, _DEFINING):
        return True
    if isinstance(node, ast.Expr):
        return isinstance(node.value, ast.Constant)
    if isinstance(node, ast.Assign | ast.AnnAssign):
        return node.value is None or not any(isinstance(n, ast.Call) for n in ast.walk(node.value))
    return False
