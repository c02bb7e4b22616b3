"""Experiments: coding domains with real verifiers, leave-one-domain-out runs, pass@k, reports."""

from langgraph_mtl.experiments.domains import DOMAINS, Domain, Task, get_domain
from langgraph_mtl.experiments.passk import pass_at_k
from langgraph_mtl.experiments.runner import CONDITIONS, Condition, ResultStore, run_condition

__all__ = [
    "CONDITIONS",
    "DOMAINS",
    "Condition",
    "Domain",
    "ResultStore",
    "Task",
    "get_domain",
    "pass_at_k",
    "run_condition",
]
