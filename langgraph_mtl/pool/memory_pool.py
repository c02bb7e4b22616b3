"""The shared memory pool: one Chroma collection, embedded or served, with one code path.

``open_pool()`` picks the client from a location: a directory (embedded ``PersistentClient``),
``http(s)://host:port`` (a ``chroma run`` server, the multi-process path) or ``:memory:``.
Similarities returned by :meth:`MemoryPool.search` are cosine similarities in [-1, 1].
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable, Sequence
from contextlib import nullcontext
from typing import IO, TYPE_CHECKING, Any, cast

import numpy as np
from langchain_core.embeddings import Embeddings
from pydantic import ValidationError

from langgraph_mtl._keywords import one_config
from langgraph_mtl.hygiene.sanitize import sanitize
from langgraph_mtl.hygiene.screening import Classifier
from langgraph_mtl.memory.records import (
    MemoryRecord,
)
from langgraph_mtl.pool import jsonl as pool_jsonl
from langgraph_mtl.pool.chroma_client import Transaction
from langgraph_mtl.pool.codec import (
    FLAG_PREFIX,
    matches_where,
    to_metadata,
)
from langgraph_mtl.pool.embedded_chroma import PoolBusyError
from langgraph_mtl.pool.embeddings import EmbedderIdentity
from langgraph_mtl.pool.location import (
    PoolLocationError,
    PoolUnavailableError,
    check_collection_name,
    default_pool_location,
)
from langgraph_mtl.pool.provenance import merge_provenance
from langgraph_mtl.pool.reading import PoolReader
from langgraph_mtl.pool.reports import ImportReport, ScoredMemory, WriteReport
from langgraph_mtl.pool.search import SearchConfig
from langgraph_mtl.pool.typed_collections import (
    TypedCollections,
    part_name,
)

if TYPE_CHECKING:
    from langgraph_mtl.pool.store import MemoryRetriever, MemoryStore

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
]

log = logging.getLogger(__name__)

DEFAULT_COLLECTION = "mtl_memories"
DEFAULT_DEDUP_THRESHOLD = 0.97
DEFAULT_LOCK_TIMEOUT = 120.0
_META_PREFIX = "mtl:"


class EmbedderMismatchError(RuntimeError):
    """The pool was built with a different embedder than the one it is opened with."""


class MemoryPool(PoolReader):
    """One shared Chroma collection of memories, checked against its embedder on open.

    Use :func:`open_pool` rather than the constructor.
    """

    def __init__(
        self,
        collection: TypedCollections,
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
        self.scanners: tuple[Any, ...] | None = None  # the screen's scanners; None: the default
        self._transaction = transaction
        self.collection = collection
        self.embeddings = embeddings
        self.location = location
        self.dedup_threshold = dedup_threshold
        self.pass_rates = {}

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
        batch = _records(records)
        report = WriteReport()
        if not batch:
            return report
        if len({r.id for r in batch}) != len(batch):
            raise ValueError("records: the same id appears twice in one upsert")
        clean = [self.sanitize_for_write(r, report) for r in batch]
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
                self.store_vectors([r for r, _ in keep], [v for _, v in keep])
        return report

    def sanitize_for_write(self, record: MemoryRecord, report: WriteReport) -> MemoryRecord:
        """``record`` redacted and screened as every write is; ``report`` counts what was found."""
        clean = sanitize(record, classifier=self.classifier, scanners=self.scanners)
        report.redacted += clean.redacted
        if clean.screening.flagged:
            report.quarantined.append(clean.record.id)
        return clean.record

    def _duplicate_of(self, record: MemoryRecord, vector: Sequence[float]) -> str | None:
        scope = {"$and": [{"memory_type": record.memory_type.value}, {"domain": record.domain}]}
        for part in self.collection.collections([record.memory_type]):
            # one indexed field: many times faster than Chroma's $and of three
            same = part.get(
                where={"content_hash": record.content_hash}, include=["metadatas"], limit=64
            )
            for found, meta in zip(same["ids"], same["metadatas"], strict=True):
                if found != record.id and matches_where(scope, meta):
                    return str(found)
        near = self.nearest([float(x) for x in vector], 1, scope)
        threshold = float(self.dedup_threshold or 2.0)
        if near and near[0].record.id != record.id and near[0].similarity >= threshold:
            return near[0].record.id
        return None

    def store_vectors(
        self, batch: Sequence[MemoryRecord], vectors: Sequence[Any], *, new: bool = False
    ) -> None:
        """Store sanitized records with their vectors as they are (no duplicate check);
        ``new``: the caller knows none of the ids is stored yet."""
        if not batch:
            return
        self.collection.upsert(
            ids=[r.id for r in batch],
            embeddings=np.asarray(vectors, dtype=np.float32),
            documents=[r.content for r in batch],
            metadatas=[to_metadata(r) for r in batch],
            new=new,
        )

    def delete(self, ids: str | Sequence[str]) -> None:
        """Delete records by id (unknown ids are ignored)."""
        if ids := _ids(ids):
            self.collection.delete(ids=ids)

    def update_flags(self, record_id: str, flags: dict[str, str | int | float | bool]) -> None:
        """Set flag fields on a stored record without re-embedding it (an unknown id is
        ignored). Flags the record cannot hold (a list, a name too long) are a ValueError, and
        nothing is changed."""
        if not isinstance(record_id, str) or not isinstance(flags, dict):
            raise TypeError(
                f"update_flags: expected a record id and a dict of flags, got "
                f"{type(record_id).__name__} and {type(flags).__name__}"
            )
        for name, value in flags.items():
            if not isinstance(name, str) or not isinstance(value, str | int | float | bool):
                raise ValueError(
                    f"flag {name!r}: a flag is named by text and holds text, a number or "
                    f"true/false, not {type(value).__name__}; nothing was changed"
                )
        record = self.get(record_id)
        if record is None:
            return
        try:
            checked = MemoryRecord.model_validate(
                {**record.model_dump(), "flags": {**record.flags, **flags}}
            )
        except ValidationError as error:
            said = "; ".join(str(e["msg"]) for e in error.errors()[:3])
            raise ValueError(f"flags {sorted(flags)!r}: {said}; nothing was changed") from None
        meta = {FLAG_PREFIX + name: checked.flags[name] for name in flags}
        self.collection.update(ids=[record_id], metadatas=[meta])

    # -- portable format --------------------------------------------------------------------

    def export_jsonl(self, out: IO[str], *, with_embeddings: bool = False, **filters: Any) -> int:
        """Write records (optionally with their vectors) as JSON lines. Returns the count."""
        return pool_jsonl.export_jsonl(
            self, _writable(out), with_embeddings=with_embeddings, **filters
        )

    def export_ids(self, out: IO[str], ids: str | Sequence[str]) -> int:
        """Write the given records with their vectors as JSON lines. Returns the count."""
        return pool_jsonl.export_ids(self, _writable(out), _ids(ids))

    def import_jsonl(
        self,
        lines: str | bytes | Iterable[str | bytes],
        *,
        batch_size: int = 1000,
        progress: Callable[[int], None] | None = None,
    ) -> ImportReport:
        """Import JSON lines (an open file, a list of lines, or one text holding them); each
        line is checked on its own, what is stored already is skipped, ``progress`` hears the
        lines read (see :mod:`langgraph_mtl.pool.jsonl`)."""
        name = lines.strip() if isinstance(lines, str) else ""
        if "\n" not in name and name.endswith((".jsonl", ".json")):  # a path, not its lines
            raise ValueError(
                f"lines: {name!r:.80} is a file name, not JSON lines: pass the file open, "
                "pool.import_jsonl(open(path))"
            )
        if isinstance(lines, str | bytes):
            lines = lines.splitlines()
        elif not isinstance(lines, Iterable):
            raise TypeError(
                "lines: expected an open file, a list of JSON lines or a text holding them, "
                f"got {type(lines).__name__}"
            )
        return pool_jsonl.import_jsonl(self, lines, batch_size=batch_size, progress=progress)

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

    @property
    def address(self) -> str:
        """Where this pool lives: its location and collection (``<location>#<collection>``)."""
        return f"{self.location}#{self.collection.name}"

    def sibling(self, collection: str) -> MemoryPool:
        """Another collection in the same Chroma, with this pool's embedder (sub-pools,
        per-condition copies)."""
        if self.client is None:
            raise RuntimeError("sibling: this pool was built without its Chroma client")
        from langgraph_mtl.pool.opening import open_collection

        check_collection_name(collection)
        pool = open_collection(
            self.client,
            self.location,
            collection,
            self.embeddings,
            self.dedup_threshold,
            self._transaction,
        )
        pool.classifier = self.classifier
        pool.scanners = self.scanners
        return pool

    def as_store(self, config: SearchConfig | None = None, **settings: Any) -> MemoryStore:
        """This pool as a LangGraph ``BaseStore`` (see :class:`langgraph_mtl.pool.store.MemoryStore`):
        ``builder.compile(store=pool.as_store())``; ``config`` (or its fields as keywords)
        gates and re-ranks its searches."""
        from langgraph_mtl.pool.store import MemoryStore

        return MemoryStore(self, one_config(config, settings, SearchConfig))

    def as_retriever(
        self,
        config: SearchConfig | None = None,
        *,
        exclude_domains: str | Sequence[str] = (),
        **settings: Any,
    ) -> MemoryRetriever:
        """This pool as a LangChain retriever (see :class:`langgraph_mtl.pool.store.MemoryRetriever`):
        the one search, ``config`` (or its fields as keywords: ``k=3``) deciding what it
        fetches, the run's context who is asking."""
        from langgraph_mtl.pool.store import MemoryRetriever

        fields = {"pool": self, "config": one_config(config, settings, SearchConfig)}
        return MemoryRetriever.model_validate({**fields, "exclude_domains": exclude_domains})

    def drop(self) -> None:
        """Delete this pool's collections and everything in them."""
        for memory_type, part in self.collection.parts.items():
            if part is not None:
                self.client.delete_collection(part_name(self.collection.name, memory_type))
        self.client.delete_collection(self.collection.name)


def _ids(ids: Any) -> list[str]:
    """Memory ids as a list, anything else a TypeError naming it."""
    items = [ids] if isinstance(ids, str) else ids
    if not isinstance(items, Iterable) or isinstance(items, bytes | dict):
        raise TypeError(f"ids: expected a memory id or a list of them, got {ids!r:.80}")
    items = list(items)
    if not all(isinstance(item, str) for item in items):
        raise TypeError(f"ids: expected memory ids (str), got {items!r:.80}")
    return items


def _writable(out: Any) -> IO[str]:
    """``out`` when it is an open file, else a TypeError saying what to pass."""
    if not callable(getattr(out, "write", None)):
        raise TypeError(
            f"out: expected a file open for writing text (open(path, 'w')), got {out!r:.80}"
        )
    return cast("IO[str]", out)


def _records(records: Any) -> list[MemoryRecord]:
    """The records of an upsert as a list, anything else in it a TypeError naming it."""
    if isinstance(records, MemoryRecord):
        return [records]
    if isinstance(records, str | bytes | dict) or not isinstance(records, Iterable):
        raise TypeError(f"records: expected a MemoryRecord or a list of them, got {records!r:.80}")
    batch = list(records)
    for item in batch:
        if not isinstance(item, MemoryRecord):
            raise TypeError(
                f"records: expected MemoryRecord items, got {type(item).__name__} "
                "(make one with MemoryRecord(...) or MemoryRecord.model_validate(data))"
            )
    return batch
