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

# tests that need one of these session-wide servers run on one worker, which starts it once
_SHARED_SERVERS = {"local_server": "local-model", "local_model": "local-model"}


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Group the tests of each shared server (``xdist_group``) so ``--dist loadgroup`` sends
    them to one worker: one model server per run, not one per worker. The grouped tests come
    first, so the other worker runs everything else meanwhile; then the tests that take seconds
    (marked integration, toolchain or slow), so the many quick ones fill the end of the run and
    no long test starts last on one worker while the other has nothing left to do."""
    grouped = set()
    for item in items:
        names = getattr(item, "fixturenames", ())
        for group in sorted({_SHARED_SERVERS[f] for f in names if f in _SHARED_SERVERS}):
            item.add_marker(pytest.mark.xdist_group(group))
            grouped.add(item.nodeid)
    slow = {"integration", "toolchain", "slow"}
    items.sort(
        key=lambda item: (
            item.nodeid not in grouped,
            not any(item.get_closest_marker(name) for name in slow),
        )
    )


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
