"""The scaffold tax: the agent against the same model answering in one reply, on the same tasks.

An agent that can write, run and fix its code should not lose to one reply that cannot. Every
approach sees the same instruction and files, runs against the same server and is checked by
the same verifier; each attempt is one line of ``scaffold.jsonl`` (resumable). Approaches:
``single-reply``, ``agent`` (its default policies) and ``agent:PRESET`` (the agent with the
policy preset named: ``agent:bare``, ``agent:safe-edits``, ``agent:small-model``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from langchain_core.language_models import BaseChatModel

from langgraph_mtl.agent import (
    AgentContext,
    RetrievalConfig,
    WriterConfig,
    create_coding_agent,
)
from langgraph_mtl.agent.replies import code_from_reply
from langgraph_mtl.agent.writing import writer_messages
from langgraph_mtl.models import reported_tokens
from langgraph_mtl_experiments.action_table import policy_lines
from langgraph_mtl_experiments.attempts import AgentSettings, ResultStore, attempt_task
from langgraph_mtl_experiments.tasks import Domain, Task

__all__ = [
    "APPROACHES",
    "check_approaches",
    "run_scaffold_tax",
    "scaffold_table",
    "single_reply_files",
]

APPROACHES = ("single-reply", "agent")


def check_approaches(approaches: Iterable[str]) -> tuple[str, ...]:
    """``approaches`` checked: each is single-reply, agent or agent:PRESET.

    Raises:
        ValueError: one is none of these (the message lists them).
    """
    from langgraph_mtl.agent.policy_set import PRESETS

    known = ["single-reply", "agent", *(f"agent:{name}" for name in PRESETS)]
    chosen = tuple(a.strip() for a in approaches if a.strip())
    for approach in chosen:
        if approach not in known:
            raise ValueError(f"approach {approach!r}: expected one of {', '.join(known)}")
    if not chosen:
        raise ValueError(f"approaches: name at least one of {', '.join(known)}")
    return chosen


def _target(task: Task) -> str:
    """The file the task's reference solution writes (the one a single reply must produce)."""
    changed = [name for name, text in task.reference.items() if task.files.get(name) != text]
    return (changed or sorted(task.reference) or ["solution.txt"])[0]


def single_reply_files(model: BaseChatModel, task: Task) -> tuple[dict[str, str], int]:
    """The task's files with the target file replaced by the model's one reply (asked with the
    agent's own first-write prompt); tokens used."""
    target = _target(task)
    current = task.files.get(target, "")
    reply = model.invoke(writer_messages(task=task.instruction, path=target, current=current))
    code = code_from_reply(str(reply.content))  # the same extraction as the agent's writes
    return {**task.files, target: code}, reported_tokens(reply)


def run_scaffold_tax(
    model: BaseChatModel,
    domains: Iterable[Domain],
    *,
    store: ResultStore,
    limit: int = 40,
    step_limit: int = 8,
    agent: AgentSettings | None = None,
    progress: Callable[[str, int, int, float], None] | None = None,
    approaches: Iterable[str] = APPROACHES,
) -> list[dict[str, Any]]:
    """Each approach on each domain's first ``limit`` evaluation tasks; stored rows are kept."""
    agent = agent or AgentSettings(steps=step_limit, repository_steps=step_limit)
    chosen = check_approaches(approaches)

    def graph_for(approach: str) -> Any:
        preset = approach.partition(":")[2] or "auto"
        return create_coding_agent(
            model,
            pool=_no_pool,
            retrieval=RetrievalConfig(memory_types=None, strategy="task"),
            writer=WriterConfig(memory_types="trajectory"),
            limits=agent.limits,
            edits=agent.edits,
            policies=preset,  # type: ignore[arg-type]
        ).compile()

    graphs = {a: graph_for(a) for a in chosen if a != "single-reply"}
    done = store.by_key()
    rows: list[dict[str, Any]] = []
    for domain in domains:
        tasks = domain.tasks("eval", limit=limit)
        for approach in chosen:
            label = f"{approach} / {domain.name}"
            keys = [store.key(approach, domain.name, task.task_id, 0) for task in tasks]
            stored = [done[key] for key in keys if key in done]
            passed, count = sum(bool(row["passed"]) for row in stored), len(stored)
            if progress:  # what was stored before, once: no run's pace
                progress(label, count, len(tasks), passed / max(count, 1))
            for key, task in zip(keys, tasks, strict=True):
                row = done.get(key)
                if row is None:
                    row = _run(approach, model, graphs.get(approach), domain, task, agent)
                    store.add(row)
                    passed, count = passed + bool(row["passed"]), count + 1
                    if progress:
                        progress(label, count, len(tasks), passed / count)
                rows.append(row)
    return rows


def _no_pool() -> Any:
    raise RuntimeError("the scaffold-tax run uses no memory")


def _run(
    approach: str,
    model: BaseChatModel,
    graph: Any,
    domain: Domain,
    task: Task,
    agent: AgentSettings,
) -> dict[str, Any]:
    base = {"condition": approach, "domain": domain.name, "task_id": task.task_id, "attempt": 0}
    if approach.startswith("agent"):
        context = AgentContext(
            domain=domain.name, task_id=task.task_id, retrieve=False, write=False
        )
        result = attempt_task(graph, domain, task, context, agent)
        return {
            **base,
            **{
                k: result[k]
                for k in ("passed", "steps", "tokens", "seconds", "actions", "policies")
            },
            "verification": result["verification"][-500:],
            "trace": result["trace"],  # each step, shortened: to read a run one by one
        }
    started = time.monotonic()
    files, tokens = single_reply_files(model, task)
    verdict = domain.check(task, files)
    passed, output = verdict.passed, verdict.report
    return {
        **base,
        "passed": passed,
        "steps": 1,
        "tokens": tokens,
        "seconds": round(time.monotonic() - started, 2),
        "verification": output[-500:],
    }


def scaffold_table(rows: Iterable[dict[str, Any]]) -> str:
    """A markdown table: pass@1, seconds and tokens per attempt, by domain and approach."""
    cells: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for row in rows:
        cells.setdefault((row["domain"], row["condition"]), []).append(row)
    lines = [
        "| domain | approach | tasks | pass@1 | s / attempt | tokens / attempt |",
        "|---|---|---|---|---|---|",
    ]
    for (domain, approach), group in sorted(cells.items()):
        n = len(group)
        rate = sum(bool(r["passed"]) for r in group) / n
        seconds = sum(float(r["seconds"]) for r in group) / n
        tokens = sum(int(r.get("tokens") or 0) for r in group) / n
        lines.append(f"| {domain} | {approach} | {n} | {rate:.3f} | {seconds:.1f} | {tokens:.0f} |")
    return "\n".join(lines) + "\n"


def write_scaffold_report(rows: list[dict[str, Any]], path: Path, command: str) -> Path:
    """``scaffold.md`` with the table, the policies that acted and the command that made it."""
    acted = "\n".join(policy_lines(rows))
    text = f"# Scaffold tax\n\n`{command}`\n\n{scaffold_table(rows)}" + (
        f"\n{acted}" if acted else ""
    )
    path.write_text(text, encoding="utf-8")
    return path
