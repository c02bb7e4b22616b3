"""Where the act loop goes next: another step, or the finish.

The loop ends when the agent submits, when the run's step limit is reached, after too many
invalid replies in a row, and when it is stuck: the same action three times, the same change
of the same place refused (or changing nothing) three times in a row however its lines
differ, or two actions alternating twice with the same results (reading and rewriting the
same thing, say).
"""

from __future__ import annotations

from typing import Literal

from langgraph.runtime import Runtime

from langgraph_mtl.agent.editing import NOT_APPLIED_MARKS
from langgraph_mtl.agent.setup import AgentSetup
from langgraph_mtl.agent.state import AgentContext, CodingAgentState
from langgraph_mtl.memory.trajectory import Step

__all__ = ["RouteAfterAct", "stuck"]


LONGEST_CYCLE = 4  # steps in the longest round of actions that is noticed repeating


def stuck(trajectory: list[Step]) -> bool:
    """The same action three times in a row, the same place's change refused (or changing
    nothing) three times in a row with the same answer, or a round of two to four different
    actions done twice over with the same results (view a, view b, view c; view a, ...)."""
    window = trajectory[-2 * LONGEST_CYCLE :]
    last = [(s.get("action"), _unnoted(s.get("observation", ""))) for s in window]
    if len(last) >= 3 and len({a for a, _ in last[-3:]}) == 1:
        return True
    # a change refused three times for the same reason: its place (the action's first line,
    # "edit path 303-308") and its answer the same, whatever lines it gave
    places = {(str(a).split("\n", 1)[0], o) for a, o in last[-3:]}
    if len(last) >= 3 and len(places) == 1 and last[-1][1].startswith(NOT_APPLIED_MARKS):
        return True
    for length in range(2, LONGEST_CYCLE + 1):
        first, again = last[-2 * length : -length], last[-length:]
        if len(last) >= 2 * length and first == again and len(set(first)) > 1:
            return True
    return False


def _unnoted(observation: str) -> str:
    """An observation without the note a guard put before it (a repeat is still a repeat)."""
    return observation.split("\n", 1)[-1] if observation.startswith("NOTE: ") else observation


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
