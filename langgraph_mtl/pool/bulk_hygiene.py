"""Hygiene for bulk writes, beside the writing: a large import's batches are redacted and
screened in worker processes while this one parses the next batch and stores the last.

Redaction and screening are pure Python and Chroma's writes hold this process, so on a
machine with a second core the two overlap. Small imports, one-core machines and pools with a
model classifier (a chat model does not cross processes) sanitize here, as every write does.
"""

from __future__ import annotations

import logging
import os
import pickle
import struct
import subprocess
import sys
from collections.abc import Sequence
from concurrent.futures import Future
from typing import IO, Any

from langgraph_mtl.hygiene.sanitize import Sanitized, sanitize
from langgraph_mtl.memory.records import MemoryRecord

__all__ = ["BatchSanitizer", "sanitize_batch"]

log = logging.getLogger(__name__)
_HEADER = struct.Struct("!Q")


def sanitize_batch(records: Sequence[MemoryRecord]) -> list[Sanitized]:
    """Every record redacted and screened (rules only), in order."""
    return [sanitize(record) for record in records]


def _send(stream: IO[bytes], value: object) -> None:
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(_HEADER.pack(len(data)) + data)
    stream.flush()


def _receive(stream: IO[bytes]) -> Any:
    header = stream.read(_HEADER.size)
    if len(header) < _HEADER.size:
        raise EOFError("the hygiene worker closed its pipe")
    (size,) = _HEADER.unpack(header)
    return pickle.loads(stream.read(size))  # our own child's reply


class _Worker:
    """One child process (``python -m langgraph_mtl.pool.bulk_hygiene``) that sanitizes the
    batches it is sent, in order. A module run as a command, so a caller's script is never
    imported again (as multiprocessing's spawn would)."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "langgraph_mtl.pool.bulk_hygiene"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        self.waiting: list[Future[list[Sanitized]]] = []

    def submit(self, records: list[MemoryRecord]) -> Future[list[Sanitized]]:
        assert self.process.stdin is not None
        _send(self.process.stdin, records)
        job: Future[list[Sanitized]] = Future()
        self.waiting.append(job)
        return job

    def collect(self, job: Future[list[Sanitized]]) -> None:
        """Read replies, in order, until ``job`` has its result."""
        assert self.process.stdout is not None
        while not job.done():
            self.waiting.pop(0).set_result(_receive(self.process.stdout))

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


class BatchSanitizer:
    """Sanitizes batches, split over worker processes (one for each core but the one that
    stores, at most ``workers``) from the ``parallel_from``-th batch on when that can help;
    :meth:`submit` returns a future, :meth:`result` its records."""

    def __init__(
        self,
        classifier: Any = None,
        *,
        scanners: Any = None,
        parallel_from: int = 2,
        workers: int = 4,
    ) -> None:
        self.classifier = classifier
        self.scanners = scanners  # a pool's own scanner list (an embedder): this process
        self.parallel_from = parallel_from
        self.workers = workers
        self.batches = 0
        self._pool: list[_Worker] = []
        self._parts: dict[Future[list[Sanitized]], list[tuple[_Worker, Future[list[Sanitized]]]]]
        self._parts = {}
        self._broken = False

    def _worker_count(self, batch: int) -> int:
        """How many workers batch number ``batch`` uses: none for the first batches, a pool's
        classifier or scanners, one core, or after a worker failed."""
        if (
            self.classifier is not None
            or self.scanners is not None
            or self._broken
            or batch < self.parallel_from
        ):
            return 0
        cores = os.cpu_count() or 1
        return min(self.workers, cores - 1)  # one core stays with this process's storing

    def _start(self, count: int) -> None:
        while len(self._pool) < count:
            self._pool.append(_Worker())

    def warm_up(self) -> None:
        """Start now the workers the batch after the coming one will use (a caller that knows
        more batches follow: the workers load while this process sanitizes the first)."""
        try:
            self._start(self._worker_count(self.batches + 2))
        except Exception as exc:
            log.info("bulk hygiene in this process (%s)", exc)
            self._stop_workers()

    def submit(self, records: Sequence[MemoryRecord]) -> Future[list[Sanitized]]:
        self.batches += 1
        count = self._worker_count(self.batches)
        if records and count:
            try:
                self._start(count)
                size = -(-len(records) // count)
                chunks = [list(records[i : i + size]) for i in range(0, len(records), size)]
                job: Future[list[Sanitized]] = Future()
                pairs = zip(self._pool, chunks, strict=False)  # a small batch needs fewer
                self._parts[job] = [(worker, worker.submit(chunk)) for worker, chunk in pairs]
                return job
            except Exception as exc:  # no worker: sanitize here, as any write does
                log.info("bulk hygiene in this process (%s)", exc)
                self._stop_workers()
        done: Future[list[Sanitized]] = Future()
        done.set_result(self._here(records))
        return done

    def _here(self, records: Sequence[MemoryRecord]) -> list[Sanitized]:
        """Sanitize in this process, with the pool's classifier, as every write does."""
        return [sanitize(r, classifier=self.classifier, scanners=self.scanners) for r in records]

    def result(
        self, job: Future[list[Sanitized]], records: Sequence[MemoryRecord]
    ) -> list[Sanitized]:
        """The batch's results; a batch a worker failed is sanitized here."""
        try:
            parts = self._parts.pop(job, [])
            for worker, part in parts:
                worker.collect(part)
            if parts:
                job.set_result([record for _, part in parts for record in part.result()])
            if not job.done():  # its workers were stopped: never wait for it
                raise RuntimeError("no worker holds this batch")
            results = job.result()
            if len(results) != len(records):
                raise RuntimeError(f"{len(results)} results for {len(records)} records")
            return results
        except Exception as exc:
            log.warning("bulk hygiene worker failed (%s): sanitizing here", exc)
            self._stop_workers()
            return self._here(records)

    def _stop_workers(self) -> None:
        self._broken = True
        for worker in self._pool:
            worker.process.kill()
        self._pool = []
        self._parts = {}

    def close(self) -> None:
        for worker in self._pool:
            worker.close()
        self._pool = []

    def __enter__(self) -> BatchSanitizer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _serve() -> None:
    """The worker: read batches from stdin, write their sanitized records to stdout."""
    source, sink = sys.stdin.buffer, os.fdopen(os.dup(1), "wb")
    sys.stdout = sys.stderr  # a stray print must never corrupt a reply
    while True:
        try:
            batch = _receive(source)
        except EOFError:
            return
        _send(sink, sanitize_batch(batch))


if __name__ == "__main__":
    _serve()
