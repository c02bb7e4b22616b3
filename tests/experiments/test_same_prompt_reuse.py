"""An attempt whose memories equal a stored attempt's (same prompt) reuses that attempt."""

from __future__ import annotations

import dataclasses

import pytest
from helpers import act_reply, run_tiny, solve_tiny
from langgraph_mtl_experiments import CONDITIONS, ResultStore

from langgraph_mtl import MemoryRecord, MemoryType
from langgraph_mtl.agent.prompts import PLAN_INSTRUCTION
from langgraph_mtl.memory.records import memory_id
from langgraph_mtl.transfer.retrieval import PLAN_PROMPT

INSIGHT = CONDITIONS["mtl-insight"]
DECLINES_ALL = dataclasses.replace(INSIGHT, name="mtl-insight-gated", min_similarity=0.999)
KEEPS_ALL = dataclasses.replace(INSIGHT, name="mtl-insight-open-gate", min_similarity=-1.0)


def _memory(domain: str, i: int) -> MemoryRecord:
    key = f"write the number to out.txt ({domain} {i})"
    return MemoryRecord(
        id=memory_id("insight", domain, f"{domain}-{i}", key),
        memory_type=MemoryType.INSIGHT,
        domain=domain,
        task_id=f"{domain}-{i}",
        key=key,
        content=key,
    )


@pytest.fixture
def stocked(pool):
    pool.upsert([_memory(d, i) for d in ("beta", "gamma") for i in range(3)])
    return pool


def _gives_up(messages):
    """Plans as the solver does (a plan is the insights' retrieval query), then submits at
    once: every attempt fails, which tells a reused outcome from a fresh run."""
    system = str(messages[0].content)
    if system == PLAN_PROMPT or system.startswith(PLAN_INSTRUCTION):
        return solve_tiny(messages)
    return act_reply(messages, "submit")


def _run(condition, model, pool, store, *, reuse: bool = True) -> None:
    run_tiny(condition, model, pool, store, reuse_same_prompt=reuse)


def _rows(store: ResultStore, condition: str) -> list[dict]:
    return [r for r in store.rows() if r["condition"] == condition]


def test_a_gate_that_declines_every_memory_reuses_zero_shot(stocked, scripted, tmp_path):
    store = ResultStore(tmp_path / "results.jsonl")
    _run(CONDITIONS["zero-shot"], scripted(default=_gives_up), stocked, store)
    solver = scripted(default=solve_tiny)
    _run(DECLINES_ALL, solver, stocked, store)
    rows = _rows(store, "mtl-insight-gated")
    assert len(rows) == 4
    assert all(r["reused_from"] == "zero-shot" for r in rows)
    assert not any(r["passed"] for r in rows)  # zero-shot's outcome, not the solver's
    assert all(r["receipts"] == [] for r in rows)
    assert len(solver.calls) == 4  # one plan call per task, no act calls


@pytest.mark.slow
def test_a_gate_that_keeps_every_memory_reuses_the_ungated_attempt(stocked, scripted, tmp_path):
    store = ResultStore(tmp_path / "results.jsonl")
    _run(CONDITIONS["zero-shot"], scripted(default=solve_tiny), stocked, store)
    _run(INSIGHT, scripted(default=_gives_up), stocked, store)
    _run(KEEPS_ALL, scripted(default=solve_tiny), stocked, store)
    rows = _rows(store, "mtl-insight-open-gate")
    ungated = {r["task_id"]: r for r in _rows(store, "mtl-insight")}
    assert all(r["reused_from"] == "mtl-insight" for r in rows)
    assert not any(r["passed"] for r in rows)
    for row in rows:
        assert row["receipts"]
        assert row["receipts"] == ungated[row["task_id"]]["receipts"]


def test_memories_no_stored_attempt_had_are_run(stocked, scripted, tmp_path):
    store = ResultStore(tmp_path / "results.jsonl")
    _run(CONDITIONS["zero-shot"], scripted(default=_gives_up), stocked, store)
    solver = scripted(default=solve_tiny)
    _run(KEEPS_ALL, solver, stocked, store)  # its ungated twin has not run: nothing to reuse
    rows = _rows(store, "mtl-insight-open-gate")
    assert len(rows) == 4
    assert all(r["passed"] and "reused_from" not in r for r in rows)
    assert len(solver.calls) > 4


def test_without_reuse_every_attempt_runs(stocked, scripted, tmp_path):
    store = ResultStore(tmp_path / "results.jsonl")
    _run(CONDITIONS["zero-shot"], scripted(default=_gives_up), stocked, store)
    _run(DECLINES_ALL, scripted(default=solve_tiny), stocked, store, reuse=False)
    rows = _rows(store, "mtl-insight-gated")
    assert all(r["passed"] and "reused_from" not in r for r in rows)
