"""What the agent is shown before its first action: the workspace's files (short ones whole),
an outline of each long file the task is about, the lines a traceback or a file reference in
the task points to (or, when it points only at tests, the project's functions the task names),
so it need not spend steps finding them and never sees only the first N characters of a long
file."""

from __future__ import annotations

import ast
import re
from collections.abc import Collection
from pathlib import Path

from langgraph_mtl.agent.fences import fence_file
from langgraph_mtl.agent.references import file_lines
from langgraph_mtl.agent.text_files import read_text
from langgraph_mtl.agent.tuning import TUNING
from langgraph_mtl.agent.workspace import (
    Definition,
    definitions,
    is_own,
    is_test_file,
    leads,
    numbered,
    outline,
    own_files,
)

__all__: list[str] = []  # used within the agent package only

_NAME = re.compile(r"[A-Za-z_]\w{3,}")


def referenced_lines(task: str, workspace: str | Path, *, skip_tests: bool = True) -> str:
    """The lines around each ``file:line`` (or ``File "...", line N``) the task names that is a
    file of the workspace, numbered; the project's own files first, tests left out when asked."""
    root = Path(workspace)
    seen = _references(task, root)
    order = sorted(seen, key=is_test_file)
    parts: list[str] = []
    for name in order:
        if skip_tests and is_test_file(name) and len(order) > 1:
            continue
        text = read_text(root / name) or ""
        for line in sorted(seen[name])[: TUNING.max_ranges]:
            start, end = max(line - TUNING.context_lines, 1), line + TUNING.context_lines
            parts.append(f"{name}, lines {start}-{end}:\n{numbered(text, start, end)}")
        if len(parts) >= TUNING.max_ranges:
            break
    return "\n\n".join(parts[: TUNING.max_ranges])


def named_definitions(task: str, workspace: str | Path, *, skip: Collection[str] = ()) -> str:
    """The project's functions and classes (tests and the files in ``skip``, shown already,
    aside) whose names the task shows, numbered, the last named first: where a failing test's
    call leads when its output points only at the test. Nothing when the task already points
    at lines of the project's code, or names more than a few of its functions."""
    parts = []
    for name, node, text in _named(task, Path(workspace), skip)[: TUNING.max_definitions]:
        end = min(node.end_lineno or node.lineno, node.lineno + TUNING.definition_lines - 1)
        shown = numbered(text, node.lineno, end)
        parts.append(f"{name}, lines {node.lineno}-{end} ({node.name}):\n{shown}")
    return "\n\n".join(parts)


def named_file(task: str, workspace: str | Path) -> str | None:
    """The project file that holds the function or class :func:`named_definitions` shows
    first (the one the task names last), or None."""
    found = _named(task, Path(workspace), ())
    return found[0][0] if found else None


def _named(task: str, root: Path, skip: Collection[str]) -> list[tuple[str, Definition, str]]:
    """(file, definition, file's text) of each project definition the task names, the last
    named first; none when the task points at project lines or names too many."""
    if pointed_files(task, root):
        return []
    names = {n for n in _NAME.findall(task) if leads(n)}
    found: list[tuple[int, str, Definition, str]] = []
    for path in [p for p in own_files(root) if p.suffix == ".py"][: TUNING.max_scanned]:
        name = str(path.relative_to(root))
        if name in skip or is_test_file(name):
            continue
        text = read_text(path)
        if text is None:
            continue
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            continue
        for node, _depth in definitions(tree.body, 0):
            if node.name in names:
                found.append((task.rfind(node.name), name, node, text))
    if len({node.name for _, _, node, _ in found}) > TUNING.max_named:  # a broad failure: no lead
        return []
    return [(name, node, text) for _, name, node, text in sorted(found, key=lambda f: -f[0])]


def pointed_files(task: str, workspace: str | Path) -> list[str]:
    """The project's files (tests aside) the task points to with a line number, in order."""
    return sorted(n for n in _references(task, Path(workspace)) if not is_test_file(n))


def _references(task: str, root: Path) -> dict[str, set[int]]:
    """The workspace files the task names with a line number, and those lines."""
    seen: dict[str, set[int]] = {}
    for name, line in _named_in_order(task, root):
        seen.setdefault(name, set()).add(line)
    return seen


def _named_in_order(text: str, root: Path) -> list[tuple[str, int]]:
    """Each (workspace file, line) that ``text`` names, in the order it names them."""
    found = []
    for name, line in file_lines(text):
        if name.startswith("/"):  # an absolute path counts only inside the workspace
            name = _relative(name, root)
            if not name:
                continue
        for candidate in (name, *_tails(name)):
            if (root / candidate).is_file() and is_own(root, candidate):
                found.append((candidate, line))
                break
    return found


def last_pointed_file(output: str, workspace: str | Path) -> str | None:
    """Of the project's files (tests aside) that ``output`` names with a line number, the one
    it names last (a traceback's deepest frame in the project), or None."""
    named = [n for n, _ in _named_in_order(output, Path(workspace)) if not is_test_file(n)]
    return named[-1] if named else None


def _relative(name: str, root: Path) -> str:
    """The absolute path ``name`` relative to the workspace ``root`` ("" when outside it)."""
    for base in (root, root.resolve()):
        if Path(name).is_relative_to(base):
            return Path(name).relative_to(base).as_posix()
    return ""


def _tails(name: str) -> list[str]:
    """``a/b/c.py`` as ``b/c.py`` and ``c.py`` (a traceback's paths may be rooted elsewhere)."""
    parts = name.split("/")
    return ["/".join(parts[i:]) for i in range(1, len(parts))]


def describe_workspace(
    workspace: str | Path,
    task: str = "",
    *,
    max_files: int = 6,
    max_chars: int = 5000,
    max_listed: int = 40,
) -> str:
    """What the agent starts with: the workspace's files, small text files shown in full (a
    large tree is only listed), an outline of each long file the task names, the lines the
    task's tracebacks point to, and the project's functions it names (:func:`named_definitions`)."""
    root = Path(workspace)
    if not root.is_dir():
        return ""
    paths = list(own_files(root))
    if not paths:
        return "The workspace is empty."
    names = [str(p.relative_to(root)) for p in paths]
    whole: set[str] = set()  # the files shown in full
    if len(paths) > max_files:
        shown = ", ".join(names[:max_listed]) + (" ..." if len(names) > max_listed else "")
        parts = [f"The workspace holds {len(paths)} files: {shown}"]
    else:
        parts = ["Files in the workspace:"]
        used = 0
        for path, name in zip(paths, names, strict=True):
            text = read_text(path)
            if text is None:
                parts.append(f"{name} (binary)")
                continue
            if used + len(text) > max_chars:
                parts.append(f"{name} ({len(text.splitlines())} lines, not shown: view it)")
                continue
            used += len(text)
            whole.add(name)
            parts.append(f"{name}:\n{fence_file(name, text.rstrip())}")
    if points := referenced_lines(task, root):
        parts.append(f"Where the task's output points:\n{points}")
    if named := named_definitions(task, root, skip=whole):
        parts.append(f"The project's code the task's output names:\n{named}")
    refs = _references(task, root)
    for name in _long_files_named(task, root, names, max_chars):  # tests are run, not changed
        text = read_text(root / name) or ""
        shape = outline(name, text, sorted(refs.get(name, ())))
        parts.append(f"Outline of {name} ({len(text.splitlines())} lines):\n{shape}")
    return "\n".join(parts)


def _long_files_named(task: str, root: Path, names: list[str], max_chars: int) -> list[str]:
    """The long text files the task names (by path, or by a traceback's path), tests aside,
    at most three."""
    found = []
    for name in names:
        if is_test_file(name):
            continue
        if name in task or any(t in task for t in _tails(name)[:1] if "/" in name):
            path = root / name
            if path.suffix in (".py", ".rs", ".sv", ".v", ".c", ".go", ".js", ".ts") and (
                path.stat().st_size > max_chars
            ):
                found.append(name)
    return found[:3]
