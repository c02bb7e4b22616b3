"""Bad input: a clear error or a documented cleanup, and nothing already stored is damaged."""

from __future__ import annotations

import io
import json
import re
import uuid

import pytest
from helpers import insight_json, make_record
from pydantic import ValidationError

from langgraph_mtl import MemoryContext, MemoryRecord, MemoryType, open_pool
from langgraph_mtl.memory.records import memory_id
from langgraph_mtl.nodes.memory_nodes import create_memory_writer_node
from langgraph_mtl.nodes.outbox import Outbox
from langgraph_mtl.pool.consolidation import consolidate
from langgraph_mtl.pool.feedback import prune
from langgraph_mtl.pool.location import PoolUnavailableError
from langgraph_mtl.transfer.abstraction import FinishedRun, abstract_run


class _Runtime:
    context = MemoryContext(domain="python", task_id="bad-1")


def _seed(pool) -> MemoryRecord:
    record = MemoryRecord(
        id=memory_id("insight", "rust", "r1", "k"),
        memory_type=MemoryType.INSIGHT,
        domain="rust",
        task_id="r1",
        key="an existing lesson",
        content="An existing lesson.",
    )
    pool.upsert(record)
    return pool.get(record.id)


@pytest.fixture
def writer(pool, scripted, tmp_path):
    return create_memory_writer_node(
        pool,
        model=scripted(default=insight_json("Keep going")),
        memory_types=["trajectory", "insight"],
        outbox=Outbox(tmp_path / "o.jsonl"),
    )


@pytest.mark.parametrize(
    "observation",
    [
        "",
        "x" * 10_000_000,
        b"\x00\x01\x02\xff\xfe binary \x89PNG\r\n\x1a\n",
        "latin-1 bytes decoded badly: \udcff\udcfe and a NUL \x00 and bell \x07",
        "\x1b[31mred ANSI\x1b[0m and \r carriage returns",
    ],
    ids=["empty", "10MB", "binary", "non-utf8", "control-chars"],
)
def test_bad_trajectories_are_cleaned_and_stored(pool, writer, observation):
    before = _seed(pool)
    state = {
        "task": "Fix the parser",
        "trajectory": [{"action": "cat data.bin", "observation": observation}],
        "verified": False,
    }
    out = writer(state, _Runtime())
    assert out["memory_write_status"] == "ok", out
    stored = [pool.get(i) for i in out["memory_written"]]
    for record in stored:
        assert len(record.content) < 50_000
        assert not any(ord(c) < 32 and c not in "\n\t" for c in record.content)
        assert "\udcff" not in record.content
    assert pool.get(before.id) == before


def test_empty_task_or_missing_domain_is_skipped_with_a_reason(pool, writer):
    before = _seed(pool)
    out = writer({"task": "   ", "trajectory": []}, _Runtime())
    assert out["memory_write_status"].startswith("skipped")
    assert pool.count() == 1

    class NoDomain:
        context = MemoryContext()

    assert writer({"task": "t"}, NoDomain())["memory_write_status"].startswith("skipped")
    assert pool.get(before.id) == before


def test_a_malformed_trajectory_is_named(pool, writer):
    out = writer({"task": "t", "trajectory": ["just a string"]}, _Runtime())
    assert (
        out["memory_write_status"]
        == "skipped: trajectory step 0 is not a dict or (action, observation) pair"
    )


@pytest.mark.parametrize("bad_id", ["", "a\nb", "x" * 600, "tab\tid"])
def test_bad_ids_are_refused_before_anything_is_written(pool, bad_id):
    before = _seed(pool)
    fields = {"memory_type": "insight", "domain": "d", "task_id": "t", "key": "k", "content": "c"}
    with pytest.raises(ValidationError, match="id"):
        MemoryRecord(id=bad_id, **fields)
    good = MemoryRecord(id="fine", **{**fields, "key": "another lesson", "content": "other"})
    smuggled = MemoryRecord.model_construct(
        id=bad_id, **MemoryRecord(id="x", **fields).model_dump(exclude={"id"})
    )
    with pytest.raises(ValidationError, match="id"):  # built without validation: the pool checks
        pool.upsert([good, smuggled])
    assert pool.count() == 1
    assert pool.get(before.id) == before  # not even the good one


def test_a_failed_batch_leaves_the_pool_as_it_was(pool):
    before = _seed(pool)
    dup = MemoryRecord(
        id="same", memory_type="insight", domain="d", task_id="t", key="k", content="c"
    )
    with pytest.raises(ValueError, match="same id appears twice"):
        pool.upsert([dup, dup])
    assert pool.count() == 1
    assert pool.get(before.id) == before


def test_huge_task_text_is_bounded(scripted):
    record = abstract_run(
        FinishedRun(task="y" * 5_000_000, steps=[], domain="d", task_id="t"), "trajectory"
    )
    assert len(record.key) <= 20_000
    assert len(record.content) < 60_000


def test_a_torn_outbox_line_loses_only_itself(pool, tmp_path):
    outbox = Outbox(tmp_path / "o.jsonl")
    first, second = (
        MemoryRecord(
            id=memory_id("insight", "d", t, "k"),
            memory_type="insight",
            domain="d",
            task_id=t,
            key=f"key {t}",
            content=f"content {t}",
        )
        for t in ("t1", "t2")
    )
    outbox.add_record(first, "pool down")
    with outbox.path.open("a") as handle:  # a writer killed mid-line
        handle.write('{"kind": "record", "rec')
    outbox.add_record(second, "pool down")
    assert [e["record"]["task_id"] for e in outbox.entries()] == ["t1", "t2"]
    assert outbox.flush(pool).delivered == 2
    assert pool.get(second.id) is not None


@pytest.mark.parametrize(
    "rule",
    [
        {"unused_days": -1},
        {"unused_days": 0},
        {"unused_days": 10**9},
        {"hurt_margin": 0},
        {"hurt_margin": -3},
        {"unused_days": 1.5},
    ],
)
def test_prune_refuses_rules_that_would_forget_everything_and_deletes_nothing(pool, rule):
    pool.upsert([make_record("python", f"p{n}", f"lesson number{n}") for n in range(3)])
    with pytest.raises(ValueError, match=next(iter(rule))):
        prune(pool, **rule)
    assert pool.count() == 3


@pytest.mark.parametrize("threshold", [-1, 0.0, 0.49, 1.01])
def test_consolidate_refuses_thresholds_that_would_fold_distinct_memories(pool, threshold):
    pool.upsert([make_record("python", f"p{n}", f"lesson number{n}") for n in range(3)])
    with pytest.raises(ValueError, match="threshold"):
        consolidate(pool, threshold=threshold)
    assert pool.count() == 3


def test_text_utf8_cannot_hold_is_stored_and_searched_with_those_characters_replaced(pool):
    """Lone surrogates (bytes decoded with ``surrogateescape``) in a memory or a query."""
    before = _seed(pool)
    record = make_record("python", "s1", "key \udcff here", content="content \ud800 there")
    record = record.model_copy(update={"payload": {"raw": "payload \udcfe", "\udcff": 1}})
    pool.upsert([MemoryRecord.model_validate(record.model_dump())])
    stored = pool.get(record.id)
    assert (stored.key, stored.content) == ("key ? here", "content ? there")
    assert stored.payload == {"raw": "payload ?", "?": 1}
    assert [hit.record.id for hit in pool.search("key \udcff here", k=1)] == [record.id]
    assert pool.get(before.id) == before


@pytest.mark.parametrize("create", [True, False])
def test_a_damaged_pool_file_is_named_and_left_as_it_is(tmp_path, create):
    (tmp_path / "pool").mkdir()
    damaged = tmp_path / "pool" / "chroma.sqlite3"
    damaged.write_bytes(b"\x8f not a database " * 300)
    with pytest.raises(PoolUnavailableError, match=r"is damaged: chroma\.sqlite3 is not a SQLite"):
        open_pool(str(tmp_path / "pool"), create=create)
    assert damaged.read_bytes() == b"\x8f not a database " * 300


def test_a_line_written_by_hand_without_an_id_gets_one_from_its_provenance(pool):
    fields = {"memory_type": "insight", "domain": "python", "task_id": "t1", "key": "k"}
    line = json.dumps({"record": {**fields, "content": "Check empty input first."}})
    assert pool.import_jsonl([line]).imported == 1
    assert pool.import_jsonl([line]).imported == 1  # the same memory again: stored once
    assert pool.count() == 1
    stored = pool.get(memory_id("insight", "python", "t1", "k"))
    assert stored.content == "Check empty input first."
    wrong = json.dumps({"record": {**fields, "memory_type": "recipe", "content": "c"}})
    assert "memory_type" in pool.import_jsonl([wrong]).errors[0][1]


def test_hand_written_records_may_come_bare_or_as_one_text(pool):
    fields = {"memory_type": "insight", "domain": "python", "task_id": "t1", "key": "k"}
    bare = json.dumps({**fields, "task_id": "t2", "content": "Check the last index too."})
    assert pool.import_jsonl([bare]).imported == 1  # the record alone, without its wrapper
    assert (
        pool.get(memory_id("insight", "python", "t2", "k")).content == "Check the last index too."
    )
    keyless = {name: value for name, value in fields.items() if name != "key"}
    assert "record.key" in pool.import_jsonl([json.dumps({**keyless, "content": "c"})]).errors[0][1]
    assert "each line must be" in pool.import_jsonl(['["a list"]']).errors[0][1]
    text = "\n".join(json.dumps({**fields, "task_id": t, "content": t}) for t in ("t3", "t4"))
    assert pool.import_jsonl(text).imported == 2  # one text holding the lines, not its letters
    out = io.StringIO()
    assert pool.export_ids(out, memory_id("insight", "python", "t3", "k")) == 1


@pytest.mark.parametrize(
    ("call", "says"),
    [
        (lambda pool: pool.upsert(None), "records: expected a MemoryRecord or a list of them"),
        (lambda pool: pool.upsert([{"id": "x"}]), "records: expected MemoryRecord items, got dict"),
        (lambda pool: pool.import_jsonl(None), "lines: expected an open file"),
        (lambda pool: pool.update_flags(7, {}), "update_flags: expected a record id and a dict"),
        (lambda pool: pool.list_records(domain="python"), "did you mean 'domains'"),
        (lambda pool: pool.as_retriever(top_k=3), "'top_k' is not a SearchConfig setting"),
        (lambda pool: pool.search("q", domian="go"), "did you mean 'domain'"),
    ],
)
def test_a_call_with_arguments_of_the_wrong_kind_is_named(pool, call, says):
    pool.upsert(make_record("python", "t1", "kept"))
    with pytest.raises(TypeError, match=says):
        call(pool)
    assert [r.key for r in pool.list_records()] == ["kept"]


def test_a_flag_the_record_cannot_hold_is_refused_and_changes_nothing(pool):
    stored = make_record("python", "t1", "kept")
    pool.upsert(stored)
    before = pool.get(stored.id).flags
    for flags in ({"score": [1]}, {"score": None}, {"quarantined": "yes"}, {"n" * 100: 1}):
        with pytest.raises(ValueError, match="nothing was changed"):
            pool.update_flags(stored.id, {"ok": 1, **flags})
    assert pool.get(stored.id).flags == before  # the valid flag beside it is not set either
    pool.update_flags(stored.id, {"score": 0.5})
    assert pool.get(stored.id).flags["score"] == 0.5 and len(pool.list_records()) == 1
    pool.delete([])  # deleting nothing is nothing
    assert pool.count() == 1


def test_a_record_other_code_stored_unreadably_is_passed_over_not_fatal(pool, caplog):
    good, bad = make_record("python", "t1", "good"), make_record("python", "t2", uuid.uuid4().hex)
    pool.upsert([good, bad])
    pool.collection.update(ids=[bad.id], metadatas=[{"outcome": "half-done"}])
    assert [r.key for r in pool.list_records()] == ["good"]
    assert [hit.record.key for hit in pool.search("good bad", k=5)] == ["good"]
    assert pool.export_jsonl(io.StringIO()) == 1 and pool.get(bad.id) is None
    assert caplog.text.count(f"memory {bad.id} passed over") == 1  # said once, read four times
    pool.delete(bad.id)
    assert pool.count() == 1


def test_a_search_still_finds_k_readable_memories_past_unreadable_ones(pool):
    near = [make_record("python", f"t{i}", f"parse the date {i}") for i in range(4)]
    far = [make_record("python", f"f{i}", f"render a chart {i}") for i in range(3)]
    pool.upsert(near + far)
    broken = [r.id for r in near[:2]]
    pool.collection.update(ids=broken, metadatas=[{"outcome": "half-done"}] * 2)
    for options in ({}, {"domain": "rust"}, {"memory_types": "insight"}):
        hits = pool.search("parse the date", k=4, **options)
        assert len(hits) == 4 and not {h.record.id for h in hits} & set(broken), options


@pytest.mark.parametrize(
    ("query", "error", "says"),
    [
        (None, TypeError, "got NoneType"),
        (5, TypeError, "got int"),
        (b"parse the date", TypeError, "got bytes"),
        ([float("nan")] * 384, ValueError, "finite numbers"),
        (["a"] * 384, ValueError, "finite numbers"),
        ([], ValueError, "finite numbers"),
        ({"insights": "parse the date"}, ValueError, "query (its keys)"),
        ({"insight": {"workflow": "x"}}, TypeError, "got dict"),
    ],
)
def test_a_search_names_a_query_it_cannot_take(pool, query, error, says):
    pool.upsert([make_record("python", "t1", "parse the date")])
    with pytest.raises(error, match=re.escape(says)):
        pool.search(query, k=1)
    assert [h.record.key for h in pool.search({"insight": "parse the date"}, k=1)] == [
        "parse the date"
    ]


def test_ids_limits_and_files_of_the_wrong_kind_are_named_and_nothing_is_lost(pool, tmp_path):
    pool.upsert([make_record("python", f"t{i}", f"key {i}") for i in range(3)])
    for call, says in [
        (lambda: pool.get(5), "record_id: expected a memory id"),
        (lambda: pool.delete(5), "ids: expected a memory id"),
        (lambda: pool.delete([5]), "ids: expected memory ids"),
        (lambda: pool.export_jsonl(str(tmp_path / "out.jsonl")), "out: expected a file open"),
        (lambda: pool.export_ids(str(tmp_path / "out.jsonl"), []), "out: expected a file open"),
    ]:
        with pytest.raises(TypeError, match=re.escape(says)):
            call()
    for limit in (-1, 0, "2", 1.5):
        with pytest.raises(ValueError, match="limit: must be a whole number"):
            pool.list_records(limit=limit)
    with pytest.raises(ValueError, match=r"is a file name, not JSON lines: pass the file open"):
        pool.import_jsonl(str(tmp_path / "pool.jsonl"))
    assert pool.count() == 3 and len(pool.list_records(limit=2)) == 2
