"""The experiment harness of langgraph-mtl: coding domains with real verifiers, leave-one-domain-
out runs, pass@k, sweeps, abstraction analysis, reports, and LangSmith experiments when a key is
set. A domain of one's own subclasses :class:`Domain` (registered under the entry point group
``langgraph_mtl.domains``) or is a task file (:class:`TaskFileDomain`); an agent of one's own is
a graph factory (:class:`AgentSettings`). The names below load on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from langgraph_mtl._lazy import lazy_exports

if TYPE_CHECKING:
    from langgraph_mtl_experiments.attempts import AgentSettings
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
    from langgraph_mtl_experiments.task_files import TaskFileDomain

__all__ = [
    "AgentSettings",
    "CONDITIONS",
    "DOMAINS",
    "SWEEPS",
    "Condition",
    "Domain",
    "ResultStore",
    "Task",
    "TaskFileDomain",
    "generate_memories",
    "get_domain",
    "pass_at_k",
    "resolve_conditions",
    "run_condition",
    "summarize",
]

_HOME = {
    "AgentSettings": "attempts",
    "TaskFileDomain": "task_files",
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
