"""What the agent does to files in its workspace: look (numbered lines, an outline of a large
file), search (file names and text), and change them (exact search/replace blocks, a range of
lines, or a whole file when it is new or small).

Every path stays inside the workspace (``..``, an absolute path elsewhere or a symlink out is
refused). A file too long to be shown or rewritten in one reply is never rewritten whole: it is
changed by edits, which say clearly when their search text is not found or not unique.
"""

from __future__ import annotations

import ast
import hashlib
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from langgraph_mtl.agent.dropping import dropped_definitions

__all__ = [
    "MAX_REWRITE_CHARS",
    "Replacement",
    "apply_replacements",
    "changed_files",
    "file_hashes",
    "inside",
    "outline",
    "parse_replacements",
    "replace_definitions",
    "replace_lines",
    "search_workspace",
    "view_file",
    "write_file",
]

MAX_REWRITE_CHARS = 6_000  # about 1,500 tokens: what one reply of the local model can hold
VIEW_LINES = 120  # lines shown by one view when no range is given (an outline beyond that)
SEARCH_HITS = 40
_SKIP_DIRS = {".git", "__pycache__", ".mypy_cache", ".pytest_cache", "node_modules", "target"}


def inside(workspace: str | Path, path: str, *, root_too: bool = False) -> Path | str:
    """``path`` resolved inside ``workspace`` (the workspace itself only with ``root_too``:
    it may be read, never written), or the error to report."""
    root = Path(workspace).resolve()
    target = (root / path.strip()).resolve()  # an absolute path replaces root; links followed
    if target == root and root_too and path.strip():
        return target
    if not path.strip() or not target.is_relative_to(root) or target == root:
        return f"[refused] {path!r} is outside the workspace: give a file path inside it"
    return target


def _text(target: Path, path: str) -> str | None:
    try:
        return target.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def numbered(text: str, start: int = 1, end: int | None = None) -> str:
    """Lines ``start`` to ``end`` (1-based, inclusive) with their numbers."""
    lines = text.splitlines()
    end = len(lines) if end is None else min(end, len(lines))
    width = len(str(max(end, 1)))
    return "\n".join(f"{n:>{width}}| {lines[n - 1]}" for n in range(max(start, 1), end + 1))


def view_file(workspace: str | Path, path: str, start: int = 0, end: int = 0) -> str:
    """The file's lines ``start``-``end`` with numbers; without a range, the whole file when
    short, else its outline and first lines (ask for a range to see more)."""
    target = inside(workspace, path, root_too=True)
    if isinstance(target, str):
        return target
    if target.is_dir():
        names = sorted(p.name + ("/" if p.is_dir() else "") for p in target.iterdir())
        return f"[{path} is a directory] " + " ".join(names[:200])
    if not target.is_file():
        return f"[error] {path} does not exist (search for its name to find it)"
    text = _text(target, path)
    if text is None:
        return f"[error] {path} is not a text file"
    total = len(text.splitlines())
    if start or end:
        first, last = max(start, 1), end or start + VIEW_LINES - 1
        if first > total:
            return f"[error] {path} has {total} lines; line {first} is past its end"
        return f"[{path}, lines {first}-{min(last, total)} of {total}]\n" + numbered(
            text, first, last
        )
    if total <= VIEW_LINES:
        return f"[{path}, all {total} lines]\n" + numbered(text)
    return (
        f"[{path} has {total} lines: its outline, then lines 1-40; view a range to see more]\n"
        f"{outline(path, text)}\n\n{numbered(text, 1, 40)}"
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
            for node, depth in _definitions(tree.body, 0):
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


def _definitions(body: Sequence[ast.stmt], depth: int) -> Iterator[tuple[Definition, int]]:
    for node in body:
        if isinstance(node, Definition):
            yield node, depth
            if isinstance(node, ast.ClassDef) and depth < 2:
                yield from _definitions(node.body, depth + 1)


def _files(root: Path) -> Iterator[Path]:
    for path in sorted(root.rglob("*")):
        parts = path.relative_to(root).parts
        if any(p in _SKIP_DIRS or p.startswith(".") for p in parts):
            continue
        if path.is_file():
            yield path


def file_hashes(workspace: str | Path, *, max_files: int = 2000) -> dict[str, str]:
    """The sha256 of each file in the workspace (hidden folders and caches left out)."""
    root = Path(workspace)
    out = {}
    for count, path in enumerate(_files(root)):
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
        text = _text(root / name, name)
        if text is not None:
            out[name] = text[-max_chars:]
    return out


def search_workspace(workspace: str | Path, query: str, path: str = "") -> str:
    """Files whose name holds ``query`` and lines that hold it (case-insensitive text, not a
    pattern), as ``file:line: text``, in ``path`` (a folder or file) or the whole workspace."""
    needle = query.strip().lower()
    if not needle:
        return "[error] search needs the text to look for"
    root = Path(workspace).resolve()
    base = inside(workspace, path, root_too=True) if path.strip() else root
    if isinstance(base, str):
        return base
    candidates = [base] if base.is_file() else list(_files(base))
    names = [str(p.relative_to(root)) for p in candidates if needle in p.name.lower()]
    hits: list[str] = []
    total = 0
    for file in candidates:
        text = _text(file, "") if file.stat().st_size < 2_000_000 else None
        if text is None:
            continue
        for number, line in enumerate(text.splitlines(), start=1):
            if needle in line.lower():
                total += 1
                if len(hits) < SEARCH_HITS:
                    hits.append(f"{file.relative_to(root)}:{number}: {line.strip()[:160]}")
    parts = []
    if names:
        parts.append("files named like it: " + ", ".join(names[:20]))
    if hits:
        more = f" (first {SEARCH_HITS} of {total})" if total > SEARCH_HITS else ""
        parts.append(f"lines holding {query.strip()!r}{more}:\n" + "\n".join(hits))
    return "\n".join(parts) or f"[no file or line holds {query.strip()!r}]"


@dataclass(frozen=True)
class Replacement:
    """One edit: the exact text ``old`` (unique in the file) becomes ``new``."""

    old: str
    new: str


_BLOCK = re.compile(
    r"^<{5,9} ?SEARCH[^\n]*\n(.*?)^={5,9}[ \t]*\n(.*?)^>{5,9} ?REPLACE[^\n]*$",
    re.MULTILINE | re.DOTALL,
)


def parse_replacements(reply: str) -> list[Replacement]:
    """The search/replace blocks of a reply::

    <<<<<<< SEARCH
    exact lines now in the file
    =======
    the lines that replace them
    >>>>>>> REPLACE
    """
    return [Replacement(old, new) for old, new in _BLOCK.findall(reply)]


def _locate(text: str, old: str) -> tuple[int, int] | str:
    """Where ``old`` stands in ``text`` (once), or why it cannot be used. Exact first; then
    line by line ignoring trailing spaces and a common indentation difference."""
    count = text.count(old)
    if count == 1:
        start = text.index(old)
        return start, start + len(old)
    if count > 1:
        return f"the search text appears {count} times; include more lines to make it unique"
    lines, wanted = text.splitlines(keepends=True), old.rstrip("\n").splitlines()
    if not wanted:
        return "the search text is empty"
    stripped = [w.strip() for w in wanted]
    found = [
        i
        for i in range(len(lines) - len(wanted) + 1)
        if [line.strip() for line in lines[i : i + len(wanted)]] == stripped
    ]
    if len(found) == 1:
        start = sum(len(line) for line in lines[: found[0]])
        return start, start + sum(len(line) for line in lines[found[0] : found[0] + len(wanted)])
    if len(found) > 1:
        return f"the search text appears {len(found)} times; include more lines to make it unique"
    return "the search text was not found; copy the lines exactly as the file shows them"


def apply_replacements(workspace: str | Path, path: str, edits: Sequence[Replacement]) -> str:
    """Apply every edit to ``path`` or none: each search text must stand exactly once."""
    target = inside(workspace, path)
    if isinstance(target, str):
        return target
    if not edits:
        return (
            "[edit refused] no SEARCH/REPLACE block found: give one or more blocks of\n"
            "<<<<<<< SEARCH\n(exact lines now in the file)\n=======\n(their replacement)\n"
            ">>>>>>> REPLACE"
        )
    if not target.is_file():
        return f"[edit refused] {path} does not exist; write it as a new file instead"
    text = _text(target, path)
    if text is None:
        return f"[edit refused] {path} is not a text file"
    for number, edit in enumerate(edits, start=1):
        where = _locate(text, edit.old)
        if isinstance(where, str):
            return f"[edit refused] block {number} in {path}: {where}; nothing was changed"
        start, end = where
        text = text[:start] + edit.new + text[end:]
    target.write_text(text, encoding="utf-8")
    return f"[edited {path}: {len(edits)} block(s) applied; {len(text.splitlines())} lines now]"


def _python_definitions(text: str) -> dict[str, list[tuple[int, int, int]]]:
    """Each function or class of a Python text by name: (first line with decorators, last
    line, indentation), methods included."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return {}
    found: dict[str, list[tuple[int, int, int]]] = {}
    for node, _ in _definitions(tree.body, 0):
        first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
        found.setdefault(node.name, []).append(
            (first, node.end_lineno or node.lineno, node.col_offset)
        )
    return found


def _reindent(lines: list[str], was: int, becomes: int) -> list[str]:
    """Lines moved from an indentation of ``was`` columns to ``becomes``."""
    out = []
    for line in lines:
        if not line.strip():
            out.append("\n")
            continue
        lead = len(line) - len(line.lstrip(" "))
        out.append(" " * becomes + line[min(lead, was) :])
    if out and not out[-1].endswith("\n"):
        out[-1] += "\n"
    return out


def replace_definitions(workspace: str | Path, path: str, code: str) -> str | None:
    """Replace the Python functions or classes ``code`` defines with the same names in
    ``path`` (each must stand once there); None when ``code`` defines none of them (another
    edit format must say what to change)."""
    target = inside(workspace, path)
    if isinstance(target, str) or not path.endswith(".py") or not target.is_file():
        return None
    text = _text(target, path)
    if text is None:
        return None
    given = _python_definitions(code)
    present = _python_definitions(text)
    lines = text.splitlines(keepends=True)
    code_lines = code.splitlines(keepends=True)
    changes = []
    for name, spans in given.items():
        if len(present.get(name, [])) != 1 or len(spans) != 1:
            continue
        (start, end, indent), (new_start, new_end, new_indent) = present[name][0], spans[0]
        body = _reindent(code_lines[new_start - 1 : new_end], new_indent, indent)
        changes.append((start, end, body, name))
    if not changes:
        return None
    for start, end, body, _ in sorted(changes, reverse=True):  # from the bottom: lines stay put
        lines[start - 1 : end] = body
    target.write_text("".join(lines), encoding="utf-8")
    names = ", ".join(name for *_, name in changes)
    return f"[edited {path}: replaced {names}; {len(''.join(lines).splitlines())} lines now]"


def replace_lines(workspace: str | Path, path: str, start: int, end: int, new: str) -> str:
    """Replace lines ``start``-``end`` (1-based, inclusive) of ``path`` with ``new``."""
    target = inside(workspace, path)
    if isinstance(target, str):
        return target
    text = _text(target, path) if target.is_file() else None
    if text is None:
        return f"[edit refused] {path} is not an existing text file"
    lines = text.splitlines(keepends=True)
    if not 1 <= start <= end <= len(lines):
        return f"[edit refused] {path} has {len(lines)} lines; {start}-{end} is not a range in it"
    body = new if new.endswith("\n") or not new else new + "\n"
    lines[start - 1 : end] = [body] if body else []
    target.write_text("".join(lines), encoding="utf-8")
    return f"[edited {path}: lines {start}-{end} replaced; {len(''.join(lines).splitlines())} lines now]"


def write_file(workspace: str | Path, path: str, content: str) -> str:
    """Write a whole file: a new one, or an existing one short enough to be shown and rewritten
    in one reply; a longer existing file, or a rewrite dropping a top-level definition, is
    refused (change it with edits), and a write of exactly what the file holds says so."""
    target = inside(workspace, path)
    if isinstance(target, str):
        return target
    if target.is_dir():
        return f"[refused] {path} is a directory; give a file path"
    if target.is_file() and target.stat().st_size > MAX_REWRITE_CHARS:
        size = target.stat().st_size
        return (
            f"[refused] {path} exists and has {size} characters, too long to rewrite whole "
            "without losing what you have not seen: view the part to change and edit it"
        )
    lines = content.count("\n") + (not content.endswith("\n") and bool(content))
    if target.is_file() and target.read_text(encoding="utf-8", errors="replace") == content:
        return (
            f"[unchanged] {path} already holds exactly this ({lines} lines): nothing changed. "
            "Change what the last output shows is wrong."
        )
    dropped = dropped_definitions(_text(target, path) or "", content) if target.is_file() else []
    if dropped:
        return (
            f"[refused] this rewrite of {path} drops {', '.join(dropped)}, which the file "
            "defines now, so nothing was written (callers and tests use those names). Write "
            "the whole file again with each of them, or change one part with edit."
        )
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(content, encoding="utf-8")
    return f"[wrote {path}: {lines} lines, {len(content)} characters]"
