"""The agent an experiment runs: the prebuilt coding agent, or a graph of one's own.

A graph of one's own comes from a factory (``mtl experiment run --agent module:function``, or
``AgentSettings(factory="module:function")``) called with keyword arguments for each condition::

    def build(*, model, pool, retrieval, writer, sandbox, limits):
        ...  # a StateGraph (or a compiled graph) whose state takes {"task": ...}

``retrieval`` and ``writer`` are the condition's settings for the two memory nodes
(:class:`~langgraph_mtl.agent.RetrievalConfig`, :class:`~langgraph_mtl.agent.WriterConfig`),
``sandbox`` and ``limits`` the agent's. The run's context is an
:class:`~langgraph_mtl.agent.AgentContext`: the workspace to work in, the domain and the task
(leave-one-domain-out reads them). The runner prepares the workspace, and afterwards verifies it
itself unless the graph put ``verified`` in its state; receipts are read from
``memory_receipts`` as for the prebuilt agent.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from langchain_core.language_models import BaseChatModel

from langgraph_mtl.agent import (
    Limits,
    RetrievalConfig,
    SandboxConfig,
    WriterConfig,
    create_coding_agent,
)
from langgraph_mtl.pool.memory_pool import MemoryPool
from langgraph_mtl_experiments.attempts import AgentSettings

__all__ = ["build_agent", "load_factory"]


def load_factory(spec: str | Callable[..., Any]) -> Callable[..., Any]:
    """The function ``module:function`` names (a function is taken as it is), or a short
    error naming what is wrong."""
    if callable(spec):
        return spec
    module, sep, name = spec.partition(":")
    if not sep or not module or not name:
        raise ValueError(f"--agent: expected module:function, got {spec!r}")
    try:
        found = getattr(importlib.import_module(module), name)
    except ImportError as exc:
        raise ValueError(f"--agent: cannot import {module!r} ({exc})") from None
    except AttributeError:
        raise ValueError(f"--agent: {module!r} has no {name!r}") from None
    if not callable(found):
        raise ValueError(f"--agent: {spec!r} is not a function")
    return found


def build_agent(
    model: BaseChatModel,
    pool: MemoryPool,
    retrieval: RetrievalConfig,
    writer: WriterConfig,
    agent: AgentSettings,
) -> Any:
    """The (uncompiled, where it can be) graph an experiment runs under these settings."""
    sandbox = SandboxConfig(hide=agent.hide)
    limits: Limits = agent.limits
    if not agent.factory:
        return create_coding_agent(
            model,
            pool=pool,
            retrieval=retrieval,
            writer=writer,
            sandbox=sandbox,
            limits=limits,
            edits=agent.edits,
            focused_memories=agent.focused_memories,
        )
    factory = load_factory(agent.factory)
    return factory(
        model=model,
        pool=pool,
        retrieval=retrieval,
        writer=writer,
        sandbox=sandbox,
        limits=limits,
    )


def compiled(graph: Any, **options: Any) -> Any:
    """``graph`` compiled with ``options`` (a graph already compiled is used as it is)."""
    return graph.compile(**options) if hasattr(graph, "compile") else graph
