"""The plan node: the run's workspace and protocol, what the agent is shown up front, and one
planning call that already sees the retrieved memories (retrieval comes before planning)."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import HumanMessage, SystemMessage
from langgraph.runtime import Runtime

from langgraph_mtl.agent.briefing import describe_workspace
from langgraph_mtl.agent.prompts import PLAN_HEADER, PLAN_INSTRUCTION
from langgraph_mtl.agent.setup import AgentSetup, choose_protocol
from langgraph_mtl.agent.state import AgentContext, CodingAgentState
from langgraph_mtl.agent.tools import workspace_digest
from langgraph_mtl.agent.tuning import TUNING
from langgraph_mtl.agent.workspace import file_hashes
from langgraph_mtl.model_calls import CallKind, call_config
from langgraph_mtl.models import capped, reported_tokens

__all__: list[str] = []  # used within the agent package only


class PlanNode:
    """Prepares the run (workspace, protocol, the opening message) and makes the plan."""

    def __init__(self, setup: AgentSetup) -> None:
        self.setup = setup

    def __call__(self, state: CodingAgentState, runtime: Runtime[AgentContext]) -> dict[str, Any]:
        setup, context = self.setup, runtime.context
        task = state.get("task")
        if not isinstance(task, str) or not task.strip():
            raise ValueError(
                f"task: the agent needs the task's text, a non-empty string, as state['task'] "
                f"(got {task!r:.60}); invoke the graph with {{'task': '...'}}"
            )
        workspace = setup.workspace(state, context)
        files = describe_workspace(workspace, state["task"])
        task = f"Task:\n{state['task']}\n\n{files}"
        prepared: dict[str, Any] = {
            "workspace": workspace,
            "protocol": choose_protocol(setup.chat, setup.actions),
            "start_digest": workspace_digest(workspace),
            "start_files": file_hashes(workspace),
            "plan": "",
            "messages": [HumanMessage(task)],
        }
        if not setup.plan:
            return prepared
        system = PLAN_INSTRUCTION
        if memories := state.get("memory_prompt"):
            system += f"\n\n{memories}"
        request = f"{state['task']}\n\n{files}".strip()
        reply = capped(setup.chat, TUNING.plan_tokens).invoke(
            [SystemMessage(system), HumanMessage(request)], config=call_config(CallKind.PLAN)
        )
        text = str(reply.content).strip()
        opening = f"{task}\n\n{PLAN_HEADER}\n{text}" if text else task
        return {
            **prepared,
            "plan": text,
            "messages": [HumanMessage(opening)],
            "tokens_used": reported_tokens(reply),
        }
