"""Experiments: coding domains with real verifiers, leave-one-domain-out runs, pass@k, sweeps,
abstraction analysis, reports, and LangSmith experiments when a key is set."""

from langgraph_mtl.experiments.conditions import CONDITIONS, SWEEPS, Condition, resolve_conditions
from langgraph_mtl.experiments.domains import DOMAINS, Domain, Task, get_domain
from langgraph_mtl.experiments.passk import pass_at_k
from langgraph_mtl.experiments.runner import (
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
