"""Tasks checked by a unittest suite that must run in the solution's own process (its results
are objects such as DataFrames and plots): the harness counts every test it ran, watches the
test machinery for patching and the function's results for values that equal anything, and
reports on a line tagged with a nonce the solution never sees before it is loaded. An exit
status means nothing, and the suite must have run every one of its tests."""

from __future__ import annotations

import ast
import shlex
from dataclasses import dataclass

from langgraph_mtl.agent.sandbox import SandboxMode
from langgraph_mtl.agent.verdict import Verdict
from langgraph_mtl_experiments.verifiers.base import OneFileVerifier, failed
from langgraph_mtl_experiments.verifiers.scratch import new_nonce, read_result, scratch

__all__ = ["UnittestSuite", "count_tests"]


def count_tests(source: str) -> int:
    """How many ``test*`` methods the suite's TestCase classes define (read from its source)."""
    count = 0
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef) and any(
            isinstance(b, ast.Attribute | ast.Name) and ast.unparse(b).endswith("TestCase")
            for b in node.bases
        ):
            count += sum(
                isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef) and f.name.startswith("test")
                for f in node.body
            )
    return count


@dataclass(frozen=True)
class UnittestSuite(OneFileVerifier):
    """``tests`` (unittest source) for the ``entry`` function in ``solution_file``, run by
    ``python`` (an interpreter with the suite's libraries) in a namespace made from ``stub``
    (the task's starting file: imports and constants) plus the solution's function."""

    tests: str
    entry: str
    python: str
    stub: str = ""
    solution_file: str = "solution.py"
    timeout: float = 90.0

    def check_file(self, text: str, mode: SandboxMode) -> Verdict:
        expected = count_tests(self.tests)
        nonce = new_nonce()
        with scratch(("run_unittests.py", "integrity.py", "confine.py")) as dirs:
            dirs.write({"solution.py": text})
            dirs.write({"tests.py": self.tests, "stub.py": self.stub}, dirs.harness)
            box = dirs.box(mode, timeout=self.timeout, read_only=(dirs.harness,))
            command = (
                f"PYTHONHASHSEED=0 {shlex.quote(self.python)} -I "
                f"{dirs.harness / 'run_unittests.py'} {dirs.harness / 'tests.py'} "
                f"{dirs.harness / 'stub.py'} {shlex.quote(self.entry)}"
            )
            done = box.run(command, stdin=f"{nonce}\n".encode())
        result = read_result(done.output, nonce)
        if result is None:
            return failed(f"the suite did not finish (no report):\n{done.output[-800:]}")
        if result.get("tampered"):
            return failed(
                "tampering: " + "; ".join(map(str, result["tampered"])),
                *map(str, result["tampered"]),
            )
        ran, passed = result.get("ran"), result.get("passed")
        if expected and ran == passed == expected:
            return Verdict(True, f"all {expected} tests passed")
        errors = "\n".join(map(str, result.get("errors", [])))[-1200:]
        return failed(f"{passed} of {expected} tests passed ({ran} ran)\n{errors}")
