"""The shared memory pool: one Chroma collection, embedded or served, with one code path.

``open_pool()`` picks the client from a location: a directory (embedded ``PersistentClient``),
``http(s)://host:port`` (a ``chroma run`` server, the multi-process path) or ``:memory:``.
Similarities returned by :meth:`MemoryPool.search` are cosine similarities in [-1, 1].
"""

from __future__ import annotations

import atexit
import json
import logging
import math
import os
import shutil
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from enum import Enum
from functools import partial
from pathlib import Path
from typing import IO, Any

import chromadb
from chromadb.config import Settings
from langchain_core.embeddings import Embeddings
from pydantic import ValidationError

from langgraph_mtl.embedded_chroma import PoolBusyError, embedded_chroma, guarded_client
from langgraph_mtl.embeddings import EmbedderIdentity, embedder_identity, resolve_embeddings
from langgraph_mtl.location import (
    SQLITE_FILE,
    PoolLocation,
    PoolLocationError,
    PoolUnavailableError,
    default_pool_location,
    parse_location,
)
from langgraph_mtl.memory_types import (
    SCHEMA_VERSION,
    Judge,
    MemoryRecord,
    MemoryType,
    Outcome,
)
from langgraph_mtl.provenance import merge_provenance
from langgraph_mtl.sanitize import sanitize
from langgraph_mtl.screening import Classifier, model_classifier

__all__ = [
    "DEFAULT_COLLECTION",
    "EmbedderMismatchError",
    "ImportReport",
    "MemoryPool",
    "PoolBusyError",
    "PoolLocationError",
    "PoolUnavailableError",
    "ScoredMemory",
    "WriteReport",
    "default_pool_location",
    "open_pool",
]

log = logging.getLogger(__name__)

DEFAULT_COLLECTION = "mtl_memories"
DEFAULT_DEDUP_THRESHOLD = 0.97
DEFAULT_LOCK_TIMEOUT = 120.0
_META_PREFIX = "mtl:"
_FLAG_PREFIX = "flag_"
_QUARANTINE = "quarantined/"
_PAGE = 500


class EmbedderMismatchError(RuntimeError):
    """The pool was built with a different embedder than the one it is opened with."""


@dataclass(frozen=True)
class ScoredMemory:
    """A retrieved memory and its cosine similarity to the query (in [-1, 1])."""

    record: MemoryRecord
    similarity: float


@dataclass
class WriteReport:
    """What a write stored: final ids (a merged record's id is the one it merged into)."""

    ids: list[str] = field(default_factory=list)
    merged: dict[str, str] = field(default_factory=dict)
    quarantined: list[str] = field(default_factory=list)
    redacted: int = 0


@dataclass
class ImportReport:
    """What a JSONL import did: how many lines were stored and which were refused, by line."""

    imported: int = 0
    errors: list[tuple[int, str]] = field(default_factory=list)


Transaction = Callable[[], AbstractContextManager[Any]]


def _client(
    where: PoolLocation, *, create: bool, lock_timeout: float = DEFAULT_LOCK_TIMEOUT
) -> tuple[Any, str, Transaction]:
    """A Chroma client for a parsed location, the label to show for it, and how to hold the
    pool for a multi-call write (a no-op but for an embedded directory, see ``embedded_chroma``).

    A read (``create=False``) never creates anything: the directory must hold a pool. A pool
    directory this process cannot write (a read-only mount, say) is opened from a private copy,
    so it can still be read and exported.
    """
    settings = Settings(anonymized_telemetry=False, allow_reset=False)
    if where.kind == "memory":
        return chromadb.EphemeralClient(settings=settings), str(where), nullcontext
    if where.kind == "server":
        try:
            client = chromadb.HttpClient(
                host=where.host, port=where.port, ssl=where.ssl, settings=settings
            )
        except Exception as exc:
            raise PoolUnavailableError(
                f"no Chroma server answered at {where.url} ({_short_error(exc)}); start one with "
                "`chroma run --path DIR --port PORT` or fix --pool / MTL_POOL"
            ) from exc
        return client, str(where), nullcontext
    assert where.path is not None
    if not create:
        where.require_pool()
    where.path.mkdir(parents=True, exist_ok=True)
    if not _writable(where.path):
        if create:
            raise PoolUnavailableError(
                f"the pool at {where.path} is read-only; writing needs a writable directory "
                "(reading and exporting work as is)"
            )
        copy = chromadb.PersistentClient(path=_private_copy(where.path), settings=settings)
        return copy, f"{where.path} (read-only, opened from a copy)", nullcontext
    chroma = embedded_chroma(where.path, settings, timeout=lock_timeout)
    return guarded_client(chroma), str(where.path), partial(chroma.session, write=True)


def _writable(path: Path) -> bool:
    sqlite = path / SQLITE_FILE
    return os.access(path, os.W_OK) and (not sqlite.exists() or os.access(sqlite, os.W_OK))


def _private_copy(path: Path) -> str:
    """A throwaway copy of a read-only pool directory, removed when the process exits."""
    copy = Path(tempfile.mkdtemp(prefix="mtl-ro-pool-")) / "pool"
    shutil.copytree(path, copy)
    for item in [copy, *copy.rglob("*")]:
        item.chmod(item.stat().st_mode | 0o200)
    atexit.register(shutil.rmtree, copy.parent, True)
    return str(copy)


def _to_metadata(record: MemoryRecord) -> dict[str, Any]:
    kind = record.memory_type.value
    meta: dict[str, Any] = {
        # a quarantined memory's stored type is prefixed, so no type filter ever matches it
        "memory_type": _QUARANTINE + kind if record.flags.get("quarantined") else kind,
        "domain": record.domain,
        "task_id": record.task_id,
        "outcome": record.outcome.value,
        "judged_by": record.judged_by.value,
        "agent_model": record.agent_model,
        "abstraction_model": record.abstraction_model,
        "key": record.key,
        "payload": json.dumps(record.payload, ensure_ascii=False),
        "created_at": record.created_at,
        "schema_version": record.schema_version,
        "run_digest": record.run_digest,
        "content_hash": record.content_hash,
    }
    meta[_FLAG_PREFIX + "quarantined"] = False
    for name, value in record.flags.items():
        meta[_FLAG_PREFIX + name] = value
    return meta


def _from_chroma(record_id: str, document: str | None, meta: dict[str, Any]) -> MemoryRecord:
    flags = {k[len(_FLAG_PREFIX) :]: v for k, v in meta.items() if k.startswith(_FLAG_PREFIX)}
    return MemoryRecord(
        id=record_id,
        memory_type=MemoryType(str(meta["memory_type"]).removeprefix(_QUARANTINE)),
        domain=meta["domain"],
        task_id=meta["task_id"],
        outcome=Outcome(meta.get("outcome", "unknown")),
        judged_by=Judge(meta.get("judged_by", "none")),
        agent_model=meta.get("agent_model", "unknown"),
        abstraction_model=meta.get("abstraction_model", "none"),
        key=meta["key"],
        content=document or "",
        payload=json.loads(meta.get("payload") or "{}"),
        created_at=meta.get("created_at", ""),
        schema_version=int(meta.get("schema_version", SCHEMA_VERSION)),
        run_digest=meta.get("run_digest", ""),
        flags=flags,
    )


def _as_values(value: Any) -> list[str]:
    """Filter values as plain strings: one value or many, enums by their value."""
    if value is None:
        return []
    items = [value] if isinstance(value, str | Enum) else list(value)
    return [v.value if isinstance(v, Enum) else str(v) for v in items]


def build_where(
    *,
    exclude_domains: str | Iterable[str] | None = None,
    domains: str | Iterable[str] | None = None,
    memory_types: MemoryType | str | Iterable[MemoryType | str] | None = None,
    outcomes: Outcome | str | Iterable[Outcome | str] | None = None,
    agent_models: str | Iterable[str] | None = None,
    exclude_task_ids: str | Iterable[str] | None = None,
    extra: dict[str, Any] | None = None,
) -> dict[str, Any] | None:
    """A Chroma ``where`` filter from the pool's filter arguments (``None`` when unfiltered)."""

    clauses: list[dict[str, Any]] = []
    for key, values, op in (
        ("domain", _as_values(exclude_domains), "$nin"),
        ("domain", _as_values(domains), "$in"),
        ("memory_type", _as_values(memory_types), "$in"),
        ("outcome", _as_values(outcomes), "$in"),
        ("agent_model", _as_values(agent_models), "$in"),
        ("task_id", _as_values(exclude_task_ids), "$nin"),
    ):
        if values:
            clauses.append({key: {op: sorted(set(values))}})
    for key, value in (extra or {}).items():
        clauses.append({key: value})
    if not clauses:
        return None
    return clauses[0] if len(clauses) == 1 else {"$and": clauses}


class MemoryPool:
    """One shared Chroma collection of memories, checked against its embedder on open.

    Use :func:`open_pool` rather than the constructor.
    """

    def __init__(
        self,
        collection: Any,
        embeddings: Embeddings,
        *,
        location: str,
        client: Any = None,
        dedup_threshold: float | None = DEFAULT_DEDUP_THRESHOLD,
        transaction: Transaction = nullcontext,
        classifier: Classifier | None = None,
    ) -> None:
        self.client = client
        self.classifier = classifier
        self._transaction = transaction
        self.collection = collection
        self.embeddings = embeddings
        self.location = location
        self.dedup_threshold = dedup_threshold

    # -- writing ----------------------------------------------------------------------------

    def upsert(
        self, records: MemoryRecord | Sequence[MemoryRecord], *, merge_duplicates: bool = True
    ) -> WriteReport:
        """Store records: redact secrets, quarantine injection attempts, merge duplicates.

        Ids are stable, so a retried write replaces instead of duplicating. A record that is an
        exact or near duplicate (cosine >= ``dedup_threshold``) of a stored one of the same type
        and domain is merged into it: the stored record keeps the new one's provenance.
        ``merge_duplicates=False`` stores every record under its own id (a key-value write).
        """
        batch = [records] if isinstance(records, MemoryRecord) else list(records)
        report = WriteReport()
        if not batch:
            return report
        if len({r.id for r in batch}) != len(batch):
            raise ValueError("records: the same id appears twice in one upsert")
        clean = [self._sanitize(r, report) for r in batch]
        vectors = self.embeddings.embed_documents([r.key for r in clean])
        keep: list[tuple[MemoryRecord, Any]] = []
        with self._transaction():  # the duplicate checks and the write see the same pool
            for record, vector in zip(clean, vectors, strict=True):
                dedup = self.dedup_threshold and merge_duplicates
                target = self._duplicate_of(record, vector) if dedup else None
                if target is None:
                    keep.append((record, vector))
                    report.ids.append(record.id)
                else:
                    merge_provenance(self.collection, target, record)
                    report.merged[record.id] = target
                    report.ids.append(target)
            if keep:
                self._upsert_vectors([r for r, _ in keep], [v for _, v in keep])
        return report

    def _sanitize(self, record: MemoryRecord, report: WriteReport) -> MemoryRecord:
        clean = sanitize(record, classifier=self.classifier)
        report.redacted += clean.redacted
        if clean.screening.flagged:
            report.quarantined.append(record.id)
        return clean.record

    def _duplicate_of(self, record: MemoryRecord, vector: Sequence[float]) -> str | None:
        scope = {"$and": [{"memory_type": record.memory_type.value}, {"domain": record.domain}]}
        exact = self.collection.get(
            where={"$and": [*scope["$and"], {"content_hash": record.content_hash}]}, limit=2
        )
        for found in exact["ids"]:
            if found != record.id:
                return str(found)
        near = self.collection.query(
            query_embeddings=[[float(x) for x in vector]], n_results=1, where=scope,
            include=["distances"],
        )  # fmt: skip
        threshold = float(self.dedup_threshold or 2.0)
        if near["ids"][0] and near["ids"][0][0] != record.id:
            return str(near["ids"][0][0]) if 1.0 - near["distances"][0][0] >= threshold else None
        return None

    def _upsert_vectors(self, batch: Sequence[MemoryRecord], vectors: Sequence[Any]) -> None:
        self.collection.upsert(
            ids=[r.id for r in batch],
            embeddings=[list(map(float, v)) for v in vectors],
            documents=[r.content for r in batch],
            metadatas=[_to_metadata(r) for r in batch],
        )

    def delete(self, ids: str | Sequence[str]) -> None:
        """Delete records by id (unknown ids are ignored)."""
        self.collection.delete(ids=_as_values(ids))

    def update_flags(self, record_id: str, flags: dict[str, str | int | float | bool]) -> None:
        """Set flag fields on a stored record without re-embedding it."""
        meta = {_FLAG_PREFIX + k: v for k, v in flags.items()}
        self.collection.update(ids=[record_id], metadatas=[meta])

    # -- reading ----------------------------------------------------------------------------

    def count(self) -> int:
        """How many records the pool holds."""
        return int(self.collection.count())

    def get(self, record_id: str) -> MemoryRecord | None:
        """One record by id, or ``None``."""
        got = self.collection.get(ids=[record_id], include=["documents", "metadatas"])
        if not got["ids"]:
            return None
        return _from_chroma(got["ids"][0], got["documents"][0], got["metadatas"][0])

    def list_records(self, *, limit: int | None = None, **filters: Any) -> list[MemoryRecord]:
        """Records matching the filters of :func:`build_where`, in storage order."""
        out: list[MemoryRecord] = []
        for record, _ in self._iter(build_where(**filters), with_embeddings=False):
            out.append(record)
            if limit is not None and len(out) >= limit:
                break
        return out

    def with_embeddings(self, **filters: Any) -> Iterator[tuple[MemoryRecord, list[float]]]:
        """Records matching the filters of :func:`build_where`, each with its stored vector."""
        for record, vector in self._iter(build_where(**filters), with_embeddings=True):
            yield record, vector if vector is not None else []

    def covered_tasks(self) -> set[tuple[str, str]]:
        """Every (domain, task id) with a memory here, counting the tasks of merged duplicates."""
        covered: set[tuple[str, str]] = set()
        offset = 0
        while True:
            page = self.collection.get(include=["metadatas"], limit=_PAGE, offset=offset)
            if not page["ids"]:
                return covered
            for meta in page["metadatas"]:
                domain = str(meta.get("domain"))
                covered.add((domain, str(meta.get("task_id"))))
                for source in json.loads(str(meta.get("sources") or "[]")):
                    covered.add((domain, str(source.get("task_id"))))
            offset += len(page["ids"])

    def _iter(
        self, where: dict[str, Any] | None, *, with_embeddings: bool
    ) -> Iterator[tuple[MemoryRecord, list[float] | None]]:
        include = ["documents", "metadatas"] + (["embeddings"] if with_embeddings else [])
        offset = 0
        while True:
            page = self.collection.get(where=where, include=include, limit=_PAGE, offset=offset)
            if not page["ids"]:
                return
            embeddings = page.get("embeddings")
            for i, record_id in enumerate(page["ids"]):
                vector = None
                if with_embeddings and embeddings is not None:
                    vector = [float(x) for x in embeddings[i]]
                yield _from_chroma(record_id, page["documents"][i], page["metadatas"][i]), vector
            offset += len(page["ids"])

    def search(
        self,
        query: str | Sequence[float],
        *,
        k: int = 3,
        exclude_domains: str | Iterable[str] | None = None,
        domains: str | Iterable[str] | None = None,
        memory_types: Any = None,
        outcomes: Any = None,
        agent_models: str | Iterable[str] | None = None,
        exclude_task_ids: str | Iterable[str] | None = None,
        extra_where: dict[str, Any] | None = None,
        include_quarantined: bool = False,
    ) -> list[ScoredMemory]:
        """The ``k`` memories most similar to ``query`` (text or a vector), best first.

        ``exclude_domains`` is how leave-one-domain-out is done: pass the task's own domain.
        Quarantined memories are left out unless ``include_quarantined`` (they are stored
        under a prefixed memory type, so leaving them out costs no extra filter).
        """
        types = [MemoryType(t).value for t in _as_values(memory_types)] or [
            t.value for t in MemoryType
        ]
        if include_quarantined:  # quarantined records are stored under a prefixed type
            types += [_QUARANTINE + t for t in types]
        if k < 1:
            raise ValueError(f"k must be >= 1, got {k}")
        vector = self.embeddings.embed_query(query) if isinstance(query, str) else list(query)
        where = build_where(
            exclude_domains=exclude_domains,
            domains=domains,
            memory_types=types,
            outcomes=outcomes,
            agent_models=agent_models,
            exclude_task_ids=exclude_task_ids,
            extra=extra_where,
        )
        result = self.collection.query(
            query_embeddings=[[float(x) for x in vector]],
            n_results=k,
            where=where,
            include=["documents", "metadatas", "distances"],
        )
        hits = []
        for record_id, doc, meta, distance in zip(
            result["ids"][0],
            result["documents"][0],
            result["metadatas"][0],
            result["distances"][0],
            strict=True,
        ):
            hits.append(ScoredMemory(_from_chroma(record_id, doc, meta), 1.0 - float(distance)))
        return hits

    # -- portable format --------------------------------------------------------------------

    def export_jsonl(self, out: IO[str], *, with_embeddings: bool = False, **filters: Any) -> int:
        """Write records (optionally with their vectors) as JSON lines. Returns the count."""
        name = self.identity_name
        written = 0
        for record, vector in self._iter(build_where(**filters), with_embeddings=with_embeddings):
            line: dict[str, Any] = {"record": record.model_dump(mode="json")}
            if vector is not None:
                line["embedding"] = vector
                line["embedder"] = name
            out.write(json.dumps(line, ensure_ascii=False) + "\n")
            written += 1
        return written

    def export_ids(self, out: IO[str], ids: Sequence[str]) -> int:
        """Write the given records with their vectors as JSON lines (what ``import_jsonl``
        reads back). Returns the count."""
        name, written = self.identity_name, 0
        for start in range(0, len(ids), _PAGE):
            page = self.collection.get(
                ids=list(ids[start : start + _PAGE]),
                include=["documents", "metadatas", "embeddings"],
            )
            vectors = page.get("embeddings")
            for i, record_id in enumerate(page["ids"]):
                record = _from_chroma(record_id, page["documents"][i], page["metadatas"][i])
                line: dict[str, Any] = {"record": record.model_dump(mode="json")}
                if vectors is not None:
                    line.update(embedding=[float(x) for x in vectors[i]], embedder=name)
                out.write(json.dumps(line, ensure_ascii=False) + "\n")
                written += 1
        return written

    def import_jsonl(self, lines: Iterable[str | bytes], *, batch_size: int = 128) -> ImportReport:
        """Import JSON lines (text, or bytes decoded as UTF-8 line by line). Each line is checked
        on its own: a bad one is reported with its number and what to fix, and never affects
        another. ``imported`` counts distinct records stored.

        Vectors in the file are reused only when they come from this pool's embedder, and must
        then be lists of finite numbers of the pool's dimension.
        """
        report = ImportReport()
        pending: dict[str, tuple[MemoryRecord, list[float] | None]] = {}
        stored: set[str] = set()
        for number, raw in enumerate(lines, start=1):
            try:
                text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
                if number == 1:
                    text = text.removeprefix("\ufeff")
                if not text.strip():
                    continue
                record, vector = self._parse_line(text)
            except UnicodeDecodeError:
                report.errors.append((number, "not valid UTF-8: save the file as UTF-8"))
                continue
            except (json.JSONDecodeError, KeyError, TypeError, ValueError, ValidationError) as exc:
                report.errors.append((number, _short_error(exc)))
                continue
            pending[record.id] = (record, vector)
            if len(pending) >= batch_size:
                stored |= self._store_imported(list(pending.values()))
                pending = {}
        if pending:
            stored |= self._store_imported(list(pending.values()))
        report.imported = len(stored)
        return report

    def _parse_line(self, text: str) -> tuple[MemoryRecord, list[float] | None]:
        data = json.loads(text)
        if not isinstance(data, dict) or not isinstance(data.get("record"), dict):
            raise ValueError('each line must be an object {"record": {...}}')
        record = MemoryRecord.model_validate(data["record"])
        if "embedding" not in data or data.get("embedder") != self.identity_name:
            return record, None
        vector = data["embedding"]
        size = self.identity.dimension
        if (
            not isinstance(vector, list)
            or len(vector) != size
            or not all(isinstance(x, int | float) and not isinstance(x, bool) for x in vector)
            or not all(math.isfinite(x) for x in vector)
        ):
            raise ValueError(
                f"embedding must be a list of {size} finite numbers; drop the field (and "
                "'embedder') to have the record embedded again"
            )
        return record, [float(x) for x in vector]

    def _store_imported(self, pending: list[tuple[MemoryRecord, list[float] | None]]) -> set[str]:
        report = WriteReport()
        unique: dict[str, tuple[MemoryRecord, list[float] | None]] = {}
        for record, vector in pending:  # imports are redacted and screened like any write
            clean = self._sanitize(record, report)
            unique[clean.id] = (clean, vector if clean.key == record.key else None)
        records = [r for r, _ in unique.values()]
        missing = [r.key for r, v in unique.values() if v is None]
        fresh = iter(self.embeddings.embed_documents(missing) if missing else [])
        vectors = [v if v is not None else next(fresh) for _, v in unique.values()]
        self._upsert_vectors(records, vectors)
        return {r.id for r in records}

    # -- identity ---------------------------------------------------------------------------

    @property
    def identity(self) -> EmbedderIdentity:
        """The embedder identity recorded in the collection metadata."""
        meta = self.collection.metadata or {}
        return EmbedderIdentity(
            name=str(meta.get(_META_PREFIX + "embedder", "")),
            dimension=int(meta.get(_META_PREFIX + "dimension", 0)),
            probe=tuple(json.loads(meta.get(_META_PREFIX + "probe", "[]"))),
        )

    @property
    def identity_name(self) -> str:
        return self.identity.name

    def sibling(self, collection: str) -> MemoryPool:
        """Another collection in the same Chroma, with this pool's embedder (sub-pools,
        per-condition copies)."""
        if self.client is None:
            raise RuntimeError("sibling: this pool was built without its Chroma client")
        pool = _open_collection(
            self.client,
            self.location,
            collection,
            self.embeddings,
            self.dedup_threshold,
            self._transaction,
        )
        pool.classifier = self.classifier
        return pool

    def as_store(self) -> Any:
        """This pool as a LangGraph ``BaseStore`` (see :class:`langgraph_mtl.store.MemoryStore`):
        ``builder.compile(store=pool.as_store())``."""
        from langgraph_mtl.store import MemoryStore

        return MemoryStore(self)

    def as_retriever(self, **settings: Any) -> Any:
        """This pool as a LangChain retriever (see :class:`langgraph_mtl.store.MemoryRetriever`)."""
        from langgraph_mtl.store import MemoryRetriever

        return MemoryRetriever(pool=self, **settings)

    def drop(self) -> None:
        """Delete this pool's collection and everything in it."""
        self.client.delete_collection(self.collection.name)


def _short_error(exc: Exception) -> str:
    if isinstance(exc, ValidationError) and exc.errors():
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "record"
        return f"record.{where}: {first['msg'].removeprefix('Value error, ')}"[:240]
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return f"{type(exc).__name__}: {text[:200]}"


def open_pool(
    location: str | None = None,
    *,
    collection: str = DEFAULT_COLLECTION,
    embeddings: str | Embeddings | None = None,
    dedup_threshold: float | None = DEFAULT_DEDUP_THRESHOLD,
    create: bool = True,
    lock_timeout: float = DEFAULT_LOCK_TIMEOUT,
    screen_model: Any = None,
) -> MemoryPool:
    """Open (or create) the shared pool.

    Args:
        location: a directory, ``http(s)://host:port`` of a Chroma server, or ``:memory:``.
            Defaults to :func:`default_pool_location`.
        collection: the Chroma collection name.
        embeddings: an ``Embeddings`` instance or a name for :func:`resolve_embeddings`.
        dedup_threshold: cosine at or above which a new memory of the same type and domain is
            merged into a stored one; ``None`` turns near-duplicate merging off.
        create: ``False`` to only read: nothing is created, and a read-only directory is
            opened from a private copy.
        screen_model: a chat model asked about memory text that the injection rules leave
            undecided (see :func:`langgraph_mtl.screening.screen`); ``None`` = rules only.
        lock_timeout: for a directory, how many seconds a call waits while another process
            uses the pool (one call at a time across processes) before :class:`PoolBusyError`.

    Raises:
        PoolLocationError: ``location`` is not a directory, a server URL or ``:memory:``.
        PoolUnavailableError: the server does not answer; with ``create=False`` also when
            there is no pool or no such collection there. :class:`PoolBusyError` (a subclass)
            when another process holds an embedded pool longer than ``lock_timeout``.
        EmbedderMismatchError: the collection was built with another embedder.
    """
    where = parse_location(location or default_pool_location())
    embedder = resolve_embeddings(embeddings)
    client, label, transaction = _client(where, create=create, lock_timeout=lock_timeout)
    if not create:
        try:
            client.get_collection(collection)
        except Exception as exc:
            names = sorted(c.name for c in client.list_collections())
            raise PoolUnavailableError(
                f"the pool at {label} has no collection {collection!r}; it holds: "
                f"{', '.join(names) or 'none'} (choose one with --collection)"
            ) from exc
    pool = _open_collection(client, label, collection, embedder, dedup_threshold, transaction)
    pool.classifier = model_classifier(screen_model) if screen_model is not None else None
    return pool


def _open_collection(
    client: Any,
    location: str,
    collection: str,
    embedder: Embeddings,
    dedup_threshold: float | None,
    transaction: Transaction = nullcontext,
) -> MemoryPool:
    identity = embedder_identity(embedder)
    meta = {
        _META_PREFIX + "embedder": identity.name,
        _META_PREFIX + "dimension": identity.dimension,
        _META_PREFIX + "probe": json.dumps(identity.probe),
        _META_PREFIX + "schema_version": SCHEMA_VERSION,
    }
    coll = client.get_or_create_collection(
        collection,
        configuration={"hnsw": {"space": "cosine"}},
        metadata=meta,
        embedding_function=None,
    )
    space = ((coll.configuration or {}).get("hnsw") or {}).get("space", "cosine")
    if space != "cosine":
        raise ValueError(
            f"collection {collection!r} uses {space!r} distance; the pool needs cosine"
        )
    pool = MemoryPool(
        coll,
        embedder,
        location=location,
        client=client,
        dedup_threshold=dedup_threshold,
        transaction=transaction,
    )
    stored = pool.identity
    if not stored.name:  # a collection made by someone else: claim it only when empty
        if coll.count():
            raise EmbedderMismatchError(
                f"collection {collection!r} at {location} holds data but no embedder record"
            )
        coll.modify(metadata=meta)
    elif not stored.matches(identity):
        raise EmbedderMismatchError(
            f"collection {collection!r} at {location} was built with embedder {stored.name!r} "
            f"(dimension {stored.dimension}); it is being opened with {identity.name!r} "
            f"(dimension {identity.dimension}). Open it with the original embedder "
            f"(--embeddings {stored.name}), or re-embed: `mtl pool export memories.jsonl "
            f"--embeddings {stored.name}` then "
            f"`mtl pool import memories.jsonl --collection NEW_NAME --embeddings NEW_EMBEDDER`."
        )
    log.debug("opened pool %s/%s (%d memories)", location, collection, coll.count())
    return pool
