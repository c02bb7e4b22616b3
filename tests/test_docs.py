"""The README and the documentation run as written: every Python snippet in them (those naming
a model against a scripted model server), the README's `mtl pool` commands, and the site's
strict build (a broken link or a missing reference fails)."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from scripted_openai import scripted_openai

pytestmark = pytest.mark.slow  # seconds each: the full suite runs them, not test-unit

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCK = re.compile(r"```(\w+)\n(.*?)```", re.DOTALL)


def _blocks(page: Path, language: str) -> list[str]:
    return [
        body for lang, body in BLOCK.findall(page.read_text(encoding="utf-8")) if lang == language
    ]


def _env(home: Path, model_url: str) -> dict[str, str]:
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("MTL_", "LANGSMITH_", "OPENAI_"))
    }
    env.update(
        LANGSMITH_TRACING="false",
        ANONYMIZED_TELEMETRY="False",
        HOME=str(home),
        OPENAI_API_KEY="scripted",
        OPENAI_BASE_URL=model_url,
        MTL_LOCAL_BASE_URL=model_url,
    )
    return env


def _run(argv: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_python_snippet_runs_as_written(page, tmp_path):
    snippets = _blocks(page, "python")
    with scripted_openai() as url:
        for snippet in snippets:
            done = _run([sys.executable, "-c", snippet], tmp_path, _env(tmp_path, url))
            assert done.returncode == 0, f"{page.name}:\n{snippet}\n{done.stderr[-3000:]}"


def test_the_readme_has_a_short_drop_in_snippet_near_its_top():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 300
    start = text.index("```python")
    assert text[:start].count("\n") < 120
    snippet = _blocks(ROOT / "README.md", "python")[0]
    assert "create_memory_retrieval_node" in snippet and len(snippet.splitlines()) <= 30


def test_the_readme_pool_commands_run_as_written(tmp_path):
    with scripted_openai() as url:
        env = _env(tmp_path, url)
        first = _blocks(ROOT / "README.md", "python")[0]  # makes the pool the commands read
        assert _run([sys.executable, "-c", first], tmp_path, env).returncode == 0
        assert (tmp_path / ".mtl" / "pool").is_dir()
        mtl = str(Path(sys.executable).with_name("mtl"))
        commands = [
            line.split("#", 1)[0].strip()
            for block in _blocks(ROOT / "README.md", "bash")
            for line in block.splitlines()
            if line.startswith("mtl pool ")
        ]
        assert len(commands) >= 5
        for command in commands:
            done = _run([mtl, *shlex.split(command)[1:]], tmp_path, env)
            assert done.returncode == 0, f"{command}\n{done.stdout[-2000:]}{done.stderr[-2000:]}"


def test_the_site_builds_strictly(tmp_path):
    mkdocs = Path(sys.executable).with_name("mkdocs")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run(
        [str(mkdocs), "build", "--strict", "-q", "-d", str(tmp_path / "site")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert (tmp_path / "site" / "api" / "index.html").is_file()
