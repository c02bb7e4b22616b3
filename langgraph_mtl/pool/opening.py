"""Opening a pool: its location parsed, the Chroma client for it, the named collection and one
collection per memory type, the embedder checked against the one the pool was built with, and
older layouts moved over (records of one collection, quarantine stored as a type prefix)."""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Iterable
from contextlib import nullcontext
from typing import Any

from langchain_core.embeddings import Embeddings

from langgraph_mtl.hygiene.screening import model_classifier
from langgraph_mtl.memory.records import SCHEMA_VERSION, MemoryType
from langgraph_mtl.pool.chroma_client import Transaction, chroma_client
from langgraph_mtl.pool.embeddings import embedder_identity, resolve_embeddings
from langgraph_mtl.pool.location import (
    PoolUnavailableError,
    check_collection_name,
    default_pool_location,
    parse_location,
)
from langgraph_mtl.pool.memory_pool import (
    _META_PREFIX,
    DEFAULT_COLLECTION,
    DEFAULT_DEDUP_THRESHOLD,
    DEFAULT_LOCK_TIMEOUT,
    EmbedderMismatchError,
    MemoryPool,
)
from langgraph_mtl.pool.typed_collections import (
    TypedCollections,
    move_untyped_records,
    part_name,
    unprefix_quarantined,
)
from langgraph_mtl.tracing import configure_tracing

__all__ = ["open_collection", "open_pool"]

log = logging.getLogger(__name__)


def open_pool(
    location: str | os.PathLike[str] | None = None,
    *,
    collection: str = DEFAULT_COLLECTION,
    embeddings: str | Embeddings | None = None,
    dedup_threshold: float | None = DEFAULT_DEDUP_THRESHOLD,
    create: bool = True,
    lock_timeout: float = DEFAULT_LOCK_TIMEOUT,
    screen_model: Any = None,
    screen_neighbours: bool = False,
    screen_fitted: bool = False,
    screen_disabled: Iterable[str] = (),
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
            undecided (see :func:`langgraph_mtl.hygiene.screening.screen`); ``None`` = rules only.
        screen_neighbours: also flag near-copies of the screen's known attacks under the
            pool's embedder (:class:`~langgraph_mtl.hygiene.screening.corpus_scanners.NeighbourScanner`;
            the known texts are embedded once per process).
        screen_fitted: also flag what a linear model fitted on the screen's labelled texts
            under the pool's embedder takes for an attack
            (:class:`~langgraph_mtl.hygiene.screening.corpus_scanners.FittedScanner`: more
            new wordings caught, more false alarms; fitted once per process; needs the
            ``screen`` extra).
        screen_disabled: screening rules and sentence frames to switch off, by id
            (``"override/2"``, ``"memory-system/copy"``) or by category (``"authority"``);
            the frames are in ``langgraph_mtl/hygiene/screening/frames.toml``, the rules and
            their ids in
            :mod:`langgraph_mtl.hygiene.screening.rule_handling` and the catalogue in
            ``langgraph_mtl/hygiene/screening/catalogue.toml``.
        lock_timeout: for a directory, how many seconds a call waits while another process
            uses the pool (one call at a time across processes) before :class:`PoolBusyError`.

    Raises:
        PoolLocationError: ``location`` is not a directory, a server URL or ``:memory:``, or
            ``collection`` is not a name Chroma accepts.
        PoolUnavailableError: the server does not answer; with ``create=False`` also when
            there is no pool or no such collection there. :class:`PoolBusyError` (a subclass)
            when another process holds an embedded pool longer than ``lock_timeout``.
        EmbedderMismatchError: the collection was built with another embedder.
    """
    check_collection_name(collection)
    configure_tracing()  # a pool's reads and writes may be traced: redacted, or not at all
    where = parse_location(location or default_pool_location())
    embedder = resolve_embeddings(embeddings)
    client, label, transaction = chroma_client(where, create=create, lock_timeout=lock_timeout)
    if not create:
        try:
            client.get_collection(collection)
        except Exception as exc:
            names = sorted(c.name for c in client.list_collections())
            raise PoolUnavailableError(
                f"the pool at {label} has no collection {collection!r}; it holds: "
                f"{', '.join(names) or 'none'} (choose one with --collection)"
            ) from exc
    pool = open_collection(
        client, label, collection, embedder, dedup_threshold, transaction, create=create
    )
    pool.classifier = model_classifier(screen_model) if screen_model is not None else None
    if screen_neighbours or screen_fitted or screen_disabled:
        from langgraph_mtl.hygiene.screening.corpus_scanners import (
            FittedScanner,
            LabelledTexts,
            NeighbourScanner,
        )
        from langgraph_mtl.hygiene.screening.scanners import (
            CodeScanner,
            FrameScanner,
            RuleScanner,
            Scanner,
        )

        scanners: tuple[Scanner, ...] = (
            RuleScanner(screen_disabled),
            FrameScanner(screen_disabled),
            CodeScanner(),
        )
        known = LabelledTexts(pool.embeddings)  # embedded only when a scanner asks
        if screen_neighbours:
            scanners = (*scanners, NeighbourScanner(pool.embeddings, known=known))
        if screen_fitted:
            scanners = (*scanners, FittedScanner(known))
        pool.scanners = scanners
    return pool


def open_collection(
    client: Any,
    location: str,
    collection: str,
    embedder: Embeddings,
    dedup_threshold: float | None,
    transaction: Transaction = nullcontext,
    *,
    create: bool = True,
) -> MemoryPool:
    identity = embedder_identity(embedder)
    meta = {
        _META_PREFIX + "embedder": identity.name,
        _META_PREFIX + "dimension": identity.dimension,
        _META_PREFIX + "probe": json.dumps(identity.probe),
        _META_PREFIX + "schema_version": SCHEMA_VERSION,
        _META_PREFIX + "quarantine_flag": True,  # quarantine is a flag, not a type prefix
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
    parts = {kind: _part(client, collection, kind, create) for kind in MemoryType}
    typed = TypedCollections(coll, parts)
    pool = MemoryPool(
        typed,
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
    if typed.untyped and create:
        move_untyped_records(typed, transaction)
    if create and not (coll.metadata or {}).get(_META_PREFIX + "quarantine_flag"):
        unprefix_quarantined(typed, transaction)  # pools written before quarantine was a flag
        coll.modify(metadata={**(coll.metadata or {}), _META_PREFIX + "quarantine_flag": True})
    if log.isEnabledFor(logging.DEBUG):  # a count asks every collection: only when shown
        log.debug("opened pool %s/%s (%d memories)", location, collection, typed.count())
    return pool


def _part(client: Any, collection: str, memory_type: MemoryType, create: bool) -> Any | None:
    """The collection of one memory type (``None`` when reading a pool that has none yet)."""
    name = part_name(collection, memory_type)
    if not create:
        try:
            return client.get_collection(name, embedding_function=None)
        except Exception:
            return None
    return client.get_or_create_collection(
        name, configuration={"hnsw": {"space": "cosine"}}, embedding_function=None
    )
