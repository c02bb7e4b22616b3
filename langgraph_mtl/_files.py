"""File helpers: checking downloaded artefacts, appending to JSONL logs that survive kill -9."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path


def sha256_file(path: Path) -> str:
    """The sha256 of a file, read in 4 MiB blocks."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 22), b""):
            digest.update(block)
    return digest.hexdigest()


def append_json_line(path: Path, entry: object) -> None:
    """Append one JSON line durably (fsync). If a killed writer left half a line at the end,
    start a fresh line, so the torn one is lost alone and this one stays readable."""
    torn = False
    if path.exists() and path.stat().st_size:
        with path.open("rb") as tail:
            tail.seek(-1, os.SEEK_END)
            torn = tail.read(1) != b"\n"
    with path.open("a", encoding="utf-8") as handle:
        handle.write(("\n" if torn else "") + json.dumps(entry, ensure_ascii=False) + "\n")
        handle.flush()
        os.fsync(handle.fileno())
