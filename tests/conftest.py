"""Shared fixtures: a real Chroma per test, offline fakes, tracing off."""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import pytest

os.environ["LANGSMITH_TRACING"] = "false"
os.environ.pop("LANGSMITH_API_KEY", None)
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")

from langgraph_mtl import open_pool
from langgraph_mtl.testing import HashingEmbeddings, ScriptedChatModel

# the fixtures of the session-wide local model server (each worker starts its own when it first
# needs it: a few seconds for the 0.5B model)
_MODEL_SERVER = {"local_server", "local_model"}


@pytest.hookimpl(tryfirst=True)  # before xdist schedules them
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest tests first: those of the local model server, then the others that take
    seconds (marked integration, toolchain or slow), so the many quick ones fill the end of a
    parallel run and no long test starts last on one worker while the other has nothing left
    to do. The model's tests are spread over the workers like the rest: kept on one worker,
    they were the run's longest chain."""
    slow = {"integration", "toolchain", "slow"}

    def order(item: pytest.Item) -> tuple[bool, bool]:
        model = bool(_MODEL_SERVER & set(getattr(item, "fixturenames", ())))
        return not model, not any(item.get_closest_marker(name) for name in slow)

    items.sort(key=order)


@pytest.fixture
def embeddings() -> HashingEmbeddings:
    return HashingEmbeddings()


@pytest.fixture
def pool_dir(tmp_path: Path) -> Path:
    return tmp_path / "pool"


@pytest.fixture
def pool(pool_dir: Path, embeddings: HashingEmbeddings):
    """A real embedded Chroma pool in a temp dir, unique collection."""
    return open_pool(str(pool_dir), collection=f"t-{uuid.uuid4().hex[:12]}", embeddings=embeddings)


@pytest.fixture
def scripted():
    """Build a ScriptedChatModel from replies."""

    def build(*replies, default=None) -> ScriptedChatModel:
        return ScriptedChatModel(replies=list(replies), default=default)

    return build
