"""Memory transfer proper: abstracting a finished run into memories, retrieving the
cross-domain ones for a new task.

The names below load on first use."""

from __future__ import annotations

from typing import TYPE_CHECKING

from langgraph_mtl._lazy import lazy_exports

if TYPE_CHECKING:
    from langgraph_mtl.transfer.abstraction import abstract_run
    from langgraph_mtl.transfer.retrieval import retrieve_memories

__all__ = [
    "abstract_run",
    "retrieve_memories",
]

_HOME = {
    "abstract_run": "abstraction",
    "retrieve_memories": "retrieval",
}


__getattr__, __dir__ = lazy_exports(__name__, _HOME, globals())
