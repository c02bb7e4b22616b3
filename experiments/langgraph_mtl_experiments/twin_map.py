"""Which tasks are twins: the same problem posed in two domains (HumanEval-Rust translates
HumanEval). A memory written on a task's twin is its answer in another language, so no
condition may give it to the task; the runner leaves twins out of every search and draw.

Twins come from a committed map (``twin_map.json``, read by a person when it was made by
``scripts/derive_twin_map.py``), never from matching at run time: a match that misses one
pair leaks that pair's answer without a trace.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path

__all__ = ["TwinMap", "load_twin_map"]


def _node(text: str) -> tuple[str, str]:
    domain, sep, task_id = text.partition(":")
    if not sep or not domain or not task_id:
        raise ValueError(f"twin map: {text!r} is not 'domain:task_id'")
    return domain, task_id


@dataclass(frozen=True)
class TwinMap:
    """Twins both ways: a task's twins are the tasks of other domains posing its problem."""

    pairs: dict[tuple[str, str], frozenset[tuple[str, str]]] = field(default_factory=dict)

    @classmethod
    def from_json(cls, data: dict[str, object]) -> TwinMap:
        listed = data.get("twins")
        if not isinstance(listed, dict):
            raise ValueError("twin map: expected {'twins': {'domain:task': ['domain:task']}}")
        found: defaultdict[tuple[str, str], set[tuple[str, str]]] = defaultdict(set)
        for task, twins in listed.items():
            if not isinstance(twins, list):
                raise ValueError(f"twin map: the twins of {task!r} must be a list")
            one = _node(str(task))
            for twin in twins:
                other = _node(str(twin))
                found[one].add(other)
                found[other].add(one)
        return cls({key: frozenset(value) for key, value in found.items()})

    def twins_of(self, domain: str, task_id: str) -> tuple[str, ...]:
        """The task ids of ``task_id``'s twins in other domains (none when it has none)."""
        return tuple(sorted(t for d, t in self.pairs.get((domain, task_id), ()) if d != domain))

    def __len__(self) -> int:
        return len(self.pairs)


@cache
def load_twin_map(path: str | None = None) -> TwinMap:
    """The committed twin map (or the one at ``path``)."""
    if path is not None:
        text = Path(path).read_text(encoding="utf-8")
    else:
        text = resources.files(__package__).joinpath("twin_map.json").read_text(encoding="utf-8")
    return TwinMap.from_json(json.loads(text))
