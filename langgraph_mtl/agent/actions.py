"""The agent's actions and the JSON schema that asks for one.

An action runs a command, looks at a file (numbered lines, an outline), searches the
workspace, changes a file (a whole new or short file, or an edit of part of one) or submits.
Three protocols ask for one (``json``: schema-constrained structured output; ``tools``: native
tool calls; ``text``: a fenced block per reply, see :mod:`.replies`); every protocol yields the
same :class:`Action`, carried out by one executor (:func:`.tools.execute_action`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, Field

from langgraph_mtl.agent.editing import Replacement
from langgraph_mtl.agent.prompts import SUBMIT_WORD
from langgraph_mtl.agent.tuning import TUNING
from langgraph_mtl.agent.workspace import is_test_file

__all__: list[str] = []  # used within the agent package only


ActionKind = Literal["command", "write", "view", "search", "edit", "submit", "invalid"]


class AgentAction(BaseModel):
    """The coding agent's next action. Choose exactly one: "write_file" writes a whole new or
    short file at `path` (you are then asked for its content), "view" shows lines `start`-`end`
    of the file at `path`, "search" finds files and lines holding `query` (in `path`, or
    everywhere), "edit" changes part of the existing file at `path` (you are then asked for the
    lines to replace), "run" runs one shell `command` in the workspace, "submit" finishes the
    task once the work is done and checked."""

    thought: str = Field(description="One short sentence: why this action.", max_length=200)
    action: Literal["write_file", "view", "search", "edit", "run", "submit"] = Field(
        description="What to do."
    )
    path: str = Field(default="", description="The file (or folder) it is about.", max_length=200)
    start: int = Field(default=0, description="view or edit: the first line.", ge=0)
    end: int = Field(default=0, description="view or edit: the last line.", ge=0)
    query: str = Field(default="", description="search: the text to find.", max_length=200)
    command: str = Field(
        default="", description="run: one shell command.", max_length=TUNING.max_command
    )


class FirstAction(AgentAction):
    """The coding agent's first move, while nothing in the workspace has changed: write the
    file the task is about (`path`; you are then asked for its complete content, seeing the
    file as it is). Running and submitting come after."""

    action: Literal["write_file"] = Field(description="What to do.")


class FirstEdit(AgentAction):
    """The coding agent's first move when the lines the task's output points to are shown
    above: change them with an edit of `path` (you are then asked for the exact lines to
    replace and their replacement). Reading more, running and submitting come after."""

    action: Literal["edit"] = Field(description="What to do.")


class CheckAction(AgentAction):
    """The coding agent's move right after changing a file: run one shell `command` that checks
    it (compile it, run it on an example, run the tests). Changing files again and submitting
    come after the check."""

    action: Literal["run"] = Field(description="What to do.")


CODE_FILE = re.compile(
    r"(?<![\w./-])((?:[\w-]+/)*[\w-]+\.(?:py|sh|bash|rs|sv|v|js|ts|go|c|h|cc|cpp|java|rb|sql|r|jl))"
    r"(?![\w/-])"
)
_WRITE_VERB = re.compile(
    r"\b(write|implement|complete|fix|create|edit|change|modify|update)\b", re.I
)
_SENTENCE_END = re.compile(r"(?<=[.!?:])\s+|\n")


def files_to_write(task: str) -> list[str]:
    """The code files ``task`` asks to write: those it names in a sentence that asks for a
    change (``Implement the function in solution.py``), else all it names; never a test file
    (``test_x.py``, ``tests/...``), which a task names to be run, not changed."""
    named = {n for n in CODE_FILE.findall(task) if not is_test_file(n)}
    asked = {
        name
        for sentence in _SENTENCE_END.split(task)
        if _WRITE_VERB.search(sentence)
        for name in CODE_FILE.findall(sentence)
    }
    return sorted((asked & named) or named)


def first_action_schema(
    task: str, writable: set[str] | None = None, pointed: Sequence[str] = ()
) -> type[AgentAction]:
    """The first action's schema for ``task``: a write_file of one of :func:`files_to_write`
    that may be written whole (``writable``: new or short files; all when ``None``), so a small
    model starts on the code and not by overwriting an input file or a test; else an edit of
    one of the ``pointed`` files (whose lines the task's output points to, already shown); else
    any action."""
    names = [n for n in files_to_write(task) if writable is None or n in writable]
    base: type[AgentAction] = FirstAction
    about = "The file to write."
    if not names:
        if not pointed:
            return AgentAction
        base, names, about = FirstEdit, list(pointed), "The file to change."
    namespace = {
        "__doc__": base.__doc__,
        "__annotations__": {"path": Literal[tuple(names)]},
        "path": Field(description=about),
    }
    return type(base.__name__, (base,), namespace)


@dataclass(frozen=True)
class Action:
    """A parsed reply: an action to carry out, or a protocol error to report (``invalid``)."""

    kind: ActionKind
    command: str = ""
    error: str = ""
    reason: str = ""  # an invalid action's cause as a short code ("cut_off", "asked_to_change")
    thought: str = ""
    tool_call_id: str | None = None
    note: str = ""
    path: str = ""
    content: str = ""
    start: int = 0
    end: int = 0
    query: str = ""
    edits: tuple[Replacement, ...] = ()

    def describe(self) -> str:
        """The action as the trajectory records it (one line, or a write with its content)."""
        if self.kind == "write":
            return f"write_file {self.path}\n{self.content}"
        if self.kind == "view":
            span = f" {self.start}-{self.end or self.start}" if self.start else ""
            return f"view {self.path}{span}"
        if self.kind == "search":
            return f"search {self.query!r}" + (f" in {self.path}" if self.path else "")
        if self.kind == "edit":
            if self.edits:
                blocks = "".join(
                    f"<<<<<<< SEARCH\n{e.old}=======\n{e.new}>>>>>>> REPLACE\n" for e in self.edits
                )
                return f"edit {self.path}\n{blocks}"
            return f"edit {self.path} {self.start}-{self.end}\n{self.content}"
        return SUBMIT_WORD if self.kind == "submit" else self.command


def _bad_path(kind: str, path: str) -> str | None:
    if not path:
        return f"{kind} needs a path"
    if any(ord(ch) < 32 for ch in path) or "```" in path:
        return f"{kind}'s path must be one file name, like count.sh, not its content"
    return None


def from_agent_action(action: AgentAction) -> Action:
    """The :class:`Action` of a structured reply (fields the action does not use are ignored)."""
    thought, path = action.thought.strip(), action.path.strip()
    kind = action.action
    if kind == "submit":
        return Action("submit", thought=thought)
    if kind == "run":
        if not action.command.strip():
            return Action("invalid", error="run needs a command", thought=thought)
        return Action("command", command=action.command.strip(), thought=thought)
    if kind == "search":
        if not action.query.strip():
            return Action("invalid", error="search needs a query", thought=thought)
        return Action("search", query=action.query.strip(), path=path, thought=thought)
    if problem := _bad_path(kind, path):
        return Action("invalid", error=problem, thought=thought)
    if kind == "write_file":
        return Action("write", path=path, thought=thought)
    start, end = action.start, max(action.end, action.start)
    if kind == "view":
        return Action("view", path=path, start=start, end=end, thought=thought)
    return Action("edit", path=path, start=start, end=end, thought=thought)
