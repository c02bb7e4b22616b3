"""The README runs as written: its Python snippets, then its quickstart pool commands."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
SKIP = "<!-- docs-test: needs a model -->"


def _blocks(language: str) -> list[str]:
    pattern = re.compile(rf"(<!-- [^\n]* -->\n)?```{language}\n(.*?)```", re.DOTALL)
    return [body for marker, body in pattern.findall(README) if (marker or "").strip() != SKIP]


def _env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MTL_", "LANGSMITH_"))}
    env.update(LANGSMITH_TRACING="false", ANONYMIZED_TELEMETRY="False", HOME=str(tmp_path))
    return env


def test_readme_snippets_and_pool_commands_run_as_written(tmp_path):
    snippets = _blocks("python")
    assert snippets, "the README has Python snippets"
    for snippet in snippets:
        done = subprocess.run(
            [sys.executable, "-c", snippet],
            cwd=tmp_path,
            env=_env(tmp_path),
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, f"{snippet}\n{done.stderr[-3000:]}"
    assert (tmp_path / ".mtl" / "pool").is_dir()  # the drop-in snippet wrote its memory

    mtl = str(Path(sys.executable).with_name("mtl"))
    commands = [
        line.split("#", 1)[0].strip()
        for block in _blocks("bash")
        for line in block.splitlines()
        if line.startswith("mtl pool ") and "--model" not in line
    ]
    assert len(commands) >= 5
    for command in commands:
        argv = [mtl, *_split(command)[1:]]
        done = subprocess.run(
            argv, cwd=tmp_path, env=_env(tmp_path), capture_output=True, text=True, timeout=300
        )
        assert done.returncode == 0, f"{command}\n{done.stdout[-2000:]}{done.stderr[-2000:]}"


def _split(command: str) -> list[str]:
    import shlex

    return shlex.split(command)
