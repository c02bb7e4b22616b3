"""One embedded pool used by several processes and threads at once: nothing lost, nothing broken."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import textwrap
import threading
import traceback
from pathlib import Path

import pytest
from filelock import FileLock
from helpers import make_record

from langgraph_mtl import open_pool
from langgraph_mtl.pool.embedded_chroma import LOCK_FILE
from langgraph_mtl.pool.memory_pool import PoolBusyError, PoolUnavailableError
from langgraph_mtl.testing import HashingEmbeddings

pytestmark = pytest.mark.slow  # seconds each: the full suite runs them, not test-unit

TESTS = Path(__file__).resolve().parents[1]  # where helpers.py lives
WORKER = textwrap.dedent(
    """
    import json, sys
    sys.path.insert(0, sys.argv[4])
    from helpers import make_record
    from langgraph_mtl import open_pool
    from langgraph_mtl.testing import HashingEmbeddings

    path, role, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
    pool = open_pool(path, collection="shared", embeddings=HashingEmbeddings(),
                     dedup_threshold=None)
    failures = []
    for i in range(rounds):
        try:
            if role.startswith("writer"):
                pool.upsert([make_record(role, f"{role}-{i}-{j}", f"{role} lesson {i} {j}")
                             for j in range(10)])
            else:
                pool.search(f"writer-0 lesson {i}", k=3, exclude_domains="writer-1")
        except Exception as exc:
            failures.append(f"{type(exc).__name__}: {exc}")
    print(json.dumps({"role": role, "failures": failures}))
    """
)


def _start(path: Path, role: str, rounds: int) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", WORKER, str(path), role, str(rounds), str(TESTS)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_writers_and_a_reader_in_separate_processes_lose_and_break_nothing(tmp_path):
    path = tmp_path / "pool"
    workers = [_start(path, f"writer-{n}", 30) for n in range(3)] + [_start(path, "reader", 60)]
    reports = []
    for worker in workers:
        out, err = worker.communicate(timeout=300)
        assert worker.returncode == 0, err[-2000:]
        reports.append(json.loads(out.strip().splitlines()[-1]))
    for report in reports:
        assert report["failures"] == [], report

    pool = open_pool(str(path), collection="shared", embeddings=HashingEmbeddings())
    expected = {
        make_record(f"writer-{n}", f"writer-{n}-{i}-{j}", f"writer-{n} lesson {i} {j}").id
        for n in range(3)
        for i in range(30)
        for j in range(10)
    }
    assert pool.count() == 900
    assert {r.id for r in pool.list_records()} == expected
    hits = pool.search("writer-2 lesson 7 3", k=3, exclude_domains="writer-1")
    assert hits[0].record.task_id in {"writer-2-7-3", "writer-2-3-7"}  # the same bag of words
    assert "writer-1" not in {h.record.domain for h in hits}
    exported = io.StringIO()
    assert pool.export_jsonl(exported, with_embeddings=True) == 900
    assert all(len(json.loads(line)["embedding"]) for line in exported.getvalue().splitlines())


def test_threads_can_open_and_write_one_pool_at_once(tmp_path):
    path, failures = str(tmp_path / "pool"), []

    def work(n: int) -> None:
        try:
            pool = open_pool(path, collection="threads", embeddings=HashingEmbeddings())
            pool.upsert(
                [make_record("python", f"t{n}-{j}", f"thread{n} note{j}") for j in range(5)]
            )
        except Exception as exc:  # collected, so the assertion below names it
            failures.append("".join(traceback.format_exception(exc))[-3000:])

    threads = [threading.Thread(target=work, args=(n,)) for n in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert open_pool(path, collection="threads", embeddings=HashingEmbeddings()).count() == 30


def test_a_pool_held_by_another_process_too_long_is_refused_with_the_server_hint(tmp_path):
    path = tmp_path / "pool"
    pool = open_pool(str(path), collection="held", embeddings=HashingEmbeddings(), lock_timeout=0.2)
    pool.upsert(make_record("python", "p1", "run the tests first"))
    holder = FileLock(path / LOCK_FILE, thread_local=False)  # another user of the directory
    with holder, pytest.raises(PoolBusyError, match="chroma run --path") as refused:
        pool.search("tests", k=1)
    assert isinstance(refused.value, PoolUnavailableError)  # the nodes treat it as an outage
    assert [h.record.task_id for h in pool.search("tests", k=1)] == ["p1"]
