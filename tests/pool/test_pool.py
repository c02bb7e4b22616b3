"""The shared pool on a real Chroma: filters, leave-one-domain-out, ids, identity, JSONL."""

from __future__ import annotations

import io
import json

import pytest
from chromadb.errors import InternalError
from helpers import make_record, make_run
from pydantic import ValidationError

from langgraph_mtl import MemoryRecord, MemoryType, Outcome, open_pool
from langgraph_mtl.memory.records import MAX_CONTENT_CHARS, MAX_KEY_CHARS, MAX_PAYLOAD_CHARS
from langgraph_mtl.pool.jsonl import export_jsonl
from langgraph_mtl.pool.memory_pool import EmbedderMismatchError
from langgraph_mtl.testing import HashingEmbeddings
from langgraph_mtl.transfer.abstraction import abstract_run


def record(domain: str, task_id: str, key: str, **kwargs) -> MemoryRecord:
    return make_record(domain, task_id, key, f"{key} (content)", **kwargs)


@pytest.fixture
def filled(pool):
    pool.upsert(
        [
            record("python", "p1", "run the unit tests before submitting"),
            record("rust", "r1", "run cargo test before submitting", outcome=Outcome.FAILURE),
            record(
                "verilog",
                "v1",
                "simulate the testbench before submitting",
                kind=MemoryType.WORKFLOW,
            ),
            record("shell", "s1", "check the exit status of every command", agent_model="m2"),
        ]
    )
    return pool


def test_leave_one_domain_out_excludes_the_task_domain(filled):
    hits = filled.search("run the unit tests before submitting", k=10, exclude_domains="python")
    assert hits
    assert all(h.record.domain != "python" for h in hits)
    assert {h.record.domain for h in filled.search("tests", k=10)} == {
        "python",
        "rust",
        "verilog",
        "shell",
    }


@pytest.mark.parametrize("spelling", [" python", "python ", "\tpython\n"])
def test_a_domain_with_stray_whitespace_is_still_left_out(filled, spelling):
    hits = filled.search("run the unit tests before submitting", k=10, exclude_domains=spelling)
    assert {h.record.domain for h in hits} == {"rust", "verilog", "shell"}


def test_a_domain_filter_that_is_not_a_domain_name_is_refused(filled):
    with pytest.raises(ValueError, match="exclude_domains"):
        filled.search("tests", exclude_domains="python<script>")


def test_similarity_is_cosine_best_first(filled):
    hits = filled.search("run the unit tests before submitting", k=4)
    assert hits[0].record.domain == "python"
    assert hits[0].similarity == pytest.approx(1.0, abs=1e-4)
    sims = [h.similarity for h in hits]
    assert sims == sorted(sims, reverse=True)
    assert all(-1.0 <= s <= 1.0 + 1e-6 for s in sims)


def test_filters_on_type_outcome_and_model(filled):
    assert [h.record.domain for h in filled.search("x", k=9, memory_types="workflow")] == [
        "verilog"
    ]
    assert [h.record.domain for h in filled.search("x", k=9, outcomes=[Outcome.FAILURE])] == [
        "rust"
    ]
    assert [h.record.domain for h in filled.search("x", k=9, agent_models="m2")] == ["shell"]
    both = filled.search("x", k=9, exclude_domains=["python", "rust"], memory_types=["insight"])
    assert [h.record.domain for h in both] == ["shell"]
    assert {r.domain for r in filled.list_records(domains="rust")} == {"rust"}


def test_retried_write_does_not_duplicate(pool):
    rec = abstract_run(make_run("python", "t1", "Implement add"), "trajectory")
    pool.upsert(rec)
    pool.upsert(abstract_run(make_run("python", "t1", "Implement add"), "trajectory"))
    assert pool.count() == 1
    stored = pool.get(rec.id)  # the retry replaced the first write (its created_at may be newer)
    assert stored.model_copy(update={"created_at": rec.created_at}) == rec.model_copy(
        update={"flags": {"quarantined": False}}
    )
    pool.delete(rec.id)
    assert pool.count() == 0
    assert pool.get(rec.id) is None


def test_reopening_with_another_embedder_is_a_clear_error(pool_dir, filled):
    name = filled.collection.name
    again = open_pool(str(pool_dir), collection=name, embeddings=HashingEmbeddings())
    assert again.count() == 4
    with pytest.raises(EmbedderMismatchError, match="re-embed"):
        open_pool(str(pool_dir), collection=name, embeddings=HashingEmbeddings(dimension=128))
    assert open_pool(str(pool_dir), collection=name, embeddings=HashingEmbeddings()).count() == 4


def test_export_import_round_trip_and_reembedding(filled, pool_dir):
    out = io.StringIO()
    assert filled.export_jsonl(out, with_embeddings=True) == 4
    other = open_pool(str(pool_dir), collection="copy-with-vectors", embeddings=HashingEmbeddings())
    report = other.import_jsonl(out.getvalue().splitlines())
    assert (report.imported, report.errors) == (4, [])
    plain = io.StringIO()
    filled.export_jsonl(plain, domains="rust")
    foreign = open_pool(
        str(pool_dir), collection="copy-reembedded", embeddings=HashingEmbeddings(64)
    )
    assert foreign.import_jsonl(plain.getvalue().splitlines()).imported == 1
    assert foreign.search("cargo test", k=1)[0].record.domain == "rust"


class ListedPool:
    """Just what an export reads: a name and records, returned in a fixed order."""

    identity_name = "listed"

    def __init__(self, records):
        self.records = records

    def iter_records(self, where, *, with_embeddings):
        return ((record, [0.5] if with_embeddings else None) for record in self.records)


def test_an_export_line_depends_on_the_record_not_the_order_of_its_fields():
    first = make_record("python", "p1", "run the tests first")
    one = first.model_copy(update={"flags": {"votes": 2, "redacted": 1}})
    two = first.model_copy(update={"flags": {"redacted": 1, "votes": 2}})
    texts = []
    for record in (one, two):
        out = io.StringIO()
        assert export_jsonl(ListedPool([record]), out, with_embeddings=True) == 1
        texts.append(out.getvalue())
    assert texts[0] == texts[1]
    assert json.loads(texts[0])["record"]["flags"] == {"votes": 2, "redacted": 1}


class CountingEmbeddings(HashingEmbeddings):
    """Counts the texts it embeds as documents."""

    embedded: int = 0

    def embed_documents(self, texts):
        self.embedded += len(texts)
        return super().embed_documents(texts)


@pytest.mark.slow
def test_an_interrupted_import_run_again_embeds_and_writes_only_what_is_missing(pool_dir):
    lines = [
        json.dumps({"record": record(d, f"{d}{i}", f"{d} lesson {i}").model_dump(mode="json")})
        for d in ("python", "rust", "shell")
        for i in range(40)
    ]
    embedder = CountingEmbeddings()
    target = open_pool(str(pool_dir), collection="resumed", embeddings=embedder)
    embedder.embedded = 0  # opening probes the embedder
    assert target.import_jsonl(lines[:50], batch_size=16).imported == 50  # then "interrupted"
    assert embedder.embedded == 50
    seen: list[int] = []
    report = target.import_jsonl(lines, batch_size=16, progress=seen.append)
    assert (report.imported, report.errors) == (120, [])
    assert embedder.embedded == 120  # the first 50 were not embedded again
    assert target.count() == 120
    assert seen == [16, 32, 48, 64, 80, 96, 112, 120]


def test_a_changed_line_is_written_again_on_import(pool):
    first = record("python", "p1", "check the exit code")
    pool.import_jsonl([_line(first)])
    changed = first.model_copy(update={"outcome": Outcome.FAILURE})
    assert pool.import_jsonl([_line(changed)]).imported == 1
    assert pool.get(first.id).outcome is Outcome.FAILURE


def test_a_line_any_json_reader_accepts_is_imported_even_with_a_lone_surrogate(pool):
    rec = record("python", "p2", "check the exit code")
    line = _line(rec).replace("check the exit code", "check the exit code \\ud800")
    assert "\\ud800" in line  # an escape the fast reader refuses and the standard one reads
    assert pool.import_jsonl([line]).errors == []
    assert pool.get(rec.id) is not None


def test_a_changed_line_and_a_new_one_in_one_batch_are_both_written(pool):
    first = record("python", "p1", "check the exit code")
    pool.import_jsonl([_line(first)])
    changed = first.model_copy(update={"outcome": Outcome.FAILURE})
    other = record("python", "p3", "read the stack trace")
    assert pool.import_jsonl([_line(changed), _line(other)]).imported == 2
    assert pool.get(first.id).outcome is Outcome.FAILURE
    assert pool.get(other.id) is not None and pool.count() == 2


def test_import_reports_broken_lines_and_keeps_good_ones(pool):
    good = json.dumps({"record": record("python", "p9", "a good memory").model_dump(mode="json")})
    bad_record = json.dumps({"record": {"id": "x", "memory_type": "recipe"}})
    lines = [good, "{not json", "", bad_record, json.dumps({"nothing": 1})]
    report = pool.import_jsonl(lines)
    assert report.imported == 1
    assert [n for n, _ in report.errors] == [2, 4, 5]
    assert pool.count() == 1


def _line(rec, **extra) -> str:
    return json.dumps({"record": rec.model_dump(mode="json"), **extra})


@pytest.mark.slow
def test_import_checks_each_line_on_its_own_and_counts_what_the_pool_holds(filled, pool_dir):
    out = io.StringIO()
    filled.export_jsonl(out, with_embeddings=True)
    exported = [json.loads(line) for line in out.getvalue().splitlines()]
    target = open_pool(str(pool_dir), collection="strict-import", embeddings=HashingEmbeddings())
    nan = {**exported[0], "embedding": [float("nan")] * len(exported[0]["embedding"])}
    strings = {**exported[1], "embedding": ["0.1"] * len(exported[1]["embedding"])}
    short = {**exported[2], "embedding": [0.1, 0.2]}
    naive = {
        **exported[3],
        "record": {**exported[3]["record"], "created_at": "2026-01-02T03:04:05"},
    }
    yesterday = {"record": {**exported[3]["record"], "created_at": "yesterday"}}
    quarantined = {"record": {**exported[3]["record"], "flags": {"quarantined": "yes"}}}
    good = [json.dumps(line).encode() for line in exported]
    lines = [
        b"\xef\xbb\xbf" + good[0],  # a BOM on line 1 is accepted
        json.dumps(nan, allow_nan=True).encode(),
        json.dumps(strings).encode(),
        json.dumps(short).encode(),
        json.dumps(naive).encode(),
        json.dumps(yesterday).encode(),
        json.dumps(quarantined).encode(),
        b'{"record": {"id": "caf\xe9"}}',  # not UTF-8
        *good[1:],
        good[0],  # the same record again: one record in the pool
    ]
    report = target.import_jsonl(lines, batch_size=3)
    errors = dict(report.errors)
    assert sorted(errors) == [2, 3, 4, 5, 6, 7, 8], report.errors
    assert "finite numbers" in errors[2]
    assert "finite numbers" in errors[3]
    assert "finite numbers" in errors[4]
    assert "drop the field" in errors[4]
    assert "created_at" in errors[5]
    assert "timezone" in errors[5]
    assert "created_at" in errors[6]
    assert "quarantined" in errors[7]
    assert "UTF-8" in errors[8]
    assert report.imported == 4 == target.count()
    assert len(target.search("anything", k=10)) == 4


def test_odd_characters_in_text_round_trip(pool):
    rec = record("c-plus-plus", "task #1, part 2", "a key with 'quotes', <tags> and emoji 🚀")
    pool.upsert(rec)
    assert pool.get(rec.id) == rec.model_copy(update={"flags": {"quarantined": False}})


@pytest.mark.parametrize(
    ("domain", "task_id"),
    [
        ("bad\x00domain", "t"),
        ('rust" injected="1', "t"),
        ("c++/ünïcode", "t"),
        ("", "t"),
        ("rust", 'task "quoted"'),
        ("rust", "t<script>"),
        ("rust", "t\nnext"),
        ("x" * 65, "t"),
    ],
)
def test_domains_and_task_ids_outside_the_safe_set_are_refused(domain, task_id):
    with pytest.raises(ValueError, match=r"not a (domain name|task id)"):
        record(domain, task_id, "k")


def test_oversized_fields_are_refused_at_write_and_at_import_by_line(pool):
    with pytest.raises(ValidationError, match="content"):
        make_record("python", "p1", "short key", "x" * (MAX_CONTENT_CHARS + 1))
    with pytest.raises(ValidationError, match="key"):
        make_record("python", "p1", "k" * (MAX_KEY_CHARS + 1))
    good = make_record("python", "p2", "a key that fits").model_dump(mode="json")
    lines = [
        json.dumps({"record": {**good, "content": "x" * (MAX_CONTENT_CHARS + 1)}}),
        json.dumps({"record": {**good, "payload": {"raw": "y" * (MAX_PAYLOAD_CHARS + 1)}}}),
        json.dumps({"record": {**good, "flags": {"note": "z" * 5000}}}),
        json.dumps({"record": {**good, "agent_model": "m" * 1000}}),
        json.dumps({"record": good}),
    ]
    report = pool.import_jsonl(lines)
    errors = dict(report.errors)
    assert sorted(errors) == [1, 2, 3, 4]
    assert errors[1].startswith("record.content:")
    assert "60000" in errors[1]
    assert errors[2].startswith("record.payload:")
    assert str(MAX_PAYLOAD_CHARS) in errors[2]
    assert errors[3].startswith("record.flags:")
    assert "1024" in errors[3]
    assert errors[4].startswith("record.agent_model:")
    assert report.imported == 1 == pool.count()


def test_deeply_nested_lines_are_refused_by_line_and_the_rest_imported(pool):
    good = make_record("python", "p2", "a key that fits").model_dump(mode="json")
    other = make_record("rust", "r2", "another key that fits").model_dump(mode="json")

    def nested(depth: int) -> str:
        return "[" * depth + "]" * depth

    lines = [
        json.dumps({"record": good}),
        json.dumps({"record": {**good, "id": "x-1"}})[:-2]
        + f', "payload": {{"a": {nested(31)}}}}}}}',
        json.dumps({"record": {**good, "id": "x-2"}})[:-2]
        + f', "payload": {{"a": {nested(32)}}}}}}}',
        json.dumps({"record": {**good, "id": "x-3"}})[:-2]
        + f', "payload": {{"a": {nested(5000)}}}}}}}',
        json.dumps({"record": other}),
    ]
    report = pool.import_jsonl(lines)
    errors = dict(report.errors)
    assert sorted(errors) == [3, 4], errors
    assert "more than 32 levels" in errors[3]
    assert "nests too deeply" in errors[4]
    assert report.imported == 3
    with pytest.raises(ValidationError, match="more than 32 levels"):
        MemoryRecord.model_validate({**good, "payload": {"a": json.loads(nested(40))}})


class _StrandingIndex:
    """A Chroma collection whose index never returns some records, as an HNSW graph that
    leaves them unconnected does; reading them by id or filter still works."""

    def __init__(self, inner, stranded: set[str], *, vectors_readable: bool = True):
        self.inner, self.stranded, self.vectors_readable = inner, stranded, vectors_readable

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def get(self, **kwargs):
        if not self.vectors_readable and "embeddings" in kwargs.get("include", ()):
            raise InternalError("Error creating hnsw segment reader: Nothing found on disk")
        return self.inner.get(**kwargs)

    def query(self, **kwargs):
        found = dict(self.inner.query(**kwargs))
        keep = [i for i, rid in enumerate(found["ids"][0]) if rid not in self.stranded]
        for field in ("ids", "documents", "metadatas", "distances"):
            if found.get(field) is not None:
                found[field] = [[found[field][0][i] for i in keep]]
        return found


def _strand(pool, kind: MemoryType, ids: set[str], **kwargs) -> None:
    parts = pool.collection.parts
    parts[kind] = _StrandingIndex(parts[kind], ids, **kwargs)


@pytest.mark.parametrize("domain_filter", [None, "rust"])
def test_records_the_index_cannot_reach_are_still_found(pool, domain_filter):
    records = [
        record("rust" if i % 5 == 0 else "python", f"t{i}", f"lesson {i} on testing")
        for i in range(25)
    ]
    pool.upsert(records)
    everything = len(records)
    want = pool.search("lesson on testing", k=everything, domains=domain_filter)
    assert want
    stranded = {hit.record.id for hit in want[:2]} | {records[-5].id}
    _strand(pool, MemoryType.INSIGHT, stranded)
    got = pool.search("lesson on testing", k=everything, domains=domain_filter)
    assert [h.record.id for h in got] == [h.record.id for h in want]
    assert [h.similarity for h in got] == pytest.approx([h.similarity for h in want], abs=1e-5)


def test_a_rare_filter_finds_records_the_index_cannot_reach(pool, monkeypatch):
    monkeypatch.setattr("langgraph_mtl.pool.reading.OVERFETCH_MAX", 8)  # straight to Chroma's
    records = [record("rust" if i % 5 == 0 else "python", f"t{i}", f"note {i}") for i in range(25)]
    pool.upsert(records)
    want = pool.search("note", k=5, domains="rust")
    assert len(want) == 5
    _strand(pool, MemoryType.INSIGHT, {hit.record.id for hit in want[::2]})
    assert [h.record.id for h in pool.search("note", k=5, domains="rust")] == [
        h.record.id for h in want
    ]


def test_a_server_that_cannot_read_its_vectors_gets_the_index_answer_not_an_error(
    pool, monkeypatch
):
    monkeypatch.setattr("langgraph_mtl.pool.reading.OVERFETCH_MAX", 8)
    records = [record("rust" if i % 5 == 0 else "python", f"t{i}", f"note {i}") for i in range(25)]
    pool.upsert(records)
    want = pool.search("note", k=5, domains="rust")
    stranded = {hit.record.id for hit in want[::2]}
    _strand(pool, MemoryType.INSIGHT, stranded, vectors_readable=False)
    for domains in ("rust", None):
        got = [h.record.id for h in pool.search("note", k=25, domains=domains)]
        assert got and not stranded & set(got)  # what the index reached, nothing raised
