"""Where a verifier runs: a fresh folder holding only the solution's allowlisted files, a
read-only harness folder, an empty HOME, and a sandbox that sees nothing else of the run."""

from __future__ import annotations

import ast
import re
import secrets
import shutil
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from langgraph_mtl.agent.sandbox import Sandbox, SandboxMode

__all__ = ["HARNESS", "Scratch", "new_nonce", "read_result", "scratch"]

HARNESS = Path(__file__).with_name("harness")


def new_nonce() -> str:
    """A fresh tag for one verification's report line."""
    return secrets.token_hex(12)


def read_result(output: str, nonce: str) -> dict[str, Any] | None:
    """The harness's ``MTL-RESULT <nonce> {...}`` report, a Python literal (which a harness can
    write with ``repr`` alone, no library the solution could have patched), or ``None``."""
    found = re.findall(rf"^MTL-RESULT {re.escape(nonce)} (\{{.*\}})$", output, re.MULTILINE)
    if not found:
        return None
    try:
        parsed = ast.literal_eval(found[-1])
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None
    return parsed if isinstance(parsed, dict) else None


@dataclass(frozen=True)
class Scratch:
    """One verification's folders: ``work`` (the solution), ``harness`` (read-only for the
    solution), ``out`` (build products) and ``home`` (an empty HOME)."""

    root: Path
    work: Path
    harness: Path
    out: Path
    home: Path

    def write(self, files: Mapping[str, str], folder: Path | None = None) -> None:
        target = folder or self.work
        for name, content in files.items():
            path = (target / name).resolve()
            if not path.is_relative_to(target.resolve()):
                continue  # never write outside the folder
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(content)

    def box(
        self,
        mode: SandboxMode,
        *,
        timeout: float,
        cwd: Path | None = None,
        read_only: tuple[Path, ...] = (),
        writable: tuple[Path, ...] = (),
        protected: tuple[str, ...] = (),
    ) -> Sandbox:
        """A sandbox in ``cwd`` (default ``work``) with HOME, caches and user site emptied;
        ``protected``: files or folders of ``cwd`` the command sees read-only."""
        env = {
            "HOME": str(self.home),
            "XDG_CACHE_HOME": str(self.home / ".cache"),
            "PYTHONNOUSERSITE": "1",
            "PYTHONDONTWRITEBYTECODE": "1",
            "MPLBACKEND": "Agg",
            "MPLCONFIGDIR": str(self.home),
        }
        return Sandbox(
            cwd or self.work,
            mode=mode,
            timeout=timeout,
            max_output_chars=6000,
            read_only=read_only,
            writable=(self.home, *writable),
            protected=protected,
            env=env,
        )


@contextmanager
def scratch(harness_files: tuple[str, ...] = ()) -> Iterator[Scratch]:
    """Fresh folders for one verification (removed afterwards), with the named harness
    scripts copied into ``harness``."""
    with tempfile.TemporaryDirectory(prefix="mtl-verify-") as root:
        base = Path(root)
        folders = {name: base / name for name in ("work", "harness", "out", "home")}
        for folder in folders.values():
            folder.mkdir()
        for name in harness_files:
            shutil.copy(HARNESS / name, folders["harness"] / name)
        yield Scratch(base, **folders)
