"""Where the act loop goes next: another step, or the finish.

The loop ends when the agent submits, when the run's step limit is reached, after too many
invalid replies in a row, and when it is stuck: the same action three times in a row; within
the last six steps, with no change applied between them, the same action three times with the
same answer, or the same change of the same place refused (or changing nothing) three times
with the same answer however its lines differ; or a round of actions done twice over with the
same results (reading and rewriting the same thing, say).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from langgraph.runtime import Runtime

from langgraph_mtl.agent.editing import APPLIED, not_applied_line
from langgraph_mtl.agent.setup import AgentSetup
from langgraph_mtl.agent.state import AgentContext, CodingAgentState
from langgraph_mtl.memory.trajectory import Step

__all__ = ["RouteAfterAct", "stuck"]


LONGEST_CYCLE = 4  # steps in the longest round of actions that is noticed repeating
RECENT = 6  # steps in which a third repeat with nothing changed between is noticed


def stuck(trajectory: list[Step]) -> bool:
    """The same action three times in a row; the same action and answer three times in the last
    six steps with no change applied between, or the same place's change refused (or changing
    nothing) so; or a round of two to four different actions done twice over with the same
    results (view a, view b, view c; view a, ...)."""
    window = trajectory[-2 * LONGEST_CYCLE :]
    last = [(str(s.get("action")), _unnoted(str(s.get("observation", "")))) for s in window]
    if len(last) >= 3 and len({a for a, _ in last[-3:]}) == 1:
        return True
    if _thrice_unchanged(last[-RECENT:], lambda action: action):
        return True
    # a change refused three times for the same reason: its place (the action's first line,
    # "edit path 303-308") and its answer the same, whatever lines it gave
    if last and not_applied_line(last[-1][1]) and _thrice_unchanged(last[-RECENT:], _place):
        return True
    for length in range(2, LONGEST_CYCLE + 1):
        first, again = last[-2 * length : -length], last[-length:]
        if len(last) >= 2 * length and first == again and len(set(first)) > 1:
            return True
    return False


def _thrice_unchanged(steps: list[tuple[str, str]], key: Callable[[str], str]) -> bool:
    """The newest step's ``key`` of its action and its answer met three times, counting back
    to the last change applied."""
    newest = (key(steps[-1][0]), steps[-1][1]) if steps else None
    same = 0
    for action, answer in reversed(steps):
        if APPLIED.search(answer):
            break
        same += (key(action), answer) == newest
    return same >= 3


def _place(action: str) -> str:
    """Where a change goes: its action's first line (``edit path 303-308``)."""
    return action.split("\n", 1)[0]


def _unnoted(observation: str) -> str:
    """An observation without the notes a guard put before it (a repeat is still a repeat)."""
    lines = observation.split("\n")
    while len(lines) > 1 and lines[0].startswith("NOTE: "):
        del lines[0]
    return "\n".join(lines)


class RouteAfterAct:
    """The act loop's router (see the module docstring)."""

    def __init__(self, setup: AgentSetup) -> None:
        self.setup = setup

    def __call__(
        self, state: CodingAgentState, runtime: Runtime[AgentContext]
    ) -> Literal["act", "finish"]:
        limits = self.setup.limits_for(runtime.context)
        if state.get("submitted") or state.get("steps_taken", 0) >= limits.steps:
            return "finish"
        if stuck(state.get("trajectory", [])):
            return "finish"
        if state.get("consecutive_format_errors", 0) >= limits.format_errors:
            return "finish"
        return "act"
