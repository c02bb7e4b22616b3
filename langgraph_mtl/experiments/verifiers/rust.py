"""Rust function tasks: the solution is built as its own library crate and the hidden tests as
a separate test crate that imports only the task's function, so crate attributes and macros in
the solution cannot reach the tests. Each build and the test run are sandboxed apart (the
solution's build never sees the tests). A pass needs libtest's own line for every test,
including one named with this run's nonce, and a summary counting them all; the solution may not
name what would let it learn the nonce or stop the run (see :mod:`rust_reach`)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from langgraph_mtl.agent.sandbox import SandboxMode
from langgraph_mtl.agent.verdict import Verdict
from langgraph_mtl.experiments.verifiers.base import OneFileVerifier, failed
from langgraph_mtl.experiments.verifiers.rust_reach import forbidden_names
from langgraph_mtl.experiments.verifiers.scratch import new_nonce, scratch

__all__ = ["RustTests"]

RUSTC = "rustc --edition 2024 -A warnings"


@dataclass(frozen=True)
class RustTests(OneFileVerifier):
    """``tests``: the data set's ``#[cfg(test)] mod tests``; ``uses``: the prompt's own ``use``
    lines; ``entry``: the function the tests call, in ``solution_file``."""

    tests: str
    entry: str
    uses: str = ""
    solution_file: str = "solution.rs"
    timeout: float = 120.0

    def check_file(self, text: str, mode: SandboxMode) -> Verdict:
        if names := forbidden_names(text):
            return failed(
                f"solution.rs may not use {', '.join(names)}: the function must only compute its "
                "result (no files, processes, environment, unsafe or foreign code)"
            )
        nonce = new_nonce()
        expected = len(re.findall(r"#\[test\]", self.tests)) + 1
        library = re.sub(
            rf"(?m)^fn\s+{re.escape(self.entry)}\b",
            f"pub fn {self.entry}",
            text,
        )
        suite = (
            f"{self.uses}\nuse solution::{self.entry};\n{self.tests}\n"
            f"#[cfg(test)]\nmod mtl_{nonce} {{\n    #[test]\n    fn done() {{}}\n}}\n"
        )
        with scratch() as dirs:
            dirs.write({"solution.rs": library})
            lib = dirs.out / "libsolution.rlib"
            built = dirs.box(mode, timeout=self.timeout, writable=(dirs.out,)).run(
                f"{RUSTC} --crate-type rlib --crate-name solution -o {lib} solution.rs 2>&1 | tail -30"
                f"; test -f {lib}"
            )
            if built.exit_code != 0:
                return failed(f"solution.rs does not build as a library:\n{built.output[-1500:]}")
            dirs.write({"tests.rs": suite}, dirs.harness)
            binary = dirs.out / "t"
            linked = dirs.box(
                mode, timeout=self.timeout, cwd=dirs.harness, writable=(dirs.out,)
            ).run(
                f"{RUSTC} --test --extern solution={lib} -o {binary} tests.rs 2>&1 | tail -30"
                f"; test -f {binary}"
            )
            if linked.exit_code != 0:
                return failed(
                    f"the tests do not build against solution.rs:\n{linked.output[-1500:]}"
                )
            ran = dirs.box(mode, timeout=15, cwd=dirs.out).run(f"{binary} --test-threads=1")
        out = ran.output
        own = re.search(rf"^test mtl_{nonce}::done \.\.\. ok$", out, re.MULTILINE)
        summary = re.findall(r"^test result: (\w+)\. (\d+) passed; (\d+) failed", out, re.MULTILINE)
        if own and summary and summary[-1] == ("ok", str(expected), "0"):
            return Verdict(True, f"all {expected - 1} tests passed")
        return failed(f"the tests did not all run and pass:\n{out[-1500:]}")
