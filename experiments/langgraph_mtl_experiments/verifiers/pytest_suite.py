"""A project's own pytest suite as the verifier: the project is rebuilt from its pinned
source, only the allowlisted modules are taken from the solution (tests and test configuration
are never taken, so they cannot be changed or added), and the suite must pass exactly as many
tests as it does on the unbroken project, as counted by pytest's hooks and reported on a
nonce-tagged line."""

from __future__ import annotations

import shlex
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from langgraph_mtl.agent.sandbox import SandboxMode
from langgraph_mtl.agent.verdict import Verdict
from langgraph_mtl_experiments.verifiers.base import Verifier, failed
from langgraph_mtl_experiments.verifiers.scratch import new_nonce, read_result, scratch

__all__ = ["PytestSuite"]


@dataclass(frozen=True)
class PytestSuite(Verifier):
    """``tree``: the pinned project (path -> text); ``modules``: the allowlist; ``tests``: the
    pytest target; ``expected``: how many tests pass on the unbroken project (computed once)."""

    tree: Mapping[str, str]
    modules: tuple[str, ...]
    tests: str
    expected: Callable[[], int]
    timeout: float = 60.0

    @property
    def solution_files(self) -> tuple[str, ...]:  # type: ignore[override]
        return self.modules

    def count(
        self, files: Mapping[str, str], mode: SandboxMode
    ) -> tuple[dict[str, object] | None, str]:
        """The harness's report on the project with ``files`` in place, and its output."""
        nonce = new_nonce()
        chosen = {k: v for k, v in files.items() if k in self.modules}
        with scratch(("run_pytest.py", "integrity.py", "confine.py")) as dirs:
            dirs.write({**self.tree, **chosen})
            project = tuple(sorted({name.split("/")[0] for name in self.tree}))
            box = dirs.box(  # the project as written, not as code under test rewrites it
                mode, timeout=self.timeout, read_only=(dirs.harness,), protected=project
            )
            command = (
                f"PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 {shlex.quote(sys.executable)} -I "
                f"{dirs.harness / 'run_pytest.py'} -x {shlex.quote(self.tests)}"
            )
            done = box.run(command, stdin=f"{nonce}\n".encode())
        return read_result(done.output, nonce), done.output

    def check(self, files: Mapping[str, str], mode: SandboxMode) -> Verdict:
        result, output = self.count(files, mode)
        tail = "\n".join(output.strip().splitlines()[-30:])
        if result is None:
            return failed(f"the test run did not finish (no report):\n{tail}")
        if result.get("tampered"):
            return failed(f"tampering: {result['tampered']}", *map(str, result["tampered"]))  # type: ignore[call-overload]
        expected = self.expected()
        if result.get("failed") or result.get("errors") or result.get("passed") != expected:
            return failed(
                f"{result.get('passed')} of {expected} tests passed, "
                f"{result.get('failed')} failed, {result.get('errors')} errors\n{tail}"
            )
        return Verdict(True, f"all {expected} tests passed")
