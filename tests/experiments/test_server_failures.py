"""A model server's passing failure (no reply, a 5xx, too busy) is tried again by the agent's
graph and the run goes on; a refused request or a bug stops the run at once, storing nothing
half-done."""

from __future__ import annotations

import httpx
import openai
import pytest
from helpers import TinyDomain, run_tiny, solve_tiny
from langgraph_mtl_experiments import CONDITIONS, ResultStore

REQUEST = httpx.Request("POST", "http://127.0.0.1:1/v1/chat/completions")


def _status(code: int) -> openai.APIStatusError:
    response = httpx.Response(code, request=REQUEST)
    return openai.APIStatusError(f"Error code: {code}", response=response, body=None)


def _failing(errors: list[Exception]):
    """A model that raises each of ``errors`` once, on its first calls, then solves the task."""
    left = list(errors)

    def reply(messages):
        return left.pop(0) if left else solve_tiny(messages)

    return reply


def _run(model, pool, tmp_path) -> list[dict]:
    store = ResultStore(tmp_path / "results.jsonl")
    run_tiny(CONDITIONS["zero-shot"], model, pool, store)
    return list(store.rows())


@pytest.mark.slow
def test_a_run_goes_on_past_a_server_that_was_briefly_unavailable(scripted, pool, tmp_path):
    rows = _run(scripted(default=_failing([_status(503)])), pool, tmp_path)
    assert len(rows) == len(TinyDomain("alpha").tasks("all"))
    assert all(row["passed"] for row in rows)


@pytest.mark.parametrize(
    "error", [_status(400), _status(401), AttributeError("a bug")], ids=["400", "401", "bug"]
)
def test_a_refused_request_or_a_bug_stops_the_run_at_once(error, scripted, pool, tmp_path):
    model = scripted(default=_failing([error]))
    with pytest.raises(type(error)):
        _run(model, pool, tmp_path)
    assert len(model.calls) == 1
    store = tmp_path / "results.jsonl"
    assert not store.exists() or not list(ResultStore(store).rows())
