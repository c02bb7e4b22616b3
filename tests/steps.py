"""Typed steps for tests of the agent's rules: real actions and answers made into facts."""

from __future__ import annotations

from langgraph_mtl.agent.actions import Action
from langgraph_mtl.agent.history import Run, StepFacts, facts_of
from langgraph_mtl.agent.outcomes import Answer, Outcome


def ran(command: str, output: str = "", code: int = 1, **more: object) -> StepFacts:
    """A command that exited ``code`` after printing ``output``."""
    status = f"[exit code {code}]"
    answer = Answer(
        f"{status}\n{output}" if output else f"{status} (no output)",
        "done" if code == 0 else "failed",
        exit_code=code,
        output=output,
    )
    return facts_of(Action("command", command=command), answer, **more)  # type: ignore[arg-type]


def viewed(path: str, text: str = "", start: int = 0, end: int = 0, reason: str = "") -> StepFacts:
    """A view of ``path`` that answered ``text`` (``reason``: "missing", "directory")."""
    outcome: Outcome = "failed" if reason == "missing" else "done"
    action = Action("view", path=path, start=start, end=end)
    return facts_of(action, Answer(text or f"[{path}]", outcome, reason))


def searched(query: str, text: str = "", reason: str = "") -> StepFacts:
    """A search for ``query`` that answered ``text`` (``reason``: "no_hits")."""
    return facts_of(Action("search", query=query), Answer(text, "done", reason))


def changed(
    kind: str,
    path: str,
    outcome: Outcome = "applied",
    reason: str = "",
    *,
    start: int = 0,
    end: int = 0,
    content: str = "x\n",
    text: str = "",
    after: list[Run] | None = None,
    checked: bool = False,
) -> StepFacts:
    """A write or edit of ``path`` and what came of it."""
    action = Action(kind, path=path, start=start, end=end, content=content)  # type: ignore[arg-type]
    answer = Answer(text or f"[{outcome} {path}]", outcome, reason)
    return facts_of(action, answer, after=after or [], checked=checked)


def check_run(command: str, output: str = "", code: int = 0) -> Run:
    """A command a policy ran after a step."""
    status = f"[exit code {code}]"
    return {
        "command": command,
        "exit_code": code,
        "timed_out": False,
        "output": f"{status}\n{output}" if output else f"{status} (no output)",
    }


def invalid(reason: str = "format") -> StepFacts:
    """A refused reply."""
    return facts_of(Action("invalid", reason=reason), Answer("INVALID", "invalid", reason))
