"""The prebuilt coding agent: retrieve memories -> plan -> act loop -> finish -> write memory.

Works with models without native tool calling (text protocol, see :mod:`langgraph_mtl.actions`)
and uses ``bind_tools`` where the model has it. Returns an UNCOMPILED ``StateGraph``::

    graph = create_coding_agent("local", pool=open_pool()).compile()
    graph.invoke({"task": "Write hello.py that prints hi"},
                 context=AgentContext(domain="python", task_id="hello", workspace="/tmp/ws"))
"""

from __future__ import annotations

import functools
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Annotated, Any, Literal

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import (
    AIMessage,
    AnyMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
)
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from langgraph.runtime import Runtime

from langgraph_mtl.actions import PROTOCOL_INSTRUCTIONS, bash, format_error, parse_action, submit
from langgraph_mtl.memory_types import MemoryType
from langgraph_mtl.models import model_label, resolve_chat_model
from langgraph_mtl.nodes import (
    MemoryContext,
    MemoryState,
    PoolSource,
    create_memory_retrieval_node,
    create_memory_writer_node,
)
from langgraph_mtl.outbox import Outbox
from langgraph_mtl.retrieval import QueryStrategy
from langgraph_mtl.sandbox import Sandbox, SandboxMode, bubblewrap_available
from langgraph_mtl.trajectory import Step, approx_tokens

__all__ = ["AgentContext", "CodingAgentState", "create_coding_agent"]

PLAN_INSTRUCTION = (
    "You are a careful coding agent. Before acting, write a short plan (3-5 numbered steps) for "
    "the task. Do not write code yet."
)
PLAN_HEADER = "Your plan (nothing is done yet: carry it out one command at a time):"
SYSTEM_TEMPLATE = (
    "You are a careful coding agent working in the directory {workspace}.\n\n{protocol}"
)
EARLY_SUBMIT = (
    "you submitted before running any command, so nothing is done yet; reply with a ```bash block "
    "holding a real shell command for the first step of the task (for example creating a file)"
)
NATIVE_PROTOCOL = "Use the bash tool, one command per turn; call submit when the task is done."
NEXT_HINT = "Reply with one ```bash block: the next command, or only `submit` if the task is done."


@dataclass
class AgentContext(MemoryContext):
    """Run settings: the memory settings plus the workspace and an optional verify command."""

    workspace: str | None = None
    verify_command: str | None = None


class CodingAgentState(MemoryState, total=False):
    """The agent's state: the memory keys plus the conversation and the run's bookkeeping."""

    messages: Annotated[list[AnyMessage], add_messages]
    plan: str
    steps_taken: int
    submitted: bool
    format_errors: int
    consecutive_format_errors: int
    verification: str
    workspace: str


@functools.cache
def _bwrap() -> bool:
    return bubblewrap_available()


def _uses_native_tools(model: BaseChatModel, tool_calling: str) -> bool:
    if tool_calling != "auto":
        return tool_calling == "native"
    base_url = getattr(model, "openai_api_base", None)
    return type(model).__name__ == "ChatOpenAI" and not base_url


def _recent(messages: Sequence[AnyMessage], budget: int) -> list[AnyMessage]:
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


def create_coding_agent(
    model: str | BaseChatModel,
    *,
    pool: PoolSource,
    memory_types: Iterable[MemoryType | str] | None = (MemoryType.INSIGHT,),
    retrieval_strategy: QueryStrategy | str = QueryStrategy.AUTO,
    retrieval_rerank: bool = False,
    write_memory_types: Iterable[MemoryType | str] | MemoryType | str = MemoryType.INSIGHT,
    writer_model: str | BaseChatModel | None = None,
    judge: str | BaseChatModel | None = None,
    k: int = 3,
    step_limit: int = 15,
    command_timeout: float = 60.0,
    max_output_chars: int = 4000,
    history_tokens: int = 6000,
    sandbox: SandboxMode = "auto",
    tool_calling: Literal["auto", "text", "native"] = "auto",
    plan: bool = True,
    format_error_limit: int = 3,
    outbox: Outbox | str | None = None,
) -> StateGraph[CodingAgentState, AgentContext, CodingAgentState, CodingAgentState]:
    """Build the coding agent with memory transfer (returns an uncompiled ``StateGraph``).

    Compile with your own checkpointer; invoke with ``config={"recursion_limit": step_limit + 10}``
    when ``step_limit`` is above 15.

    Args:
        model: the acting model (a name for :func:`resolve_chat_model` or a chat model).
        pool: the memory pool, or a callable that opens it on first use.
        memory_types: which memory types to retrieve (default: insight; ``None`` for all).
        retrieval_strategy: the query made from the task (AUTO: the paper's per-type query,
            which costs one model call for workflow/insight/summary); ``retrieval_rerank`` lets
            the model reorder three times ``k`` candidates.
        write_memory_types: which types the finished run is abstracted into.
        writer_model: model for abstraction (default: ``model``); ``judge`` decides the outcome
            when the run has no verify command.
        step_limit, command_timeout, max_output_chars: the act loop's limits; the loop also
            ends after ``format_error_limit`` protocol errors in a row.
        sandbox: "auto" (bubblewrap when available), "bwrap" or "none".
        tool_calling: "text" protocol, "native" tool calls, or "auto" (native for OpenAI).
    """
    if step_limit < 1:
        raise ValueError(f"step_limit: must be >= 1, got {step_limit}")
    if command_timeout <= 0:
        raise ValueError(f"command_timeout: must be > 0, got {command_timeout}")
    chat = resolve_chat_model(model)
    native = _uses_native_tools(chat, tool_calling)
    actor: Any = chat.bind_tools([bash, submit]) if native else chat
    writer = resolve_chat_model(writer_model, argument="writer_model") if writer_model else chat

    def _workspace(state: dict[str, Any], runtime: Runtime[Any]) -> str:
        ws = state.get("workspace") or getattr(runtime.context, "workspace", None)
        return ws or tempfile.mkdtemp(prefix="mtl-ws-")

    def _sandbox(workspace: str) -> Sandbox:
        mode: SandboxMode = sandbox
        if mode == "auto":
            mode = "bwrap" if _bwrap() else "none"
        return Sandbox(
            workspace, mode=mode, timeout=command_timeout, max_output_chars=max_output_chars
        )

    def _system(state: dict[str, Any], workspace: str) -> SystemMessage:
        protocol = NATIVE_PROTOCOL if native else PROTOCOL_INSTRUCTIONS
        text = SYSTEM_TEMPLATE.format(workspace=workspace, protocol=protocol)
        if state.get("memory_prompt"):
            text += "\n\n" + state["memory_prompt"]
        return SystemMessage(text)

    def make_plan(state: dict[str, Any], runtime: Runtime[Any]) -> dict[str, Any]:
        workspace = _workspace(state, runtime)
        task = HumanMessage(f"Task:\n{state['task']}")
        if not plan:
            return {"workspace": workspace, "messages": [task], "plan": ""}
        memories = state.get("memory_prompt") or ""
        reply = chat.invoke(
            [SystemMessage(PLAN_INSTRUCTION + ("\n\n" + memories if memories else "")), task]
        )
        text = str(reply.content).strip()
        return {
            "workspace": workspace,
            "plan": text,
            "messages": [HumanMessage(f"Task:\n{state['task']}\n\n{PLAN_HEADER}\n{text}")],
        }

    def act(state: dict[str, Any], runtime: Runtime[Any]) -> dict[str, Any]:
        workspace = state["workspace"]
        history = _recent(state.get("messages", []), history_tokens)
        reply = actor.invoke([_system(state, workspace), *history])
        action = parse_action(reply)
        step: Step = {"thought": action.thought, "action": "", "observation": ""}
        out: dict[str, Any] = {"steps_taken": state.get("steps_taken", 0) + 1}
        if action.kind == "submit" and not any(
            s.get("observation", "").startswith("[") for s in state.get("trajectory", [])
        ):
            action = replace(action, kind="invalid", error=EARLY_SUBMIT)
        if action.kind == "submit":
            step["action"] = "submit"
            observation = "Submitted."
            out["submitted"] = True
        elif action.kind == "invalid":
            step["action"] = f"(format error) {str(reply.content)[:300]}"
            observation = format_error(action)
            out["format_errors"] = state.get("format_errors", 0) + 1
            out["consecutive_format_errors"] = state.get("consecutive_format_errors", 0) + 1
        else:
            result = _sandbox(workspace).run(action.command)
            step["action"] = action.command
            observation = f"{action.note}\n{result.render()}" if action.note else result.render()
            out["consecutive_format_errors"] = 0
        step["observation"] = observation
        follow: AnyMessage = (
            ToolMessage(observation, tool_call_id=action.tool_call_id)
            if action.tool_call_id
            else HumanMessage(f"Observation:\n{observation}\n\n{NEXT_HINT}")
        )
        out["messages"] = [reply, follow]
        out["trajectory"] = [*state.get("trajectory", []), step]
        return out

    def route(state: dict[str, Any]) -> str:
        if state.get("submitted") or state.get("steps_taken", 0) >= step_limit:
            return "finish"
        if state.get("consecutive_format_errors", 0) >= format_error_limit:
            return "finish"
        return "act"

    def finish(state: dict[str, Any], runtime: Runtime[Any]) -> dict[str, Any]:
        command = getattr(runtime.context, "verify_command", None)
        if not command:
            return {"verification": "no verifier"}
        result = _sandbox(state["workspace"]).run(command, timeout=max(command_timeout, 120))
        return {"verified": result.exit_code == 0, "verification": result.render()}

    builder = StateGraph(CodingAgentState, context_schema=AgentContext)
    builder.add_node(
        create_memory_retrieval_node(
            pool,
            model=chat,
            k=k,
            memory_types=memory_types,
            strategy=retrieval_strategy,
            rerank=retrieval_rerank,
        )
    )
    builder.add_node("plan", make_plan)
    builder.add_node("act", act)
    builder.add_node("finish", finish)
    builder.add_node(
        create_memory_writer_node(
            pool,
            model=writer,
            memory_type=write_memory_types,
            judge=judge,
            outbox=outbox,
            agent_model=model_label(chat),
        )
    )
    builder.add_edge(START, "retrieve_memories")
    builder.add_edge("retrieve_memories", "plan")
    builder.add_edge("plan", "act")
    builder.add_conditional_edges("act", route, ["act", "finish"])
    builder.add_edge("finish", "write_memory")
    builder.add_edge("write_memory", END)
    return builder
