"""The typed step history: what each act step did and what came of it, as data.

One :class:`StepFacts` per step, computed once when the step is carried out and kept in state
(``state["history"]``, step for step beside the trajectory the memory writer reads). The
loop's rules and policies read these facts, never the text the model was shown, so every
message can be reworded without changing a decision.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypedDict

from langgraph_mtl.agent.actions import Action
from langgraph_mtl.agent.outcomes import Answer, Outcome
from langgraph_mtl.agent.references import file_lines

__all__ = ["StepFacts"]


class Run(TypedDict):
    """A command run after the step by a policy (the task's declared check, say)."""

    command: str
    exit_code: int | None
    timed_out: bool
    output: str


class StepFacts(TypedDict, total=False):
    """One step: the action as data (``kind``; ``action``, the action whole, its identity for
    repeats; ``path``, ``command``, ``lines``: a view's or edit's range), its ``outcome`` and
    ``reason``, a command's ``exit_code`` and ``timed_out``, the answer as the tool gave it
    (``output``) and the places it points at (``pointed``: file and line), the commands run
    after it (``after``) and whether the task's declared check was one (``checked``), a file a
    failed command named that does not exist (``missing``), ``result``: a digest of the answer
    and what ran after (the same digest: the same answer), and the ``policies`` that acted."""

    kind: str
    action: str
    path: str
    command: str
    lines: list[int]
    outcome: Outcome
    reason: str
    exit_code: int | None
    timed_out: bool
    output: str
    pointed: list[tuple[str, int]]
    after: list[Run]
    checked: bool
    missing: str
    result: str
    policies: list[str]


def facts_of(
    action: Action,
    answer: Answer,
    *,
    after: Sequence[Run] = (),
    checked: bool = False,
    missing: str = "",
    policies: Sequence[str] = (),
) -> StepFacts:
    """The facts of a step: ``action`` as carried out, its ``answer`` (a tool's, or what a
    submit or a refused reply was told) and what policies ran or found after it."""
    ranged = action.kind in ("view", "edit") and action.start > 0
    runs_after = list(after)
    said = "\0".join([str(answer), *(run["output"] for run in runs_after)])
    pointed = [*file_lines(str(answer)), *(p for r in runs_after for p in file_lines(r["output"]))]
    return {
        "kind": action.kind,
        "action": action.describe(),
        "path": action.path,
        "command": action.command,
        "lines": [action.start, action.end or action.start] if ranged else [],
        "outcome": answer.outcome,
        "reason": answer.reason,
        "exit_code": answer.exit_code,
        "timed_out": answer.reason == "timed_out",
        "output": str(answer),
        "pointed": pointed,
        "after": runs_after,
        "checked": checked,
        "missing": missing,
        "result": hashlib.sha256(said.encode()).hexdigest()[:16],
        "policies": list(policies),
    }


def failed_status(facts: StepFacts) -> str | None:
    """How the step's command, or the last command run after it, failed (``exit code 2``,
    ``timed out``), or None when none failed."""
    runs_after = facts.get("after", [])
    if runs_after:
        last = runs_after[-1]
        code, timed_out = last["exit_code"], last["timed_out"]
    elif facts.get("kind") == "command" and facts.get("outcome") == "failed":
        code, timed_out = facts.get("exit_code"), bool(facts.get("timed_out"))
    else:
        return None
    if timed_out:
        return "timed out"
    return f"exit code {code}" if code else None


def place(facts: StepFacts) -> tuple[str, str, tuple[int, ...]]:
    """Where a step acted: its kind, path and range (a change of the same place, whatever
    lines it gave)."""
    return facts.get("kind", ""), facts.get("path", ""), tuple(facts.get("lines", ()))


def last_carried_out(history: Sequence[StepFacts]) -> StepFacts | None:
    """The newest step that was carried out (refused replies aside), or None."""
    return next((f for f in reversed(history) if f.get("outcome") != "invalid"), None)


def runs(history: Sequence[StepFacts]) -> list[tuple[str, str]]:
    """Each command run and what it printed, oldest first: the agent's commands and those run
    after a step (the task's check)."""
    found = []
    for facts in history:
        if facts.get("kind") == "command" and facts.get("outcome") in ("done", "failed"):
            found.append((facts.get("command", ""), facts.get("output", "")))
        found.extend((run["command"], run["output"]) for run in facts.get("after", []))
    return found


def last_output(history: Sequence[StepFacts]) -> str:
    """What the last command run printed ("" before any)."""
    found = runs(history)
    return found[-1][1] if found else ""
