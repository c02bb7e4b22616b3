"""The focused calls that write a file or an edit under the JSON protocol.

The action says which file to write or change and why; the content is then asked for in a call
of its own that holds what it needs and nothing else: the task, the retrieved memories (unless
the agent keeps them out of this call), the file as it is now (for an edit, the part of it that
matters, as the file shows it), and what the last commands showed. A short prompt is where
small models write their best code: before any command has run, the write call is exactly the
model's single reply to the task (the scaffold-tax baseline uses this same function), so the
loop can only add to it: running the code and fixing what the output shows.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from langchain_core.messages import AnyMessage, HumanMessage, SystemMessage

from langgraph_mtl.agent.editing import MAX_REWRITE_CHARS, not_applied_line
from langgraph_mtl.agent.fences import fence_file
from langgraph_mtl.agent.prompts import (
    CHECKED_MARK,
    CONTENT_REQUEST,
    EDIT_REQUEST,
    LINES_REQUEST,
    NOT_APPLIED,
    WRITER_SYSTEM,
)
from langgraph_mtl.agent.references import lines_of
from langgraph_mtl.agent.text_files import read_text
from langgraph_mtl.agent.workspace import last_named_definition, numbered
from langgraph_mtl.memory.trajectory import Step

__all__ = [
    "WRITER_SYSTEM",
    "current_text",
    "edit_messages",
    "editable_region",
    "last_output",
    "not_applied",
    "pointed_line",
    "pointed_region",
    "read_since_run",
    "step_range",
    "writer_messages",
]

MAX_FILE_CHARS = MAX_REWRITE_CHARS  # a file longer than one reply is edited, never rewritten
MAX_SEEN_CHARS = 1500
REGION_LINES = 40  # lines shown around each place an edit is about
POINTED_LINES = 4  # lines either side of a pointed line that a line edit gives back


def current_text(workspace: str, path: str, *, limit: int | None = MAX_FILE_CHARS) -> str:
    """The file's text as it is now ("" when missing, binary or longer than ``limit``)."""
    target = Path(workspace) / path
    text = (read_text(target) or "") if target.is_file() else ""
    return text if limit is None or len(text) <= limit else ""


_NOT_COMMANDS = ("write_file ", "view ", "search ", "edit ")


def _runs(trajectory: Sequence[Step]) -> list[tuple[str, str]]:
    """Each command run and what it printed, oldest first: the commands the agent gave (not
    writes, views, searches or edits) and the task's check run after a change."""
    found = []
    for step in trajectory:
        action, observation = str(step.get("action", "")), str(step.get("observation", ""))
        if not action.startswith(_NOT_COMMANDS):
            found.append((action, observation))
        elif CHECKED_MARK in observation:
            command, _, output = observation.split(CHECKED_MARK, 1)[1].partition("\n")
            found.append((command.strip("`"), output))
    return found


def last_output(trajectory: Sequence[Step]) -> str:
    """What the last command run printed ("" before any)."""
    runs = _runs(trajectory)
    return runs[-1][1] if runs else ""


def not_applied(path: str, trajectory: Sequence[Step]) -> str:
    """Why the newest step's change of ``path`` was not applied (its refusal, or that it
    changed nothing); "" when the newest step is not such a change. Shown in the next call for
    the file, so a model at temperature 0 is not asked the same question twice."""
    if not trajectory:
        return ""
    head = str(trajectory[-1].get("action", "")).split("\n", 1)[0].split(" ")
    if head[0] not in ("edit", "write_file") or head[1:2] != [path]:
        return ""
    observation = str(trajectory[-1].get("observation", ""))
    return not_applied_line(observation)


def _seen(trajectory: Sequence[Step], last: int = 2) -> str:
    """What the last commands printed, newest last (see :func:`_runs`)."""
    parts = []
    for command, output in _runs(trajectory)[-last:]:
        parts.append(f"$ {command[:300]}\n{output[-MAX_SEEN_CHARS:]}")
    return "\n\n".join(parts)


def writer_messages(
    *,
    task: str,
    path: str,
    current: str = "",
    reason: str = "",
    trajectory: Sequence[Step] = (),
    memory_prompt: str = "",
) -> list[AnyMessage]:
    """The messages of the call that writes ``path``'s complete content (``current``: its
    text now)."""
    system = WRITER_SYSTEM + (f"\n\n{memory_prompt}" if memory_prompt else "")
    prompt = f"{task}\n\n{CONTENT_REQUEST.format(path=path)}"
    if current:
        prompt += f"\n\nThe current `{path}`:\n{fence_file(path, current)}"
    if seen := _seen(trajectory):
        prompt += f"\n\nWhat your last commands showed:\n{seen}"
        if reason.strip():
            prompt += f"\n\nWhy you are writing `{path}` again: {reason.strip()}"
    if said := not_applied(path, trajectory):
        prompt += f"\n\n{NOT_APPLIED.format(path=path, said=said)}"
    return [SystemMessage(system), HumanMessage(prompt)]


def step_range(step: Step, verb: str, path: str) -> tuple[int, int] | None:
    """The lines of ``path`` that a step's ``verb`` (``view``, ``edit``) covered, when it
    covered a range (``view a.py 3-9``)."""
    head = str(step.get("action", "")).split("\n", 1)[0]
    found = re.fullmatch(rf"{verb} {re.escape(path)} (\d+)-(\d+)", head)
    return (int(found[1]), int(found[2])) if found else None


def editable_region(path: str, text: str, trajectory: Sequence[Step], task: str) -> tuple[int, int]:
    """The lines an edit of ``path`` is most likely about: the range last viewed, else the
    lines the last search, traceback or task names in it, else the function or class of it
    that the newest output (or the task) names (its first 80 lines), else the start of the
    file."""
    total = max(len(text.splitlines()), 1)
    if len(text) <= MAX_FILE_CHARS:
        return 1, total
    for step in reversed(trajectory):
        if viewed := step_range(step, "view", path):
            return viewed
        seen = str(step.get("observation", ""))
        if path in seen and (lines := lines_of(path, seen)):
            return max(lines[0] - REGION_LINES // 2, 1), lines[0] + REGION_LINES // 2
    if lines := lines_of(path, task):
        return max(lines[0] - REGION_LINES // 2, 1), lines[0] + REGION_LINES // 2
    for said in (last_output(trajectory), task):  # no line named: the function it names
        if path.endswith(".py") and (named := last_named_definition(text, said)):
            return named[0], min(named[1], named[0] + REGION_LINES * 2 - 1)
    return 1, min(REGION_LINES * 2, total)


def pointed_line(
    path: str, text: str, trajectory: Sequence[Step], task: str, *, newest_only: bool = False
) -> int | None:
    """The line of ``path`` that the newest output points at (the last command's, else the
    task's; the deepest frame of a traceback), or None when no output points into ``path``.
    With ``newest_only`` the task's output counts only before any command has run."""
    total = len(text.splitlines())
    newest = last_output(trajectory)
    for output in (newest,) if newest and newest_only else (newest, task):
        if lines := [n for n in lines_of(path, output) if 1 <= n <= total]:
            return lines[-1]
    return None


def pointed_region(
    path: str, text: str, trajectory: Sequence[Step], task: str
) -> tuple[int, int] | None:
    """A few lines either side of :func:`pointed_line`: what a line edit covers when it names
    no range, or a range that misses the line. None when no output points into ``path``."""
    line = pointed_line(path, text, trajectory, task)
    if line is None:
        return None
    return max(line - POINTED_LINES, 1), min(line + POINTED_LINES, len(text.splitlines()))


def read_since_run(path: str, trajectory: Sequence[Step]) -> bool:
    """Whether the agent viewed or searched ``path`` after the last command it ran (then the
    range it names comes from what it read, not from a guess): a view of that file, or a
    search whose hits hold its numbered lines."""
    for step in reversed(trajectory):
        action = str(step.get("action", ""))
        head = action.split("\n", 1)[0]
        if head == f"view {path}" or head.startswith(f"view {path} "):
            return True
        if head.startswith("search ") and lines_of(path, str(step.get("observation", ""))):
            return True
        if not action.startswith(_NOT_COMMANDS) or CHECKED_MARK in str(step.get("observation")):
            return False
    return False


def edit_messages(
    *,
    task: str,
    path: str,
    text: str,
    region: tuple[int, int],
    by_lines: bool = False,
    reason: str = "",
    trajectory: Sequence[Step] = (),
    memory_prompt: str = "",
) -> list[AnyMessage]:
    """The messages of the call that asks for an edit of ``path`` (``text``: the file now):
    SEARCH/REPLACE blocks, or with ``by_lines`` the new content of the ``region``'s lines."""
    system = WRITER_SYSTEM + (f"\n\n{memory_prompt}" if memory_prompt else "")
    start, end = region
    total = len(text.splitlines())
    end = min(end, total)
    if by_lines:
        request = LINES_REQUEST.format(path=path, start=start, end=end)
        shown = numbered(text, max(start - 10, 1), end + 10)
        where = f"`{path}` around lines {start}-{end} ({total} lines in all), numbered:"
        body = f"{where}\n```\n{shown}\n```"
    else:
        request = EDIT_REQUEST.format(path=path)
        lines = text.splitlines(keepends=True)
        part = "".join(lines[start - 1 : end])
        where = f"`{path}`" + (
            f", lines {start}-{end} of {total}" if (start, end) != (1, total) else ""
        )
        body = f"{where}:\n{fence_file(path, part.rstrip())}"
    prompt = f"{task}\n\n{body}\n\n{request}"
    if reason.strip():
        prompt += f"\n\nWhat to change: {reason.strip()}"
    seen = _seen(trajectory)
    if seen:
        prompt += f"\n\nWhat your last commands showed:\n{seen}"
    if pointed := _pointed_lines(path, text, f"{task}\n{seen}", (start, end)):
        prompt += f"\n\nThe output points at {pointed}"
    if said := not_applied(path, trajectory):
        prompt += f"\n\n{NOT_APPLIED.format(path=path, said=said)}"
    return [SystemMessage(system), HumanMessage(prompt)]


def _pointed_lines(path: str, text: str, output: str, region: tuple[int, int]) -> str:
    """The lines of ``path`` inside ``region`` that ``output`` (a traceback, a test's
    ``path:N``) names, each with its text, the last named first; ``""`` when none."""
    lines = text.splitlines()
    named = list(dict.fromkeys(reversed(lines_of(path, output))))
    shown = [n for n in named if region[0] <= n <= region[1] and n <= len(lines)][:3]
    return "; ".join(f"line {n} of `{path}`: `{lines[n - 1].strip()}`" for n in shown)
