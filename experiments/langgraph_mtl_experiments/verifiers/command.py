"""The simplest verifier, for small custom domains: a shell command whose exit status is the
verdict, run in a fresh sandboxed folder holding only the allowlisted files. It trusts the
exit status, so it is for tasks whose output cannot be faked that way (a file's content, say);
the shipped domains use the stricter verifiers."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from langgraph_mtl.agent.sandbox import SandboxMode
from langgraph_mtl.agent.verdict import Verdict
from langgraph_mtl_experiments.verifiers.base import Verifier
from langgraph_mtl_experiments.verifiers.scratch import scratch

__all__ = ["CommandCheck"]


@dataclass(frozen=True)
class CommandCheck(Verifier):
    """``command`` run on ``files`` (the allowlist) in a fresh folder; exit 0 passes."""

    command: str
    files: tuple[str, ...]
    timeout: float = 60.0

    @property
    def solution_files(self) -> tuple[str, ...]:  # type: ignore[override]
        return self.files

    def check(self, files: Mapping[str, str], mode: SandboxMode) -> Verdict:
        with scratch() as dirs:
            dirs.write(files)
            done = dirs.box(mode, timeout=self.timeout).run(self.command)
        return Verdict(done.exit_code == 0, done.render())
