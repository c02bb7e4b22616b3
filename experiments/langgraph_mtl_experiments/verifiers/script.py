"""The verifier of tasks written as files (:mod:`langgraph_mtl_experiments.task_files`): the
task's own ``setup`` builds a fresh workspace, the solution's allowlisted files are written into
it, and the task's ``verify`` script must exit 0. Both scripts may read the task's data folder;
the agent never sees it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from langgraph_mtl.agent.sandbox import SandboxMode
from langgraph_mtl.agent.verdict import Verdict
from langgraph_mtl_experiments.verifiers.base import Verifier, failed
from langgraph_mtl_experiments.verifiers.scratch import scratch

__all__ = ["ScriptCheck"]


@dataclass(frozen=True)
class ScriptCheck(Verifier):
    """``setup`` then the solution's ``files`` then ``verify`` in a fresh folder; exit 0 passes.
    ``data`` is the folder both scripts may read (``$TASK_DATA`` in their environment)."""

    setup: str
    verify: str
    files: tuple[str, ...]
    data: str
    timeout: float = 120.0

    @property
    def solution_files(self) -> tuple[str, ...]:  # type: ignore[override]
        return self.files

    def check(self, files: Mapping[str, str], mode: SandboxMode) -> Verdict:
        with scratch() as dirs:
            box = dirs.box(mode, timeout=self.timeout, read_only=(Path(self.data),))
            box.env["TASK_DATA"] = self.data
            if self.setup:
                built = box.run(self.setup)
                if built.exit_code != 0:
                    return failed(f"the task's setup failed: {built.render()[-800:]}")
            dirs.write({k: v for k, v in files.items() if k in self.files})
            done = box.run(self.verify)
        return Verdict(done.exit_code == 0, done.render())
