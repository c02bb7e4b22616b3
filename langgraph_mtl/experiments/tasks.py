"""What a domain is: tasks with a workspace, an instruction and a verifier, split and checked.

A task gives the agent a workspace (files, optionally built by a setup script) and an
instruction; its verifier is a shell command run in the workspace after the agent finishes (the
tests stay hidden until then). Each task can place its reference solution or a wrong one, so
loaders are checked against both.
"""

from __future__ import annotations

import json
import random
import tempfile
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from langgraph_mtl.agent.sandbox import Sandbox, SandboxMode
from langgraph_mtl.home import mtl_home

__all__ = ["PRELUDE", "Domain", "Task", "cache_dir", "first_usable", "heredoc"]

T = TypeVar("T")


@dataclass(frozen=True)
class Task:
    """One task: what the agent reads, the files it starts with, and how it is checked."""

    domain: str
    task_id: str
    instruction: str
    files: dict[str, str]
    verify_command: str
    reference: dict[str, str] = field(default_factory=dict)
    wrong: dict[str, str] = field(default_factory=dict)
    setup: str = ""  # a bash script run in the fresh workspace before ``files`` are written

    def prepare(self, workspace: str | Path, files: dict[str, str] | None = None) -> None:
        """Build the task's starting workspace (optionally with other ``files``)."""
        root = Path(workspace)
        if self.setup:
            done = Sandbox(root, mode="auto", timeout=60).run(self.setup)
            if done.exit_code != 0:
                raise RuntimeError(f"{self.task_id}: workspace setup failed: {done.output[-500:]}")
        for name, content in (self.files if files is None else files).items():
            path = root / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(content)


class Domain(ABC):
    """A source of tasks; ``tasks()`` is deterministic and split into source/eval halves."""

    name: str
    check_sandbox: SandboxMode = "none"  # verifying shipped references needs no isolation

    def fetch(self) -> int:
        """Download the task data and build what its verifier needs; returns the task count."""
        return len(self.all_tasks())

    @abstractmethod
    def _candidates(self) -> list[Task]:
        """Every task of the data set, in a fixed order."""

    def all_tasks(self) -> list[Task]:
        """The tasks whose reference solution passes its verifier here and whose wrong solution
        fails it (checked once, cached): data sets hold entries that do not build with the
        installed toolchain, give different output on each run, or cannot tell a no-op apart."""
        tasks = self._candidates()
        cache = cache_dir() / f"{self.name}-verified.json"
        if cache.exists():
            good = set(json.loads(cache.read_text()))
        else:
            good = {t.task_id for t in tasks if self.verifies(t)}
            if tasks and not good:  # a broken toolchain, not a data set: say so, cache nothing
                _, output = self.check(tasks[0], tasks[0].reference)
                raise RuntimeError(
                    f"{self.name}: no reference solution passes its verifier here; the first "
                    f"one ({tasks[0].task_id}) says:\n{output[-800:]}"
                )
            cache.parent.mkdir(parents=True, exist_ok=True)
            cache.write_text(json.dumps(sorted(good)))
        return [t for t in tasks if t.task_id in good]

    def tasks(self, split: str = "all", *, limit: int | None = None, seed: int = 0) -> list[Task]:
        """``split``: "source" (memory generation), "eval" (evaluation) or "all"; disjoint halves."""
        items = list(self.all_tasks())
        random.Random(f"{self.name}-{seed}").shuffle(items)
        half = len(items) // 2
        chosen = {"source": items[:half], "eval": items[half:], "all": items}[split]
        return chosen[:limit] if limit is not None else chosen

    def cached_verdict(self, task_id: str, compute: Callable[[], Any]) -> Any:
        """A per-task verdict (any JSON value), computed once and kept in the domain's cache
        file: for domains that verify tasks when they are first used."""
        cache = cache_dir() / f"{self.name}-verdicts.json"
        verdicts = json.loads(cache.read_text()) if cache.exists() else {}
        if task_id not in verdicts:
            verdicts[task_id] = compute()
            cache.parent.mkdir(parents=True, exist_ok=True)
            cache.write_text(json.dumps(verdicts, sort_keys=True))
        return verdicts[task_id]

    def verifies(self, task: Task) -> bool:
        """The verifier accepts the reference solution and rejects the wrong one."""
        return self.check(task, task.reference)[0] and not self.check(task, task.wrong)[0]

    def check(self, task: Task, files: dict[str, str], *, timeout: float = 60) -> tuple[bool, str]:
        """Run the verifier on the given files in a fresh workspace (sandboxed where possible)."""
        with tempfile.TemporaryDirectory(prefix=f"mtl-check-{self.name}-") as ws:
            task.prepare(ws, files)
            box = Sandbox(ws, mode=self.check_sandbox, timeout=timeout, max_output_chars=4000)
            result = box.run(task.verify_command)
        return result.exit_code == 0, result.output


def first_usable(
    candidates: Iterable[T], limit: int | None, make: Callable[[T], Task | None]
) -> list[Task]:
    """Tasks made from ``candidates`` in order (``make`` returns ``None`` for an unusable one),
    up to ``limit``; candidates past the limit are never looked at, so never verified."""
    out: list[Task] = []
    for candidate in candidates:
        if limit is not None and len(out) >= limit:
            break
        if (task := make(candidate)) is not None:
            out.append(task)
    return out


def cache_dir() -> Path:
    """Where verification verdicts are cached (``$MTL_HOME/cache``, default ``.mtl/cache``)."""
    return mtl_home() / "cache"


PRELUDE = 'set -o pipefail; T="$(mktemp -d)" || exit 2\n'  # private scratch: no stale files


def heredoc(path: str, content: str) -> str:
    return f"cat > {path} <<'MTL_EOF'\n{content}\nMTL_EOF\n"
