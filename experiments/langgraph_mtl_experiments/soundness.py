"""Is a domain's verifier sound on every task? A task is usable when its reference passes and
its wrong solution fails (the loaders' rule; the others are counted as dropped, with the
reason); on every usable task, every known cheat (:mod:`.cheats`) must fail."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from langgraph_mtl_experiments.cheats import cheats_for
from langgraph_mtl_experiments.tasks import Domain, Task

__all__ = ["Soundness", "check_soundness"]


@dataclass
class Soundness:
    """Counts over the checked tasks; ``unsound`` lists (task, the cheat that passed)."""

    domain: str
    tasks: int = 0
    references_pass: int = 0
    usable: int = 0
    cheats_tried: int = 0
    cheats_fail: int = 0
    dropped: Counter[str] = field(default_factory=Counter)
    unsound: list[tuple[str, str]] = field(default_factory=list)

    @property
    def sound(self) -> bool:
        return not self.unsound

    def summary(self) -> str:
        line = (
            f"{self.domain}: {self.tasks} tasks; references pass {self.references_pass}; "
            f"usable (the wrong solution fails too) {self.usable}"
        )
        if self.cheats_tried:
            line += f"; cheats fail {self.cheats_fail}/{self.cheats_tried}"
        return line

    def as_dict(self) -> dict[str, Any]:
        return {
            "domain": self.domain,
            "tasks": self.tasks,
            "references_pass": self.references_pass,
            "usable": self.usable,
            "cheats_tried": self.cheats_tried,
            "cheats_fail": self.cheats_fail,
            "dropped": dict(self.dropped),
            "unsound": self.unsound,
        }


def _reason(report: str) -> str:
    first = next((line for line in report.splitlines() if line.strip()), "no report")
    return first[:120]


def check_soundness(
    domain: Domain,
    tasks: Sequence[Task],
    *,
    cheats: bool = True,
    progress: Callable[[int, int, bool], object] | None = None,
) -> Soundness:
    """Run the reference, the wrong solution and (``cheats``) every cheat on each task."""
    out = Soundness(domain.name)
    for index, task in enumerate(tasks, start=1):
        out.tasks += 1
        reference = domain.check(task, task.reference)
        out.references_pass += reference.passed
        if not reference.passed:
            out.dropped[f"reference fails: {_reason(reference.report)}"] += 1
        elif domain.check(task, task.wrong).passed:
            out.dropped["the wrong solution passes too (doing nothing is right)"] += 1
        elif reason := domain.unusable(task):
            out.dropped[reason] += 1
        else:
            out.usable += 1
            for name, files in (cheats_for(task) if cheats else {}).items():
                out.cheats_tried += 1
                if domain.check(task, files).passed:
                    out.unsound.append((task.task_id, f"cheat: {name}"))
                else:
                    out.cheats_fail += 1
        if progress:
            progress(index, len(tasks), out.sound)
    return out
