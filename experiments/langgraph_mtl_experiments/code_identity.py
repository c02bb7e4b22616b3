"""Which code made a run: the library's and the harness's source as imported, by sha256, and
the git commit it was checked out at when there is one.

A run records its code in ``code.json`` when it starts; a resumed run refuses to go on under
other code, so every row of a run comes from the same code. Run a long experiment from a
worktree (``git worktree add ../pinned COMMIT``) or an installed wheel, and change the code
beside it freely.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path
from typing import Any

__all__ = ["CODE_FILE", "CodeChanged", "CodeIdentity", "check_code", "current_code"]

CODE_FILE = "code.json"
_PACKAGES = ("langgraph_mtl", "langgraph_mtl_experiments")


class CodeChanged(RuntimeError):
    """A run resumed under code other than the code that made its rows."""


@dataclass(frozen=True)
class CodeIdentity:
    """The code a run ran: ``source_sha256`` of both packages' files, and the git ``commit``
    they were checked out at (``dirty`` when they differ from it), when known."""

    source_sha256: str
    commit: str = ""
    dirty: bool = False

    @property
    def name(self) -> str:
        """A short name: the commit (``+changes`` when the sources differ from it), else the
        start of the source hash."""
        if self.commit:
            return self.commit[:12] + ("+changes" if self.dirty else "")
        return f"sha256:{self.source_sha256[:12]}"

    @property
    def pinned(self) -> bool:
        """Whether the code can be had again: a commit with no changes beside it."""
        return bool(self.commit) and not self.dirty

    def record(self) -> dict[str, Any]:
        return asdict(self)


def _roots() -> list[Path]:
    import langgraph_mtl
    import langgraph_mtl_experiments

    return [
        Path(str(module.__file__)).parent for module in (langgraph_mtl, langgraph_mtl_experiments)
    ]


def _source_hash(roots: list[Path]) -> str:
    digest = hashlib.sha256()
    for root in roots:
        for path in sorted(root.rglob("*")):
            if not path.is_file() or "__pycache__" in path.parts or path.suffix == ".pyc":
                continue
            digest.update(f"{root.name}/{path.relative_to(root).as_posix()}\0".encode())
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def _git(root: Path, *args: str) -> str | None:
    try:
        done = subprocess.run(
            ["git", "-C", str(root), *args], capture_output=True, text=True, timeout=30
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


@cache
def current_code() -> CodeIdentity:
    """The identity of the code running now (computed once per process)."""
    roots = _roots()
    commit = _git(roots[0], "rev-parse", "HEAD") or ""
    dirty = False
    if commit:
        for root in roots:
            if _git(root, "rev-parse", "HEAD") != commit:  # the packages from two checkouts
                commit, dirty = "", True
                break
            changes = _git(root, "status", "--porcelain", "--untracked-files=normal", "--", ".")
            dirty = dirty or bool(changes)
    return CodeIdentity(_source_hash(roots), commit, dirty)


def check_code(out: Path, *, has_rows: bool) -> CodeIdentity:
    """The code of the run in ``out``: recorded now for a new run; for a run with rows, the
    code now, which must be the recorded code.

    Raises:
        CodeChanged: the run's rows were made by other code (the message says how to resume
            it from that code).
    """
    now = current_code()
    path = out / CODE_FILE
    if path.is_file():
        try:
            recorded = CodeIdentity(**json.loads(path.read_text(encoding="utf-8")))
        except (ValueError, TypeError) as exc:
            raise CodeChanged(f"{path}: not a code record ({exc}); restore it from git") from None
        if recorded.source_sha256 == now.source_sha256:
            return now
        if has_rows:
            where = (
                f"check out {recorded.commit[:12]} in a worktree (git worktree add ../pinned "
                f"{recorded.commit[:12]}) and resume from there"
                if recorded.commit
                else "resume it with the code that made them"
            )
            raise CodeChanged(
                f"{out}: its rows were made by code {recorded.name}, and the code here is "
                f"{now.name}: {where}, or give another --out for a new run"
            )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(now.record(), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return now
