"""What every verifier is: given the solution's allowlisted files, a verdict that only a
complete, passing run of the hidden checks can earn."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from langgraph_mtl.agent.sandbox import SandboxMode
from langgraph_mtl.agent.verdict import Verdict

__all__ = ["ExpectedCount", "OneFileVerifier", "Verifier", "failed"]

ExpectedCount = Callable[[str, Callable[[], Any]], Any]
"""``(key, compute) -> value``: a per-task value computed once (from the reference) and kept."""


class Verifier(ABC):
    """Checks a task's solution files in a fresh folder; ``solution_files`` is the allowlist
    of what is taken from the agent's workspace (anything else there is ignored)."""

    solution_files: tuple[str, ...]

    @abstractmethod
    def check(self, files: Mapping[str, str], mode: SandboxMode) -> Verdict:
        """The verdict on ``files`` (only allowlisted names are used)."""


class OneFileVerifier(Verifier):
    """A verifier of one solution file, ``solution_file``: a missing file fails before any
    check runs (``missing_hint`` is added to the report); ``check_file`` gets its text."""

    solution_file: str
    missing_hint: ClassVar[str] = ""

    @property
    def solution_files(self) -> tuple[str, ...]:  # type: ignore[override]
        return (self.solution_file,)

    def check(self, files: Mapping[str, str], mode: SandboxMode) -> Verdict:
        text = files.get(self.solution_file)
        if text is None:
            return failed(f"{self.solution_file} is missing{self.missing_hint}")
        return self.check_file(text, mode)

    @abstractmethod
    def check_file(self, text: str, mode: SandboxMode) -> Verdict:
        """The verdict on the solution file's text."""


def failed(report: str, *tampered: str) -> Verdict:
    return Verdict(False, report, tuple(tampered))
