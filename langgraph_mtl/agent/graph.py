"""The prebuilt coding agent: retrieve memories -> plan -> act loop -> verify -> write memory.

Memories are retrieved before planning, so they can shape the plan, and sit in every act call.
Each act step asks for one action through the run's protocol (:mod:`.asking`). Returns an
UNCOMPILED ``StateGraph``::

    graph = create_coding_agent("local:http://127.0.0.1:8080/v1", pool=open_pool()).compile()
    graph.invoke({"task": "Write hello.py that prints hi"},
                 context=AgentContext(domain="python", task_id="hello", workspace="/tmp/ws"))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from langchain_core.language_models import BaseChatModel
from langgraph.graph import END, START, StateGraph
from langgraph.types import RetryPolicy

from langgraph_mtl.agent.acting import ActNode
from langgraph_mtl.agent.config import (
    DEFAULT_RETRIEVAL,
    Limits,
    RetrievalConfig,
    SandboxConfig,
    WriterConfig,
)
from langgraph_mtl.agent.edit_format import DEFAULT_EDITS, EditFormat
from langgraph_mtl.agent.finishing import FinishNode
from langgraph_mtl.agent.planning import PlanNode
from langgraph_mtl.agent.policies import Policy, PolicyChoice
from langgraph_mtl.agent.routing import RouteAfterAct
from langgraph_mtl.agent.setup import ActionProtocol, AgentSetup
from langgraph_mtl.agent.state import AgentContext, CodingAgentState
from langgraph_mtl.model_errors import passing_server_error
from langgraph_mtl.models import model_label, resolve_chat_model
from langgraph_mtl.nodes.base import PoolSource
from langgraph_mtl.nodes.retrieval_node import create_memory_retrieval_node
from langgraph_mtl.nodes.writer_node import create_memory_writer_node

__all__ = ["AgentContext", "CodingAgentState", "create_coding_agent"]

AgentGraph = StateGraph[CodingAgentState, AgentContext, CodingAgentState, CodingAgentState]


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
    edits: EditFormat = DEFAULT_EDITS,
    focused_memories: bool = True,
    policies: PolicyChoice | Sequence[Policy] = "auto",
) -> AgentGraph:
    """Build the coding agent with memory transfer (an uncompiled ``StateGraph``; compile it
    with your own checkpointer; invoke with ``config={"recursion_limit": steps + 10}`` when
    the step limit is above 15).

    Args:
        model: the acting model (a model string, see :mod:`langgraph_mtl.models`, or a chat
            model).
        pool: the memory pool, a location, or a callable that opens it on first use.
        retrieval: what is retrieved before planning (default: insights).
        writer: what is written after the run (default: insights).
        sandbox: how commands are isolated (default: "auto").
        limits: steps and other bounds (default: 15 steps). Each group is a settings object
            of :mod:`.config`, passed whole to the nodes.
        actions: "json" (schema-constrained actions), "tools" (native tool calls), "text"
            (a fenced block per reply) or "auto" (:func:`choose_protocol`), decided per run.
        plan: make a plan (seeing the memories) before acting.
        edits: how a JSON edit is asked for: a "line_range" and its new lines (the default)
            or "search_replace" blocks.
        focused_memories: also show the memories in the calls that write a file or an edit.
        policies: the steering the loop runs with (:mod:`.policy_set`): "bare" (none),
            "safe-edits", "small-model", a sequence of policies, or "auto": safe edits for a
            model that calls tools natively, small-model steering for any other.
    """
    for name, given, kind in (
        ("retrieval", retrieval, RetrievalConfig),
        ("writer", writer, WriterConfig),
        ("sandbox", sandbox, SandboxConfig),
        ("limits", limits, Limits),
    ):
        if given is not None and not isinstance(given, kind):
            raise ValueError(f"{name}: expected a {kind.__name__}(...), got {given!r:.60}")
    chat = resolve_chat_model(model)
    writing = writer or WriterConfig()
    writing = replace(  # abstracted by the acting model unless told, credited to it
        writing,
        model=writing.model or chat,
        agent_model=writing.agent_model or model_label(chat),
    )
    setup = AgentSetup.build(
        chat,
        actions=actions,
        sandbox=sandbox or SandboxConfig(),
        limits=limits or Limits(),
        plan=plan,
        edits=edits,
        focused_memories=focused_memories,
        policies=policies,
    )
    # a model server that failed in passing is tried again (1, 2, 4 s later); nothing else is
    retry = RetryPolicy(max_attempts=4, initial_interval=1.0, retry_on=passing_server_error)
    builder: AgentGraph = StateGraph(CodingAgentState, context_schema=AgentContext)
    builder.add_node(create_memory_retrieval_node(pool, retrieval or DEFAULT_RETRIEVAL, model=chat))
    builder.add_node("plan", PlanNode(setup), retry_policy=retry)
    builder.add_node("act", ActNode(setup), retry_policy=retry)
    builder.add_node("finish", FinishNode(setup))
    builder.add_node(create_memory_writer_node(pool, writing))
    builder.add_edge(START, "retrieve_memories")
    builder.add_edge("retrieve_memories", "plan")
    builder.add_edge("plan", "act")
    builder.add_conditional_edges("act", RouteAfterAct(setup), ["act", "finish"])
    builder.add_edge("finish", "write_memory")
    builder.add_edge("write_memory", END)
    return builder
