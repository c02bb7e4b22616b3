"""The prebuilt coding agent: plan -> retrieve memories -> act loop -> verify -> write memory.

One planning call: the plan is the query that retrieves workflow and insight memories and the
plan the agent then follows. Each act step asks for one action through the chosen protocol
(:mod:`langgraph_mtl.agent.actions`). Returns an UNCOMPILED ``StateGraph``::

    graph = create_coding_agent("local:http://127.0.0.1:8080/v1", pool=open_pool()).compile()
    graph.invoke({"task": "Write hello.py that prints hi"},
                 context=AgentContext(domain="python", task_id="hello", workspace="/tmp/ws"))
"""

from __future__ import annotations

import logging
import tempfile
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, Literal

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, SystemMessage, ToolMessage
from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime
from langgraph.types import RetryPolicy

from langgraph_mtl.agent.actions import (
    CUT_OFF,
    EMPTY_WRITE,
    JSON_INSTRUCTIONS,
    PROTOCOL_INSTRUCTIONS,
    TOOLS_INSTRUCTIONS,
    Action,
    code_from_reply,
    format_error,
    from_agent_action,
    not_python,
    parse_action,
)
from langgraph_mtl.agent.config import Limits, RetrievalConfig, SandboxConfig, WriterConfig
from langgraph_mtl.agent.guards import (
    INVALID,
    action_schema,
    noted_repeat,
    questioned_submit,
    repair_of,
)
from langgraph_mtl.agent.sandbox import Sandbox
from langgraph_mtl.agent.state import AgentContext, CodingAgentState
from langgraph_mtl.agent.tools import (
    create_sandbox_tools,
    describe_workspace,
    execute_action,
    workspace_digest,
)
from langgraph_mtl.agent.writing import current_text, writer_messages
from langgraph_mtl.memory.trajectory import Step, approx_tokens
from langgraph_mtl.models import capped, model_label, reported_tokens, resolve_chat_model
from langgraph_mtl.nodes.memory_nodes import (
    PoolSource,
    create_memory_retrieval_node,
    create_memory_writer_node,
)

__all__ = [
    "ActionProtocol",
    "AgentContext",
    "CodingAgentState",
    "choose_protocol",
    "create_coding_agent",
]

log = logging.getLogger(__name__)

ActionProtocol = Literal["auto", "json", "tools", "text"]

PLAN_INSTRUCTION = (
    "You are a careful coding agent. Before acting, write a short plan: 3 or 4 numbered steps "
    "saying which files you will write or change and how you will check that they work (which "
    "command, on which examples). Do not solve the task or write code in the plan."
)
PLAN_TOKENS = 256  # a 3-4 step plan is about 100 tokens; a rambling one costs every step
PLAN_HEADER = "Your plan (nothing is done yet: carry it out one action at a time):"
SYSTEM_TEMPLATE = (
    "You are a careful coding agent. You work in the task's workspace, which is the current "
    "directory: use relative paths.\n\n{protocol}"
)
NEXT_HINT = {
    "json": "Next action?",
    "text": "Reply with one ```bash block: the next command, or only `submit` if the task is done.",
}


def choose_protocol(model: BaseChatModel, requested: ActionProtocol = "auto") -> str:
    """The action protocol for a model: ``requested`` unless "auto", which takes native tool
    calls when the model's profile declares tool calling, the text protocol when it declares
    no structured output, and schema-constrained JSON otherwise (local and compatible servers,
    whose profile is unknown)."""
    if requested != "auto":
        return requested
    profile = getattr(model, "profile", None) or {}
    if profile.get("tool_calling"):
        return "tools"
    if profile.get("structured_output") is False:
        return "text"
    return "json"


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


def _unsupported(exc: Exception) -> bool:
    """Whether a structured-output call failed because the server cannot do it."""
    return isinstance(exc, NotImplementedError) or type(exc).__name__ in (
        "BadRequestError",
        "UnprocessableEntityError",
    )


def create_coding_agent(
    model: str | BaseChatModel,
    *,
    pool: PoolSource,
    retrieval: RetrievalConfig | None = None,
    writer: WriterConfig | None = None,
    sandbox: SandboxConfig | None = None,
    limits: Limits | None = None,
    actions: ActionProtocol = "auto",
    plan: bool = True,
) -> StateGraph[CodingAgentState, AgentContext, CodingAgentState, CodingAgentState]:
    """Build the coding agent with memory transfer (returns an uncompiled ``StateGraph``).

    Compile with your own checkpointer; invoke with
    ``config={"recursion_limit": limits.steps + 10}`` when ``limits.steps`` is above 15.

    Args:
        model: the acting model (a model string, see :mod:`langgraph_mtl.models`, or a chat
            model).
        pool: the memory pool, a location, or a callable that opens it on first use.
        retrieval, writer, sandbox, limits: the grouped settings (:mod:`.config`; defaults:
            retrieve and write insights, sandbox "auto", 15 steps).
        actions: "json" (schema-constrained actions), "tools" (native tool calls), "text"
            (a ```bash block per reply) or "auto" (:func:`choose_protocol`).
        plan: make a plan first (also the retrieval query for plan-based memory types).
    """
    retrieval = retrieval or RetrievalConfig()
    writing = writer or WriterConfig()
    box = sandbox or SandboxConfig()
    limits = limits or Limits()
    if actions not in ("auto", "json", "tools", "text"):
        raise ValueError(f"actions: expected auto, json, tools or text, got {actions!r}")
    step_limit, history_tokens = limits.steps, limits.history_tokens
    command_timeout = box.command_timeout
    chat = resolve_chat_model(model)
    writer_chat = (
        resolve_chat_model(writing.model, argument="writer.model") if writing.model else chat
    )
    protocol = {"mode": choose_protocol(chat, actions)}  # may fall back to text at run time
    tools = create_sandbox_tools(
        sandbox=box.mode, timeout=command_timeout, max_output_chars=box.max_output_chars
    )
    tool_actor: Any = chat.bind_tools(tools) if protocol["mode"] == "tools" else None

    def json_actor(state: dict[str, Any]) -> Any:
        """Code first, then check it: the schema of each step from :func:`.guards.action_schema`."""
        schema = action_schema(
            str(state.get("task", "")),
            state.get("trajectory", []),
            unchanged=workspace_digest(state["workspace"]) == state.get("start_digest"),
        )
        return chat.with_structured_output(schema, method="json_schema", include_raw=True)

    def _workspace(state: dict[str, Any], runtime: Runtime[Any]) -> str:
        ws = state.get("workspace") or getattr(runtime.context, "workspace", None)
        return ws or tempfile.mkdtemp(prefix="mtl-ws-")

    def _sandbox(workspace: str, runtime: Runtime[Any]) -> Sandbox:
        return Sandbox(
            workspace,
            mode=box.mode,
            timeout=command_timeout,
            max_output_chars=box.max_output_chars,
            env=getattr(runtime.context, "command_env", None),
        )

    def _system(state: dict[str, Any], workspace: str) -> SystemMessage:
        rules = {"json": JSON_INSTRUCTIONS, "tools": TOOLS_INSTRUCTIONS}
        text = SYSTEM_TEMPLATE.format(protocol=rules.get(protocol["mode"], PROTOCOL_INSTRUCTIONS))
        if state.get("memory_prompt"):
            text += "\n\n" + state["memory_prompt"]
        return SystemMessage(text)

    def make_plan(state: dict[str, Any], runtime: Runtime[Any]) -> dict[str, Any]:
        """The plan (one call) and the act loop's opening message: task, files and plan."""
        workspace = _workspace(state, runtime)
        files = describe_workspace(workspace)
        start = workspace_digest(workspace)
        task = f"Task:\n{state['task']}\n\n{files}"
        if not plan:
            return {
                "workspace": workspace,
                "plan": "",
                "messages": [HumanMessage(task)],
                "start_digest": start,
            }
        request = f"{state['task']}\n\n{files}".strip()
        planner = capped(chat, PLAN_TOKENS)
        reply = planner.invoke([SystemMessage(PLAN_INSTRUCTION), HumanMessage(request)])
        text = str(reply.content).strip()
        opening = HumanMessage(f"{task}\n\n{PLAN_HEADER}\n{text}" if text else task)
        return {
            "workspace": workspace,
            "plan": text,
            "messages": [opening],
            "tokens_used": reported_tokens(reply),
            "start_digest": start,
        }

    def _ask(messages: list[AnyMessage], state: dict[str, Any]) -> tuple[AIMessage, Action, int]:
        """One model call under the current protocol (two for a JSON write_file: the action,
        then the file's content in a focused call, see :mod:`.writing`): the reply, its action
        and the tokens used."""
        if protocol["mode"] == "json":
            try:
                out = json_actor(state).invoke(messages)
            except Exception as exc:
                if type(exc).__name__ == "LengthFinishReasonError":  # cut off mid-action
                    cut = AIMessage(content="(a reply cut off at the length limit)")
                    too_long = Action("invalid", error="the reply was too long; keep it short")
                    return cut, too_long, 0
                if not _unsupported(exc):
                    raise
                log.warning("structured output unsupported here (%s): text protocol", exc)
                protocol["mode"] = "text"
                messages = [_switch_protocol(messages[0]), *messages[1:]]
            else:
                raw = out["raw"]
                if out["parsed"] is None:
                    problem = str(out.get("parsing_error") or "not a valid action")[:200]
                    bad = Action("invalid", error=f"the reply is not one action: {problem}")
                    return raw, bad, reported_tokens(raw)
                action, used = from_agent_action(out["parsed"]), reported_tokens(raw)
                action = repair_of(action, state.get("trajectory", []))
                if action.kind == "write":  # the file itself comes as free text, in a fence
                    ask = writer_messages(
                        task=state["task"],
                        path=action.path,
                        current=current_text(state["workspace"], action.path),
                        reason=action.thought,
                        trajectory=state.get("trajectory", []),
                        memory_prompt=state.get("memory_prompt", ""),
                    )
                    code = chat.invoke(ask)
                    used += reported_tokens(code)
                    if code.response_metadata.get("finish_reason") == "length":
                        error = CUT_OFF.format(path=action.path)
                        return raw, Action("invalid", error=error), used
                    content = code_from_reply(str(code.content))
                    if not content.strip():
                        error = EMPTY_WRITE.format(path=action.path)
                        return raw, Action("invalid", error=error), used
                    if words := not_python(str(code.content), action.path, content):
                        return raw, Action("invalid", error=words), used
                    action = replace(action, content=content)
                return raw, action, used
        actor = tool_actor if protocol["mode"] == "tools" else chat
        reply = actor.invoke(messages)
        return reply, parse_action(reply), reported_tokens(reply)

    def act(state: dict[str, Any], runtime: Runtime[Any]) -> dict[str, Any]:
        workspace = state["workspace"]
        history = _recent(state.get("messages", []), history_tokens)
        reply, action, used = _ask([_system(state, workspace), *history], state)
        out: dict[str, Any] = {"steps_taken": state.get("steps_taken", 0) + 1, "tokens_used": used}
        trajectory = state.get("trajectory", [])
        asked = {key for key in ("asked_to_change", "asked_after_failure") if state.get(key)}
        # the workspace is walked only when a submit may need questioning, not on every step
        unchanged = action.kind == "submit" and (
            workspace_digest(workspace) == state.get("start_digest")
        )
        action, flag = questioned_submit(action, trajectory, unchanged=unchanged, asked=asked)
        if flag:
            out[flag] = True
        action = noted_repeat(action, trajectory)
        step: Step = {"thought": action.thought, "action": action.describe(), "observation": ""}
        if action.kind == "submit":
            observation = "Submitted."
            out["submitted"] = True
        elif action.kind == "invalid":
            step["action"] = f"{INVALID} {str(reply.content)[:300]}"
            observation = format_error(action, protocol["mode"])
            out["format_errors"] = state.get("format_errors", 0) + 1
            out["consecutive_format_errors"] = state.get("consecutive_format_errors", 0) + 1
        else:
            result = execute_action(action, _sandbox(workspace, runtime))
            observation = f"{action.note}\n{result}" if action.note else result
            out["commands_run"] = state.get("commands_run", 0) + 1
            out["consecutive_format_errors"] = 0
        step["observation"] = observation
        if action.tool_call_id:
            follow: AnyMessage = ToolMessage(observation, tool_call_id=action.tool_call_id)
        else:
            hint = NEXT_HINT.get(protocol["mode"], "")
            follow = HumanMessage(f"Observation:\n{observation}\n\n{hint}".strip())
        if isinstance(reply, AIMessage) and not reply.content and not reply.tool_calls:
            reply = AIMessage(content=action.describe() or "(empty reply)")
        out["messages"] = [reply, follow]
        out["trajectory"] = [*state.get("trajectory", []), step]
        return out

    def route(state: dict[str, Any]) -> str:
        if state.get("submitted") or state.get("steps_taken", 0) >= step_limit:
            return "finish"
        last = [s.get("action") for s in state.get("trajectory", [])[-3:]]
        if len(last) == 3 and len(set(last)) == 1:  # the same action three times: stuck
            return "finish"
        if state.get("consecutive_format_errors", 0) >= limits.format_errors:
            return "finish"
        return "act"

    def finish(state: dict[str, Any], runtime: Runtime[Any]) -> dict[str, Any]:
        verifier = getattr(runtime.context, "verifier", None)
        if verifier is not None:
            verdict = verifier(state["workspace"])
            return {
                "verified": verdict.passed,
                "verification": verdict.report,
                "tampered": list(verdict.tampered),
            }
        command = getattr(runtime.context, "verify_command", None)
        if not command:
            return {"verification": "no verifier"}
        result = _sandbox(state["workspace"], runtime).run(
            command, timeout=max(command_timeout, 120)
        )
        return {"verified": result.exit_code == 0, "verification": result.render()}

    builder = StateGraph(CodingAgentState, context_schema=AgentContext)
    retry = RetryPolicy(max_attempts=3)  # a dropped connection to the model is retried
    builder.add_node("plan", make_plan, retry_policy=retry)  # type: ignore[call-overload]
    builder.add_node(
        create_memory_retrieval_node(
            pool,
            model=chat,
            k=retrieval.k,
            memory_types=retrieval.memory_types,
            strategy=retrieval.strategy,
            rerank=retrieval.rerank,
            min_similarity=retrieval.min_similarity,
            scorers=retrieval.scorers,
            plan_key="plan" if plan else None,
        )
    )
    builder.add_node("act", act, retry_policy=retry)  # type: ignore[call-overload]
    builder.add_node("finish", finish)  # type: ignore[call-overload]
    builder.add_node(
        create_memory_writer_node(
            pool,
            model=writer_chat,
            memory_type=writing.memory_types,
            judge=writing.judge,
            outbox=writing.outbox,
            agent_model=model_label(chat),
        )
    )
    builder.add_edge(START, "plan")
    builder.add_edge("plan", "retrieve_memories")
    builder.add_edge("retrieve_memories", "act")
    builder.add_conditional_edges("act", route, ["act", "finish"])
    builder.add_edge("finish", "write_memory")
    builder.add_edge("write_memory", END)
    return builder


def _switch_protocol(system: AnyMessage) -> SystemMessage:
    return SystemMessage(str(system.content).replace(JSON_INSTRUCTIONS, PROTOCOL_INSTRUCTIONS))
