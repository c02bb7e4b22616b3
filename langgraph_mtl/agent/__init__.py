"""The prebuilt coding agent: plan -> retrieve memories -> act loop -> verify -> write memory.

Submodules: ``graph`` (the factory), ``actions`` (the action schema and parsers), ``tools``
(sandboxed tools and the executor every protocol shares), ``sandbox`` (running commands).
The names below load on first use.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from langgraph_mtl.agent.graph import AgentContext, CodingAgentState, create_coding_agent
    from langgraph_mtl.agent.tools import create_sandbox_tools

__all__ = ["AgentContext", "CodingAgentState", "create_coding_agent", "create_sandbox_tools"]

_HOME = {
    "AgentContext": "graph",
    "CodingAgentState": "graph",
    "create_coding_agent": "graph",
    "create_sandbox_tools": "tools",
}


def __getattr__(name: str) -> Any:
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module 'langgraph_mtl.agent' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"langgraph_mtl.agent.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
