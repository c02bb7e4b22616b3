"""Memory files of the usability gates, read by the ``fixed:PATH`` condition: a line per task
with the memories it is given instead of searched ones.

- **answers** (:func:`write_answer_file`): each task is given its own reference solution. Does
  a memory reach the model and does the model act on it (the channel)?
- **twins** (:func:`write_oracle_file`): each task is given the reference solution of its twin,
  the same problem in another domain, as the committed twin map says (:mod:`.twin_map`).
  Can the model use a memory that needs carrying over (usability)?
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from langgraph_mtl_experiments.tasks import Domain, Task
from langgraph_mtl_experiments.twin_map import TwinMap, load_twin_map

__all__ = ["write_answer_file", "write_oracle_file"]


def _solution(task: Task) -> str:
    return "\n\n".join(
        f"{name}:\n```\n{content.strip()}\n```" for name, content in sorted(task.reference.items())
    )


def _memory(task: Task, intro: str) -> dict[str, str]:
    return {
        "memory_type": "insight",
        "domain": task.domain,
        "task_id": task.task_id,
        "key": task.problem or task.instruction,
        "content": f"{intro}\n\n{_solution(task)}",
    }


def _write(path: Path, lines: Iterable[dict[str, Any]]) -> int:
    text = [json.dumps(line, ensure_ascii=False) for line in lines]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(text) + ("\n" if text else ""), encoding="utf-8")
    return len(text)


def write_answer_file(domains: Iterable[Domain], path: Path, *, split: str = "eval") -> int:
    """Write the channel gate's file: every ``split`` task of ``domains`` with a reference
    solution is given that solution as its one memory. Returns how many tasks are listed."""
    intro = "A solution of this very task, which passes its checks:"
    lines = [
        {"task_id": task.task_id, "memories": [_memory(task, intro)]}
        for domain in domains
        for task in domain.tasks(split)
        if task.reference
    ]
    return _write(path, lines)


def write_oracle_file(
    target: Domain,
    source: Domain,
    path: Path,
    *,
    split: str = "eval",
    twins: TwinMap | None = None,
) -> int:
    """Write the usability gate's file: each ``target`` task of ``split`` with a twin in
    ``source`` (the twin map's first) is given that twin's reference solution as its one
    memory. Returns how many tasks have one."""
    twins = twins if twins is not None else load_twin_map()
    others = {task.task_id: task for task in source.all_tasks()}
    lines = []
    for task in target.tasks(split):
        found = [t for t in twins.twins_of(target.name, task.task_id) if t in others]
        if not found:
            continue
        twin = others[found[0]]
        intro = f"The same problem, solved in another language ({source.name}):"
        lines.append(
            {"task_id": task.task_id, "twin": twin.task_id, "memories": [_memory(twin, intro)]}
        )
    return _write(path, lines)
