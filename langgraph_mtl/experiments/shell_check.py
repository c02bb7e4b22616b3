"""Verifier for shell tasks, run as a script in the agent's workspace (standard library only).

Reads a JSON spec on stdin: ``setup`` (a bash script building the task's file tree), ``golds``
(the shipped gold commands) and ``env``. It builds the tree once, copies it (timestamps kept)
for each gold command and for ``answer.sh``, runs each, and passes when the answer's
normalised stdout and the resulting file-tree hash equal those of either gold command.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

TIMEOUT = 10.0


def tree_digest(root: Path) -> str:
    """Hash of every entry's kind, relative path, permission bits and content."""
    digest = hashlib.sha256()
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(dirs + files):
            path = Path(folder) / name
            info = path.lstat()
            kind = "l" if path.is_symlink() else "d" if path.is_dir() else "f"
            digest.update(f"{kind} {path.relative_to(root)} {info.st_mode & 0o777:o}\n".encode())
            if kind == "l":
                digest.update(os.readlink(path).encode())
            elif kind == "f":
                digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def normalise(raw: bytes, workdir: Path) -> str:
    """Trailing spaces and blank lines dropped; the run's own directory reads as ``.``."""
    lines = [line.rstrip() for line in raw.decode("utf-8", "replace").splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines).replace(str(workdir), ".")


def outcome(base: Path, script: str, workdir: Path, env: dict[str, str]) -> tuple[str, str]:
    """(normalised stdout, tree digest) of ``script`` run on a fresh copy of ``base``."""
    shutil.copytree(base, workdir, symlinks=True)
    proc = subprocess.Popen(
        ["bash", "-c", script], cwd=workdir, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL, start_new_session=True, env={**os.environ, **env},
    )  # fmt: skip
    try:
        out, _ = proc.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        return "<timed out>", ""
    return normalise(out, workdir), tree_digest(workdir)


def main() -> int:
    spec = json.load(sys.stdin)
    answer_file = Path("answer.sh")
    if not answer_file.is_file():
        print("answer.sh is missing: write the command(s) into answer.sh")
        return 1
    answer = answer_file.read_text(errors="replace")
    with tempfile.TemporaryDirectory(prefix="mtl-shell-") as scratch:
        base = Path(scratch) / "base"
        base.mkdir()
        subprocess.run(["bash", "-c", spec["setup"]], cwd=base, check=True, capture_output=True)
        got = outcome(base, answer, Path(scratch) / "answer", spec["env"])
        for index, gold in enumerate(spec["golds"]):
            if outcome(base, gold, Path(scratch) / f"gold{index}", spec["env"]) == got:
                print("answer.sh matches the expected output and file changes")
                return 0
        expected = outcome(base, spec["golds"][0], Path(scratch) / "expected", spec["env"])
    print("answer.sh does not do what was asked.")
    print(f"its output (first 600 chars):\n{got[0][:600]}")
    print(f"expected output (first 600 chars):\n{expected[0][:600]}")
    if got[1] != expected[1]:
        print("its changes to the files also differ from the expected ones")
    return 1


if __name__ == "__main__":
    sys.exit(main())
