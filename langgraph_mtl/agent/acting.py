"""The act node: one action per step, asked under the run's protocol (:mod:`.asking`), passed
through the loop's guards (:mod:`.guards`), carried out in the sandbox and recorded."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, SystemMessage, ToolMessage
from langgraph.runtime import Runtime

from langgraph_mtl.agent.actions import Action
from langgraph_mtl.agent.asking import Asked, ask
from langgraph_mtl.agent.guards import (
    INVALID,
    bare_action_word,
    check_after_change,
    missing_path_hint,
    noted_repeat,
    questioned_submit,
    redirected_from_protected,
)
from langgraph_mtl.agent.idle_runs import idle_check
from langgraph_mtl.agent.prompts import (
    CHECK_PASSED,
    CHECKED,
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

__all__ = ["ActNode", "recent"]

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
    setup: AgentSetup,
    protocol: str,
    system: SystemMessage,
    history: list[AnyMessage],
    state: CodingAgentState,
    protects: Callable[[str], str | None],
) -> Asked:
    """The step's action; a request longer than the model's context is asked again with the
    older half of the conversation left out, then answered as a refused reply (the run goes
    on: the next step sees less)."""
    for attempt in range(2):
        try:
            return ask(setup, protocol, [system, *history], state, protects)
        except Exception as exc:
            if not too_long_for_model(exc):
                raise
            log.warning("a request too long for the model (%s); attempt %d", exc, attempt + 1)
            budget = sum(approx_tokens(str(m.content)) for m in history) // 2
            history = recent(history, budget)
    return Asked(AIMessage(content=TOO_LONG_REPLY), Action("invalid", error=TOO_LONG), 0, protocol)


class ActNode:
    """One step of the act loop (see the module docstring)."""

    def __init__(self, setup: AgentSetup) -> None:
        self.setup = setup

    def __call__(self, state: CodingAgentState, runtime: Runtime[AgentContext]) -> dict[str, Any]:
        setup, context = self.setup, runtime.context
        workspace = state["workspace"]
        protocol = state.get("protocol") or "json"
        limits = setup.limits_for(context)
        history = recent(state.get("messages", []), limits.history_tokens)
        system = system_message(protocol, str(state.get("memory_prompt", "")))
        box = setup.box(workspace, context)
        asked = _ask_within_context(setup, protocol, system, history, state, box.protects)
        action, reply = asked.action, asked.reply
        out: dict[str, Any] = {"steps_taken": state.get("steps_taken", 0) + 1}
        out["tokens_used"] = asked.tokens
        if asked.protocol != protocol:
            out["protocol"] = asked.protocol
        trajectory = state.get("trajectory", [])
        asked_flags = {k for k in ("asked_to_change", "asked_after_failure") if state.get(k)}
        # the workspace is walked only when a submit may need questioning, not on every step
        unchanged = action.kind == "submit" and (
            workspace_digest(workspace) == state.get("start_digest")
        )
        action, flag = questioned_submit(action, trajectory, unchanged=unchanged, asked=asked_flags)
        if flag:
            out[flag] = True
        action = bare_action_word(action, str(state.get("task", "")))
        action = noted_repeat(action, trajectory)
        action = redirected_from_protected(action, trajectory, workspace)
        step: Step = {"thought": action.thought, "action": action.describe(), "observation": ""}
        if action.kind == "submit":
            observation = "Submitted."
            out["submitted"] = True
        elif action.kind == "invalid":
            step["action"] = f"{INVALID} {str(reply.content)[:300]}"
            observation = format_error(action, asked.protocol)
            out["format_errors"] = state.get("format_errors", 0) + 1
            out["consecutive_format_errors"] = state.get("consecutive_format_errors", 0) + 1
        else:
            result = execute_action(action, box)
            if action.kind in ("write", "edit"):
                if check := check_after_change(str(state.get("task", "")), result):
                    checked = box.run(check)
                    result += f"\n{CHECKED.format(command=check)}\n{checked.render()}"
                    if checked.exit_code == 0:  # what the task asked for holds: done
                        result = f"{result.rstrip()}\n{CHECK_PASSED}"
                        out["submitted"] = True
            elif action.kind == "command":
                result += missing_path_hint(action.command, result, workspace)
                if idle := idle_check(action.command, result, workspace, state.get("task", "")):
                    ran = f"\n{box.run(idle.command).render()}" if idle.command else ""
                    result += f"\n{idle.note}{ran}"
            observation = result
            out["commands_run"] = state.get("commands_run", 0) + 1
            out["consecutive_format_errors"] = 0
        if action.note:  # what a guard or the call did with the action, before what came of it
            observation = f"{action.note}\n{observation}"
        step["observation"] = observation
        follow: AnyMessage
        if action.tool_call_id:
            follow = ToolMessage(observation, tool_call_id=action.tool_call_id)
        else:
            hint = NEXT_HINT.get(asked.protocol, "")
            follow = HumanMessage(f"Observation:\n{observation}\n\n{hint}".strip())
        if isinstance(reply, AIMessage) and not reply.content and not reply.tool_calls:
            reply = AIMessage(content=action.describe() or "(empty reply)")
        out["messages"] = [reply, follow]
        out["trajectory"] = [*trajectory, step]
        return out
