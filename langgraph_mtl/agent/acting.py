"""The act node: one action per step, asked under the run's protocol (:mod:`.asking`), passed
through the run's policies (:mod:`.policies`), carried out in the sandbox and recorded twice:
as typed facts (:mod:`.history`), which the policies read, and as the text the model reads."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, SystemMessage, ToolMessage
from langgraph.runtime import Runtime

from langgraph_mtl.agent.actions import Action
from langgraph_mtl.agent.asking import Asked, Turn, ask
from langgraph_mtl.agent.guards import INVALID
from langgraph_mtl.agent.history import facts_of
from langgraph_mtl.agent.outcomes import Answer
from langgraph_mtl.agent.policies import StepView
from langgraph_mtl.agent.prompts import (
    JSON_INSTRUCTIONS,
    NEXT_HINT,
    PROTOCOL_INSTRUCTIONS,
    SYSTEM_TEMPLATE,
    TOOLS_INSTRUCTIONS,
)
from langgraph_mtl.agent.replies import format_error
from langgraph_mtl.agent.setup import AgentSetup
from langgraph_mtl.agent.state import AgentContext, CodingAgentState
from langgraph_mtl.agent.tools import execute_action, workspace_digest
from langgraph_mtl.memory.trajectory import Step, approx_tokens
from langgraph_mtl.model_errors import too_long_for_model

__all__: list[str] = []  # used within the agent package only

log = logging.getLogger(__name__)
TOO_LONG = (
    "the request was longer than the model's context, even with the older steps left out: "
    "read fewer lines at a time"
)
TOO_LONG_REPLY = "(a request too long for the model)"

_RULES = {"json": JSON_INSTRUCTIONS, "tools": TOOLS_INSTRUCTIONS}


def recent(messages: Sequence[AnyMessage], budget: int) -> list[AnyMessage]:
    """The task message plus the most recent messages that fit the token budget."""
    if not messages:
        return []
    first, rest = messages[0], list(messages[1:])
    kept: list[AnyMessage] = []
    used = approx_tokens(str(first.content))
    for message in reversed(rest):
        used += approx_tokens(str(message.content)) + 4
        if used > budget:
            break
        kept.insert(0, message)
    while kept and not isinstance(kept[0], AIMessage):  # never start on an orphan observation
        kept.pop(0)
    return [first, *kept]


def system_message(protocol: str, memory_prompt: str = "") -> SystemMessage:
    """The act loop's system message under ``protocol``, with the memories when there are."""
    text = SYSTEM_TEMPLATE.format(protocol=_RULES.get(protocol, PROTOCOL_INSTRUCTIONS))
    return SystemMessage(f"{text}\n\n{memory_prompt}" if memory_prompt else text)


def _ask_within_context(
    turn: Turn, protocol: str, system: SystemMessage, history: list[AnyMessage]
) -> Asked:
    """The step's action; a request longer than the model's context is asked again with the
    older half of the conversation left out, then answered as a refused reply (the run goes
    on: the next step sees less)."""
    for attempt in range(2):
        try:
            return ask(turn, protocol, [system, *history])
        except Exception as exc:
            if not too_long_for_model(exc):
                raise
            log.warning("a request too long for the model (%s); attempt %d", exc, attempt + 1)
            budget = sum(approx_tokens(str(m.content)) for m in history) // 2
            history = recent(history, budget)
    refused = Action("invalid", error=TOO_LONG, reason="too_long")
    return Asked(AIMessage(content=TOO_LONG_REPLY), refused, 0, protocol)


ASKED = ("asked_to_change", "asked_after_failure")  # questions a run asks once


class ActNode:
    """One step of the act loop (see the module docstring)."""

    def __init__(self, setup: AgentSetup) -> None:
        self.setup = setup

    def __call__(self, state: CodingAgentState, runtime: Runtime[AgentContext]) -> dict[str, Any]:
        setup, context = self.setup, runtime.context
        workspace = state["workspace"]
        protocol = state.get("protocol") or "json"
        limits = setup.limits_for(context)
        messages = recent(state.get("messages", []), limits.history_tokens)
        system = system_message(protocol, str(state.get("memory_prompt", "")))
        box = setup.box(workspace, context)
        view = StepView(
            task=str(state.get("task", "")),
            workspace=workspace,
            history=state.get("history", []),
            box=box,
            check=getattr(context, "check_command", None),
            asked=frozenset(k for k in ASKED if state.get(k)),
            # walked only when a policy asks (a submit questioned, the first schema)
            digest=lambda: workspace_digest(workspace) == state.get("start_digest"),
        )
        memories = str(state.get("memory_prompt", "")) if setup.focused_memories else ""
        turn = Turn(setup, setup.policies, view, memories)
        asked = _ask_within_context(turn, protocol, system, messages)
        acted = list(asked.acted)
        action = setup.policies.before_tool(asked.action, view, acted)
        out: dict[str, Any] = {"steps_taken": state.get("steps_taken", 0) + 1}
        out["tokens_used"] = asked.tokens
        if asked.protocol != protocol:
            out["protocol"] = asked.protocol
        if action.kind == "invalid" and action.reason in ASKED:
            out[action.reason] = True
        after = None
        if action.kind == "submit":
            observation = "Submitted."
            answer = Answer(observation, "submitted")
            out["submitted"] = True
        elif action.kind == "invalid":
            observation = format_error(action, asked.protocol)
            answer = Answer(observation, "invalid", action.reason)
            out["format_errors"] = state.get("format_errors", 0) + 1
            out["consecutive_format_errors"] = state.get("consecutive_format_errors", 0) + 1
        else:
            answer = execute_action(action, box, guarded=setup.policies.guards_changes)
            after = setup.policies.after_tool(action, answer, view)
            acted += after.acted
            observation = "\n".join([str(answer), *after.notes])
            if after.ends:
                out["submitted"] = True
            out["commands_run"] = state.get("commands_run", 0) + 1
            out["consecutive_format_errors"] = 0
        if action.note:  # what a policy or the call did with the action, before what came of it
            observation = f"{action.note}\n{observation}"
        facts = facts_of(
            action,
            answer,
            after=after.runs if after else (),
            checked=bool(after and after.checked),
            missing=after.missing if after else "",
            policies=list(dict.fromkeys(acted)),
        )
        described = action.describe()
        if action.kind == "invalid":  # a refused reply is known by what it said
            described = facts["action"] = f"{INVALID} {str(asked.reply.content)[:300]}"
        step: Step = {"thought": action.thought, "action": described, "observation": observation}
        follow: AnyMessage
        if action.tool_call_id:
            follow = ToolMessage(observation, tool_call_id=action.tool_call_id)
        else:
            hint = NEXT_HINT.get(asked.protocol, "")
            follow = HumanMessage(f"Observation:\n{observation}\n\n{hint}".strip())
        reply = asked.reply
        if isinstance(reply, AIMessage) and not reply.content and not reply.tool_calls:
            reply = AIMessage(content=action.describe() or "(empty reply)")
        out["messages"] = [reply, follow]
        out["trajectory"] = [*state.get("trajectory", []), step]
        out["history"] = [*state.get("history", []), facts]
        return out
