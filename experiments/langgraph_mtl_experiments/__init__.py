"""Experiments: coding domains with real verifiers, leave-one-domain-out runs, pass@k, sweeps,
abstraction analysis, reports, and LangSmith experiments when a key is set.

Needs the ``experiments`` extra; the names below load on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from langgraph_mtl._lazy import lazy_exports

if TYPE_CHECKING:
    from langgraph_mtl_experiments.conditions import (
        CONDITIONS,
        SWEEPS,
        Condition,
        resolve_conditions,
    )
    from langgraph_mtl_experiments.domains import DOMAINS, Domain, Task, get_domain
    from langgraph_mtl_experiments.passk import pass_at_k
    from langgraph_mtl_experiments.runner import (
        ResultStore,
        generate_memories,
        run_condition,
        summarize,
    )

__all__ = [
    "CONDITIONS",
    "DOMAINS",
    "SWEEPS",
    "Condition",
    "Domain",
    "ResultStore",
    "Task",
    "generate_memories",
    "get_domain",
    "pass_at_k",
    "resolve_conditions",
    "run_condition",
    "summarize",
]

_HOME = {
    "CONDITIONS": "conditions",
    "SWEEPS": "conditions",
    "Condition": "conditions",
    "resolve_conditions": "conditions",
    "DOMAINS": "domains",
    "Domain": "domains",
    "Task": "domains",
    "get_domain": "domains",
    "pass_at_k": "passk",
    "ResultStore": "runner",
    "generate_memories": "runner",
    "run_condition": "runner",
    "summarize": "runner",
}


__getattr__, __dir__ = lazy_exports(__name__, _HOME, globals())
