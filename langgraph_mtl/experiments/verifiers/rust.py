"""Rust function tasks: the solution is built as its own library crate and the hidden tests as
a separate test crate that sees only the task's function, so crate attributes and macros in
the solution cannot reach the tests; the tests call it through the task's own signature, so a
solution returning a type of its own (one equal to anything, say) does not build. Each build
and the test run are sandboxed apart (the solution's build never sees the tests). A pass needs
the test binary's exit status 0, libtest's own line for a test named with this run's nonce and
a summary counting every test; the solution may not name what would let it learn the nonce or
stop the run (see :mod:`rust_reach`)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from langgraph_mtl.agent.sandbox import SandboxMode
from langgraph_mtl.agent.verdict import Verdict
from langgraph_mtl.experiments.verifiers.base import OneFileVerifier, failed
from langgraph_mtl.experiments.verifiers.rust_reach import forbidden_names
from langgraph_mtl.experiments.verifiers.scratch import new_nonce, scratch

__all__ = ["RustTests", "forwarding_function", "judged"]

RUSTC = "rustc --edition 2024 -A warnings"


@dataclass(frozen=True)
class RustTests(OneFileVerifier):
    """``tests``: the data set's ``#[cfg(test)] mod tests``; ``uses``: the prompt's own ``use``
    lines; ``entry``: the function the tests call, in ``solution_file``; ``signature``: the
    prompt's line declaring it (through ``{``), the only way the tests may call it."""

    tests: str
    entry: str
    uses: str = ""
    signature: str = ""
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
            f"{self.uses}\n{self._entry_in_tests()}\n{self.tests}\n"
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
        return judged(ran.output, ran.exit_code, nonce, expected)

    def _entry_in_tests(self) -> str:
        """The tests' way to the solution: a function of the task's signature calling it."""
        wrapper = forwarding_function(self.signature, f"solution::{self.entry}")
        return wrapper or f"use solution::{self.entry};"


def judged(output: str, exit_code: int | None, nonce: str, expected: int) -> Verdict:
    """The test binary's verdict: exit status 0 (libtest's own: the solution may not end the
    process), the nonce's test reported ok and a last summary counting ``expected`` passes. The
    printed lines alone prove nothing: a thread of the solution's can write them after libtest's."""
    own = re.search(rf"^test mtl_{nonce}::done \.\.\. ok$", output, re.MULTILINE)
    summary = re.findall(r"^test result: (\w+)\. (\d+) passed; (\d+) failed", output, re.MULTILINE)
    if exit_code == 0 and own and summary and summary[-1] == ("ok", str(expected), "0"):
        return Verdict(True, f"all {expected - 1} tests passed")
    return failed(
        f"the tests did not all run and pass (exit status {exit_code}):\n{output[-1500:]}"
    )


def _split_top_level(text: str, opening: int) -> tuple[list[str], int] | None:
    """The comma-separated parts of the bracketed list opening at ``opening``, and the index
    just past its closing bracket (``None`` when it does not close)."""
    depth, start, parts = 0, opening + 1, []
    for i in range(opening, len(text)):
        char = text[i]
        if char in "(<[":
            depth += 1
        elif char in ")>]" and text[i - 1 : i + 1] != "->":
            depth -= 1
            if depth == 0:
                parts.append(text[start:i])
                return [p.strip() for p in parts if p.strip()], i + 1
        elif char == "," and depth == 1:
            parts.append(text[start:i])
            start = i + 1
    return None


def forwarding_function(signature: str, target: str) -> str | None:
    """``fn name(a: A, b: B) -> R { target(a, b) }`` for a signature line (``pub`` and a
    trailing ``{`` dropped), or ``None`` when its parameters are not plain names."""
    head = re.sub(r"^\s*pub(\([^)]*\))?\s+", "", signature.strip()).removesuffix("{").rstrip()
    name = re.match(r"fn\s+\w+\s*", head)
    if not name:
        return None
    opening = name.end()
    if head.startswith("<", opening):  # generics and lifetimes
        generics = _split_top_level(head, opening)
        if generics is None:
            return None
        opening = generics[1]
    if not head.startswith("(", opening) or (found := _split_top_level(head, opening)) is None:
        return None
    names = []
    for parameter in found[0]:
        plain = re.fullmatch(r"(?:mut\s+)?([A-Za-z_]\w*)\s*:.+", parameter, re.DOTALL)
        if not plain:
            return None
        names.append(plain.group(1))
    return f"#[allow(unused_mut)]\n{head} {{ {target}({', '.join(names)}) }}"
