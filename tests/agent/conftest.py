"""The repository the agent tests work in."""

from __future__ import annotations

import pytest
from big_repo import TEST, big_module


@pytest.fixture
def repo(tmp_path):
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "big.py").write_text(big_module())
    (ws / "test_big.py").write_text(TEST)
    return ws
