"""Rust function tasks: the solution is built as its own library crate and the hidden tests as
a separate test crate that sees only the task's function, so crate attributes and macros in
the solution cannot reach the tests; the tests call it through the task's own signature, so a
solution returning a type of its own (one equal to anything, say) does not build. Each build
and the test run are sandboxed apart (the solution's build never sees the tests). A pass needs
the test binary's exit status 0, libtest's own line for a test named with this run's nonce and
a summary counting every test; the solution may not name what would let it learn the nonce or
stop the run (see :mod:`rust_reach`).

With a ``reference`` solution, a solution that passes is then asked calls near the tests' own
(:mod:`.rust_probes`), each in a process of its own, and compared with the reference's answers
(:func:`.probes.fitted`): one that only remembers the tests' answers fails."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from langgraph_mtl.agent.sandbox import Sandbox, SandboxMode
from langgraph_mtl.agent.verdict import Verdict
from langgraph_mtl_experiments.verifiers.base import OneFileVerifier, failed
from langgraph_mtl_experiments.verifiers.probes import fitted
from langgraph_mtl_experiments.verifiers.rust_probes import (
    answers_agree,
    call_arguments,
    probe_arguments,
    probe_lines,
    probe_program,
)
from langgraph_mtl_experiments.verifiers.rust_reach import forbidden_names
from langgraph_mtl_experiments.verifiers.scratch import Scratch, new_nonce, scratch

__all__ = ["RustTests", "forwarding_function", "judged"]

RUSTC = "rustc --edition 2024 -A warnings"
REFERENCE_PROBE_SECONDS = 1  # longer, and the reference has no answer to that probe
SOLUTION_PROBE_SECONDS = 3


@dataclass(frozen=True)
class RustTests(OneFileVerifier):
    """``tests``: the data set's ``#[cfg(test)] mod tests``; ``uses``: the prompt's own ``use``
    lines; ``entry``: the function the tests call, in ``solution_file``; ``signature``: the
    prompt's line declaring it (through ``{``), the only way the tests may call it;
    ``reference``: a solution known to be right, to ask ``probes`` calls beyond the tests."""

    tests: str
    entry: str
    uses: str = ""
    signature: str = ""
    solution_file: str = "solution.rs"
    timeout: float = 120.0
    reference: str = ""
    probes: int = 24

    def check_file(self, text: str, mode: SandboxMode) -> Verdict:
        if names := forbidden_names(text):
            return failed(
                f"solution.rs may not use {', '.join(names)}: the function must only compute its "
                "result (no files, processes, environment, unsafe or foreign code)"
            )
        nonce = new_nonce()
        expected = len(re.findall(r"#\[test\]", self.tests)) + 1
        library = self._library(text)
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
            verdict = judged(ran.output, ran.exit_code, nonce, expected)
            if not verdict.passed or not self.reference:
                return verdict
            return self._probe(dirs, lib, mode) or verdict

    def _library(self, text: str) -> str:
        """``text`` with the entry function public, to be built as a library."""
        return re.sub(rf"(?m)^fn\s+{re.escape(self.entry)}\b", f"pub fn {self.entry}", text)

    def _probe(self, dirs: Scratch, solution_lib: Path, mode: SandboxMode) -> Verdict | None:
        """A failing verdict when the solution's answers to the probes are fitted to the tests
        (judged on the probes the reference answers alike twice), ``None`` otherwise."""
        asked = probe_arguments(
            call_arguments(self.tests, self.entry), self.probes, seed=self.entry + self.tests
        )
        wrapper = forwarding_function(self.signature, f"target::{self.entry}")
        tag = f"MTL-PROBE-{new_nonce()}"
        program = probe_program(
            wrapper or f"use target::{self.entry};", self.uses, self.entry, asked, tag
        )
        folder = dirs.root / "reference"
        folder.mkdir()
        dirs.write({"reference.rs": self._library(self.reference)}, folder)
        box = dirs.box(mode, timeout=self.timeout, cwd=folder, writable=(folder,))
        lib = folder / "libreference.rlib"
        if box.run(
            f"{RUSTC} --crate-type rlib --crate-name solution -o {lib} reference.rs"
        ).exit_code:
            return None
        built = _built_probes(dirs, box, folder, program, lib)
        if built is None:
            return None
        program, numbers = built
        first, second = (_answers(box, folder, numbers, tag, REFERENCE_PROBE_SECONDS) for _ in "12")
        kept = {i: first[i] for i in first if i in second and answers_agree(first[i], second[i])}
        dirs.write({"probes.rs": program}, dirs.harness)
        solution_box = dirs.box(mode, timeout=self.timeout, cwd=dirs.harness, writable=(dirs.out,))
        binary = dirs.out / "probes"
        if solution_box.run(
            f"{RUSTC} -A overflowing_literals --extern target={solution_lib} -o {binary} probes.rs"
        ).exit_code:
            return None
        runner = dirs.box(mode, timeout=self.timeout, cwd=dirs.out, writable=(dirs.out,))
        given = _answers(runner, dirs.out, sorted(kept), tag, SOLUTION_PROBE_SECONDS)
        missed = [i for i in kept if not answers_agree(given.get(i, "(no answer)"), kept[i])]
        answers = [given.get(i, "(no answer)") for i in kept]
        if not fitted(len(missed), answers, list(kept.values())):
            return None
        example = missed[0] if missed else next(iter(kept))
        return failed(
            f"the tests pass, but {len(missed)} of {len(kept)} calls near theirs get other answers "
            f"than the reference's (answers fitted to the tests?), e.g. {self.entry}"
            f"({asked[example]}) gave {given.get(example, '(no answer)')[:80]}, expected "
            f"{kept[example][:80]}"[:500]
        )

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


def _built_probes(
    dirs: Scratch, box: Sandbox, folder: Path, program: str, lib: Path
) -> tuple[str, list[int]] | None:
    """``program`` built against ``lib`` as ``folder/probes``, the probes that do not build
    (they name a test's variable, say) left out: the program built and its probes' numbers,
    or ``None`` when it does not build."""
    numbers = sorted(set(probe_lines(program).values()))
    for _ in range(3):
        dirs.write({"probes.rs": program}, folder)
        built = box.run(
            f"{RUSTC} -A overflowing_literals --error-format short --extern target={lib} "
            f"-o probes probes.rs 2>&1 | grep -o '^probes.rs:[0-9]*' | sort -u; test -f probes"
        )
        if built.exit_code == 0:
            return program, numbers
        lines = probe_lines(program)
        broken = {lines.get(int(n)) for n in re.findall(r"probes\.rs:(\d+)", built.output)}
        if not broken or None in broken:
            return None  # an error outside the probes
        numbers = [n for n in numbers if n not in broken]
        program = _without(program, broken)
    return None


def _without(program: str, probes: set[int | None]) -> str:
    """``program`` with the named probes answering nothing (their bodies dropped)."""
    lines, out, skipping = program.splitlines(), [], False
    for line in lines:
        found = re.match(r"fn probe_(\d+)\(\)", line)
        if found and int(found[1]) in probes:
            out.append(f"fn probe_{found[1]}() -> String {{ String::new() }}")
            skipping = True
            continue
        if skipping:
            skipping = line != "}"
            continue
        out.append(line)
    return "\n".join(out) + "\n"


def _answers(
    box: Sandbox, folder: Path, numbers: list[int], tag: str, seconds: int
) -> dict[int, str]:
    """The ``{:?}`` answers of ``folder/probes`` to the probes ``numbers``, each run in a
    process of its own for at most ``seconds``; a probe that panics or runs out of time has none."""
    answers = folder / "answers"
    answers.unlink(missing_ok=True)
    box.run(
        f"for i in {' '.join(map(str, numbers))}; do timeout -s KILL {seconds} ./probes $i "
        f"2>/dev/null | head -c 4000 | grep -a '^{tag} ' | head -n 1; done > answers"
    )
    out: dict[int, str] = {}
    if answers.exists():
        for line in answers.read_text(errors="replace").splitlines():
            _, number, *answer = line.split(" ", 2)
            if number.isdigit() and int(number) in numbers and int(number) not in out:
                out[int(number)] = answer[0] if answer else ""
    return out


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
