"""Running the agent's shell commands in a per-task workspace.

With ``bubblewrap`` installed, a command sees the file system read-only except its workspace
(and a private ``/tmp``), has no network and its own PID namespace, and never sees where task
data and answer keys live: ``$MTL_HOME`` (only its interpreter environments stay, read-only),
the user's cache directory and this project's source checkout (its Python environment stays,
read-only). Without bubblewrap, the command runs in a plain subprocess with resource limits,
and a warning says the run is not isolated. Either way a timeout kills the whole process group.
"""

from __future__ import annotations

import functools
import logging
import os
import re
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from langgraph_mtl.home import mtl_home
from langgraph_mtl.hygiene.redaction import redact
from langgraph_mtl.hygiene.secret_rules import SECRET_NAME_WORDS

__all__ = ["CommandResult", "Sandbox", "bubblewrap_available"]

log = logging.getLogger(__name__)

SandboxMode = Literal["auto", "bwrap", "none"]
# a variable named for a secret: the words the redaction rules know (OPENAI_API_KEY,
# PGPASSWORD, GH_TOKEN), and words naming what only a process's own environment holds
_SECRET_NAME = re.compile(
    rf"(?i)(?:{SECRET_NAME_WORDS})|(?:^|_)(?:CREDS|COOKIE|SESSION|PRIVATE|DSN)(?:_|$)"
)
_warned: list[bool] = []  # warn once per process about unsandboxed commands


def path_names(paths: str | os.PathLike[str] | Iterable[str | os.PathLike[str]]) -> tuple[str, ...]:
    """Paths given one or many as a tuple of strings: one path given alone stays one path
    (``"tests"`` is not the letters t, e, s, t, s)."""
    if isinstance(paths, str | os.PathLike):
        return (os.fspath(paths),)
    try:
        return tuple(os.fspath(p) for p in paths)
    except TypeError:
        raise ValueError(f"expected file or folder paths, got {paths!r:.60}") from None


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


def _existing(paths: Sequence[Path]) -> list[Path]:
    return sorted({p.resolve() for p in paths if p.exists()})


def hidden_paths() -> list[Path]:
    """Where task data, answer keys and past results live: ``$MTL_HOME``, the user's cache
    directory (pip's and other downloaded wheels) and this project's checkout, when it runs
    from one. A sandboxed command sees none of them."""
    package = Path(__file__).resolve().parents[1]
    checkout = package.parent
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    found = [mtl_home(), cache]
    if (checkout / "pyproject.toml").is_file():
        found.append(checkout)
    return _existing(found)


def _reexposed(hidden: Sequence[Path]) -> list[Path]:
    """What must stay usable read-only inside hidden folders: interpreter environments (this
    one and the task environments under ``$MTL_HOME/envs``) and the Rust toolchain."""
    home = Path.home()
    wanted = [
        Path(sys.prefix),
        mtl_home() / "envs",
        home / ".rustup",
        home / ".cargo",
        *(Path(os.environ[v]) for v in ("RUSTUP_HOME", "CARGO_HOME") if v in os.environ),
    ]
    return [p for p in _existing(wanted) if any(p.is_relative_to(h) for h in hidden)]


def _under_tmp() -> list[Path]:
    """Tools the private ``/tmp`` would hide: this Python environment and the task
    environments, when they live in /tmp."""
    tmp = Path("/tmp").resolve()
    wanted = _existing([Path(sys.prefix), mtl_home() / "envs"])
    return [p for p in wanted if p.is_relative_to(tmp) and p != tmp]


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
        read_only: Sequence[str | Path] = (),
        writable: Sequence[str | Path] = (),
        hidden: Sequence[str | Path] = (),
        protected: Sequence[str] = (),
        env: Mapping[str, str] | None = None,
    ) -> None:
        """``read_only``/``writable``: more folders the command may see; ``hidden``: more
        folders or files it must not see; ``protected``: files or folders of the workspace
        (relative paths, e.g. the tests that check the work) that commands see read-only (both
        bubblewrap only: without it the command is not isolated); ``env``: variables set for
        the command (e.g. HOME pointing at an empty folder)."""
        self.workspace = Path(workspace).resolve()
        self.read_only = [Path(p).expanduser().resolve() for p in path_names(read_only)]
        self.writable = [Path(p).expanduser().resolve() for p in path_names(writable)]
        self.hidden = _existing([Path(p).expanduser() for p in path_names(hidden)])
        self.protected = path_names(protected)
        self.env = dict(env or {})
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

    def protects(self, path: str) -> str | None:
        """The protected path that ``path`` (relative to the workspace) is or lies in."""
        if not self.protected or "\0" in path:  # a NUL: no path at all, refused where it is used
            return None
        target = (self.workspace / path.strip()).resolve()
        for name in self.protected:
            guarded = (self.workspace / name).resolve()
            if target == guarded or target.is_relative_to(guarded):
                return name
        return None

    def _argv(self, command: str, cpu_seconds: int) -> list[str]:
        # limits via the shell, not preexec_fn (which can deadlock in threaded hosts)
        limits = f"ulimit -S -v {self.memory_bytes // 1024} -t {cpu_seconds} 2>/dev/null\n"
        shell = ["bash", "-c", limits + command]
        if self.mode != "bwrap":
            return shell
        hidden = [*hidden_paths(), *(p for p in self.hidden if p.is_dir())]
        mounts = ["--ro-bind", "/", "/", "--tmpfs", "/tmp"]
        mounts += [arg for p in _under_tmp() for arg in ("--ro-bind", str(p), str(p))]
        mounts += [arg for p in hidden for arg in ("--tmpfs", str(p))]
        mounts += [  # a hidden file reads as empty
            arg for p in self.hidden if not p.is_dir() for arg in ("--ro-bind", "/dev/null", str(p))
        ]
        mounts += [
            arg
            for p in (*_reexposed(hidden), *self.read_only)
            for arg in ("--ro-bind", str(p), str(p))
        ]
        mounts += [
            arg for p in (*self.writable, self.workspace) for arg in ("--bind", str(p), str(p))
        ]
        mounts += [  # over the workspace's writable bind, so they stay as they are
            arg
            for p in _existing([self.workspace / name for name in self.protected])
            if p.resolve().is_relative_to(self.workspace)
            for arg in ("--ro-bind", str(p), str(p))
        ]
        return [
            "bwrap",
            *mounts,
            "--dev",
            "/dev",
            "--proc",
            "/proc",
            "--unshare-net",
            "--unshare-pid",
            "--unshare-ipc",
            "--die-with-parent",
            "--new-session",
            "--chdir",
            str(self.workspace),
            "--setenv",
            "HOME",
            self.env.get("HOME", str(self.workspace)),
            *shell,
        ]

    def _environment(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not _secret(k, v)}
        home = Path.home()
        for var, folder in (("RUSTUP_HOME", ".rustup"), ("CARGO_HOME", ".cargo")):
            if var not in env and (home / folder).is_dir():  # toolchains stay usable
                env[var] = str(home / folder)
        env.update({"HOME": str(self.workspace), "PYTHONDONTWRITEBYTECODE": "1", **self.env})
        return env

    def start(self, command: str) -> subprocess.Popen[bytes]:
        """Start a command for a conversation over its stdin and stdout (stderr discarded);
        it leads its own process group, which the caller ends (``os.killpg``)."""
        return subprocess.Popen(
            self._argv(command, int(self.timeout) + 5),
            cwd=self.workspace,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            env=self._environment(),
        )

    def run(
        self, command: str, *, timeout: float | None = None, stdin: bytes | None = None
    ) -> CommandResult:
        """Run one shell command (``stdin``: bytes fed to it); never raises for the command's
        own failures."""
        if "\0" in command:  # no shell can be handed one
            return CommandResult(exit_code=2, output="the command holds a NUL character: remove it")
        limit = timeout or self.timeout
        env = self._environment()
        proc = subprocess.Popen(
            self._argv(command, int(limit) + 5),
            cwd=self.workspace,
            stdin=subprocess.DEVNULL if stdin is None else subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            env=env,
        )
        try:
            raw, _ = proc.communicate(stdin, timeout=limit)
            timed_out = False
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            raw, _ = proc.communicate()
            timed_out = True
        text, truncated = _truncate(raw.decode("utf-8", "replace"), self.max_output_chars)
        code = None if timed_out else proc.returncode
        return CommandResult(exit_code=code, output=text, timed_out=timed_out, truncated=truncated)


def _secret(name: str, value: str) -> bool:
    """Whether a variable of this process holds a secret (by its name, or its value's shape:
    a provider key, a token, credentials in a URL), so commands never see it."""
    return bool(_SECRET_NAME.search(name)) or bool(redact(value).kinds)
