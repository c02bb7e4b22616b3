"""How the agent looks at its workspace: numbered lines, an outline of a large file, a search
of file names and text, and the files' hashes (what a run changed). Every path stays inside
the workspace (``..``, an absolute path elsewhere or a symlink out is refused); changing files
is :mod:`.editing`'s.
"""

from __future__ import annotations

import ast
import difflib
import hashlib
import re
from collections.abc import Iterator, Sequence
from pathlib import Path, PurePosixPath

from langgraph_mtl.agent.outcomes import Answer, done, failed, refused
from langgraph_mtl.agent.text_files import read_text
from langgraph_mtl.agent.tuning import TUNING

__all__ = ["outside_workspace"]

_TEST_FILE = re.compile(r"(^|/)(tests?/|test_[^/]*$|[^/]*_test\.\w+$|conftest\.py$)")
_SKIP_DIRS = {".git", "__pycache__", ".mypy_cache", ".pytest_cache", "node_modules", "target"}


def inside(workspace: str | Path, path: str, *, root_too: bool = False) -> Path | Answer:
    """``path`` resolved inside ``workspace`` (the workspace itself only with ``root_too``:
    it may be read, never written), or the error to report."""
    if "\0" in path:
        return refused(
            f"[refused] {path!r} holds a NUL character: give a plain file path", "bad_path"
        )
    root = Path(workspace).resolve()
    target = (root / path.strip()).resolve()  # an absolute path replaces root; links followed
    if target == root and root_too and path.strip():
        return target
    if not path.strip() or not target.is_relative_to(root) or target == root:
        return refused(
            f"[refused] {path!r} is outside the workspace: give a file path inside it", "outside"
        )
    return target


def outside_workspace(name: str) -> str:
    """Why a path named ahead of a run (a task's files, protected paths) is not a relative
    path inside the workspace, or ``""`` when it is one."""
    parts = PurePosixPath(name).parts if isinstance(name, str) else ()
    if not isinstance(name, str) or not name.strip() or "\0" in name or not parts:
        return "is not a file path"
    if PurePosixPath(name).is_absolute():
        return "is absolute"
    if ".." in parts:
        return "leaves the workspace through '..'"
    return ""


def is_own(workspace: str | Path, name: str) -> bool:
    """Whether ``name`` is the workspace's own file or folder (not a link to one outside it)."""
    return isinstance(inside(workspace, name), Path)


def has_content(workspace: str | Path, path: str) -> bool:
    """Whether ``path`` is a file of the workspace that is not empty."""
    target = Path(workspace) / path
    return target.is_file() and target.stat().st_size > 0


def is_test_file(path: str) -> bool:
    """Whether ``path`` names a test (``test_x.py``, ``x_test.go``, ``tests/...``, conftest)."""
    return bool(_TEST_FILE.search(path))


def nearest(workspace: str | Path, path: str) -> str | None:
    """The workspace's file or folder whose path is closest to ``path``, if one is close
    (``toolz.curried/__init__.py`` -> ``toolz/curried/__init__.py``); a test for a test only,
    never the code for a test (``test_solution.py`` is not ``solution.py``)."""
    root = Path(workspace)
    known = [str(p.relative_to(root)) for p in own_files(root)]
    known += sorted({str(Path(name).parent) for name in known} - {"."})
    known = [name for name in known if is_test_file(name) == is_test_file(path)]
    near = difflib.get_close_matches(path.strip(), known, n=1, cutoff=0.75)
    return near[0] if near else None


def missing(workspace: str | Path, path: str) -> Answer:
    """The error for a path that does not exist, naming the nearest one when it is close."""
    near = nearest(workspace, path)
    hint = f"did you mean {near}?" if near else "search for its name to find it"
    return failed(f"[error] {path} does not exist ({hint})", "missing")


def numbered(text: str, start: int = 1, end: int | None = None, *, clip: int = 0) -> str:
    """Lines ``start`` to ``end`` (1-based, inclusive) with their numbers; with ``clip``, a
    line longer than that is cut there, with how much more it holds."""
    lines = text.splitlines()
    end = len(lines) if end is None else min(end, len(lines))
    width = len(str(max(end, 1)))
    return "\n".join(
        f"{n:>{width}}| {_clipped(lines[n - 1], clip)}" for n in range(max(start, 1), end + 1)
    )


def _clipped(line: str, clip: int) -> str:
    if not clip or len(line) <= clip:
        return line
    return f"{line[:clip]} ... [{len(line) - clip} more characters]"


_NUMBER = re.compile(r"^ *(\d+)\|(?: |$)")


def unnumbered(text: str) -> tuple[str, int, int] | None:
    """``text`` without the line numbers :func:`numbered` puts before each line, and the first
    and last number, when every line that is not blank carries one; None when not."""
    lines = text.splitlines()
    marked = [(_NUMBER.match(line), line) for line in lines]
    numbers = [int(mark.group(1)) for mark, _ in marked if mark]
    if not numbers or any(not mark and line.strip() for mark, line in marked):
        return None
    kept = [line[mark.end() :] if mark else line for mark, line in marked]
    return "\n".join(kept) + ("\n" if text.endswith("\n") else ""), min(numbers), max(numbers)


def view_file(workspace: str | Path, path: str, start: int = 0, end: int = 0) -> str:
    """The file's lines ``start``-``end`` with numbers; without a range, the whole file when
    short, else its outline and first lines (ask for a range to see more)."""
    target = inside(workspace, path, root_too=True)
    if isinstance(target, str):
        return target
    if target.is_dir():
        names = sorted(p.name + ("/" if p.is_dir() else "") for p in target.iterdir())
        return done(f"[{path} is a directory] " + " ".join(names[:200]), "directory")
    if not target.is_file():
        return missing(workspace, path)
    text = read_text(target)
    if text is None:
        return failed(f"[error] {path} is not a text file", "not_text")
    total = len(text.splitlines())
    if start or end:
        first, last = max(start, 1), end or start + TUNING.view_lines - 1
        if last < first:
            return failed(
                f"[error] the range {start}-{end} ends before it starts: give start <= end",
                "bad_range",
            )
        if first > total:
            return failed(
                f"[error] {path} has {total} lines; line {first} is past its end", "bad_range"
            )
        last = min(last, total)
        more = ""
        if last - first >= TUNING.max_view_lines:
            last = first + TUNING.max_view_lines - 1
            rest = f"{last + 1}-{min(last + TUNING.max_view_lines, total)}"
            more = f"; one view shows at most {TUNING.max_view_lines} lines: view {rest} for more"
        shown = f"[{path}, lines {first}-{last} of {total}{more}]\n" + numbered(
            text, first, last, clip=TUNING.max_line_chars
        )
        return done(shown, "whole" if (first, last) == (1, total) else "")
    if total <= TUNING.view_lines:
        shown = f"[{path}, all {total} lines]\n" + numbered(text, clip=TUNING.max_line_chars)
        return done(shown, "whole")
    return (
        f"[{path} has {total} lines: its outline, then lines 1-40; view a range to see more]\n"
        f"{outline(path, text)}\n\n{numbered(text, 1, 40, clip=TUNING.max_line_chars)}"
    )


_DEFINITION = re.compile(
    r"^\s*(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?(?:fn|def|class|struct|enum|trait|impl|module|"
    r"function|interface|func|type)\b[^\n]{0,100}",
    re.MULTILINE,
)


def outline(path: str, text: str, around: Sequence[int] = (), limit: int = 60) -> str:
    """The classes and functions of a file with their line numbers (Python by its syntax tree,
    other languages by their definition keywords); of a file with more than ``limit`` of them,
    those nearest the lines ``around`` (a traceback's, say), else the first."""
    rows: list[tuple[int, str]] = []
    if path.endswith(".py"):
        try:
            tree = ast.parse(text)
        except SyntaxError:
            tree = None
        if tree is not None:
            for node, depth in definitions(tree.body, 0):
                kind = "class" if isinstance(node, ast.ClassDef) else "def"
                end = getattr(node, "end_lineno", node.lineno)
                rows.append((node.lineno, f"{'    ' * depth}{kind} {node.name} (to {end})"))
    if not rows:
        for match in _DEFINITION.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            rows.append((line, match.group(0).rstrip(" {")[:100]))
    if not rows:
        return f"(no definitions found in {path})"
    total = len(rows)
    if total > limit:
        if around:
            rows = sorted(sorted(rows, key=lambda r: min(abs(r[0] - a) for a in around))[:limit])
        else:
            rows = rows[:limit]
    width = len(str(rows[-1][0]))
    listed = "\n".join(f"{line:>{width}}: {label}" for line, label in rows)
    more = f"\n({len(rows)} of {total} definitions; search for a name to find others)"
    return listed + (more if total > len(rows) else "")


Definition = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


def definitions(body: Sequence[ast.stmt], depth: int) -> Iterator[tuple[Definition, int]]:
    """The functions and classes of ``body`` with their nesting depth (methods of classes
    nested up to two deep)."""
    for node in body:
        if isinstance(node, Definition):
            yield node, depth
            if isinstance(node, ast.ClassDef) and depth < 2:
                yield from definitions(node.body, depth + 1)


def leads(name: str) -> bool:
    """Whether a function or class name an output shows may lead to the code to change: four
    characters or more, neither a test's nor a private one."""
    return len(name) >= 4 and not name.startswith(("test", "_"))


def last_named_definition(text: str, said: str) -> tuple[int, int] | None:
    """The lines (decorators included) of the function or class of ``text`` (Python source)
    whose name ``said`` shows last, tests and private names aside; None when it shows none or
    ``text`` is not Python. A name shown as code (called, an attribute, quoted, a traceback's
    ``in name``) outranks one only written as a word (pytest's ``Use -v to get more diff``)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    found: dict[bool, tuple[int, int, int]] = {}  # as code or not: (where shown, lines)
    for node, _depth in definitions(tree.body, 0):
        if not leads(node.name):
            continue
        first = node.decorator_list[0].lineno if node.decorator_list else node.lineno
        last = node.end_lineno or node.lineno
        for as_code, pattern in ((True, _as_code(node.name)), (False, rf"\b{node.name}\b")):
            shown = [m.start() for m in re.finditer(pattern, said, re.MULTILINE)]
            if shown and shown[-1] > found.get(as_code, (-1, 0, 0))[0]:
                found[as_code] = (shown[-1], first, last)
    best = found.get(True) or found.get(False)
    return (best[1], best[2]) if best else None


def _as_code(name: str) -> str:
    """A pattern of ``name`` shown as code: called, an attribute, quoted or backticked, or
    the function a traceback's line is in."""
    return rf"(?<![\w.]){name}\s*\(|\.{name}\b|['`\"]{name}['`\"]|\bin {name}$"


def imported_files(workspace: str | Path, path: str, limit: int = 3) -> list[str]:
    """The workspace's own Python files that ``path`` imports (``pkg/mod.py`` or
    ``pkg/__init__.py``, also under ``src/``), top-level imports first: the code a test tests."""
    root = Path(workspace)
    try:
        tree = ast.parse((root / path).read_text(encoding="utf-8", errors="replace"))
    except (OSError, SyntaxError, ValueError):
        return []
    modules: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            modules.append(node.module)
            modules += [f"{node.module}.{alias.name}" for alias in node.names]
    found: list[str] = []
    for module in modules:
        stem = module.replace(".", "/")
        for base in ("", "src/"):
            for name in (f"{base}{stem}.py", f"{base}{stem}/__init__.py"):
                if (root / name).is_file() and name != path and name not in found:
                    found.append(name)
    return found[:limit]


def own_files(root: Path) -> Iterator[Path]:
    """The workspace's own files: hidden folders, caches and links to outside it left out (a
    link a command made to a host file is never read by the process running the agent)."""
    for path in sorted(root.rglob("*")):
        parts = path.relative_to(root).parts
        if any(p in _SKIP_DIRS or p.startswith(".") for p in parts):
            continue
        if path.is_file() and is_own(root, str(path.relative_to(root))):
            yield path


def file_hashes(workspace: str | Path, *, max_files: int = 2000) -> dict[str, str]:
    """The sha256 of each file in the workspace (hidden folders and caches left out)."""
    root = Path(workspace)
    out = {}
    for count, path in enumerate(own_files(root)):
        if count >= max_files:
            break
        try:
            out[str(path.relative_to(root))] = hashlib.sha256(path.read_bytes()).hexdigest()
        except OSError:
            continue
    return out


def changed_files(
    workspace: str | Path, before: dict[str, str], *, max_chars: int = 6000
) -> dict[str, str]:
    """The text of the files added or changed since ``before`` (:func:`file_hashes`), each
    cut to its last ``max_chars`` characters; binary files left out."""
    root = Path(workspace)
    out = {}
    for name, digest in file_hashes(root).items():
        if before.get(name) == digest:
            continue
        text = read_text(root / name)
        if text is not None:
            out[name] = text[-max_chars:]
    return out


def search_workspace(workspace: str | Path, query: str, path: str = "") -> str:
    """Files whose name holds ``query`` and lines that hold it (case-insensitive text, not a
    pattern), as ``file:line: text``, in ``path`` (a folder or file) or the whole workspace."""
    needle = query.strip().lower()
    if not needle:
        return failed("[error] search needs the text to look for", "empty")
    root = Path(workspace).resolve()
    base = inside(workspace, path, root_too=True) if path.strip() else root
    if isinstance(base, str):
        return base
    if not base.exists():
        return missing(root, path)
    candidates = [base] if base.is_file() else list(own_files(base))
    names = [str(p.relative_to(root)) for p in candidates if needle in p.name.lower()]
    hits: list[str] = []
    total = 0
    for file in candidates:
        text = read_text(file) if file.stat().st_size < 2_000_000 else None
        if text is None:
            continue
        for number, line in enumerate(text.splitlines(), start=1):
            if needle in line.lower():
                total += 1
                if len(hits) < TUNING.search_hits:
                    hits.append(f"{file.relative_to(root)}:{number}: {line.strip()[:160]}")
    parts = []
    if names:
        parts.append("files named like it: " + ", ".join(names[:20]))
    if hits:
        more = f" (first {TUNING.search_hits} of {total})" if total > TUNING.search_hits else ""
        parts.append(f"lines holding {query.strip()!r}{more}:\n" + "\n".join(hits))
    return (
        done("\n".join(parts))
        if parts
        else done(f"[no file or line holds {query.strip()!r}]", "no_hits")
    )
