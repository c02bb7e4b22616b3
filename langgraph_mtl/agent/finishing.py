"""The finish node: the run's verdict, from the context's verifier (a task's hidden checks run
outside the workspace) or else its verify command run in the sandbox, and the files the run
changed (for the memory the writer makes of it)."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from langgraph_mtl.agent.setup import AgentSetup
from langgraph_mtl.agent.state import AgentContext, CodingAgentState
from langgraph_mtl.agent.workspace import changed_files

__all__: list[str] = []  # used within the agent package only


class FinishNode:
    """Checks the finished workspace (see the module docstring)."""

    def __init__(self, setup: AgentSetup) -> None:
        self.setup = setup

    def __call__(self, state: CodingAgentState, runtime: Runtime[AgentContext]) -> dict[str, Any]:
        context = runtime.context
        changed = {"changed_files": changed_files(state["workspace"], state.get("start_files", {}))}
        verifier = getattr(context, "verifier", None)
        if verifier is not None:
            verdict = verifier(state["workspace"])
            return {
                **changed,
                "verified": verdict.passed,
                "verification": verdict.report,
                "tampered": list(verdict.tampered),
            }
        command = getattr(context, "verify_command", None)
        if not command:
            return {**changed, "verification": "no verifier"}
        timeout = max(self.setup.sandbox.command_timeout, 120)
        result = self.setup.box(state["workspace"], context).run(command, timeout=timeout)
        return {**changed, "verified": result.exit_code == 0, "verification": result.render()}
