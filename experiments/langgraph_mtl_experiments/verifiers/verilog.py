"""Verilog tasks simulated against the reference module: the testbench's modules and instances
get names with a fresh token (a design cannot instantiate the reference or reach into the
testbench), its verdict line is tagged with another (a design that reads its own hierarchical
name with ``%m`` learns only the first), the design may not read files, arguments or run
programs (so not the compiled simulation, where the tag is; its macros expanded, so a name
pasted together is seen too), and a pass needs the tagged line
reporting 0 mismatches in exactly as many samples as the reference's own run compares."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from langgraph_mtl.agent.sandbox import SandboxMode
from langgraph_mtl.agent.verdict import Verdict
from langgraph_mtl_experiments.verifiers.base import OneFileVerifier, failed
from langgraph_mtl_experiments.verifiers.scratch import new_nonce, scratch

__all__ = ["VerilogTestbench", "design_reach", "tag_testbench"]

# system tasks that open or read files, read the simulator's arguments or run programs
# (``$fopen`` with its mode-named variants such as ``$fopenr``)
_REACH = re.compile(
    r"\$(?:fopen\w*|fgetc|fgets|fscanf|fread|ungetc|fseek|ftell|rewind|feof|ferror|readmem[bh]|"
    r"sreadmem[bh]|value\$plusargs|test\$plusargs|system)\b"
)
_COMMENTS = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)


def design_reach(text: str) -> list[str]:
    """The system tasks in a design (comments aside) that read files or arguments or run
    programs, in order of first use."""
    found = _REACH.findall(_COMMENTS.sub(" ", text))
    return list(dict.fromkeys(found))


def tag_testbench(bench: str, names: str, tag: str) -> str:
    """The testbench with every module but ``top_module``, and every instance, renamed with
    ``names``, and its verdict line tagged with ``tag``."""
    modules = set(re.findall(r"\bmodule\s+(\w+)", bench))
    known = "|".join(map(re.escape, modules | {"top_module"}))
    instances = set(re.findall(rf"^\s*(?:{known})\s+(?:#\s*\(.*?\)\s*)?(\w+)\s*\(", bench, re.M))
    for name in sorted((modules - {"top_module"}) | instances, key=len, reverse=True):
        bench = re.sub(rf"\b{re.escape(name)}\b", f"{name}_{names}", bench)
    return bench.replace('"Mismatches: ', f'"MTL-{tag} Mismatches: ')


@dataclass(frozen=True)
class VerilogTestbench(OneFileVerifier):
    """``bench``: the data set's testbench with its reference module; ``samples``: how many
    samples the reference's run compares (computed once)."""

    bench: str
    samples: Callable[[], int]
    solution_file: str = "top_module.sv"
    timeout: float = 90.0

    def count(
        self, files: Mapping[str, str], mode: SandboxMode
    ) -> tuple[tuple[int, int] | None, str]:
        """(mismatches, samples) from the tagged line (``None`` when it never came), and the
        simulation's output."""
        nonce = new_nonce()
        with scratch() as dirs:
            dirs.write({"top_module.sv": files[self.solution_file]})
            dirs.write({"tb.sv": tag_testbench(self.bench, new_nonce(), nonce)}, dirs.harness)
            sim = dirs.out / "sim"
            done = dirs.box(
                mode, timeout=self.timeout, read_only=(dirs.harness,), writable=(dirs.out,)
            ).run(
                f"iverilog -g2012 -o {sim} {dirs.harness / 'tb.sv'} top_module.sv 2>&1 | tail -20"
                f" && timeout 60 vvp -n {sim} 2>&1 | tail -8"
            )
        found = re.findall(rf"^MTL-{nonce} Mismatches: (\d+) in (\d+) samples", done.output, re.M)
        return ((int(found[-1][0]), int(found[-1][1])) if found else None), done.output

    def expanded(self, text: str, mode: SandboxMode) -> tuple[str | None, str]:
        """The design as the compiler reads it, its macros expanded and its includes inlined
        (``None`` when it does not preprocess on its own), and the preprocessor's output."""
        with scratch() as dirs:
            dirs.write({"top_module.sv": text})
            done = dirs.box(mode, timeout=30, writable=(dirs.out,)).run(
                f"iverilog -g2012 -E -o {dirs.out / 'design.sv'} top_module.sv 2>&1 | tail -20"
                "; exit ${PIPESTATUS[0]}"
            )
            result = dirs.out / "design.sv"
            if done.exit_code != 0 or not result.is_file():
                return None, done.output
            return result.read_text(errors="replace"), done.output

    def check_file(self, text: str, mode: SandboxMode) -> Verdict:
        reach = design_reach(text)
        if not reach:  # a system task's name can also be pasted together by a macro
            expanded, output = self.expanded(text, mode)
            if expanded is None:
                return failed(f"top_module.sv does not preprocess on its own:\n{output[-1200:]}")
            reach = design_reach(expanded)
        if reach:
            return failed(
                f"top_module.sv may not use {', '.join(reach)}: a design only computes its "
                "outputs (no files, simulator arguments or programs)"
            )
        counted, output = self.count({self.solution_file: text}, mode)
        if counted is None:
            return failed(f"the simulation did not reach its verdict:\n{output[-1200:]}")
        mismatches, samples = counted
        expected = self.samples()
        if mismatches == 0 and samples == expected > 0:
            return Verdict(True, f"0 mismatches in all {samples} samples")
        return failed(f"{mismatches} mismatches in {samples} of {expected} samples")
