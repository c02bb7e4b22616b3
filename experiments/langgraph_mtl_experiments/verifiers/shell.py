"""Shell tasks: the task's file tree is built once, then each gold command and the answer run
on their own copies, each in its own sandbox (the answer never sees the golds, the base tree or
the other copies), and the answer passes when its output and resulting tree equal a gold's. It
must do so twice: on the tree the task describes, and on a variant of it (every text file's
lines twice over between two new lines, a twin beside every file, an empty folder in every
folder) run in a varied environment (variables, umask, limits), so printing or recreating what
the gold produced on the one tree it was shown is not enough. A task whose gold output printed
back still passes cannot tell a command from its output; the shell domain does not use it
(``ShellDomain.unusable``, with ``ShellOutcome.printed_gold``)."""

from __future__ import annotations

import hashlib
import os
import shlex
import shutil
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from langgraph_mtl.agent.sandbox import CommandResult, Sandbox, SandboxMode
from langgraph_mtl.agent.verdict import Verdict
from langgraph_mtl_experiments.verifiers.base import OneFileVerifier, failed
from langgraph_mtl_experiments.verifiers.scratch import scratch

__all__ = ["ShellOutcome", "make_variant", "printing", "tree_digest"]

TIMEOUT = 10.0
TWIN = "twin-"
EDGE = b"# twin line\n"  # opens and closes every text file of the variant
# the variant's environment: other variables, umask and limits than the task's tree runs with
VARIED = (
    'export TERM=vt100 LANG=C.UTF-8 LC_ALL=C.UTF-8 OMP_NUM_THREADS=1 MTL_TWIN=1 HOME="$PWD/twin-home"\n'
    'export PATH="$PATH:$PWD/twin-bin"\n'
    "umask 0027\nulimit -S -n 999 2>/dev/null\nulimit -S -s 4096 2>/dev/null\n"
)


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


def _text(data: bytes) -> bool:
    if b"\0" in data:
        return False
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def make_variant(root: Path) -> int:
    """Change the tree at ``root`` into a variant of itself: every text file's lines written
    twice over between two new lines (``EDGE``), beside every regular file a twin named
    ``twin-<name>`` (same content, permissions and times) and in every folder an empty one
    named ``twin-folder``. Returns how many entries were changed or added."""
    changed = 0
    for folder, _, files in list(os.walk(root)):
        (Path(folder) / f"{TWIN}folder").mkdir()
        changed += 1
        for name in files:
            path = Path(folder) / name
            if path.is_symlink() or not path.is_file():
                continue
            content = path.read_bytes()
            if _text(content):
                times = path.stat()
                joint = b"" if not content or content.endswith(b"\n") else b"\n"
                path.write_bytes(EDGE + content + joint + content + joint + EDGE)
                os.utime(path, ns=(times.st_atime_ns, times.st_mtime_ns))
                changed += 1
            shutil.copy2(path, path.with_name(TWIN + name))
            changed += 1
    return changed


def printing(output: str) -> str:
    """A script that prints ``output`` and does nothing else."""
    end = "MTL_END"
    while end in output:
        end += "_"
    return f"cat <<'{end}'\n{output}\n{end}\n"


def _normalise(raw: str, workdir: Path) -> str:
    """Trailing spaces and blank lines dropped; the run's own directory reads as ``.``."""
    lines = [line.rstrip() for line in raw.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines).replace(str(workdir), ".")


@dataclass(frozen=True)
class ShellOutcome(OneFileVerifier):
    """``setup`` builds the tree, ``golds`` are the accepted commands, ``env`` their variables."""

    setup: str
    golds: tuple[str, ...]
    env: Mapping[str, str]
    solution_file: str = "answer.sh"
    missing_hint: ClassVar[str] = ": write the command(s) into answer.sh"

    def _outcome(
        self, base: Path, script: str, workdir: Path, mode: SandboxMode, varied: bool = False
    ) -> tuple[str, str]:
        shutil.copytree(base, workdir, symlinks=True)
        exports = "".join(f"export {k}={shlex.quote(v)}\n" for k, v in self.env.items())
        exports += VARIED if varied else ""
        box = Sandbox(workdir, mode=mode, timeout=TIMEOUT, max_output_chars=200_000)
        done = box.run(f"{exports}exec 2>/dev/null\n{script}")
        if done.timed_out:
            return "<timed out>", ""
        return _normalise(done.output, workdir), tree_digest(workdir)

    def _build_tree(self, base: Path, mode: SandboxMode) -> CommandResult:
        """The task's file tree, built at ``base`` by its setup script."""
        return Sandbox(base, mode=mode, timeout=60).run(self.setup)

    def printed_gold(self, mode: SandboxMode = "auto") -> str:
        """A script printing what the first gold command prints on the task's tree."""
        with scratch() as dirs:
            base = dirs.out / "base"
            self._build_tree(base, mode)
            return printing(self._outcome(base, self.golds[0], dirs.out / "gold", mode)[0])

    def check_file(self, text: str, mode: SandboxMode) -> Verdict:
        with scratch() as dirs:
            base = dirs.out / "base"
            built = self._build_tree(base, mode)
            if built.exit_code != 0:
                return failed(f"the task's file tree could not be built: {built.output[-300:]}")
            variant = dirs.out / "variant"
            shutil.copytree(base, variant, symlinks=True)
            make_variant(variant)
            for tree, which in ((base, "the task's file tree"), (variant, "a variant of it")):
                varied = tree is variant
                expected = [
                    self._outcome(tree, gold, dirs.out / f"{tree.name}-gold{i}", mode, varied)
                    for i, gold in enumerate(self.golds)
                ]
                got = self._outcome(tree, text, dirs.out / f"{tree.name}-answer", mode, varied)
                if got not in expected:
                    return failed(_mismatch(got, expected[0], which))
        return Verdict(True, "answer.sh matches the expected output and file changes")


def _mismatch(got: tuple[str, str], expected: tuple[str, str], which: str) -> str:
    report = (
        f"answer.sh does not do what was asked (on {which}).\nits output (first 600 chars):\n"
        f"{got[0][:600]}\nexpected output (first 600 chars):\n{expected[0][:600]}"
    )
    if got[1] != expected[1]:
        report += "\nits changes to the files also differ from the expected ones"
    return report
