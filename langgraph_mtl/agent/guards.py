"""The act loop's guards: which actions the JSON schema offers at a step, when a submit is
questioned, and when a repeated action is answered differently.

A small model's commonest ways to waste its steps: starting on an input file instead of the
code, rewriting a file it never ran (the rewrite comes out the same), submitting right after a
failing compile or test run, and running the command that just failed again. Each guard turns
one of these into the step that helps.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

from langgraph_mtl.agent.actions import (
    Action,
    AgentAction,
    CheckAction,
    files_to_write,
    first_action_schema,
)
from langgraph_mtl.agent.editing import APPLIED
from langgraph_mtl.agent.prompts import CHECKED_MARK, PROTECTED_MARK
from langgraph_mtl.agent.workspace import has_content, imported_files, is_test_file
from langgraph_mtl.memory.trajectory import Step

__all__ = [
    "INVALID",
    "REPEATED",
    "action_schema",
    "bare_action_word",
    "check_after_change",
    "edited_instead_of_reread",
    "named_check",
    "failed_in_code",
    "missing_path_hint",
    "noted_repeat",
    "questioned_submit",
    "redirected_from_protected",
    "repair_of",
]

INVALID = "(invalid action)"  # how a refused reply is recorded in the trajectory
EARLY_SUBMIT = (
    "you submitted, but nothing in the workspace has changed yet: write or fix the files the "
    "task asks for first (submit again only if the task needs no change)"
)
SUBMIT_AFTER_FAILURE = (
    "you submitted, but your last command failed ({status}): fix what its output shows and "
    "run it again (submit again only if that failure is what the task expects)"
)
REPAIR = "fix what the failing command's output shows"
REPAIR_NOTE = (
    "NOTE: the same failing command again would fail the same way: asked for the file again"
)
REPEATED = (
    "NOTE: this repeats your previous action exactly, so it gives the same result. Do something "
    "different next (fix what the output shows), or submit if the work is done."
)
READ_AGAIN = (
    "NOTE: you read exactly this a moment ago; it has not changed. Change the code now: an "
    "edit of {path} that fixes what the task describes (or read other lines, or run the tests)."
)
LISTED_AGAIN = (
    "NOTE: you listed this folder a moment ago; it has not changed. Open the file to fix "
    "(view PATH, or search for a name), or run the tests."
)
BARE_WORD = "NOTE: `{word}` is not a shell command; the check the task names was run in its place."
NOT_A_COMMAND = (
    "`{word}` is the name of an action, not a shell command: put the command itself in "
    "`command` (the project's test command, for example)"
)
_ACTION_WORDS = frozenset(
    {"run", "check", "test", "tests", "command", "view", "search", "edit", "write_file"}
)
READ_MEMORY = 4  # how many recent steps a repeated read is compared with
READ_THEN_EDITED = (
    "NOTE: this reads again what you read a moment ago, and nothing has changed since; the "
    "output points into {path}, so an edit of it was asked for instead"
)
POINTED_FIX = "fix the line the output points at"
PROTECTED_AGAIN = (
    "NOTE: {path} stays as it is however often a change is asked for (refused before), so the "
    "code it tests was opened in its place: {target}. Fix what the output shows there."
)
_CHECK = re.compile(  # the command a task says to check with
    r"`([^`\n]{3,200})`\s+(?:passes|pass\b|succeeds)|\b(?:run|with)\s+`([^`\n]{3,200})`"
)
_INTERPRETERS = frozenset({"python", "python3", "node", "bash", "sh", "ruby", "perl"})
_FAILED = re.compile(r"^\[(exit code [1-9]\d*|exit code -\d+|timed out)\]", re.MULTILINE)
_NOT_FOUND = re.compile(r"No such file or directory|can't open file|cannot find|not found")
_PATH_WORD = re.compile(r"[\w./-]*\w\.\w{1,8}")  # a word naming a file by its extension
MISSING = "NOTE: there is no {path} in the workspace"
_MISSING_PREFIX = MISSING.split("{", 1)[0]
READ_TEST_AGAIN = (
    "NOTE: you read exactly this a moment ago; it has not changed. {path} is a test: it stays "
    "as it is. Change the code it tests now (an edit of the project's file the output names)."
)
FOUND_NOTHING_AGAIN = (
    "NOTE: you searched for exactly this a moment ago and nothing holds it. Search for one "
    "name instead (a function, a variable, a word of the error), or open a file the task names."
)
GONE_AGAIN = (
    "NOTE: you were just told {path} does not exist; it still does not. Open a file that "
    "exists (view . lists them), or search for a name."
)


def action_schema(
    task: str,
    trajectory: Sequence[Step],
    *,
    unchanged: bool,
    writable: Callable[[list[str]], set[str]] | None = None,
    pointed: Sequence[str] = (),
) -> type[AgentAction]:
    """The JSON schema of the next action: while the workspace is ``unchanged``, a write of a
    file the task asks for that may be written whole (``writable`` picks those: new or short
    files; see :func:`.actions.first_action_schema`), or at the first step an edit of a file
    the task's output points to (``pointed``: its lines were shown); right after a file was
    written or edited (refused replies aside), only a command that checks it, unless the
    task's own check already ran after it; else any action."""
    if unchanged:
        names = files_to_write(task)
        chosen = writable(names) if writable is not None else None
        return first_action_schema(task, chosen, pointed if not trajectory else ())
    last = _last_done(trajectory)
    checked = CHECKED_MARK in last  # the task's check already ran after it
    return CheckAction if APPLIED.search(last) and not checked else AgentAction


def questioned_submit(
    action: Action, trajectory: Sequence[Step], *, unchanged: bool, asked: set[str]
) -> tuple[Action, str | None]:
    """A submit turned into a question, each kind once per run (``asked``: the state flags
    already set): before anything changed (``asked_to_change``), or right after a failing
    command (``asked_after_failure``). Returns the action and the flag to set now, if any."""
    if action.kind != "submit":
        return action, None
    if unchanged and "asked_to_change" not in asked:
        return replace(action, kind="invalid", error=EARLY_SUBMIT), "asked_to_change"
    last = trajectory[-1]["observation"] if trajectory else ""
    if "asked_after_failure" not in asked and (failed := _FAILED.search(last)):
        error = SUBMIT_AFTER_FAILURE.format(status=failed[1])
        return replace(action, kind="invalid", error=error), "asked_after_failure"
    return action, None


def failed_in_code(trajectory: Sequence[Step]) -> bool:
    """Whether the last step carried out was a failing command that the code may have caused:
    not one that failed because a file it named does not exist (no rewrite mends that)."""
    observation = _last_done(trajectory)
    return bool(_FAILED.search(observation)) and _MISSING_PREFIX not in observation


def _last_done(trajectory: Sequence[Step]) -> str:
    """The observation of the last step carried out (refused replies aside), or ``""``."""
    done = (s for s in reversed(trajectory) if not s["action"].startswith(INVALID))
    return next((s["observation"] for s in done), "")


def repair_of(action: Action, trajectory: Sequence[Step]) -> Action:
    """A run of the command that just failed, with nothing changed since, becomes a rewrite
    of the file written last (the writer then sees the failure), unless it failed on a file
    that does not exist; any other action stands."""
    if action.kind != "command" or not trajectory:
        return action
    if trajectory[-1]["action"] != action.command or not failed_in_code(trajectory[-1:]):
        return action
    written = [s["action"] for s in trajectory if s["action"].startswith("write_file ")]
    if not written:
        return action
    path = written[-1].split("\n", 1)[0].removeprefix("write_file ")
    return Action("write", path=path, thought=REPAIR, note=REPAIR_NOTE)


def missing_path_hint(command: str, observation: str, workspace: str | Path) -> str:
    """After a failed command whose output says a file was not found, which file it named
    is missing and where files of that name are (else what the workspace's top holds)."""
    if not _FAILED.search(observation) or not _NOT_FOUND.search(observation):
        return ""
    root = Path(workspace)
    try:
        words = shlex.split(command)
    except ValueError:
        words = command.split()
    missing = [w for w in words if _PATH_WORD.fullmatch(w) and not (root / w).exists()]
    if not missing:
        return ""
    name = Path(missing[0]).name
    same = [
        str(p.relative_to(root))
        for p in sorted(root.rglob(name))
        if not any(part.startswith(".") for part in p.relative_to(root).parts)
    ][:5]
    if not same:
        top = sorted(p.name for p in root.iterdir() if not p.name.startswith("."))[:15]
        where = f"it holds: {', '.join(top) or 'nothing'}"
    else:
        where = f"files named {name}: {', '.join(same)}"
    return f"\n{MISSING.format(path=missing[0])}; {where}."


def check_after_change(task: str, observation: str) -> str | None:
    """After a file was written or edited, the check the task names (``make `CMD` pass``,
    ``so that `CMD` passes``, ``run `CMD```), run at once so the change's effect is in view;
    None when nothing changed or the task names no check."""
    return named_check(task) if APPLIED.search(observation) else None


def named_check(task: str) -> str | None:
    """The command the task says checks the work (``so that `CMD` passes``, ``run `CMD```,
    ``with `CMD```); not a bare interpreter (``try it with `python```), which checks nothing."""
    named = _CHECK.search(task)
    command = (named[1] or named[2]).strip() if named else ""
    return command if command and command not in _INTERPRETERS else None


def bare_action_word(action: Action, task: str) -> Action:
    """A command that is only an action's name (``run``, ``check``: what a small model gives
    when asked for a command to check its change) becomes the check the task names, with a note;
    without one, it is refused with what to give instead. Any other action stands."""
    if action.kind != "command":
        return action
    word = action.command.strip().strip("`'\".:").lower()
    if word not in _ACTION_WORDS:
        return action
    if command := named_check(task):
        return replace(action, command=command, note=BARE_WORD.format(word=word))
    return replace(action, kind="invalid", error=NOT_A_COMMAND.format(word=word))


def noted_repeat(action: Action, trajectory: Sequence[Step]) -> Action:
    """A command or write that repeats the previous step exactly, or a read of what one of the
    last few steps already showed, with a note saying so (and, for a read, what to do)."""
    previous = trajectory[-1]["action"] if trajectory else None
    if action.kind in ("command", "write") and previous == action.describe():
        return replace(action, note=REPEATED)
    if action.kind in ("view", "search"):
        shown = {s["action"]: s["observation"] for s in trajectory[-READ_MEMORY:]}
        if action.describe() in shown:
            return replace(action, note=_read_again(action, shown[action.describe()]))
    return action


def _read_again(action: Action, shown: str) -> str:
    """The note on a read repeated: a folder listed, a file that does not exist, a search that
    found nothing, a test (never to be edited), or a file."""
    if f"[{action.path} is a directory]" in shown:
        return LISTED_AGAIN
    if f"[error] {action.path} does not exist" in shown:  # the note of a repeat comes first
        return GONE_AGAIN.format(path=action.path)
    if action.kind == "search" and "[no file or line holds " in shown:
        return FOUND_NOTHING_AGAIN
    if action.path and is_test_file(action.path):
        return READ_TEST_AGAIN.format(path=action.path)
    return READ_AGAIN.format(path=action.path or "the file")


def redirected_from_protected(action: Action, trajectory: Sequence[Step], workspace: str) -> Action:
    """A change asked for again of a protected file (a test), refused in one of the last few
    steps, becomes a view of the code it tests: of the workspace files it imports, the first
    that a recent output names, else the first that is not empty. Without one it stands."""
    if action.kind not in ("write", "edit") or not action.path:
        return action
    refused = PROTECTED_MARK.format(path=action.path)
    recent = [str(step["observation"]) for step in trajectory[-READ_MEMORY:]]
    if not any(refused in seen for seen in recent):
        return action
    tested = imported_files(workspace, action.path)
    if not tested:
        return action
    outputs = "\n".join(seen for seen in recent if refused not in seen)
    target = min(tested, key=lambda path: (path not in outputs, not has_content(workspace, path)))
    note = PROTECTED_AGAIN.format(path=action.path, target=target)
    return replace(
        action, kind="view", path=target, start=0, end=0, content="", edits=(), note=note
    )


def edited_instead_of_reread(
    action: Action, trajectory: Sequence[Step], pointed: Callable[[], str | None]
) -> Action:
    """A view or search that repeats one of the last few steps exactly, with nothing changed
    since, becomes an edit of the file ``pointed`` gives (the project file the newest output
    points at; looked for only then): reading the same thing again shows nothing new.
    Without such a file it stands."""
    if action.kind not in ("view", "search"):
        return action
    recent = [str(step["action"]) for step in trajectory[-READ_MEMORY:]]
    if action.describe() not in recent:
        return action
    since = trajectory[len(trajectory) - recent[::-1].index(action.describe()) - 1 :]
    if any(APPLIED.search(str(step["observation"])) for step in since):
        return action
    if not (target := pointed()):
        return action
    note = READ_THEN_EDITED.format(path=target)
    return Action("edit", path=target, thought=POINTED_FIX, note=note)
