"""One Chroma collection per memory type: searches ask only their types' indexes, leave one
domain out at every pool size, match an exact search, and pools of the older single-collection
layout are read as they are and moved over without losing a record."""

from __future__ import annotations

import random
import uuid

import numpy as np
import pytest
from helpers import make_record

from langgraph_mtl import MemoryType, open_pool
from langgraph_mtl.pool.codec import to_metadata
from langgraph_mtl.pool.typed_collections import part_name

pytestmark = pytest.mark.slow  # seconds each: the full suite runs them, not test-unit

DOMAINS = ["python", "rust", "verilog", "shell", "data", "repo", "sql", "ml"]
TYPES = list(MemoryType)


def _records(n: int, seed: int = 0):
    rng = random.Random(seed)
    words = [
        "tests",
        "build",
        "log",
        "schema",
        "exit",
        "code",
        "waveform",
        "trace",
        "edge",
        "cases",
        "cache",
        "lock",
        "retry",
    ]
    return [
        make_record(
            DOMAINS[i % len(DOMAINS)],
            f"t{i}",
            " ".join(rng.sample(words, 4)) + f" {i}",
            kind=TYPES[(i // len(DOMAINS)) % len(TYPES)],
        )
        for i in range(n)
    ]


def _legacy(pool, records) -> None:
    """Put ``records`` where pools of the single-collection layout kept them."""
    vectors = pool.embeddings.embed_documents([r.key for r in records])
    pool.collection.home.add(
        ids=[r.id for r in records],
        embeddings=vectors,
        documents=[r.content for r in records],
        metadatas=[to_metadata(r) for r in records],
    )


def test_each_memory_type_has_its_own_collection(pool):
    pool.upsert(_records(32), merge_duplicates=False)
    for kind in MemoryType:
        part = pool.client.get_collection(part_name(pool.collection.name, kind))
        stored = part.get(include=["metadatas"])["metadatas"]
        assert stored, kind
        assert {m["memory_type"] for m in stored} == {kind.value}
    assert pool.collection.home.count() == 0
    assert pool.count() == 32


@pytest.mark.parametrize("size", [1, 9, 40, 300, 1500])
def test_no_own_domain_memory_is_ever_returned_at_any_size(pool, size):
    records = _records(size, seed=size)
    pool.upsert(records, merge_duplicates=False)
    rng = random.Random(size)
    for _ in range(30):
        own = rng.choice(DOMAINS)
        kinds = rng.sample(TYPES, rng.randint(1, 4))
        k = rng.choice([1, 3, 10])
        hits = pool.search(rng.choice(records).key, k=k, exclude_domains=own, memory_types=kinds)
        assert all(h.record.domain != own for h in hits)
        assert all(h.record.memory_type in kinds for h in hits)
        eligible = [r for r in records if r.domain != own and r.memory_type in kinds]
        assert len(hits) == min(k, len(eligible))


def test_a_search_returns_the_exact_nearest_memories(pool):
    """Against brute force over the stored vectors with the same filter (recall@3; a memory
    tied with the exact third counts, as either is as near)."""
    records = _records(1200, seed=3)
    pool.upsert(records, merge_duplicates=False)
    stored = [(r, np.asarray(v)) for r, v in pool.with_embeddings()]
    rng = random.Random(7)
    found = 0
    for _ in range(40):
        own, kind = rng.choice(DOMAINS), rng.choice(TYPES)
        q = np.asarray(pool.embeddings.embed_query(rng.choice(records).key + " lock"))
        exact = sorted(
            (float(v @ q) for r, v in stored if r.domain != own and r.memory_type == kind),
            reverse=True,
        )[:3]
        hits = pool.search(q.tolist(), k=3, exclude_domains=own, memory_types=[kind])
        found += sum(h.similarity >= exact[-1] - 1e-6 for h in hits)
    assert found / (40 * 3) >= 0.95


def test_a_rare_filter_still_finds_its_memories(pool):
    records = _records(800, seed=5)
    pool.upsert(records, merge_duplicates=False)
    only = next(r for r in records if r.domain == "ml" and r.memory_type is MemoryType.SUMMARY)
    hits = pool.search(
        "anything",
        k=3,
        domains="ml",
        exclude_task_ids=[r.task_id for r in records if r.domain == "ml" and r.id != only.id],
        memory_types=[MemoryType.SUMMARY],
    )
    assert [h.record.id for h in hits] == [only.id]


def test_a_pool_of_the_single_collection_layout_is_moved_over_whole(pool_dir, embeddings):
    name = f"t-{uuid.uuid4().hex[:12]}"
    pool = open_pool(str(pool_dir), collection=name, embeddings=embeddings)
    older = _records(1100, seed=11)
    _legacy(pool, older)
    reader = open_pool(str(pool_dir), collection=name, embeddings=embeddings, create=False)
    assert reader.count() == 1100  # read where they are, nothing moved by a reader
    assert pool.collection.home.count() == 1100

    reopened = open_pool(str(pool_dir), collection=name, embeddings=embeddings)
    assert reopened.collection.home.count() == 0
    assert reopened.count() == 1100
    assert {r.id for r in reopened.list_records()} == {r.id for r in older}
    hit = reopened.search(older[5].key, k=1, memory_types=[older[5].memory_type])
    assert hit[0].record.id == older[5].id


def test_records_held_twice_mid_move_are_read_once_and_moved_cleanly(pool_dir, embeddings):
    name = f"t-{uuid.uuid4().hex[:12]}"
    pool = open_pool(str(pool_dir), collection=name, embeddings=embeddings)
    records = _records(24, seed=2)
    pool.upsert(records, merge_duplicates=False)
    _legacy(pool, records[:10])  # as if a move stopped after writing, before deleting
    mid = open_pool(str(pool_dir), collection=name, embeddings=embeddings, create=False)
    assert mid.count() == 34  # raw count: ten are in two places
    assert len(mid.list_records()) == 24
    assert len({h.record.id for h in mid.search("tests", k=24)}) == len(mid.search("tests", k=24))
    after = open_pool(str(pool_dir), collection=name, embeddings=embeddings)
    assert after.count() == 24
    assert after.collection.home.count() == 0


def test_dropping_a_pool_removes_every_collection(pool):
    pool.upsert(_records(8), merge_duplicates=False)
    name = pool.collection.name
    pool.drop()
    left = {c.name for c in pool.client.list_collections()}
    assert not {name, *(part_name(name, t) for t in MemoryType)} & left


def test_a_filter_operator_only_chroma_knows_is_left_to_chroma(pool):
    records = _records(40)
    pool.upsert(records, merge_duplicates=False)
    where = {"agent_model": {"$contains": "m"}}
    hits = pool.search("tests", k=3, memory_types=[MemoryType.INSIGHT], where=where)
    part = pool.collection.parts[MemoryType.INSIGHT]
    full = {"$and": [{"memory_type": {"$in": ["insight"]}}, where]}
    vector = pool.embeddings.embed_query("tests")
    expected = part.query(query_embeddings=[vector], n_results=3, where=full)["ids"][0]
    assert [h.record.id for h in hits] == expected


def test_a_server_that_fails_the_unfiltered_query_is_asked_the_filtered_one(pool):
    from chromadb.errors import InternalError

    records = _records(40)
    pool.upsert(records, merge_duplicates=False)
    part = pool.collection.parts[MemoryType.INSIGHT]

    class Compacting:
        """A collection whose index is being rebuilt: unfiltered queries fail."""

        name = part.name

        def query(self, **kwargs):
            if kwargs.get("where") is None:
                raise InternalError("Error creating hnsw segment reader: Nothing found on disk")
            return part.query(**kwargs)

    pool.collection.parts[MemoryType.INSIGHT] = Compacting()
    hits = pool.search("tests", k=3, exclude_domains="python", memory_types=[MemoryType.INSIGHT])
    assert len(hits) == 3
    assert all(h.record.domain != "python" for h in hits)


def test_an_older_pool_with_prefixed_quarantine_and_raw_sources_is_read_and_moved_over(
    pool_dir, embeddings
):
    name = f"t-{uuid.uuid4().hex[:12]}"
    pool = open_pool(str(pool_dir), collection=name, embeddings=embeddings)
    kept, held = _records(2, seed=5)
    held = held.model_copy(update={"memory_type": MemoryType.INSIGHT})
    part = pool.client.get_collection(part_name(name, MemoryType.INSIGHT))
    older = {  # as pools written before quarantine was one flag and sources a field kept it
        **to_metadata(held),
        "memory_type": "quarantined/insight",
        "sources": '[{"id": "m-1", "task_id": "t-9", "outcome": "success"}]',
        "flag_merged": 1,
    }
    del older["flag_quarantined"]
    part.add(
        ids=[held.id],
        embeddings=embeddings.embed_documents([held.key]),
        documents=[held.content],
        metadatas=[older],
    )
    pool.upsert(kept)
    meta = {k: v for k, v in pool.collection.home.metadata.items() if "quarantine_flag" not in k}
    pool.collection.home.modify(metadata=meta)

    reopened = open_pool(str(pool_dir), collection=name, embeddings=embeddings)
    moved = reopened.get(held.id)
    assert moved.memory_type is MemoryType.INSIGHT
    assert moved.flags["quarantined"] is True
    assert [(s.id, s.task_id, s.outcome) for s in moved.sources] == [("m-1", "t-9", "success")]
    assert "merged" not in moved.flags  # said once, by the sources
    stored = part.get(ids=[held.id], include=["metadatas"])["metadatas"][0]
    assert stored["memory_type"] == "insight"
    assert stored["flag_quarantined"] is True
    found = reopened.search(held.key, k=5, memory_types=[MemoryType.INSIGHT])
    assert held.id not in {h.record.id for h in found}  # quarantined: never served
    assert reopened.get(kept.id) == pool.get(kept.id)
