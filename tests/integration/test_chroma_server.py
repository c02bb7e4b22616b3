"""The pool on a real `chroma run` server: many writer processes, and an outage."""

from __future__ import annotations

import multiprocessing
import random
from functools import partial

import pytest
from chroma_server import ChromaServer
from helpers import insight_json

from langgraph_mtl import MemoryContext, MemoryRecord, MemoryType, open_pool
from langgraph_mtl.memory.records import memory_id
from langgraph_mtl.nodes.memory_nodes import create_memory_retrieval_node, create_memory_writer_node
from langgraph_mtl.nodes.outbox import Outbox
from langgraph_mtl.pool.feedback import record_feedback, utility
from langgraph_mtl.testing import HashingEmbeddings

pytestmark = pytest.mark.integration
WORDS = [
    "alpha",
    "bravo",
    "charlie",
    "delta",
    "echo",
    "foxtrot",
    "golf",
    "hotel",
    "india",
    "juliet",
    "kilo",
    "lima",
    "mike",
    "november",
    "oscar",
    "papa",
    "quebec",
    "romeo",
    "sierra",
    "tango",
    "uniform",
    "victor",
    "whiskey",
    "xray",
    "yankee",
    "zulu",
]


@pytest.fixture
def chroma(tmp_path):
    server = ChromaServer(tmp_path / "chroma").start()
    yield server
    server.stop()


def _writer(url: str, collection: str, worker: int, count: int) -> None:
    rng = random.Random(worker)
    pool = open_pool(url, collection=collection, embeddings=HashingEmbeddings())
    for i in range(count):
        text = " ".join(rng.sample(WORDS, 8)) + f" worker {worker} item {i}"
        record = MemoryRecord(
            id=memory_id("insight", f"d{worker}", f"t{i}", text),
            memory_type=MemoryType.INSIGHT,
            domain=f"d{worker}",
            task_id=f"t{i}",
            key=text,
            content=text,
        )
        pool.upsert(record)
        if i % 10 == 0:  # a retried write: must not duplicate
            pool.upsert(record)
        record_feedback(pool, [f"shared-{i % 5}"], run_id=f"w{worker}-r{i}", passed=i % 2 == 0)


def test_eight_writer_processes_lose_and_duplicate_nothing(chroma):
    collection = "concurrent"
    open_pool(chroma.url, collection=collection, embeddings=HashingEmbeddings())  # create it once
    ctx = multiprocessing.get_context("spawn")
    each = 50  # writes per process, each also recording feedback on the same five memories
    workers = [
        ctx.Process(target=_writer, args=(chroma.url, collection, w, each)) for w in range(8)
    ]
    for p in workers:
        p.start()
    for p in workers:
        p.join(timeout=300)
        assert p.exitcode == 0
    pool = open_pool(chroma.url, collection=collection, embeddings=HashingEmbeddings())
    records = pool.list_records()
    assert pool.count() == 8 * each
    assert len({r.id for r in records}) == 8 * each
    assert {r.domain for r in records} == {f"d{w}" for w in range(8)}
    stats = utility(pool, [f"shared-{k}" for k in range(5)])
    assert sum(s.retrieved for s in stats.values()) == 8 * each
    assert sum(s.helped for s in stats.values()) == 4 * each
    assert sum(s.hurt for s in stats.values()) == 4 * each


def test_outage_goes_to_the_outbox_and_is_delivered_once(chroma, tmp_path, scripted):
    collection = "outage"
    pool = open_pool(chroma.url, collection=collection, embeddings=HashingEmbeddings())
    box = Outbox(tmp_path / "outbox.jsonl")
    writer = create_memory_writer_node(
        lambda: pool,
        model=scripted(default=insight_json("Read the failing test first")),
        outbox=box,
    )

    class Runtime:
        context = MemoryContext(domain="python", task_id="t1")

    state = {
        "task": "fix the bug",
        "trajectory": [{"action": "pytest", "observation": "1 failed"}],
        "verified": True,
    }
    chroma.stop()
    out = writer(state, Runtime())
    assert out["memory_write_status"].startswith("queued: pool unavailable")
    assert len(box) == 1
    chroma.start()
    assert box.flush(pool).delivered == 1
    assert len(box) == 0
    assert box.flush(pool).delivered == 0
    (stored,) = pool.list_records()
    assert stored.key == "Read the failing test first"
    assert stored.outcome.value == "success"
    writer(state | {"task": "fix the bug"}, Runtime())  # the same run written again
    assert pool.count() == 1


def test_a_node_started_while_the_server_is_down_uses_the_pool_once_it_is_back(chroma):
    opener = partial(open_pool, chroma.url, collection="late", embeddings=HashingEmbeddings())
    opener().upsert(
        MemoryRecord(
            id=memory_id("insight", "rust", "r1", "d"),
            memory_type=MemoryType.INSIGHT,
            domain="rust",
            task_id="r1",
            key="run the tests first",
            content="run the tests first",
        )
    )
    node = create_memory_retrieval_node(opener)

    class Runtime:
        context = MemoryContext(domain="python", task_id="t1")

    chroma.stop()
    down = node({"task": "run the tests first"}, Runtime())
    assert down["memory_status"].startswith("unavailable:")
    assert down["memory_receipts"] == []
    chroma.start()
    back = node({"task": "run the tests first"}, Runtime())
    assert back["memory_status"] == "ok"
    assert [r["task_id"] for r in back["memory_receipts"]] == ["r1"]
