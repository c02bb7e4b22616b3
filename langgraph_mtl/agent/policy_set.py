"""The agent's policies, one class per rule family, and the presets that group them.

| preset | policies |
|---|---|
| ``"bare"`` (:data:`BARE`) | none: the loop alone, for capable models and ablations |
| ``"safe-edits"`` (:data:`SAFE_EDITS`) | :class:`SafeEdits` |
| ``"small-model"`` (:data:`SMALL_MODEL`) | every policy below, in this order |

``create_coding_agent(policies="auto")`` (the default) gives a model that calls tools natively
the safe edits only, and any other model (schema-constrained JSON, or text) the small-model
preset.
"""

from __future__ import annotations

from collections.abc import Sequence

from langgraph_mtl.agent.actions import Action, AgentAction
from langgraph_mtl.agent.briefing import last_pointed_file, named_file, pointed_files
from langgraph_mtl.agent.edit_regions import steered_region
from langgraph_mtl.agent.guards import (
    action_schema,
    bare_action_word,
    edited_instead_of_reread,
    failed_in_code,
    missing_path_hint,
    noted_repeat,
    questioned_submit,
    redirected_from_protected,
    repair_of,
)
from langgraph_mtl.agent.history import Run, StepFacts, last_output
from langgraph_mtl.agent.idle_runs import idle_check
from langgraph_mtl.agent.loops import stuck
from langgraph_mtl.agent.outcomes import Answer
from langgraph_mtl.agent.policies import AfterTool, Policy, StepView
from langgraph_mtl.agent.prompts import CHECK_PASSED, CHECKED, SAME_FILE
from langgraph_mtl.agent.sandbox import CommandResult
from langgraph_mtl.agent.tuning import TUNING
from langgraph_mtl.agent.writing import current_text

__all__ = [
    "BARE",
    "PRESETS",
    "SAFE_EDITS",
    "SMALL_MODEL",
    "AskAgainOnSameFile",
    "CommandWord",
    "EditInsteadOfReread",
    "EditRegion",
    "EndOnGreen",
    "IdleRunCheck",
    "MissingPathHint",
    "NarrowSchema",
    "NoteRepeats",
    "QuestionSubmit",
    "RedirectFromProtected",
    "RepairFailedRun",
    "SafeEdits",
    "StopWhenStuck",
]


class SafeEdits(Policy):
    """A change that would break its file is refused with why, nothing written: Python that no
    longer compiles, a top-level definition dropped, a placeholder (``# ... rest unchanged``)
    where code was, a long file rewritten whole unseen (asked for as an edit instead), and a
    command whose ``>`` would empty a file it reads."""

    name = "safe-edits"
    guards_changes = True


class NarrowSchema(Policy):
    """A small model's first move is often reading or overwriting an input, and after a change
    it submits unchecked: while nothing has changed the JSON schema offers only a write of a
    file the task asks for (or an edit of a file its output points into), and right after a
    change only a command that checks it."""

    name = "narrow-schema"

    def narrow_schema(self, schema: type[AgentAction], view: StepView) -> type[AgentAction]:
        def writable(names: list[str]) -> set[str]:
            return {
                n
                for n in names
                if len(current_text(view.workspace, n, limit=None)) <= TUNING.max_rewrite_chars
                and not view.box.protects(n)
            }

        return action_schema(
            view.task,
            view.history,
            unchanged=view.unchanged,
            writable=writable,
            pointed=pointed_files(view.task, view.workspace),
        )


class RepairFailedRun(Policy):
    """At temperature 0 a model runs the command that just failed again, unchanged: that run
    becomes a rewrite of the file written last, with the failure in view."""

    name = "repair-failed-run"

    def after_model(self, action: Action, view: StepView) -> Action:
        return repair_of(action, view.history)


class EditInsteadOfReread(Policy):
    """A model rereads what it read a moment ago, nothing changed since: the reread becomes an
    edit of the project file the newest output points at."""

    name = "edit-instead-of-reread"

    def after_model(self, action: Action, view: StepView) -> Action:
        def pointed() -> str | None:
            return (
                last_pointed_file(last_output(view.history), view.workspace)
                or last_pointed_file(view.task, view.workspace)
                or named_file(view.task, view.workspace)
            )

        return edited_instead_of_reread(action, view.history, pointed)


class EditRegion(Policy):
    """A small model names lines away from the fault, asks for more lines than one reply can
    hold, or gets the same lines back unchanged: the line edit is asked for the lines around
    the line the output points at, fewer lines after a reply was cut off, other lines after
    an unchanged reply, the whole statement after one that would not compile."""

    name = "edit-region"

    def edit_region(
        self, action: Action, text: str, region: tuple[int, int] | None, view: StepView
    ) -> tuple[Action, tuple[int, int] | None]:
        return steered_region(action, text, region, view.history, view.task)


class AskAgainOnSameFile(Policy):
    """After a failure the code may cause, a model at temperature 0 gives the file back as it
    is: the focused call is asked once more, told so."""

    name = "ask-again-on-same-file"

    def ask_again(self, path: str, view: StepView) -> str | None:
        return SAME_FILE.format(path=path) if failed_in_code(view.history) else None


class QuestionSubmit(Policy):
    """A small model submits before changing anything, or right after a failing command: each
    kind of submit is turned into a question once per run."""

    name = "question-submit"

    def before_tool(self, action: Action, view: StepView) -> Action:
        if action.kind != "submit":
            return action
        return questioned_submit(
            action, view.history, unchanged=view.unchanged, asked=set(view.asked)
        )


class CommandWord(Policy):
    """Asked for a command that checks its change, a small model gives an action's name
    (``run``, ``test``): it becomes the task's declared check, or is refused with what to give."""

    name = "command-word"

    def before_tool(self, action: Action, view: StepView) -> Action:
        return bare_action_word(action, view.check)


class NoteRepeats(Policy):
    """A model repeats its previous command or write, or rereads what it just read: the step
    is noted as a repeat, with what to do instead."""

    name = "note-repeats"

    def before_tool(self, action: Action, view: StepView) -> Action:
        return noted_repeat(action, view.history, view.check)


class RedirectFromProtected(Policy):
    """A model keeps asking to change a protected test: after one refusal, the request becomes a
    view of the code the test imports."""

    name = "redirect-from-protected"

    def before_tool(self, action: Action, view: StepView) -> Action:
        return redirected_from_protected(action, view.history, view.workspace)


def _run(command: str, result: CommandResult) -> Run:
    return {
        "command": command,
        "exit_code": result.exit_code,
        "timed_out": result.timed_out,
        "output": result.render(),
    }


class EndOnGreen(Policy):
    """A model that fixed the code rarely runs the check, or keeps changing code that already
    passes: after each change applied the task's declared check (``AgentContext.check``)
    runs at once, and the run ends when it passes."""

    name = "end-on-green"

    def after_tool(self, action: Action, answer: Answer, view: StepView, added: AfterTool) -> None:
        if answer.outcome != "applied" or not view.check:
            return
        result = view.box.run(view.check)
        added.runs.append(_run(view.check, result))
        added.checked = True
        said = f"{CHECKED.format(command=view.check)}\n{result.render()}"
        if result.exit_code == 0:  # what the task asked for holds: done
            said, added.ends = f"{said.rstrip()}\n{CHECK_PASSED}", True
        added.notes.append(said)


class MissingPathHint(Policy):
    """A command fails on a file that does not exist (a guessed path): the answer says which
    file is missing and where files of that name are."""

    name = "missing-path-hint"

    def after_tool(self, action: Action, answer: Answer, view: StepView, added: AfterTool) -> None:
        if action.kind != "command":
            return
        note, missing = missing_path_hint(action.command, answer, view.workspace)
        if note:
            added.notes.append(note)
            added.missing = missing


class IdleRunCheck(Policy):
    """A model checks a file of functions by running it (``python solution.py``), which calls
    nothing and checks nothing: its docstring examples or the task's example calls are run
    in its place."""

    name = "idle-run-check"

    def after_tool(self, action: Action, answer: Answer, view: StepView, added: AfterTool) -> None:
        if action.kind != "command":
            return
        idle = idle_check(action.command, answer, view.workspace, view.task)
        if idle is None:
            return
        said = idle.note
        if idle.command:
            result = view.box.run(idle.command)
            added.runs.append(_run(idle.command, result))
            said += f"\n{result.render()}"
        added.notes.append(said)


class StopWhenStuck(Policy):
    """A model loops: the same action thrice, the same refused change thrice, or a round of
    actions repeated with the same results. The run ends there instead of at the step limit."""

    name = "stop-when-stuck"

    def should_end(self, history: Sequence[StepFacts]) -> bool:
        return stuck(history)


BARE: tuple[Policy, ...] = ()
SAFE_EDITS: tuple[Policy, ...] = (SafeEdits(),)
SMALL_MODEL: tuple[Policy, ...] = (
    SafeEdits(),
    NarrowSchema(),
    RepairFailedRun(),
    EditInsteadOfReread(),
    EditRegion(),
    AskAgainOnSameFile(),
    QuestionSubmit(),
    CommandWord(),
    NoteRepeats(),
    RedirectFromProtected(),
    EndOnGreen(),
    MissingPathHint(),
    IdleRunCheck(),
    StopWhenStuck(),
)
PRESETS: dict[str, tuple[Policy, ...]] = {
    "bare": BARE,
    "safe-edits": SAFE_EDITS,
    "small-model": SMALL_MODEL,
}
