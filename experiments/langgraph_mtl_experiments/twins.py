"""The oracle-usability probe's memories: for each task of one domain whose problem another
domain also poses (HumanEval-Rust translates HumanEval), that twin's reference solution.

Twins are matched by the problem's words (the docstring or comment, names split into words),
never by the function's name alone, and each pair's similarity is kept in the file so a reader
can see how sure the match was. The file is read by the ``fixed:PATH`` condition.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from langgraph_mtl_experiments.tasks import Domain, Task

__all__ = ["Twin", "find_twins", "write_oracle_file"]

_STOP = frozenset(
    [
        "the",
        "a",
        "an",
        "of",
        "to",
        "and",
        "or",
        "in",
        "is",
        "it",
        "be",
        "for",
        "that",
        "this",
        "with",
        "as",
        "are",
        "on",
        "by",
        "if",
        "else",
        "return",
        "returns",
        "given",
        "fn",
        "def",
        "let",
        "mut",
        "pub",
        "str",
        "string",
        "int",
        "float",
        "bool",
        "vec",
        "usize",
        "isize",
        "i32",
        "i64",
        "f32",
        "f64",
        "u8",
        "list",
        "none",
        "true",
        "false",
        "self",
    ]
)
MIN_SIMILARITY = 0.25  # below it, no twin: HumanEval-Rust's pairs lie at 0.28 and above
MIN_MARGIN = 0.03  # over the second-best candidate


@dataclass(frozen=True)
class Twin:
    """A task and the other domain's task posing the same problem."""

    task: Task
    twin: Task
    similarity: float
    margin: float


def _words(text: str) -> Counter[str]:
    split = re.sub(r"([a-z])([A-Z])", r"\1 \2", text).replace("_", " ").lower()
    return Counter(w for w in re.findall(r"[a-z]+", split) if w not in _STOP and len(w) > 1)


def _cosine(a: Counter[str], b: Counter[str]) -> float:
    dot = sum(count * b[word] for word, count in a.items())
    norms = math.sqrt(sum(v * v for v in a.values()) * sum(v * v for v in b.values()))
    return dot / norms if norms else 0.0


def find_twins(tasks: list[Task], others: list[Task]) -> list[Twin]:
    """Each task's twin among ``others`` (best problem-word cosine, at least MIN_SIMILARITY
    and MIN_MARGIN above the next candidate); tasks without a sure twin are left out."""
    vectors = [(other, _words(other.problem or other.instruction)) for other in others]
    found = []
    for task in tasks:
        mine = _words(task.problem or task.instruction)
        ranked = sorted(((_cosine(mine, v), o) for o, v in vectors), key=lambda p: -p[0])
        if not ranked:
            continue
        best, twin = ranked[0]
        margin = best - (ranked[1][0] if len(ranked) > 1 else 0.0)
        if best >= MIN_SIMILARITY and margin >= MIN_MARGIN:
            found.append(Twin(task, twin, round(best, 4), round(margin, 4)))
    return found


def _memory(twin: Twin, source: str) -> dict[str, str]:
    files = "\n\n".join(
        f"{name}:\n```\n{content.strip()}\n```"
        for name, content in sorted(twin.twin.reference.items())
    )
    return {
        "memory_type": "insight",
        "domain": source,
        "task_id": twin.twin.task_id,
        "key": twin.twin.problem or twin.twin.instruction,
        "content": f"The same problem, solved in another language ({source}):\n\n{files}",
    }


def write_oracle_file(target: Domain, source: Domain, path: Path, *, split: str = "eval") -> int:
    """Write the probe's file: one line per ``target`` task of ``split`` with a twin in
    ``source`` (any of its tasks), giving that twin's reference solution as one memory.
    Returns how many tasks have one."""
    twins = find_twins(target.tasks(split), source.all_tasks())
    lines = [
        json.dumps(
            {
                "task_id": t.task.task_id,
                "twin": t.twin.task_id,
                "similarity": t.similarity,
                "margin": t.margin,
                "memories": [_memory(t, source.name)],
            },
            ensure_ascii=False,
        )
        for t in twins
    ]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + ("\n" if lines else ""), encoding="utf-8")
    return len(twins)
