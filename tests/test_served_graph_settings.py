"""The served graphs read their settings from the environment: a bad one is named."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

GRAPHS = Path(__file__).resolve().parents[1] / "graphs"


@pytest.mark.parametrize(
    ("graph", "name", "value", "said"),
    [
        ("coding_agent", "MTL_STEP_LIMIT", "ten", "MTL_STEP_LIMIT='ten': expected a whole number"),
        ("coding_agent", "MTL_STEP_LIMIT", "0", r"MTL_STEP_LIMIT='0': limits\.steps"),
        ("coding_agent", "MTL_SANDBOX", "jail", "MTL_SANDBOX='jail': sandbox.mode: expected auto"),
        ("coding_agent", "MTL_MODEL", "nonsense:x", "MTL_MODEL='nonsense:x': model: "),
        ("coding_agent", "MTL_COLLECTION", "a", "MTL_COLLECTION='a': collection name 'a'"),
        ("memory_writer", "MTL_POOL", "ftp://pool", "MTL_POOL='ftp://pool': pool location"),
        ("memory_writer", "MTL_WRITE_TYPES", "insight,recipe", "MTL_WRITE_TYPES='insight,recipe'"),
    ],
)
def test_a_bad_setting_is_named_by_its_variable(monkeypatch, graph, name, value, said):
    monkeypatch.setenv("MTL_MODEL", "local:http://127.0.0.1:9/v1")  # built, never called
    monkeypatch.setenv(name, value)
    with pytest.raises(ValueError, match=said):
        runpy.run_path(str(GRAPHS / f"{graph}.py"))


def test_good_settings_build_both_graphs(monkeypatch, tmp_path):
    monkeypatch.setenv("MTL_MODEL", "local:http://127.0.0.1:9/v1")
    monkeypatch.setenv("MTL_POOL", str(tmp_path / "pool"))
    monkeypatch.setenv("MTL_WRITE_TYPES", "insight, workflow")
    for graph in ("coding_agent", "memory_writer"):
        assert runpy.run_path(str(GRAPHS / f"{graph}.py"))["graph"].get_graph().nodes
    assert not (tmp_path / "pool").exists()  # opened on first use, not when loaded
