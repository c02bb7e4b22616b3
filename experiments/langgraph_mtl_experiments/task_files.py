"""Tasks of one's own, written as a file: each file is a domain.

A file holds JSON lines, one task each (a first line ``{"domain": "name"}`` names the domain;
otherwise the file's name does)::

    {"id": "fix-1", "instruction": "The tests of calc.py fail; fix calc.py.",
     "setup": "cp -r \\"$TASK_DATA/calc\\"/. .", "solution_files": ["calc.py"],
     "verify": "python -m pytest -q", "reference": "--- a/calc.py\\n+++ b/calc.py\\n..."}

Fields: ``id``, ``instruction``, ``solution_files`` (what is taken from the agent's workspace)
and ``verify`` (a bash script that exits 0 when the task is solved) are required. Optional:
``setup`` (a bash script building the starting workspace), ``files`` (more starting files,
path -> content), ``reference`` (a unified diff that solves the task, applied with
``patch -p1``) or ``reference_files`` (path -> content), ``protected`` (files the agent must
leave as they are), ``env`` (variables for the agent's commands), ``check`` (a command the
agent may run to check its work, e.g. the tests it may see: the agent's end-on-green policy
runs it after each change), ``timeout`` (seconds for
setup and verify, default 120), ``split`` ("source" or "eval"), ``tags``, ``kind``
("function" or "repository": the agent's limits follow it).

``setup`` and ``verify`` run sandboxed with the file's folder readable as ``$TASK_DATA``; the
agent's commands never see that folder. Each task is checked when it is first used, and the
verdict cached: the setup works, the untouched workspace fails ``verify``, the reference (when
given) passes. A task that fails a check is dropped with one line saying why; a malformed line
is reported with its number and field, and the good lines still run.
"""

from __future__ import annotations

import hashlib
import json
import logging
import random
import tempfile
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from langgraph_mtl.agent.sandbox import Sandbox
from langgraph_mtl.agent.workspace import outside_workspace
from langgraph_mtl_experiments.tasks import Domain, Task, first_usable, verify_sandbox
from langgraph_mtl_experiments.verifiers.script import ScriptCheck

__all__ = ["TaskFileDomain", "TaskSpec", "read_task_file"]

log = logging.getLogger(__name__)


class TaskSpec(BaseModel):
    """One line of a task file (see the module docstring)."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(min_length=1, max_length=200, pattern=r"^[A-Za-z0-9_.:/@+-]+$")
    instruction: str = Field(min_length=1)
    solution_files: list[str] = Field(min_length=1)
    verify: str = Field(min_length=1)
    setup: str = ""
    files: dict[str, str] = Field(default_factory=dict)
    reference: str = ""
    reference_files: dict[str, str] = Field(default_factory=dict)
    protected: list[str] = Field(default_factory=list)
    env: dict[str, str] = Field(default_factory=dict)
    check: str = ""
    timeout: float = Field(default=120.0, gt=0, le=3600)
    split: Literal["source", "eval"] | None = None
    tags: list[str] = Field(default_factory=list)
    kind: Literal["function", "repository"] = "function"

    @field_validator("solution_files", "protected", "files", "reference_files")
    @classmethod
    def _inside(cls, value: Any) -> Any:
        """Every path a task names is relative and stays inside the workspace."""
        for name in value:
            if why := outside_workspace(name):
                raise ValueError(
                    f"{name!r} {why}: name a path inside the workspace, like 'src/a.py'"
                )
        return value


def _problem(error: ValidationError) -> str:
    first = error.errors()[0]
    field = ".".join(str(p) for p in first["loc"]) or "line"
    return f"{field}: {first['msg']}"


def read_task_file(path: Path) -> tuple[str, list[TaskSpec], list[str]]:
    """The domain name, the good tasks and one line per bad line (``file:line: field: why``)."""
    name = path.stem
    specs: list[TaskSpec] = []
    problems: list[str] = []
    seen: set[str] = set()
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{path.name}:{number}"
        try:
            data: Any = json.loads(line)
        except json.JSONDecodeError as exc:
            problems.append(f"{where}: not JSON ({exc.msg})")
            continue
        if isinstance(data, dict) and set(data) == {"domain"} and not specs and number <= 1:
            name = str(data["domain"])
            continue
        try:
            spec = TaskSpec.model_validate(data)
        except ValidationError as exc:
            problems.append(f"{where}: {_problem(exc)}")
            continue
        if spec.id in seen:
            problems.append(f"{where}: id: {spec.id!r} appears twice")
            continue
        seen.add(spec.id)
        specs.append(spec)
    return name, specs, problems


class TaskFileDomain(Domain):
    """The tasks of one task file (see the module docstring)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path).resolve()
        if not self.path.is_file():
            raise ValueError(f"{path} is not a file")
        self.name, self.specs, self.problems = read_task_file(self.path)
        if not self.specs:
            first = f" (first: {self.problems[0]})" if self.problems else ""
            raise ValueError(
                f"{path} holds no task: {len(self.problems)} malformed lines{first}; "
                "each line is one JSON task with id, instruction, solution_files and verify"
            )
        self._said: set[str] = set()
        from langgraph_mtl.memory.records import validate_domain

        validate_domain(self.name, "the task file's domain name")
        for problem in self.problems:
            log.warning("%s: skipped: %s", self.name, problem)

    @property
    def folder(self) -> Path:
        """The file's folder: the tasks' data, hidden from the agent."""
        return self.path.parent

    def data_digest(self) -> str:
        return hashlib.sha256(self.path.read_bytes()).hexdigest()

    @cached_property
    def _tasks(self) -> list[Task]:
        return [self._task(spec) for spec in self.specs]

    def _task(self, spec: TaskSpec) -> Task:
        verifier = ScriptCheck(
            setup=spec.setup,
            verify=spec.verify,
            files=tuple(spec.solution_files),
            data=str(self.folder),
            timeout=spec.timeout,
        )
        return Task(
            domain=self.name,
            task_id=spec.id,
            instruction=spec.instruction,
            problem=spec.instruction,
            files=dict(spec.files),
            verifier=verifier,
            reference=dict(spec.reference_files),
            setup=spec.setup,
            protected=tuple(spec.protected),
            env=dict(spec.env),
            check=spec.check.strip(),
            data_dir=str(self.folder),
            setup_timeout=spec.timeout,
            kind=spec.kind,
        )

    def candidates(self) -> list[Task]:
        return list(self._tasks)

    def all_tasks(self) -> list[Task]:
        return [t for t in self._tasks if self.usable(t)]

    def tasks(self, split: str = "all", *, limit: int | None = None, seed: int = 0) -> list[Task]:
        """The file's own splits where it gives them, else seeded halves; each task checked
        when first handed out."""
        if split not in ("source", "eval", "all"):
            raise ValueError(f"split: unknown {split!r}; choose from ['all', 'eval', 'source']")
        order = list(self._tasks)
        random.Random(f"{self.name}-{seed}").shuffle(order)
        if split != "all":
            given = {spec.id: spec.split for spec in self.specs}
            if any(given.values()):
                order = [t for t in order if given[t.task_id] == split]
            else:
                half = len(order) // 2
                order = order[:half] if split == "source" else order[half:]
        return first_usable(order, limit, lambda t: t if self.usable(t) else None)

    def usable(self, task: Task) -> bool:
        key = f"{task.task_id}@{self.data_digest()[:16]}"  # an edited file is checked again
        reason = str(self.cached_verdict(key, lambda: self._check(task) or ""))
        if reason and task.task_id not in self._said:
            self._said.add(task.task_id)
            log.warning("%s: task %s dropped: %s", self.name, task.task_id, reason)
        return not reason

    def _check(self, task: Task) -> str | None:
        """Why the task cannot be used, or None."""
        spec = next(s for s in self.specs if s.id == task.task_id)
        with tempfile.TemporaryDirectory(prefix="mtl-taskcheck-") as ws:
            try:
                task.prepare(ws)
            except RuntimeError as exc:
                return f"its setup fails ({str(exc)[-200:]})"
            untouched = _solution_files(Path(ws), task)
            if task.verify(untouched).passed:
                return "verify passes on the untouched workspace (it checks nothing)"
            if spec.reference:
                box = Sandbox(ws, mode=verify_sandbox(), timeout=spec.timeout)
                patched = box.run("patch -p1 --forward --batch", stdin=spec.reference.encode())
                if patched.exit_code != 0:
                    return f"its reference patch does not apply ({patched.output[-200:]})"
                solved = _solution_files(Path(ws), task)
            elif spec.reference_files:
                solved = {**untouched, **spec.reference_files}
            else:
                return None
            verdict = task.verify(solved)
            if not verdict.passed:
                return f"its reference does not pass verify ({verdict.report[-200:]})"
        return None


def _solution_files(root: Path, task: Task) -> dict[str, str]:
    files = {}
    for name in task.verifier.solution_files:
        path = root / name
        if path.is_file():
            files[name] = path.read_text(errors="replace")
    return files
