"""The served graphs read their settings from the environment: a bad one is named."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

GRAPH = Path(__file__).resolve().parents[1] / "graphs" / "coding_agent.py"


@pytest.mark.parametrize(
    ("value", "said"),
    [("ten", r"MTL_STEP_LIMIT: expected a whole number"), ("0", r"limits\.steps")],
)
def test_a_bad_step_limit_is_named(monkeypatch, value, said):
    monkeypatch.setenv("MTL_STEP_LIMIT", value)
    with pytest.raises(ValueError, match=said):
        runpy.run_path(str(GRAPH))
