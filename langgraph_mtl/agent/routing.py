"""Where the act loop goes next: another step, or the finish.

The loop ends when the agent submits, when the run's step limit is reached, after too many
invalid replies in a row, and when one of the run's policies ends it (a run that is stuck,
say: :class:`.policy_set.StopWhenStuck`).
"""

from __future__ import annotations

from typing import Literal

from langgraph.runtime import Runtime

from langgraph_mtl.agent.setup import AgentSetup
from langgraph_mtl.agent.state import AgentContext, CodingAgentState

__all__: list[str] = []  # used within the agent package only


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
        if state.get("consecutive_format_errors", 0) >= limits.format_errors:
            return "finish"
        if self.setup.policies.should_end(state.get("history", [])):
            return "finish"
        return "act"
