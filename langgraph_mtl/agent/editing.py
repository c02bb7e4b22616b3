"""How the agent changes files in its workspace: exact search/replace blocks, whole functions
put in place of their names', a range of lines, or a whole file when it is new or small.

A file too long to be shown or rewritten in one reply is never rewritten whole: it is changed
by edits, which say clearly when their search text is not found or not unique.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from langgraph_mtl.agent.dropping import dropped_definitions
from langgraph_mtl.agent.elision import placeholder_line
from langgraph_mtl.agent.outcomes import Answer, applied, refused, unchanged
from langgraph_mtl.agent.syntax import uncompilable_after
from langgraph_mtl.agent.text_files import read_text, write_text
from langgraph_mtl.agent.tuning import TUNING
from langgraph_mtl.agent.workspace import definitions, inside, nearest, unnumbered

__all__: list[str] = []  # used within the agent package only

UNCOMPILABLE = (
    "[{refused}] after this change {path} would not compile: {why}; nothing was {done}. Give "
    "the lines again, complete and indented as the file's."
)
DROPPED = (
    "[{refused}] this change of {path} drops {names}, which the file defines now, so nothing "
    "was {done} (the code above and below uses those names). Give the lines again with each "
    "definition in them, changing only what must change."
)
PLACEHOLDER = (
    "[{refused}] the new lines of {path} hold `{line}` where code was, which would delete "
    "that code; nothing was {done}. Give the code itself, every line of it."
)
UNCHANGED_EDIT = (
    "[unchanged] {path}: the edit gives back exactly what the file holds, so nothing changed. "
    "Change the line the output points to."
)
_PROSE = (".md", ".rst", ".txt")  # where "# ..." is a heading, not a placeholder


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


def _locate(text: str, old: str) -> tuple[int, int] | Answer:
    """Where ``old`` stands in ``text`` (once), or why it cannot be used (the reason
    ``no_match`` or ``not_unique``). Exact first; then line by line ignoring trailing spaces and
    a common indentation difference."""
    if not old.strip():
        return refused("the search text is empty; give the exact lines to replace", "no_match")
    count = text.count(old)
    if count == 1:
        start = text.index(old)
        return start, start + len(old)
    if count > 1:
        said = f"the search text appears {count} times; include more lines to make it unique"
        return refused(said, "not_unique")
    lines, wanted = text.splitlines(keepends=True), old.rstrip("\n").splitlines()
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
        said = f"the search text appears {len(found)} times; include more lines to make it unique"
        return refused(said, "not_unique")
    said = "the search text was not found; copy the lines exactly as the file shows them"
    return refused(said, "no_match")


def apply_replacements(
    workspace: str | Path, path: str, edits: Sequence[Replacement], *, checked: bool = True
) -> Answer:
    """Apply every edit to ``path`` or none: each search text must stand exactly once."""
    target = inside(workspace, path)
    if isinstance(target, str):
        return target
    if not edits:
        return refused(
            "[edit refused] no SEARCH/REPLACE block found: give one or more blocks of\n"
            "<<<<<<< SEARCH\n(exact lines now in the file)\n=======\n(their replacement)\n"
            ">>>>>>> REPLACE",
            "no_blocks",
        )
    if not target.is_file():
        return _gone(workspace, path) or refused(
            f"[edit refused] {path} does not exist; write it as a new file instead", "missing"
        )
    text = read_text(target)
    if text is None:
        return refused(f"[edit refused] {path} is not a text file", "not_text")
    before = text
    for number, edit in enumerate(edits, start=1):
        edit = Replacement(_plain(edit.old), _plain(edit.new))
        where = _locate(text, edit.old)
        if isinstance(where, Answer):
            said = f"[edit refused] block {number} in {path}: {where}; nothing was changed"
            return refused(said, where.reason)
        start, end = where
        indent = start - (text.rfind("\n", 0, start) + 1)
        if text[start - indent : start].isspace() and edit.new[:1] in (" ", "\t"):
            start -= indent  # the new lines bring their own indentation: not added twice
        text = text[:start] + edit.new + text[end:]
    if text == before:
        return unchanged(UNCHANGED_EDIT.format(path=path))
    if checked and (refusal := _refusal(path, before, text)):
        return refusal
    if refusal := write_text(target, text, path):
        return refusal
    return applied(
        f"[edited {path}: {len(edits)} block(s) applied; {len(text.splitlines())} lines now]"
    )


def _with_echoed_context(lines: list[str], start: int, end: int, new: list[str]) -> tuple[int, int]:
    """The range widened over the lines just around it that ``new`` repeats at its start or
    end (the context it was shown, given back with the change): those lines are replaced by
    themselves, not written twice."""

    def same(ours: list[str], theirs: list[str]) -> bool:
        return any(line.strip() for line in ours) and [line.rstrip() for line in ours] == [
            line.rstrip() for line in theirs
        ]

    def longest(limit: int, fits: Callable[[int], bool]) -> int:
        return next((k for k in range(limit, 0, -1) if fits(k)), 0)

    before = longest(
        min(start - 1, len(new)), lambda k: same(new[:k], lines[start - 1 - k : start - 1])
    )
    rest = new[before:]
    after = longest(
        min(len(lines) - end, len(rest)), lambda k: same(rest[-k:], lines[end : end + k])
    )
    return start - before, end + after


def _refusal(path: str, before: str, after: str, *, edit: bool = True) -> Answer | None:
    """Why a change of ``path`` from ``before`` to ``after`` is not written: a placeholder
    where code was, an edit losing a top-level definition, or a Python file that compiled no
    longer compiling; None when it may be."""
    said = {
        "refused": "edit refused" if edit else "refused",
        "path": path,
        "done": "changed" if edit else "written",
    }
    if not path.endswith(_PROSE) and (line := placeholder_line(before, after)):
        return refused(PLACEHOLDER.format(line=line, **said), "placeholder")
    if edit and (dropped := dropped_definitions(before, after)):  # writes say so themselves
        return refused(DROPPED.format(names=", ".join(dropped), **said), "drops_definitions")
    if why := uncompilable_after(path, before, after):
        return refused(UNCOMPILABLE.format(why=why, **said), "uncompilable")
    return None


def _plain(text: str) -> str:
    """``text`` without the line numbers a view shows, when it was copied with them."""
    plain = unnumbered(text)
    return text if plain is None else plain[0]


def _gone(workspace: str | Path, path: str) -> Answer | None:
    """The refusal of an edit of a missing ``path`` that names the path meant, when one is
    close; None when none is."""
    near = nearest(workspace, path)
    said = f"[edit refused] {path} does not exist (did you mean {near}?)"
    return refused(said, "missing") if near else None


def _python_definitions(text: str) -> dict[str, list[tuple[int, int, int]]]:
    """Each function or class of a Python text by name: (first line with decorators, last
    line, indentation), methods included."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return {}
    found: dict[str, list[tuple[int, int, int]]] = {}
    for node, _ in definitions(tree.body, 0):
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
        out.append(" " * becomes + line[min(_indent(line), was) :])
    if out and not out[-1].endswith("\n"):
        out[-1] += "\n"
    return out


def replace_definitions(
    workspace: str | Path, path: str, code: str, *, checked: bool = True
) -> Answer | None:
    """Replace the Python functions or classes ``code`` defines with the same names in
    ``path`` (each must stand once there); None when ``code`` defines none of them (another
    edit format must say what to change)."""
    target = inside(workspace, path)
    if isinstance(target, str) or not path.endswith(".py") or not target.is_file():
        return None
    text = read_text(target)
    if text is None:
        return None
    code = _plain(code)
    given = _python_definitions(code)
    present = _python_definitions(text)
    lines = text.splitlines(keepends=True)
    code_lines = code.splitlines(keepends=True)
    changes = []
    same = False
    for name, spans in given.items():
        if len(present.get(name, [])) != 1 or len(spans) != 1:
            continue
        (start, end, indent), (new_start, new_end, new_indent) = present[name][0], spans[0]
        body = _reindent(code_lines[new_start - 1 : new_end], new_indent, indent)
        if body != lines[start - 1 : end]:
            changes.append((start, end, body, name))
        else:
            same = True  # given back as it is: not a change
    if not changes:
        return unchanged(UNCHANGED_EDIT.format(path=path)) if same else None
    for start, end, body, _ in sorted(changes, reverse=True):  # from the bottom: lines stay put
        lines[start - 1 : end] = body
    if checked and (refusal := _refusal(path, text, "".join(lines))):
        return refusal
    if refusal := write_text(target, "".join(lines), path):
        return refusal
    names = ", ".join(name for *_, name in changes)
    return applied(
        f"[edited {path}: replaced {names}; {len(''.join(lines).splitlines())} lines now]"
    )


def replace_lines(
    workspace: str | Path, path: str, start: int, end: int, new: str, *, checked: bool = True
) -> Answer:
    """Replace lines ``start``-``end`` (1-based, inclusive) of ``path`` with ``new``."""
    target = inside(workspace, path)
    if isinstance(target, str):
        return target
    text = read_text(target) if target.is_file() else None
    if text is None and not target.exists() and (gone := _gone(workspace, path)):
        return gone
    if text is None:
        return refused(f"[edit refused] {path} is not an existing text file", "missing")
    lines = text.splitlines(keepends=True)
    if start == len(lines) + 1 <= end:  # lines added after the last one
        end = len(lines)
        if lines and not lines[-1].endswith("\n"):
            lines[-1] += "\n"
    elif 1 <= start <= len(lines) < end:  # a range running past the end, as a view takes it
        end = len(lines)
    elif not 1 <= start <= end <= len(lines):
        return refused(
            f"[edit refused] {path} has {len(lines)} lines; {start}-{end} is not a range in it "
            f"(to add lines after the last, start at {len(lines) + 1})",
            "bad_range",
        )
    if (plain := unnumbered(new)) is not None:  # lines copied with the numbers a view shows
        new, first, last = plain
        if _numbers_hold(new, first, last, lines):  # never numbers the model made up
            start, end = min(start, first), max(end, last)
    start, end = _with_echoed_context(lines, start, end, new.splitlines(keepends=True))
    body = new if new.endswith("\n") or not new else new + "\n"
    if body == "".join(lines[start - 1 : end]):
        return unchanged(UNCHANGED_EDIT.format(path=path))
    before, after = lines[: start - 1], lines[end:]
    changed, fit = "".join([*before, body, *after]), ""
    if checked and (refusal := _refusal(path, text, changed)):
        fitted = _fitted(body, lines[start - 1 : end])
        refit = None if fitted is None else "".join([*before, fitted, *after])
        if refit is None or _refusal(path, text, refit):
            return refusal
        changed, fit = refit, ", indented as the lines it replaces"  # given out of its context
    if refusal := write_text(target, changed, path):
        return refusal
    return applied(
        f"[edited {path}: lines {start}-{end} replaced{fit}; {len(changed.splitlines())} lines now]"
    )


def _numbers_hold(new: str, first: int, last: int, lines: list[str]) -> bool:
    """Whether the numbers ``new``'s lines were given with (``first``-``last``) name the file's
    own lines: at least half of its lines that are not blank stand at those numbers as given
    (the rest being the change)."""
    given = new.splitlines()
    if last > len(lines):
        return False
    if last - first + 1 != len(given):  # not one run of numbers: nothing to compare line by line
        return True
    pairs = [(a.rstrip(), lines[first - 1 + i].rstrip()) for i, a in enumerate(given) if a.strip()]
    return 2 * sum(a == b for a, b in pairs) >= len(pairs)


def _fitted(body: str, replaced: list[str]) -> str | None:
    """``body`` shifted as a whole so its first line that is not blank has the indentation of
    the first such line it replaces; None when it has already, or nothing is to go by."""
    new = body.splitlines(keepends=True)
    ours = next((line for line in new if line.strip()), "")
    theirs = next((line for line in replaced if line.strip()), "")
    shift = _indent(theirs) - _indent(ours)
    if not ours or not theirs or not shift or "\t" in ours[: _indent(ours) + 1]:
        return None
    if shift > 0:
        return "".join(" " * shift + line if line.strip() else line for line in new)
    return "".join(line[min(-shift, _indent(line)) :] for line in new)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def write_file(workspace: str | Path, path: str, content: str, *, checked: bool = True) -> Answer:
    """Write a whole file: a new one, or an existing one short enough to be shown and rewritten
    in one reply; a longer existing file, or a rewrite dropping a top-level definition, is
    refused (change it with edits), and a write of exactly what the file holds says so.
    Without ``checked`` (no safe-edits policy) a change is written whatever it breaks: no
    compile, definition, placeholder or length check."""
    target = inside(workspace, path)
    if isinstance(target, str):
        return target
    if target.is_dir():
        return refused(f"[refused] {path} is a directory; give a file path", "directory")
    if checked and target.is_file() and target.stat().st_size > TUNING.max_rewrite_chars:
        size = target.stat().st_size
        return refused(
            f"[refused] {path} exists and has {size} characters, too long to rewrite whole "
            "without losing what you have not seen: view the part to change and edit it",
            "too_long",
        )
    lines = content.count("\n") + (not content.endswith("\n") and bool(content))
    exists = target.is_file()
    held = read_text(target) if exists else None
    if held == content:
        return unchanged(
            f"[unchanged] {path} already holds exactly this ({lines} lines): nothing changed. "
            "Change what the last output shows is wrong."
        )
    now = (held or "") if exists else None
    dropped = dropped_definitions(now, content) if now is not None and checked else []
    if dropped:
        return refused(
            f"[refused] this rewrite of {path} drops {', '.join(dropped)}, which the file "
            "defines now, so nothing was written (callers and tests use those names). Write "
            "the whole file again with each of them, or change one part with edit.",
            "drops_definitions",
        )
    if checked and now is not None and (refusal := _refusal(path, now, content, edit=False)):
        return refusal
    target.parent.mkdir(parents=True, exist_ok=True)
    if refusal := write_text(target, content, path):
        return refusal
    return applied(f"[wrote {path}: {lines} lines, {len(content)} characters]")
