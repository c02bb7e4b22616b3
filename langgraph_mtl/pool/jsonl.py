"""The pool's portable format: JSON lines of records, optionally with their vectors. Exports
page through the collection; imports check each line on its own and store in batches."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Any

import pydantic_core
from pydantic import ValidationError

from langgraph_mtl.hygiene.sanitize import Sanitized
from langgraph_mtl.memory.records import MemoryRecord, memory_id
from langgraph_mtl.pool.bulk_hygiene import BatchSanitizer
from langgraph_mtl.pool.chroma_client import short_error
from langgraph_mtl.pool.codec import (
    PAGE_SIZE,
    decode_sources,
    filter_where,
    readable,
    to_metadata,
)
from langgraph_mtl.pool.reports import ImportReport

if TYPE_CHECKING:
    from langgraph_mtl.pool.memory_pool import MemoryPool

__all__ = ["export_ids", "export_jsonl", "import_jsonl"]


def export_jsonl(
    pool: MemoryPool, out: IO[str], *, with_embeddings: bool = False, **filters: Any
) -> int:
    """Write records (optionally with their vectors) as JSON lines. Returns the count."""
    name = pool.identity_name
    written = 0
    for record, vector in pool.iter_records(filter_where(filters), with_embeddings=with_embeddings):
        out.write(_line(record, vector, name))
        written += 1
    return written


def export_ids(pool: MemoryPool, out: IO[str], ids: Sequence[str]) -> int:
    """Write the given records with their vectors as JSON lines (what ``import_jsonl``
    reads back). Returns the count."""
    name, written = pool.identity_name, 0
    for start in range(0, len(ids), PAGE_SIZE):
        page = pool.collection.get(
            ids=list(ids[start : start + PAGE_SIZE]),
            include=["documents", "metadatas", "embeddings"],
        )
        vectors = page.get("embeddings")
        for i, record_id in enumerate(page["ids"]):
            record = readable(record_id, page["documents"][i], page["metadatas"][i])
            if record is None:
                continue
            vector = None if vectors is None else [float(x) for x in vectors[i]]
            out.write(_line(record, vector, name))
            written += 1
    return written


def _line(record: MemoryRecord, vector: list[float] | None, embedder: str) -> str:
    """One export line, keys sorted, so equal records always serialise to equal text."""
    line: dict[str, Any] = {"record": record.model_dump(mode="json")}
    if vector is not None:
        line.update(embedding=vector, embedder=embedder)
    return json.dumps(line, ensure_ascii=False, sort_keys=True) + "\n"


def import_jsonl(
    pool: MemoryPool,
    lines: Iterable[str | bytes],
    *,
    batch_size: int = 1000,
    progress: Callable[[int], None] | None = None,
) -> ImportReport:
    """Import JSON lines (text, or bytes decoded as UTF-8 line by line). Each line is checked
    on its own: a bad one is reported with its number and what to fix, and never affects
    another. ``imported`` counts distinct records stored or found already stored.

    Vectors in the file are reused only when they come from this pool's embedder, and must
    then be lists of finite numbers of the pool's dimension. A record already stored as it
    is (the same key and content) is neither embedded nor written again, so an interrupted
    import run again picks up where it stopped. ``progress`` is called with the number of
    lines read after each batch.
    """
    report = ImportReport()
    identity = pool.identity  # read once: every line is checked against it
    pending: dict[str, tuple[MemoryRecord, list[float] | None]] = {}
    stored: set[str] = set()
    number = 0
    with BatchSanitizer(pool.classifier, scanners=pool.scanners) as hygiene:
        waiting: _Job | None = None

        def send(batch: list[tuple[MemoryRecord, list[float] | None]]) -> None:
            """Start this batch's hygiene; store the previous batch meanwhile."""
            nonlocal waiting
            if waiting is None and len(batch) >= batch_size:
                hygiene.warm_up()  # a full first batch: more follow, the workers load meanwhile
            todo, held = _not_stored(pool, batch)
            previous = (_cleaned(hygiene, waiting), waiting.held) if waiting is not None else None
            waiting = _Job(hygiene.submit([r for r, _ in todo]), todo, held)
            if previous is not None:
                _store(pool, *previous)
            stored.update(r.id for r, _ in batch)

        for number, raw in enumerate(lines, start=1):
            try:
                text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
                if number == 1:
                    text = text.removeprefix("\ufeff")
                if not text.strip():
                    continue
                record, vector = _parse_line(identity, text)
            except UnicodeDecodeError:
                report.errors.append((number, "not valid UTF-8: save the file as UTF-8"))
                continue
            except (json.JSONDecodeError, KeyError, TypeError, ValueError, ValidationError) as exc:
                report.errors.append((number, short_error(exc)))
                continue
            pending[record.id] = (record, vector)
            if len(pending) >= batch_size:
                send(list(pending.values()))
                pending = {}
                if progress is not None:
                    progress(number)
        if pending:
            send(list(pending.values()))
        if waiting is not None:
            _store(pool, _cleaned(hygiene, waiting), waiting.held)
    if progress is not None:
        progress(number)
    report.imported = len(stored)
    return report


def _parse_line(identity: Any, text: str) -> tuple[MemoryRecord, list[float] | None]:
    try:
        data = _loaded(text)
    except RecursionError:
        raise ValueError("the line nests too deeply to read; flatten its payload") from None
    if isinstance(data, dict) and "record" not in data and "memory_type" in data:
        data = {"record": data}  # a record written by hand, bare
    if not isinstance(data, dict) or not isinstance(data.get("record"), dict):
        raise ValueError(
            'each line must be a record {"memory_type": ..., ...} or an export line '
            '{"record": {...}}'
        )
    record = MemoryRecord.model_validate(_with_id(data["record"]))
    if "embedding" not in data or data.get("embedder") != identity.name:
        return record, None
    vector = data["embedding"]
    size = identity.dimension
    if (
        not isinstance(vector, list)
        or len(vector) != size
        or not set(map(type, vector)) <= {int, float}  # no bools, strings or nulls
        or not all(map(math.isfinite, vector))
    ):
        raise ValueError(
            f"embedding must be a list of {size} finite numbers; drop the field (and "
            "'embedder') to have the record embedded again"
        )
    return record, vector  # checked finite numbers; stored as one array a batch


def _loaded(text: str) -> Any:
    """A line's JSON: read by pydantic's fast reader, or by the standard one where that
    fails (so what the standard reader accepts is accepted, and its errors are reported)."""
    try:
        return pydantic_core.from_json(text)
    except ValueError:
        return json.loads(text)


def _with_id(fields: dict[str, Any]) -> dict[str, Any]:
    """A record written by hand may leave out its id: it gets the one its provenance gives
    (type, domain, task, key), so importing the same line again stores it once."""
    if "id" in fields:
        return fields
    try:
        parts = [fields[name] for name in ("memory_type", "domain", "task_id", "key")]
        return {**fields, "id": memory_id(*parts)}
    except (KeyError, TypeError, ValueError):  # validation names what is missing or wrong
        return {**fields, "id": "-"}


@dataclass
class _Job:
    """A batch on its way in: its hygiene (running or done) and the records with vectors."""

    hygiene: Future[list[Sanitized]]
    records: list[tuple[MemoryRecord, list[float] | None]]
    held: set[str]  # the ids among them stored already (in another form)


def _not_stored(
    pool: MemoryPool, batch: list[tuple[MemoryRecord, list[float] | None]]
) -> tuple[list[tuple[MemoryRecord, list[float] | None]], set[str]]:
    """The records not already stored exactly as the line has them, and the ids of those
    stored in another form (one lookup a batch; a stored record passed hygiene when it was
    written, so it is neither re-screened, re-embedded nor rewritten)."""
    held = pool.collection.get(ids=[r.id for r, _ in batch], include=["metadatas"])
    stored = dict(zip(held["ids"], held["metadatas"], strict=True))
    todo = []
    for record, vector in batch:
        meta = stored.get(record.id)
        if meta is not None:
            record = _with_stored_sources(record, meta)
            if meta == to_metadata(record):
                continue
        todo.append((record, vector))
    return todo, set(stored)


def _with_stored_sources(record: MemoryRecord, meta: dict[str, Any]) -> MemoryRecord:
    """The record keeping every source already merged into its stored copy (a line never
    takes provenance away)."""
    held = decode_sources(meta)
    known = {s.id for s in held}
    sources = (*held, *(s for s in record.sources if s.id not in known))
    return record.model_copy(update={"sources": sources}) if sources else record


def _cleaned(hygiene: BatchSanitizer, job: _Job) -> list[tuple[MemoryRecord, list[float] | None]]:
    """A batch once its hygiene is done (read before the next batch is sent, so the worker
    is never left writing a reply nobody reads); a vector from the file is kept only when
    redaction left the key as it was."""
    cleaned = hygiene.result(job.hygiene, [r for r, _ in job.records])
    return [
        (c.record, vector if c.record.key == record.key else None)
        for c, (record, vector) in zip(cleaned, job.records, strict=True)
    ]


def _store(
    pool: MemoryPool, todo: list[tuple[MemoryRecord, list[float] | None]], held: set[str]
) -> None:
    """Store cleaned records, embedding those without a usable vector; records no id of
    which was stored are added, the others replace what is stored."""
    missing = [r.key for r, v in todo if v is None]
    fresh = iter(pool.embeddings.embed_documents(missing) if missing else [])
    rows = [(r, v if v is not None else next(fresh)) for r, v in todo]
    for new in (True, False):
        part = [(r, v) for r, v in rows if (r.id not in held) is new]
        pool.store_vectors([r for r, _ in part], [v for _, v in part], new=new)
