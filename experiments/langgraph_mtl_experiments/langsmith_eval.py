"""Conditions as LangSmith experiments, when a LangSmith key is set.

One dataset per domain (``mtl-<domain>``, one example per task), one experiment per condition
and domain through ``langsmith.evaluate`` (the condition in the experiment prefix and metadata,
``num_repetitions`` = attempts), and the task's verifier as the evaluator. The local results
store stays the source of truth: every attempt is stored there too, and an attempt already
stored is returned, not run again, so a resumed run never repeats work.
"""

from __future__ import annotations

import os
import threading
from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Any

from langgraph_mtl_experiments.conditions import Condition
from langgraph_mtl_experiments.domains import Task

__all__ = ["dataset_examples", "evaluate_domain", "langsmith_enabled", "verifier_evaluator"]

_KEYS = ("LANGSMITH_API_KEY", "LANGCHAIN_API_KEY")
OUTPUT_KEYS = ("attempt", "passed", "verification", "receipts", "steps", "seconds", "tokens")


def langsmith_enabled() -> bool:
    """True when a LangSmith key is set (experiments then also go to LangSmith)."""
    return any(os.environ.get(key) for key in _KEYS)


def dataset_examples(client: Any, domain: str, tasks: Sequence[Task]) -> list[Any]:
    """The examples of ``tasks`` in the domain's dataset, creating what is missing."""
    name = f"mtl-{domain}"
    if client.has_dataset(dataset_name=name):
        dataset = client.read_dataset(dataset_name=name)
    else:
        dataset = client.create_dataset(name, description=f"langgraph-mtl {domain} tasks")

    def known() -> dict[str, Any]:
        return {ex.inputs.get("task_id"): ex for ex in client.list_examples(dataset_id=dataset.id)}

    examples = known()
    missing = [t for t in tasks if t.task_id not in examples]
    if missing:
        client.create_examples(
            dataset_id=dataset.id,
            examples=[
                {
                    "inputs": {"task_id": t.task_id, "instruction": t.instruction},
                    "metadata": {"domain": domain},
                }
                for t in missing
            ],
        )
        examples = known()
    return [examples[t.task_id] for t in tasks]


def verifier_evaluator(outputs: dict[str, Any]) -> dict[str, Any]:
    """The task's verifier verdict (computed in the agent's sandbox) as the experiment score."""
    return {
        "key": "verified",
        "score": int(bool(outputs.get("passed"))),
        "comment": str(outputs.get("verification", ""))[-1000:],
    }


def evaluate_domain(
    condition: Condition,
    domain: str,
    tasks: Sequence[Task],
    *,
    attempts: int,
    run_attempt: Callable[[Task, int], dict[str, Any]],
    concurrency: int = 1,
    metadata: dict[str, Any] | None = None,
    client: Any = None,
) -> Any:
    """Run (or replay from the store) every attempt of ``tasks`` as one LangSmith experiment."""
    import langsmith

    client = client or langsmith.Client()
    by_id = {t.task_id: t for t in tasks}
    handed: dict[str, int] = defaultdict(int)
    lock = threading.Lock()

    def target(inputs: dict[str, Any]) -> dict[str, Any]:
        task = by_id[inputs["task_id"]]
        with lock:  # repetitions of one example get attempt numbers 0, 1, 2, ...
            attempt = handed[task.task_id]
            handed[task.task_id] += 1
        row = run_attempt(task, attempt)
        return {key: row.get(key) for key in OUTPUT_KEYS}

    return langsmith.evaluate(
        target,
        data=dataset_examples(client, domain, tasks),
        evaluators=[verifier_evaluator],
        experiment_prefix=f"{condition.name}-{domain}",
        metadata={
            "condition": condition.name,
            "domain": domain,
            **condition.record(),
            **(metadata or {}),
        },
        num_repetitions=attempts,
        max_concurrency=concurrency,
        client=client,
    )
