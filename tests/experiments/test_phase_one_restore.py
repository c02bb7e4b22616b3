"""Phase 1 spans stretches of work whose pool folder is not kept: each row carries the records
its run wrote, a lost pool is refilled from the rows, and a run whose rows name memories that
nothing holds any more refuses to go on instead of evaluating part of its pool."""

from __future__ import annotations

import json
import uuid

import pytest
from helpers import TinyDomain, solve_tiny
from langgraph_mtl_experiments import ResultStore
from langgraph_mtl_experiments.cli.run_pool import refill_pool
from langgraph_mtl_experiments.phase_one import restore_phase_one
from langgraph_mtl_experiments.runner import generate_memories

from langgraph_mtl import open_pool
from langgraph_mtl.cli.errors import CliError


def _writer_and_agent(messages):
    text = "\n".join(str(m.content) for m in messages)
    if "shared memory for coding agents" in text:  # an abstraction call
        return json.dumps(
            {"title": "Check first", "description": "When output matters.",
             "content": "Read the expected output before writing the file."}
        )  # fmt: skip
    return solve_tiny(messages)


def _fresh_pool(tmp_path, embeddings):
    """The run's pool after its folder was lost: empty."""
    name = f"t-{uuid.uuid4().hex[:12]}"
    return open_pool(str(tmp_path / "lost"), collection=name, embeddings=embeddings)


@pytest.fixture
def phase_one(pool, scripted, tmp_path):
    store = ResultStore(tmp_path / "memories.jsonl")
    generate_memories(
        [TinyDomain("alpha")], model=scripted(default=_writer_and_agent), pool=pool, limit=2,
        memory_types=["insight"], step_limit=3, store=store,
    )  # fmt: skip
    return store


def test_each_phase_one_row_carries_the_records_its_run_wrote(phase_one, pool):
    rows = list(phase_one.rows())
    assert rows and all(r["written"] for r in rows)
    for row in rows:
        assert [rec["id"] for rec in row["records"]] == row["written"]
        assert row["records"][0]["memory_type"] == "insight"


def test_a_lost_pool_is_refilled_from_the_rows(phase_one, pool, tmp_path, embeddings):
    fresh = _fresh_pool(tmp_path, embeddings)
    restored, missing = restore_phase_one(fresh, phase_one)
    assert (restored, missing) == (pool.count(), [])
    assert fresh.count() == pool.count()
    assert restore_phase_one(fresh, phase_one) == (0, [])  # a second call restores nothing


def test_a_run_whose_rows_name_memories_nothing_holds_refuses_to_go_on(
    phase_one, tmp_path, embeddings
):
    rows = [json.loads(line) for line in phase_one.path.read_text().splitlines()]
    for row in rows:  # rows written before they carried their records
        row.pop("records")
    phase_one.path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    fresh = _fresh_pool(tmp_path, embeddings)
    written = sorted({i for r in rows for i in r["written"]})
    assert written and restore_phase_one(fresh, phase_one)[1] == written
    with pytest.raises(CliError, match=f"lacks {len(written)} memor.* that phase-1 rows"):
        refill_pool(fresh, tmp_path / "pool-snapshot.jsonl", phase_one)
