"""The prebuilt coding agent: plan -> retrieve memories -> act loop -> verify -> write memory.

Submodules: ``graph`` (the factory), ``config`` (its grouped settings), ``state`` (run context
and state), ``history`` (the typed step record), ``policies`` and ``policy_set`` (the switchable
steering and its presets), ``actions`` (the action schema and parsers), ``tools`` (sandboxed
tools and the executor every protocol shares), ``sandbox`` (running commands).
The names below load on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from langgraph_mtl._lazy import lazy_exports

if TYPE_CHECKING:
    from langgraph_mtl.agent.config import Limits, RetrievalConfig, SandboxConfig, WriterConfig
    from langgraph_mtl.agent.graph import create_coding_agent
    from langgraph_mtl.agent.history import StepFacts
    from langgraph_mtl.agent.policies import Policy, StepView
    from langgraph_mtl.agent.policy_set import BARE, SAFE_EDITS, SMALL_MODEL
    from langgraph_mtl.agent.state import AgentContext, CodingAgentState
    from langgraph_mtl.agent.tools import create_sandbox_tools

__all__ = [
    "BARE",
    "SAFE_EDITS",
    "SMALL_MODEL",
    "AgentContext",
    "CodingAgentState",
    "Limits",
    "Policy",
    "RetrievalConfig",
    "SandboxConfig",
    "StepFacts",
    "StepView",
    "WriterConfig",
    "create_coding_agent",
    "create_sandbox_tools",
]

_HOME = {
    "BARE": "policy_set",
    "SAFE_EDITS": "policy_set",
    "SMALL_MODEL": "policy_set",
    "Policy": "policies",
    "StepFacts": "history",
    "StepView": "policies",
    "AgentContext": "state",
    "CodingAgentState": "state",
    "Limits": "config",
    "RetrievalConfig": "config",
    "SandboxConfig": "config",
    "WriterConfig": "config",
    "create_coding_agent": "graph",
    "create_sandbox_tools": "tools",
}


__getattr__, __dir__ = lazy_exports(__name__, _HOME, globals())
