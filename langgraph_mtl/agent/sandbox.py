"""Running the agent's shell commands in a per-task workspace.

With ``bubblewrap`` installed, a command sees the file system read-only except its workspace
(and a private ``/tmp``), has no network and its own PID namespace. Without it, the command
runs in a plain subprocess with resource limits, and a warning says the run is not isolated.
Either way a timeout kills the whole process group.
"""

from __future__ import annotations

import functools
import logging
import os
import shutil
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from langgraph_mtl.home import mtl_home

__all__ = ["CommandResult", "Sandbox", "bubblewrap_available"]

log = logging.getLogger(__name__)

SandboxMode = Literal["auto", "bwrap", "none"]
_warned: list[bool] = []  # warn once per process about unsandboxed commands


@functools.cache
def bubblewrap_available() -> bool:
    """True when ``bwrap`` is on PATH and can create a sandbox here (probed once per process:
    every command and every verification builds a ``Sandbox``)."""
    path = shutil.which("bwrap")
    if not path:
        return False
    probe = subprocess.run(
        [path, "--ro-bind", "/", "/", "--unshare-net", "--die-with-parent", "true"],
        capture_output=True,
        timeout=10,
        check=False,
    )
    return probe.returncode == 0


def _tools_under_tmp() -> list[str]:
    """Paths the commands need that the sandbox's private ``/tmp`` would hide: this Python
    environment, this package, and ``$MTL_HOME`` (task environments), when they live in /tmp."""
    here = Path(__file__).resolve().parents[1]  # the langgraph_mtl package
    wanted = {
        Path(sys.prefix).resolve(),
        here,
        mtl_home().resolve(),
    }
    tmp = Path("/tmp").resolve()
    return sorted(str(p) for p in wanted if p.is_relative_to(tmp) and p != tmp and p.exists())


@dataclass(frozen=True)
class CommandResult:
    """What a command did: exit code (``None`` on timeout) and combined, truncated output."""

    exit_code: int | None
    output: str
    timed_out: bool = False
    truncated: bool = False

    def render(self) -> str:
        """The observation shown to the agent."""
        status = "timed out" if self.timed_out else f"exit code {self.exit_code}"
        return f"[{status}]\n{self.output}" if self.output else f"[{status}] (no output)"


def _truncate(text: str, limit: int) -> tuple[str, bool]:
    if len(text) <= limit:
        return text, False
    head = limit // 2
    cut = len(text) - limit
    return (
        f"{text[:head]}\n[... {cut} characters of output cut ...]\n{text[-(limit - head) :]}",
        True,
    )


class Sandbox:
    """Runs shell commands in ``workspace``; see the module docstring for the isolation."""

    def __init__(
        self,
        workspace: str | Path,
        *,
        mode: SandboxMode = "auto",
        timeout: float = 60.0,
        max_output_chars: int = 10_000,
        memory_bytes: int = 4 << 30,
    ) -> None:
        self.workspace = Path(workspace).resolve()
        self.workspace.mkdir(parents=True, exist_ok=True)
        if mode == "auto":
            mode = "bwrap" if bubblewrap_available() else "none"
            if mode == "none" and not _warned:  # asked for isolation, cannot have it
                _warned.append(True)
                log.warning("commands run WITHOUT isolation (install bubblewrap for a sandbox)")
        elif mode == "bwrap" and not bubblewrap_available():
            raise RuntimeError("sandbox: bubblewrap (bwrap) is not installed or cannot run here")
        self.mode: SandboxMode = mode
        self.timeout = timeout
        self.max_output_chars = max_output_chars
        self.memory_bytes = memory_bytes

    @property
    def isolated(self) -> bool:
        return self.mode == "bwrap"

    def _argv(self, command: str, cpu_seconds: int) -> list[str]:
        # limits via the shell, not preexec_fn (which can deadlock in threaded hosts)
        limits = f"ulimit -S -v {self.memory_bytes // 1024} -t {cpu_seconds} 2>/dev/null\n"
        shell = ["bash", "-c", limits + command]
        if self.mode != "bwrap":
            return shell
        ws = str(self.workspace)
        keep = [arg for path in _tools_under_tmp() for arg in ("--ro-bind", path, path)]
        return [
            "bwrap", "--ro-bind", "/", "/", "--tmpfs", "/tmp", *keep, "--dev", "/dev",
            "--proc", "/proc", "--bind", ws, ws, "--unshare-net", "--unshare-pid", "--unshare-ipc",
            "--die-with-parent", "--new-session", "--chdir", ws,
            "--setenv", "HOME", ws, *shell,
        ]  # fmt: skip

    def run(self, command: str, *, timeout: float | None = None) -> CommandResult:
        """Run one shell command; never raises for the command's own failures."""
        limit = timeout or self.timeout
        env = {k: v for k, v in os.environ.items() if not k.endswith(("_API_KEY", "_TOKEN"))}
        home = Path.home()
        for var, folder in (("RUSTUP_HOME", ".rustup"), ("CARGO_HOME", ".cargo")):
            if var not in env and (home / folder).is_dir():  # toolchains stay usable
                env[var] = str(home / folder)
        env.update(HOME=str(self.workspace), PYTHONDONTWRITEBYTECODE="1")
        proc = subprocess.Popen(
            self._argv(command, int(limit) + 5),
            cwd=self.workspace,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            env=env,
        )
        try:
            raw, _ = proc.communicate(timeout=limit)
            timed_out = False
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            raw, _ = proc.communicate()
            timed_out = True
        text, truncated = _truncate(raw.decode("utf-8", "replace"), self.max_output_chars)
        code = None if timed_out else proc.returncode
        return CommandResult(exit_code=code, output=text, timed_out=timed_out, truncated=truncated)
