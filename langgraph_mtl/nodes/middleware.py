"""Memory transfer for ``create_agent`` users: the two nodes as one langchain agent middleware.

Before the agent's first model call (``before_agent``) it retrieves cross-domain memories with
the retrieval node's code and puts them into state; every model call then gets them at the end
of its system message (``wrap_model_call``), fenced as data exactly as the retrieval node
renders them. After the agent ends (``after_agent``) it abstracts the run into memories and
writes them with the writer node's code. Receipts and statuses land under the nodes' keys::

    from langchain.agents import create_agent
    from langgraph_mtl import MemoryContext, open_pool
    from langgraph_mtl.nodes.middleware import MemoryTransferMiddleware

    agent = create_agent(
        model, tools, middleware=[MemoryTransferMiddleware(open_pool())],
        context_schema=MemoryContext,
    )
    agent.invoke({"messages": [("user", "...")]}, context=MemoryContext(domain="python"))

A failure of the memory layer never fails the agent's run: the status keys say what happened,
and what could not be written waits in the writer's outbox.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Annotated, Any, NotRequired

from langchain.agents.middleware import AgentMiddleware, AgentState, ModelRequest, ModelResponse
from langchain.agents.middleware.types import ModelCallResult, OmitFromInput
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import SystemMessage

from langgraph_mtl.nodes.base import PoolSource, failure_status
from langgraph_mtl.nodes.retrieval_node import create_memory_retrieval_node
from langgraph_mtl.nodes.writer_node import WriterConfig, create_memory_writer_node
from langgraph_mtl.transfer.retrieval import Receipt, RetrievalConfig

__all__ = ["MemoryTransferMiddleware", "MemoryTransferState", "Verifier"]

log = logging.getLogger(__name__)

Verifier = Callable[[Mapping[str, Any]], bool | None]
"""Whether a finished run solved its task, from the agent's final state (``None``: unknown)."""


class MemoryTransferState(AgentState[Any]):
    """The agent's state plus what the middleware records, under the nodes' keys."""

    memory_prompt: NotRequired[Annotated[str, OmitFromInput]]
    memory_receipts: NotRequired[Annotated[list[Receipt], OmitFromInput]]
    memory_status: NotRequired[Annotated[str, OmitFromInput]]
    memory_written: NotRequired[Annotated[list[str], OmitFromInput]]
    memory_write_status: NotRequired[Annotated[str, OmitFromInput]]


class MemoryTransferMiddleware(AgentMiddleware[MemoryTransferState, Any]):
    """Retrieval before the agent's first model call and a memory written after it ends (see
    the module docstring).

    Args:
        pool: the pool, a location, or a callable opening it (as for the nodes).
        retrieval: what is retrieved (:class:`RetrievalConfig`, the retrieval node's).
        writer: what is written (:class:`WriterConfig`, the writer node's); the writer needs a
            ``model`` for every type but trajectory.
        verifier: decides the run's outcome from the final state; else the writer's judge;
            else unknown.
        model: makes the plan or goal queries some memory types are searched with.
    """

    state_schema = MemoryTransferState

    def __init__(
        self,
        pool: PoolSource,
        retrieval: RetrievalConfig | None = None,
        writer: WriterConfig | None = None,
        *,
        verifier: Verifier | None = None,
        model: str | BaseChatModel | None = None,
    ) -> None:
        super().__init__()
        if verifier is not None and not callable(verifier):
            raise ValueError(
                f"verifier: expected a callable given the final state, got {verifier!r:.60}"
            )
        self.retrieve = create_memory_retrieval_node(pool, retrieval, model=model)
        self.write = create_memory_writer_node(
            pool, writer or WriterConfig(memory_types="trajectory")
        )
        self.verifier = verifier

    def before_agent(self, state: MemoryTransferState, runtime: Any) -> dict[str, Any] | None:
        return self.retrieve(dict(state), runtime)

    async def abefore_agent(
        self, state: MemoryTransferState, runtime: Any
    ) -> dict[str, Any] | None:
        return await asyncio.to_thread(self.before_agent, state, runtime)

    def wrap_model_call(
        self, request: ModelRequest, handler: Callable[[ModelRequest], ModelResponse]
    ) -> ModelCallResult:
        return handler(_with_memories(request))

    async def awrap_model_call(
        self,
        request: ModelRequest,
        handler: Callable[[ModelRequest], Awaitable[ModelResponse]],
    ) -> ModelCallResult:
        return await handler(_with_memories(request))

    def after_agent(self, state: MemoryTransferState, runtime: Any) -> dict[str, Any] | None:
        finished = dict(state)
        try:
            if self.verifier is not None:
                finished["verified"] = self.verifier(state)
            return self.write(finished, runtime)
        except Exception as exc:  # the run is done; its memory is not worth failing it
            log.warning("memory not written, the run goes on: %s", exc)
            return {"memory_written": [], "memory_write_status": failure_status(exc)}

    async def aafter_agent(self, state: MemoryTransferState, runtime: Any) -> dict[str, Any] | None:
        return await asyncio.to_thread(self.after_agent, state, runtime)


def _with_memories(request: ModelRequest) -> ModelRequest:
    """``request`` with the run's memories at the end of its system message."""
    memories = str((request.state or {}).get("memory_prompt") or "")
    if not memories:
        return request
    system = request.system_prompt or ""
    text = f"{system}\n\n{memories}" if system else memories
    return request.override(system_message=SystemMessage(text))
