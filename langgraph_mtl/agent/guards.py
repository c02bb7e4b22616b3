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
from langgraph_mtl.agent.history import StepFacts, failed_status, last_carried_out
from langgraph_mtl.agent.outcomes import Answer
from langgraph_mtl.agent.tuning import TUNING
from langgraph_mtl.agent.workspace import has_content, imported_files, is_test_file

__all__: list[str] = []  # used within the agent package only

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
# the notes say what any task allows next; the check is named only when the task declares one
REPEATED = (
    "NOTE: this repeats your previous action exactly, so it gives the same result. Do something "
    "different next, or submit if the work is done."
)
READ_AGAIN = (
    "NOTE: you read exactly this a moment ago; it has not changed. Act on it now: change {path} "
    "where the task needs it, write what the task asks for, or read other lines{check}."
)
LISTED_AGAIN = (
    "NOTE: you listed this folder a moment ago; it has not changed. Open a file (view PATH), "
    "search for a name, or write what the task asks for{check}."
)
OR_CHECK = ", or run the task's check (`{check}`)"
BARE_WORD = "NOTE: `{word}` is not a shell command; the task's check was run in its place."
NOT_A_COMMAND = (
    "`{word}` is the name of an action, not a shell command: put the command itself in "
    "`command` (the project's test command, for example)"
)
_ACTION_WORDS = frozenset(
    {"run", "check", "test", "tests", "command", "view", "search", "edit", "write_file"}
)
READ_THEN_EDITED = (
    "NOTE: this reads again what you read a moment ago, and nothing has changed since; the "
    "output points into {path}, so an edit of it was asked for instead"
)
POINTED_FIX = "fix the line the output points at"
PROTECTED_AGAIN = (
    "NOTE: {path} stays as it is however often a change is asked for (refused before), so the "
    "code it tests was opened in its place: {target}. Fix what the output shows there."
)
_NOT_FOUND = re.compile(r"No such file or directory|can't open file|cannot find|not found")
_PATH_WORD = re.compile(r"[\w./-]*\w\.\w{1,8}")  # a word naming a file by its extension
MISSING = "NOTE: there is no {path} in the workspace"
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
    history: Sequence[StepFacts],
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
        return first_action_schema(task, chosen, pointed if not history else ())
    last = last_carried_out(history)
    if last and last.get("outcome") == "applied" and not last.get("checked"):
        return CheckAction
    return AgentAction


def questioned_submit(
    action: Action, history: Sequence[StepFacts], *, unchanged: bool, asked: set[str]
) -> Action:
    """A submit turned into a question, each kind once per run (``asked``: the questions
    already asked): before anything changed (reason ``asked_to_change``), or right after a
    failing command (``asked_after_failure``). The question asked is the action's reason."""
    if action.kind != "submit":
        return action
    if unchanged and "asked_to_change" not in asked:
        return replace(action, kind="invalid", error=EARLY_SUBMIT, reason="asked_to_change")
    status = failed_status(history[-1]) if history else None
    if "asked_after_failure" not in asked and status:
        error = SUBMIT_AFTER_FAILURE.format(status=status)
        return replace(action, kind="invalid", error=error, reason="asked_after_failure")
    return action


def failed_in_code(history: Sequence[StepFacts]) -> bool:
    """Whether the last step carried out was a failing command that the code may have caused:
    not one that failed because a file it named does not exist (no rewrite mends that)."""
    last = last_carried_out(history)
    return bool(last and failed_status(last) and not last.get("missing"))


def repair_of(action: Action, history: Sequence[StepFacts]) -> Action:
    """A run of the command that just failed, with nothing changed since, becomes a rewrite
    of the file written last (the writer then sees the failure), unless it failed on a file
    that does not exist; any other action stands."""
    if action.kind != "command" or not history:
        return action
    last = history[-1]
    if last.get("kind") != "command" or last.get("command") != action.command:
        return action
    if not failed_in_code(history[-1:]):
        return action
    written = [f.get("path", "") for f in history if f.get("kind") == "write"]
    if not written:
        return action
    return Action("write", path=written[-1], thought=REPAIR, note=REPAIR_NOTE)


def missing_path_hint(command: str, answer: Answer, workspace: str | Path) -> tuple[str, str]:
    """After a failed command whose output says a file was not found, which file it named
    is missing and where files of that name are (else what the workspace's top holds): the
    note and the missing path, or ``("", "")``."""
    if answer.outcome != "failed" or not _NOT_FOUND.search(answer.output):
        return "", ""
    root = Path(workspace)
    try:
        words = shlex.split(command)
    except ValueError:
        words = command.split()
    missing = [w for w in words if _PATH_WORD.fullmatch(w) and not (root / w).exists()]
    if not missing:
        return "", ""
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
    return f"{MISSING.format(path=missing[0])}; {where}.", missing[0]


def bare_action_word(action: Action, check: str | None) -> Action:
    """A command that is only an action's name (``run``, ``check``: what a small model gives
    when asked for a command to check its change) becomes the task's declared ``check``, with a
    note; without one, it is refused with what to give instead. Any other action stands."""
    if action.kind != "command":
        return action
    word = action.command.strip().strip("`'\".:").lower()
    if word not in _ACTION_WORDS:
        return action
    if check:
        return replace(action, command=check, note=BARE_WORD.format(word=word))
    return replace(action, kind="invalid", error=NOT_A_COMMAND.format(word=word))


def noted_repeat(action: Action, history: Sequence[StepFacts], check: str | None = None) -> Action:
    """A command or write that repeats the previous step exactly, or a read of what one of the
    last few steps already showed, with a note saying so (and, for a read, what to do next:
    the task's ``check`` is named only when it declares one)."""
    previous = history[-1].get("action") if history else None
    if action.kind in ("command", "write") and previous == action.describe():
        return replace(action, note=REPEATED)
    if action.kind in ("view", "search"):
        shown = {f.get("action"): f for f in history[-TUNING.read_memory :]}
        if (facts := shown.get(action.describe())) is not None:
            return replace(action, note=_read_again(action, facts, check))
    return action


def _read_again(action: Action, shown: StepFacts, check: str | None) -> str:
    """The note on a read repeated: a folder listed, a file that does not exist, a search that
    found nothing, a test (never to be edited), or a file."""
    reason = shown.get("reason")
    or_check = OR_CHECK.format(check=check) if check else ""
    if reason == "directory":
        return LISTED_AGAIN.format(check=or_check)
    if reason == "missing":
        return GONE_AGAIN.format(path=action.path)
    if action.kind == "search" and reason == "no_hits":
        return FOUND_NOTHING_AGAIN
    if action.path and is_test_file(action.path):
        return READ_TEST_AGAIN.format(path=action.path)
    return READ_AGAIN.format(path=action.path or "the file", check=or_check)


def redirected_from_protected(
    action: Action, history: Sequence[StepFacts], workspace: str
) -> Action:
    """A change asked for again of a protected file (a test), refused in one of the last few
    steps, becomes a view of the code it tests: of the workspace files it imports, the first
    that a recent output names, else the first that is not empty. Without one it stands."""
    if action.kind not in ("write", "edit") or not action.path:
        return action
    recent = history[-TUNING.read_memory :]

    def refusal(facts: StepFacts) -> bool:
        return facts.get("reason") == "protected" and facts.get("path") == action.path

    if not any(refusal(facts) for facts in recent):
        return action
    tested = imported_files(workspace, action.path)
    if not tested:
        return action
    outputs = "\n".join(f.get("output", "") for f in recent if not refusal(f))
    target = min(tested, key=lambda path: (path not in outputs, not has_content(workspace, path)))
    note = PROTECTED_AGAIN.format(path=action.path, target=target)
    return replace(
        action, kind="view", path=target, start=0, end=0, content="", edits=(), note=note
    )


def edited_instead_of_reread(
    action: Action, history: Sequence[StepFacts], pointed: Callable[[], str | None]
) -> Action:
    """A view or search that repeats one of the last few steps exactly, with nothing changed
    since, becomes an edit of the file ``pointed`` gives (the project file the newest output
    points at; looked for only then): reading the same thing again shows nothing new.
    Without such a file it stands."""
    if action.kind not in ("view", "search"):
        return action
    recent = [f.get("action") for f in history[-TUNING.read_memory :]]
    if action.describe() not in recent:
        return action
    since = history[len(history) - recent[::-1].index(action.describe()) - 1 :]
    if any(facts.get("outcome") == "applied" for facts in since):
        return action
    if not (target := pointed()):
        return action
    note = READ_THEN_EDITED.format(path=target)
    return Action("edit", path=target, thought=POINTED_FIX, note=note)
