"""Phase 1 keeps a row per source run, and the report says what share of the runs left a
memory of each type and why the others did not."""

from __future__ import annotations

import json

from helpers import TinyDomain, solve_tiny
from langgraph_mtl_experiments import ResultStore
from langgraph_mtl_experiments.memory_yield import memory_yield, yield_lines
from langgraph_mtl_experiments.pools import write_snapshot
from langgraph_mtl_experiments.runner import PHASE_ONE, generate_memories

LONG = " ".join(["word"] * 70)


def _writer_and_agent(messages):
    text = "\n".join(str(m.content) for m in messages)
    if "shared memory for coding agents" in text:  # an abstraction call
        content = LONG if "write 3 to out.txt" in text else "Check the output first."
        return json.dumps(
            {"title": "Check first", "description": "When output matters.", "content": content}
        )
    return solve_tiny(messages)


def test_phase_one_rows_and_the_share_of_insights_kept(pool, scripted, tmp_path):
    store = ResultStore(tmp_path / "memories.jsonl")
    model = scripted(default=_writer_and_agent)
    domain = TinyDomain("alpha")
    generate_memories(
        [domain],
        model=model,
        pool=pool,
        limit=2,
        memory_types=["insight"],
        step_limit=3,
        store=store,
    )
    rows = list(store.rows())
    assert [r["condition"] for r in rows] == [PHASE_ONE, PHASE_ONE]
    assert all(r["memory_types"] == ["insight"] and r["calls"] for r in rows)
    dropped = [r for r in rows if not r["written"]]
    assert len(dropped) == 1 and "insight dropped by rule: too long" in dropped[0]["write_status"]
    write_snapshot(pool, tmp_path / "pool-snapshot.jsonl")
    lines = "\n".join(yield_lines(tmp_path))
    assert "| insight | 2 | 1 | 0.50" in lines
    assert "dropped by rule: too long 1" in lines
    again = generate_memories(  # resumed: the dropped run is not given a second try
        [domain], model=model, pool=pool, limit=2, memory_types=["insight"], step_limit=3,
        store=store,
    )  # fmt: skip
    assert again == 0 and len(list(store.rows())) == 2


def test_a_run_counts_as_kept_only_with_a_memory_of_that_type_in_the_pool():
    runs = [
        {"task_id": "1", "memory_types": ["insight"], "written": ["m1"], "write_status": "ok"},
        {"task_id": "2", "memory_types": ["insight"], "written": ["gone"], "write_status": "ok"},
        {"task_id": "3", "memory_types": ["insight"], "written": [],
         "write_status": "queued: insight abstraction failed"},
        {"task_id": "4", "memory_types": ["insight"], "written": ["m1"], "write_status": "ok"},
    ]  # fmt: skip
    runs.append({"task_id": "5", "memory_types": ["insight"], "written": [],
                 "write_status": "insight dropped by rule: names the task's own code (f, g)"})  # fmt: skip
    runs.append({"task_id": "6", "memory_types": ["insight"], "written": [],
                 "write_status": "insight dropped by rule: names the task's own code"})  # fmt: skip
    records = [{"id": "m1", "memory_type": "insight"}]
    found = memory_yield(runs, records)["insight"]
    assert (found["runs"], found["kept"]) == (6, 2)  # merged into a stored one: kept
    assert found["lost"] == {  # the names a dropped insight used are not a reason of their own
        "written, not in the pool": 1,  # written, then lost with the pool: not "not written"
        "abstraction failed": 1,
        "dropped by rule: names the task's own code": 2,
    }
