"""A check that checks nothing: running a Python file that only defines functions.

A small model's commonest check of a function it wrote is ``python solution.py``: the file
defines the function and calls nothing, so the run succeeds silently whatever the function
does, and the model submits. Told so, a small model still does not write a better check (it
runs the file again, or garbles a ``python -c`` line), so the check is run for it: the
examples in the file's docstrings through ``doctest``, else the calls with literal arguments
that the task and the file's docstrings show, each printed with what it returned and, where
the example says what it should return, whether it does (a wrong one fails the run).
"""

from __future__ import annotations

import ast
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

from langgraph_mtl.agent.outcomes import Answer
from langgraph_mtl.agent.tuning import TUNING

__all__: list[str] = []  # used within the agent package only

_PYTHON = re.compile(r"python(?:3(?:\.\d+)?)?")
_DEFINING = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_EXPECTS = re.compile(r"\s*(?:==|➞|=>|->|→|should return|returns?|gives)\s*")
_DELIMITER = "MTL_EXAMPLES_END"
IDLE = "NOTE: running {path} only defines its functions and calls none, so it checked nothing."
DOCTESTS = " Its docstring examples, run with `{python} -m doctest {path}` (no output: all pass):"
CALLS = " The calls in the task's examples, run (compare each result with what the task expects):"
NO_CALLS = " Call the task's function on its examples and compare with what they expect."
_SCRIPT = """import importlib, math, sys
sys.path.insert(0, '.')
names = vars(importlib.import_module({module!r}))
wrong = 0
for text, expected in {calls!r}:
    try:
        got = eval(text, dict(names))
    except Exception as error:
        wrong += 1
        print(text, 'raised', type(error).__name__ + ':', error)
        continue
    if expected is None:
        print(text, '->', repr(got))
        continue
    want = eval(expected)
    same = got == want or (
        isinstance(got, float) and isinstance(want, float) and math.isclose(got, want, abs_tol=0.01)
    )
    wrong += not same
    print(text, '->', repr(got) + (', as expected' if same else ', but the task expects ' + expected + ': WRONG'))
sys.exit(1 if wrong else 0)
"""


@dataclass(frozen=True)
class IdleCheck:
    """What to say after an idle run, and the command that checks instead (``""``: none)."""

    note: str
    command: str = ""


def idle_check(
    command: str, answer: Answer, workspace: str | Path, task: str = ""
) -> IdleCheck | None:
    """After ``python FILE.py`` ran silently (``answer``: exit code 0, no output) and FILE.py
    only defines things: the note and the check to run in its place; else None."""
    if answer.exit_code != 0 or answer.output.strip():
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


def example_calls(text: str, functions: set[str]) -> list[tuple[str, str | None]]:
    """Calls of ``functions`` with literal arguments found in ``text``, each with the literal
    the example says it returns (``f(3, 4, 5) == True``, ``f([1, 2]) ➞ 3``, ``f(5) returns
    [1, 5]``) or None, in order, without repeats, at most ``TUNING.max_calls``; calls on names (a
    signature ``def f(n)``) are left out."""
    found: list[tuple[str, str | None]] = []
    for match in re.finditer(r"(?<![\w.])(" + "|".join(map(re.escape, functions)) + r")\(", text):
        call = _balanced(text, match.start(), match.end() - 1)
        if not call or call in (c for c, _ in found) or not _literal_call(call):
            continue
        rest = text[match.start() + len(call) :].split("\n", 1)[0]
        said = _EXPECTS.match(rest)
        found.append((call, _literal_prefix(rest[said.end() :]) if said else None))
        if len(found) == TUNING.max_calls:
            break
    return found


def _literal_prefix(text: str) -> str | None:
    """The Python literal that ``text`` opens with, where only a comment or punctuation
    follows it (an example's expected value: ``[1, 5] # since ...``, ``True,``), as its
    canonical repr; else None (``19 - 5 - 6 = 8`` is arithmetic, not a value)."""
    cuts = [len(text), *(i for i, ch in enumerate(text) if ch in ",;#. ")]
    for cut in sorted(set(cuts), reverse=True):
        rest = text[cut:].strip()
        if rest and rest[0] not in "#,;.)":
            continue
        try:
            return repr(ast.literal_eval(text[:cut].strip()))
        except (SyntaxError, ValueError, TypeError, MemoryError, RecursionError):
            continue
    return None


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
