"""Conditions as LangSmith experiments, when a LangSmith key is set.

One dataset per domain (``mtl-<domain>``, one example per task, its text redacted), one experiment
per condition and domain through ``langsmith.evaluate`` (the condition in the experiment prefix
and metadata), and the task's verifier as the evaluator, so each run's feedback is the verdict
stored in ``results.jsonl``. The local results store stays the source of truth: an attempt
already stored is replayed, not run again.

A run keeps a ledger beside its results (``langsmith.json``): the experiment of each condition
and domain, and the attempts uploaded to it. A resumed or grown run adds only the attempts not
uploaded yet, to the experiment it started: no second experiment, no attempt twice. Everything
goes through the process's redacting client (:mod:`langgraph_mtl.tracing_client`); when
LangSmith fails, the run goes on locally.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import sys
import threading
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from langgraph_mtl.tracing_client import endpoint_down, redact_for_trace, redacting_client
from langgraph_mtl_experiments.conditions import Condition
from langgraph_mtl_experiments.domains import Task

__all__ = [
    "Ledger",
    "dataset_examples",
    "evaluate_domain",
    "langsmith_enabled",
    "verifier_evaluator",
]

_KEYS = ("LANGSMITH_API_KEY", "LANGCHAIN_API_KEY")
OUTPUT_KEYS = ("attempt", "passed", "verification", "receipts", "steps", "seconds", "tokens")
_URL = re.compile(r"https?://\S+")


def langsmith_enabled() -> bool:
    """True when a LangSmith key is set (experiments then also go to LangSmith)."""
    return any(os.environ.get(key) for key in _KEYS)


class Ledger:
    """``langsmith.json`` of a results directory: per condition and domain, the experiment and
    the attempts (``task|attempt``) uploaded to it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.lock = threading.Lock()

    def _read(self) -> dict[str, Any]:
        if not self.path.is_file():
            return {}
        try:
            return dict(json.loads(self.path.read_text(encoding="utf-8")))
        except ValueError:
            return {}

    def entry(self, condition: str, domain: str) -> dict[str, Any]:
        return dict(self._read().get(f"{condition}|{domain}", {}))

    def record(
        self, condition: str, domain: str, *, experiment: str, url: str, uploaded: Sequence[str]
    ) -> None:
        with self.lock:
            data = self._read()
            entry = data.setdefault(f"{condition}|{domain}", {"uploaded": []})
            entry.update(experiment=experiment, url=url)
            entry["uploaded"] = sorted({*entry.get("uploaded", []), *uploaded})
            self.path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", "utf-8")


def dataset_examples(client: Any, domain: str, tasks: Sequence[Task]) -> dict[str, Any]:
    """The examples of ``tasks`` in the domain's dataset by task id, creating what is missing
    (with the task's text redacted)."""
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
                    "inputs": redact_for_trace(
                        {"task_id": t.task_id, "instruction": t.instruction}
                    ),
                    "metadata": {"domain": domain},
                }
                for t in missing
            ],
        )
        examples = known()
    return {t.task_id: examples[t.task_id] for t in tasks}


def verifier_evaluator(outputs: dict[str, Any]) -> dict[str, Any]:
    """The task's verifier verdict (computed in the agent's sandbox) as the experiment score."""
    return {
        "key": "verified",
        "score": int(bool(outputs.get("passed"))),
        "comment": redact_for_trace(str(outputs.get("verification", ""))[-1000:]),
    }


class _Quiet(io.TextIOBase):
    """stdout without the SDK's own announcements (kept for the one line the run prints)."""

    def __init__(self, stream: Any) -> None:
        self.stream, self.said = stream, io.StringIO()

    def write(self, text: str) -> int:
        if text.startswith(("View the evaluation results", "Starting evaluation of")):
            self.said.write(text)
            return len(text)
        return int(self.stream.write(text))

    def flush(self) -> None:
        self.stream.flush()


@contextlib.contextmanager
def _quiet_sdk() -> Iterator[_Quiet]:
    """No SDK links or progress bars in the middle of the command's own progress."""
    before = os.environ.get("TQDM_DISABLE")
    os.environ["TQDM_DISABLE"] = "1"
    quiet = _Quiet(sys.stdout)
    try:
        with contextlib.redirect_stdout(quiet):
            yield quiet
    finally:
        if before is None:
            os.environ.pop("TQDM_DISABLE", None)
        else:
            os.environ["TQDM_DISABLE"] = before


def evaluate_domain(
    condition: Condition,
    domain: str,
    tasks: Sequence[Task],
    *,
    attempts: int,
    run_attempt: Callable[[Task, int], dict[str, Any]],
    ledger: Ledger,
    concurrency: int = 1,
    metadata: dict[str, Any] | None = None,
    client: Any = None,
) -> str | None:
    """Run (or replay from the store) the attempts of ``tasks`` not uploaded yet, into the
    condition's experiment on this domain (made on first use); returns its URL."""
    import langsmith

    client = client or redacting_client()
    entry = ledger.entry(condition.name, domain)
    uploaded = set(entry.get("uploaded", []))
    wanted = [
        (task, attempt)
        for task in tasks
        for attempt in range(attempts)
        if f"{task.task_id}|{attempt}" not in uploaded
    ]
    if not wanted:
        return entry.get("url")
    examples = dataset_examples(client, domain, tasks)
    by_id = {t.task_id: t for t in tasks}
    queue: dict[str, list[int]] = defaultdict(list)
    for task, attempt in wanted:
        queue[task.task_id].append(attempt)
    lock = threading.Lock()
    done: list[str] = []

    def target(inputs: dict[str, Any]) -> dict[str, Any]:
        task = by_id[inputs["task_id"]]
        with lock:  # each copy of an example takes the next attempt not uploaded
            attempt = queue[task.task_id].pop(0)
        row = run_attempt(task, attempt)
        with lock:
            done.append(f"{task.task_id}|{attempt}")
        return {key: row.get(key) for key in OUTPUT_KEYS}

    started = entry.get("experiment")
    naming = (
        {"experiment": started} if started else {"experiment_prefix": f"{condition.name}-{domain}"}
    )
    with _quiet_sdk() as quiet:
        results = langsmith.evaluate(
            target,
            data=[examples[task.task_id] for task, _ in wanted],
            evaluators=[verifier_evaluator],
            metadata={
                "condition": condition.name,
                "domain": domain,
                **condition.record(),
                **(metadata or {}),
            },
            max_concurrency=concurrency,
            client=client,
            **naming,
        )
    if endpoint_down():  # what it took is stored locally; LangSmith has not got it
        raise RuntimeError("LangSmith stopped answering during the experiment")
    found = _URL.search(quiet.said.getvalue())
    url = found.group(0) if found else str(entry.get("url", ""))
    ledger.record(
        condition.name, domain, experiment=str(results.experiment_id), url=url, uploaded=done
    )
    return url or None
