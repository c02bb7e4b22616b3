"""Repository bug fixing: single-token bugs planted in small pure-Python projects whose source
archives ship their test suites (inflection, toolz).

Mutants are generated deterministically from a seed (comparison, arithmetic, boolean and
constant swaps), and kept only when the project's own tests catch them; the issue text is the
failing test output. The verifier rebuilds the project from its pinned source, takes only the
project's modules from the solution (never tests or test configuration) and requires as many
passing tests as the unbroken project has. Screening a mutant runs the whole suite (a few
seconds), so tasks are screened on first use and the verdicts cached.
"""

from __future__ import annotations

import functools
import io
import random
import shlex
import sys
import tempfile
import tokenize
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from langgraph_mtl.agent.sandbox import Sandbox
from langgraph_mtl_experiments.tasks import Domain, Task, first_usable, python_first, verify_sandbox
from langgraph_mtl_experiments.verifiers import PytestSuite
from langgraph_mtl_experiments.wheels import PinnedWheel, read_sdist

__all__ = ["HeldOutRepoDomain", "Mutant", "RepoDomain", "mutants"]


@dataclass(frozen=True)
class Project:
    """A pinned source archive, the modules bugs are planted in, and its test command."""

    package: PinnedWheel
    modules: tuple[str, ...]
    tests: str  # a path for pytest


PROJECTS = (
    Project(
        PinnedWheel(
            "inflection",
            "0.5.1",
            "inflection-0.5.1.tar.gz",
            "1a29730d366e996aaacffb2f1f1cb9593dc38e2ddd30c91250c6dde09ea9b417",
            sdist=True,
        ),
        ("inflection/__init__.py",),
        "test_inflection.py",
    ),
    Project(
        PinnedWheel(
            "toolz",
            "1.0.0",
            "toolz-1.0.0.tar.gz",
            "2c86e3d9a04798ac556793bced838816296a2f085017664e4995cb40a1047a02",
            sdist=True,
        ),
        ("toolz/itertoolz.py", "toolz/functoolz.py", "toolz/dicttoolz.py", "toolz/recipes.py"),
        "toolz/tests",
    ),
)

HELD_OUT = (
    Project(
        PinnedWheel(
            "more-itertools",
            "10.5.0",
            "more-itertools-10.5.0.tar.gz",
            "5482bfef7849c25dc3c6dd53a6173ae4795da2a41a80faea6700d9f5846c5da6",
            sdist=True,
        ),
        ("more_itertools/more.py", "more_itertools/recipes.py"),
        "tests",
    ),
)

SWAPS = {
    "<": "<=",
    "<=": "<",
    ">": ">=",
    ">=": ">",
    "==": "!=",
    "!=": "==",
    "+": "-",
    "-": "+",
    "and": "or",
    "or": "and",
    "True": "False",
    "False": "True",
    "0": "1",
    "1": "0",
}
TEST_TIMEOUT = 60


@dataclass(frozen=True)
class Mutant:
    """One planted bug: ``old`` became ``new`` at ``line``:``col`` of ``path``."""

    project: str
    path: str
    line: int
    col: int
    old: str
    new: str

    @property
    def task_id(self) -> str:
        return f"{self.project}/{self.path}:{self.line}:{self.col}:{self.old}->{self.new}"

    def apply(self, source: str) -> str:
        lines = source.splitlines(keepends=True)
        text = lines[self.line - 1]
        if text[self.col : self.col + len(self.old)] != self.old:
            raise ValueError(f"{self.task_id}: the source does not hold {self.old!r} there")
        lines[self.line - 1] = text[: self.col] + self.new + text[self.col + len(self.old) :]
        return "".join(lines)


def mutants(project: str, path: str, source: str) -> list[Mutant]:
    """Every single-token swap in a module's code (not in strings or comments)."""
    out = []
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type in (tokenize.OP, tokenize.NAME, tokenize.NUMBER) and tok.string in SWAPS:
            line, col = tok.start
            out.append(Mutant(project, path, line, col, tok.string, SWAPS[tok.string]))
    return out


def _pytest(project: Project) -> str:
    return f"{shlex.quote(sys.executable)} -m pytest -x -q -p no:cacheprovider {project.tests}"


class RepoDomain(Domain):
    """Fix a planted bug in a real project so its own test suite passes again."""

    name = "repo"
    kind = "repository"
    projects: tuple[Project, ...] = PROJECTS
    data = tuple(project.package for project in PROJECTS)

    @cached_property
    def _trees(self) -> dict[str, dict[str, str]]:
        return {p.package.name: read_sdist(p.package) for p in self.projects}

    def fetch(self, verify: str = "none") -> int:
        return len(self.all_tasks() if verify == "all" else self._all_mutants())

    def _all_mutants(self) -> list[Mutant]:
        found = []
        for project in self.projects:
            tree = self._trees[project.package.name]
            for path in project.modules:
                found += mutants(project.package.name, path, tree[path])
        return found

    def _project(self, name: str) -> Project:
        return next(p for p in self.projects if p.package.name == name)

    def _files(self, project: Project) -> dict[str, str]:
        tree = self._trees[project.package.name]
        return {p: c for p, c in tree.items() if p.endswith((".py", ".cfg", ".ini", ".toml"))}

    def _modules(self, project: Project) -> tuple[str, ...]:
        """What a fix may change: the project's own modules (no tests, no test set-up)."""
        return tuple(
            sorted(
                p
                for p in self._files(project)
                if p.endswith(".py")
                and not p.startswith(project.tests)
                and "/tests/" not in f"/{p}"
                and p.rsplit("/", 1)[-1] not in ("conftest.py", "setup.py")
                and not p.rsplit("/", 1)[-1].startswith("test_")
            )
        )

    def _suite(self, project: Project) -> PytestSuite:
        files = self._files(project)

        def expected() -> int:
            def measure() -> int:
                counted = PytestSuite(files, self._modules(project), project.tests, lambda: 0)
                report, output = counted.count(files, verify_sandbox())
                if not report or report.get("failed") or report.get("errors"):
                    raise RuntimeError(
                        f"repo: the unbroken {project.package.name} does not pass its own tests "
                        f"here:\n{output[-800:]}"
                    )
                return int(str(report["passed"]))

            return int(self.cached_verdict(f"passes:{project.package.name}", measure))

        return PytestSuite(
            files, self._modules(project), project.tests, expected, timeout=TEST_TIMEOUT
        )

    def _task(self, mutant: Mutant, failure: str) -> Task:
        project = self._project(mutant.project)
        tree = self._trees[mutant.project]
        files = self._files(project)
        suite = self._suite(project)
        broken = mutant.apply(tree[mutant.path])
        return Task(
            domain=self.name,
            task_id=mutant.task_id,
            instruction=(
                f"This is the source of the Python project `{mutant.project}`. Its test suite "
                f"fails:\n\n{failure}\n\nFind the bug in the project's code and fix it so that "
                f"`python -m pytest -x -q {project.tests}` passes. Do not change the tests."
            ),
            env=python_first(sys.executable),
            problem=failure,
            check=f"python -m pytest -x -q {project.tests}",
            files={**files, mutant.path: broken},
            verifier=suite,
            reference={**files},
            wrong={**files, mutant.path: broken},
            protected=tuple(sorted(set(files) - set(suite.solution_files))),
        )

    def _screen(self, mutant: Mutant) -> str | None:
        """The failing test output if the project's tests catch the mutant, else ``None``."""
        project = self._project(mutant.project)
        tree = self._trees[mutant.project]
        broken = mutant.apply(tree[mutant.path])
        try:
            compile(broken, mutant.path, "exec")
        except SyntaxError:
            return None
        with tempfile.TemporaryDirectory(prefix="mtl-repo-") as ws:
            root = Path(ws)
            for path, content in {**tree, mutant.path: broken}.items():
                (root / path).parent.mkdir(parents=True, exist_ok=True)
                (root / path).write_text(content)
            # the sandbox kills the whole process group on timeout (some mutants loop forever)
            result = Sandbox(root, mode="none", timeout=TEST_TIMEOUT).run(_pytest(project))
        if result.exit_code in (0, None):  # survived, or loops: not a usable task
            return None
        return "\n".join(result.output.strip().splitlines()[-25:])

    def tasks(self, split: str = "all", *, limit: int | None = None, seed: int = 0) -> list[Task]:
        """Mutants in seeded order, screened on first use; "source" and "eval" take alternate
        mutants, so both splits draw from every project."""
        if split not in ("source", "eval", "all"):
            raise ValueError(f"split: unknown {split!r}; choose from ['all', 'eval', 'source']")
        order = self._all_mutants()
        random.Random(f"{self.name}-{seed}").shuffle(order)
        if split != "all":
            order = order[split == "eval" :: 2]

        def caught(mutant: Mutant) -> Task | None:
            failure = self.cached_verdict(mutant.task_id, functools.partial(self._screen, mutant))
            return self._task(mutant, failure) if failure is not None else None

        return first_usable(order, limit, caught)

    def candidates(self) -> list[Task]:
        return self.tasks("all")

    def all_tasks(self) -> list[Task]:
        return self.tasks("all")


class HeldOutRepoDomain(RepoDomain):
    """The same bugs planted in a project no development of the agent has looked at
    (more-itertools): a held-out set, measured out of sample."""

    name = "repo-heldout"
    projects = HELD_OUT
    data = tuple(project.package for project in HELD_OUT)
