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

from collections.abc import Sequence
from pathlib import Path

from langchain_core.messages import AnyMessage, HumanMessage, SystemMessage

from langgraph_mtl.agent.fences import fence_file
from langgraph_mtl.agent.history import StepFacts, last_output, runs
from langgraph_mtl.agent.prompts import (
    CONTENT_REQUEST,
    EDIT_REQUEST,
    LINES_REQUEST,
    NOT_APPLIED,
    WRITER_SYSTEM,
)
from langgraph_mtl.agent.references import lines_of
from langgraph_mtl.agent.text_files import read_text
from langgraph_mtl.agent.tuning import TUNING
from langgraph_mtl.agent.workspace import last_named_definition, numbered

__all__ = ["writer_messages"]


def current_text(workspace: str, path: str, *, limit: int | None = TUNING.max_rewrite_chars) -> str:
    """The file's text as it is now ("" when missing, binary or longer than ``limit``)."""
    target = Path(workspace) / path
    text = (read_text(target) or "") if target.is_file() else ""
    return text if limit is None or len(text) <= limit else ""


def not_applied(path: str, history: Sequence[StepFacts]) -> StepFacts | None:
    """The newest step, when it was a change of ``path`` not applied (refused, or changing
    nothing); else None. Its answer is shown in the next call for the file, so a model at
    temperature 0 is not asked the same question twice."""
    if not history:
        return None
    last = history[-1]
    if last.get("kind") not in ("edit", "write") or last.get("path") != path:
        return None
    return last if last.get("outcome") in ("refused", "unchanged") else None


def _said(facts: StepFacts | None) -> str:
    """The answer a change not applied got, as the tool gave it (its first line)."""
    return facts.get("output", "").split("\n", 1)[0] if facts else ""


def _seen(history: Sequence[StepFacts], last: int = 2) -> str:
    """What the last commands printed, newest last (see :func:`.history.runs`)."""
    parts = []
    for command, output in runs(history)[-last:]:
        parts.append(f"$ {command[:300]}\n{output[-TUNING.max_seen_chars :]}")
    return "\n\n".join(parts)


def writer_messages(
    *,
    task: str,
    path: str,
    current: str = "",
    reason: str = "",
    history: Sequence[StepFacts] = (),
    memory_prompt: str = "",
) -> list[AnyMessage]:
    """The messages of the call that writes ``path``'s complete content (``current``: its
    text now; ``history``: the run's steps so far)."""
    system = WRITER_SYSTEM + (f"\n\n{memory_prompt}" if memory_prompt else "")
    prompt = f"{task}\n\n{CONTENT_REQUEST.format(path=path)}"
    if current:
        prompt += f"\n\nThe current `{path}`:\n{fence_file(path, current)}"
    if seen := _seen(history):
        prompt += f"\n\nWhat your last commands showed:\n{seen}"
        if reason.strip():
            prompt += f"\n\nWhy you are writing `{path}` again: {reason.strip()}"
    if said := _said(not_applied(path, history)):
        prompt += f"\n\n{NOT_APPLIED.format(path=path, said=said)}"
    return [SystemMessage(system), HumanMessage(prompt)]


def step_range(facts: StepFacts, kind: str, path: str) -> tuple[int, int] | None:
    """The lines of ``path`` that a step of ``kind`` (``view``, ``edit``) covered, when it
    covered a range."""
    lines = facts.get("lines") or []
    if facts.get("kind") != kind or facts.get("path") != path or len(lines) != 2:
        return None
    return lines[0], lines[1]


def pointed_into(facts: StepFacts, path: str) -> list[int]:
    """The lines of ``path`` that a step's output points at, in order."""
    return [n for name, n in facts.get("pointed", []) if name == path or name.endswith(f"/{path}")]


def editable_region(
    path: str, text: str, history: Sequence[StepFacts], task: str
) -> tuple[int, int]:
    """The lines an edit of ``path`` is most likely about: the range last viewed, else the
    lines the last search, traceback or task names in it, else the function or class of it
    that the newest output (or the task) names (its first 80 lines), else the start of the
    file."""
    total = max(len(text.splitlines()), 1)
    if len(text) <= TUNING.max_rewrite_chars:
        return 1, total
    for facts in reversed(history):
        if viewed := step_range(facts, "view", path):
            return viewed
        if lines := pointed_into(facts, path):
            return max(lines[0] - TUNING.region_lines // 2, 1), lines[0] + TUNING.region_lines // 2
    if lines := lines_of(path, task):
        return max(lines[0] - TUNING.region_lines // 2, 1), lines[0] + TUNING.region_lines // 2
    for said in (last_output(history), task):  # no line named: the function it names
        if path.endswith(".py") and (named := last_named_definition(text, said)):
            return named[0], min(named[1], named[0] + TUNING.region_lines * 2 - 1)
    return 1, min(TUNING.region_lines * 2, total)


def pointed_line(
    path: str, text: str, history: Sequence[StepFacts], task: str, *, newest_only: bool = False
) -> int | None:
    """The line of ``path`` that the newest output points at (the last command's, else the
    task's; the deepest frame of a traceback), or None when no output points into ``path``.
    With ``newest_only`` the task's output counts only before any command has run."""
    total = len(text.splitlines())
    newest = last_output(history)
    for output in (newest,) if newest and newest_only else (newest, task):
        if lines := [n for n in lines_of(path, output) if 1 <= n <= total]:
            return lines[-1]
    return None


def pointed_region(
    path: str, text: str, history: Sequence[StepFacts], task: str
) -> tuple[int, int] | None:
    """A few lines either side of :func:`pointed_line`: what a line edit covers when it names
    no range, or a range that misses the line. None when no output points into ``path``."""
    line = pointed_line(path, text, history, task)
    if line is None:
        return None
    return max(line - TUNING.pointed_lines, 1), min(
        line + TUNING.pointed_lines, len(text.splitlines())
    )


def read_since_run(path: str, history: Sequence[StepFacts]) -> bool:
    """Whether the agent viewed or searched ``path`` after the last command it ran (then the
    range it names comes from what it read, not from a guess): a view of that file, or a
    search whose hits hold its numbered lines."""
    for facts in reversed(history):
        kind = facts.get("kind")
        if kind == "view" and facts.get("path") == path:
            return True
        if kind == "search" and pointed_into(facts, path):
            return True
        if kind == "command" or facts.get("after"):
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
    history: Sequence[StepFacts] = (),
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
    seen = _seen(history)
    if seen:
        prompt += f"\n\nWhat your last commands showed:\n{seen}"
    if pointed := _pointed_lines(path, text, f"{task}\n{seen}", (start, end)):
        prompt += f"\n\nThe output points at {pointed}"
    if said := _said(not_applied(path, history)):
        prompt += f"\n\n{NOT_APPLIED.format(path=path, said=said)}"
    return [SystemMessage(system), HumanMessage(prompt)]


def _pointed_lines(path: str, text: str, output: str, region: tuple[int, int]) -> str:
    """The lines of ``path`` inside ``region`` that ``output`` (a traceback, a test's
    ``path:N``) names, each with its text, the last named first; ``""`` when none."""
    lines = text.splitlines()
    named = list(dict.fromkeys(reversed(lines_of(path, output))))
    shown = [n for n in named if region[0] <= n <= region[1] and n <= len(lines)][:3]
    return "; ".join(f"line {n} of `{path}`: `{lines[n - 1].strip()}`" for n in shown)
