"""A check that checks nothing: running a Python file that only defines functions.

A small model's commonest check of a function it wrote is ``python solution.py``: the file
defines the function and calls nothing, so the run succeeds silently whatever the function
does, and the model submits. Told so, a small model still does not write a better check (it
runs the file again, or garbles a ``python -c`` line), so the check is run for it: the
examples in the file's docstrings through ``doctest``, else the calls with literal arguments
that the task and the file's docstrings show, each printed with what it returned.
"""

from __future__ import annotations

import ast
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

__all__ = ["IdleCheck", "idle_check"]

_SILENT = re.compile(r"\A\[exit code 0\]\s*\(no output\)\s*\Z")
_PYTHON = re.compile(r"python(?:3(?:\.\d+)?)?")
_DEFINING = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
MAX_CALLS = 8
_DELIMITER = "MTL_EXAMPLES_END"
IDLE = "NOTE: running {path} only defines its functions and calls none, so it checked nothing."
DOCTESTS = " Its docstring examples, run with `{python} -m doctest {path}` (no output: all pass):"
CALLS = " The calls in the task's examples, run (compare each result with what the task expects):"
NO_CALLS = " Call the task's function on its examples and compare with what they expect."
_SCRIPT = """import importlib, sys
sys.path.insert(0, '.')
names = vars(importlib.import_module({module!r}))
for text in {calls!r}:
    try:
        print(text, '->', repr(eval(text, dict(names))))
    except Exception as error:
        print(text, '->', type(error).__name__ + ':', error)
"""


@dataclass(frozen=True)
class IdleCheck:
    """What to say after an idle run, and the command that checks instead (``""``: none)."""

    note: str
    command: str = ""


def idle_check(
    command: str, observation: str, workspace: str | Path, task: str = ""
) -> IdleCheck | None:
    """After ``python FILE.py`` ran silently and FILE.py only defines things: the note and
    the check to run in its place; else None."""
    if not _SILENT.match(observation.strip()):
        return None
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    if len(words) != 2 or not _PYTHON.fullmatch(words[0]) or not words[1].endswith(".py"):
        return None
    python, path = words[0], words[1].removeprefix("./")
    try:
        text = (Path(workspace) / path).read_text(encoding="utf-8")
        tree = ast.parse(text)
    except (OSError, UnicodeDecodeError, SyntaxError, ValueError):
        return None
    functions = {n.name for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}
    if not functions or not all(_only_defines(node) for node in tree.body):
        return None
    note = IDLE.format(path=path)
    if ">>>" in text:
        doctest = f"{python} -m doctest {shlex.quote(path)}"
        return IdleCheck(note + DOCTESTS.format(python=python, path=path), doctest)
    calls = example_calls(f"{task}\n{text}", functions)
    if not calls or "/" in path:
        return IdleCheck(note + NO_CALLS)
    script = _SCRIPT.format(module=Path(path).stem, calls=calls)
    return IdleCheck(note + CALLS, f"{python} - <<'{_DELIMITER}'\n{script}{_DELIMITER}")


def example_calls(text: str, functions: set[str]) -> list[str]:
    """Calls of ``functions`` with literal arguments found in ``text`` (examples such as
    ``f(3, 4, 5) == True`` or ``f([1, 2]) ➞ 3``), in order, without repeats, at most
    ``MAX_CALLS``; calls on names (a signature ``def f(n)``) are left out."""
    found: list[str] = []
    for match in re.finditer(r"(?<![\w.])(" + "|".join(map(re.escape, functions)) + r")\(", text):
        call = _balanced(text, match.start(), match.end() - 1)
        if call and call not in found and _literal_call(call):
            found.append(call)
        if len(found) == MAX_CALLS:
            break
    return found


def _balanced(text: str, start: int, opening: int) -> str:
    depth = 0
    for index in range(opening, min(len(text), opening + 300)):
        depth += {"(": 1, ")": -1}.get(text[index], 0)
        if depth == 0:
            return text[start : index + 1]
    return ""


def _literal_call(call: str) -> bool:
    try:
        node = ast.parse(call, mode="eval").body
        if not isinstance(node, ast.Call) or node.keywords:
            return False
        for argument in node.args:
            ast.literal_eval(argument)
    except (SyntaxError, ValueError, TypeError, MemoryError, RecursionError):
        return False
    return True


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
