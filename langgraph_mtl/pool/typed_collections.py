"""One pool stored as one Chroma collection per memory type, behind a collection's interface.

A search always names its memory types, so it asks only those types' indexes and never needs
Chroma's filtered query for the type (which costs many times the index and grows with the
pool). The named collection itself keeps the embedder identity; records written before pools
were split by type stay readable there until :func:`move_untyped_records` moves them.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from langgraph_mtl.memory.records import MemoryType
from langgraph_mtl.pool.codec import QUARANTINE_PREFIX

__all__ = [
    "TypedCollections",
    "collection_pages",
    "part_name",
    "types_in",
    "unprefix_quarantined",
]

log = logging.getLogger(__name__)

_FIELDS = ("ids", "documents", "metadatas", "embeddings", "distances")


def part_name(collection: str, memory_type: MemoryType) -> str:
    """The Chroma collection holding one memory type of a pool."""
    return f"{collection}.{memory_type.value}"


def _base_type(stored: object) -> MemoryType:
    return MemoryType(str(stored).removeprefix(QUARANTINE_PREFIX))


def types_in(where: dict[str, Any] | None) -> list[MemoryType] | None:
    """The memory types a filter allows, when it says (``None``: any type)."""
    if not where:
        return None
    clauses = where.get("$and", [where]) if len(where) == 1 else [where]
    for clause in clauses:
        if "memory_type" not in clause:
            continue
        wanted = clause["memory_type"]
        if isinstance(wanted, dict):
            values = wanted.get("$in", [wanted["$eq"]] if "$eq" in wanted else None)
            if values is None:
                return None
        else:
            values = [wanted]
        return list(dict.fromkeys(_base_type(v) for v in values))
    return None


class TypedCollections:
    """The subset of Chroma's collection interface the pool uses, over one collection per
    memory type (``parts``) and the named collection (``home``: identity, older records)."""

    def __init__(self, home: Any, parts: dict[MemoryType, Any | None]) -> None:
        self.home = home
        self.parts = parts
        self.untyped = bool(home.count())

    # -- identity lives on the named collection ---------------------------------------------

    @property
    def name(self) -> str:
        return str(self.home.name)

    @property
    def metadata(self) -> Any:
        return self.home.metadata

    @property
    def configuration(self) -> Any:
        return self.home.configuration

    def modify(self, **kwargs: Any) -> None:
        self.home.modify(**kwargs)

    # -- which Chroma collections to ask ----------------------------------------------------

    def collections(self, types: Iterable[MemoryType] | None = None) -> list[Any]:
        """The Chroma collections that can hold ``types`` (all when ``None``), existing only."""
        chosen = list(self.parts) if types is None else list(types)
        found = [self.parts[t] for t in chosen if self.parts.get(t) is not None]
        return [*found, self.home] if self.untyped else found

    def _part(self, memory_type: MemoryType) -> Any:
        part = self.parts.get(memory_type)
        if part is None:
            raise RuntimeError(f"this pool was opened read-only: no {memory_type.value} collection")
        return part

    # -- the collection interface -----------------------------------------------------------

    def count(self) -> int:
        return sum(int(c.count()) for c in self.collections())

    def upsert(
        self,
        *,
        ids: Sequence[str],
        embeddings: Any,  # one vector a row: a sequence or an array
        documents: Sequence[str],
        metadatas: Sequence[dict[str, Any]],
        new: bool = False,
    ) -> None:
        """Write records to their types' collections; ``new``: none of the ids is stored
        anywhere yet, so they are added (cheaper than an upsert)."""
        groups: dict[MemoryType, list[int]] = {}
        for index, meta in enumerate(metadatas):
            groups.setdefault(_base_type(meta["memory_type"]), []).append(index)
        for memory_type, rows in groups.items():
            part = self._part(memory_type)
            (part.add if new else part.upsert)(
                ids=[ids[i] for i in rows],
                embeddings=[embeddings[i] for i in rows],
                documents=[documents[i] for i in rows],
                metadatas=[metadatas[i] for i in rows],
            )
        if self.untyped and not new:  # an older copy of a rewritten record must not linger
            self.home.delete(ids=list(ids))

    def update(self, *, ids: Sequence[str], metadatas: Sequence[dict[str, Any]]) -> None:
        wanted = dict(zip(ids, metadatas, strict=True))
        for collection in self.collections():
            held = collection.get(ids=list(wanted), include=[])["ids"]
            if held:
                collection.update(ids=held, metadatas=[wanted.pop(i) for i in held])
            if not wanted:
                return

    def delete(self, *, ids: Sequence[str]) -> None:
        for collection in self.collections():
            collection.delete(ids=list(ids))

    def get(
        self,
        ids: Sequence[str] | None = None,
        *,
        where: dict[str, Any] | None = None,
        include: Sequence[str] = ("documents", "metadatas"),
        limit: int | None = None,
    ) -> dict[str, Any]:
        """Records by id (from whichever collection holds them) or by filter, at most
        ``limit``; page through many with :meth:`pages`."""
        merged: dict[str, list[Any]] = {field: [] for field in ("ids", *include)}
        for collection in self.collections(types_in(where)):
            room = None if limit is None else limit - len(merged["ids"])
            if room is not None and room <= 0:
                break
            ask = list(ids) if ids is not None else None
            page = collection.get(ids=ask, where=where, include=list(include), limit=room)
            _extend(merged, page, include)
        return merged

    def pages(
        self, where: dict[str, Any] | None, include: Sequence[str], size: int
    ) -> Iterator[dict[str, Any]]:
        """Every record matching ``where``, at most ``size`` a page, collection by collection."""
        seen: set[str] = set()  # only while older records move: a record may be in two places
        for collection in self.collections(types_in(where)):
            for page in collection_pages(collection, where, include, size):
                fresh: dict[str, list[Any]] = {field: [] for field in ("ids", *include)}
                _extend(fresh, page, include, skip=seen)
                if self.untyped:
                    seen.update(fresh["ids"])
                if fresh["ids"]:
                    yield fresh

    def query(
        self,
        *,
        query_embeddings: Sequence[Sequence[float]],
        n_results: int,
        where: dict[str, Any] | None = None,
        include: Sequence[str] = ("documents", "metadatas", "distances"),
    ) -> dict[str, Any]:
        """The nearest ``n_results`` over the collections the filter's types allow."""
        rows: list[tuple[float, dict[str, Any]]] = []
        for collection in self.collections(types_in(where)):
            found = collection.query(
                query_embeddings=[list(query_embeddings[0])],
                n_results=n_results,
                where=where,
                include=list({*include, "distances"}),
            )
            for index, distance in enumerate(found["distances"][0]):
                row = {f: found[f][0][index] for f in ("ids", *include) if found.get(f) is not None}
                rows.append((float(distance), row))
        rows.sort(key=lambda item: item[0])
        best = [row for _, row in rows[:n_results]]
        return {f: [[row.get(f) for row in best]] for f in ("ids", *include)}


def collection_pages(
    collection: Any, where: dict[str, Any] | None, include: Sequence[str], size: int
) -> Iterator[dict[str, Any]]:
    """Every record of one Chroma collection matching ``where``, at most ``size`` a page."""
    offset = 0
    while True:
        page = collection.get(where=where, include=list(include), limit=size, offset=offset)
        if not page["ids"]:
            return
        offset += len(page["ids"])
        yield page


def _extend(
    merged: dict[str, list[Any]],
    page: dict[str, Any],
    include: Sequence[str],
    skip: set[str] | None = None,
) -> None:
    """Append a Chroma page to ``merged``; an id already there (a record held twice while
    older records move) or in ``skip`` is left out, so the typed copy, read first, wins."""
    known = set(merged["ids"]) | (skip or set())
    for index, record_id in enumerate(page["ids"]):
        if record_id in known:
            continue
        merged["ids"].append(record_id)
        for field in include:
            values = page.get(field)
            merged[field].append(None if values is None else values[index])


def move_untyped_records(typed: TypedCollections, hold: Callable[[], Any], batch: int = 500) -> int:
    """Move records of the named collection into their type's collection, a batch at a time,
    each batch written to its new place before it leaves the old one (an interruption loses
    nothing; the next open carries on). Returns how many moved."""
    moved = 0
    while typed.untyped:
        with hold():
            page = typed.home.get(include=["documents", "metadatas", "embeddings"], limit=batch)
            if not page["ids"]:
                typed.untyped = False
                break
            typed.upsert(  # written to its type's collection, then deleted from here
                ids=page["ids"],
                embeddings=[list(map(float, v)) for v in page["embeddings"]],
                documents=page["documents"],
                metadatas=page["metadatas"],
            )
            moved += len(page["ids"])
    if moved:
        log.info("moved %d memories into one collection per memory type", moved)
    return moved


def unprefix_quarantined(typed: TypedCollections, hold: Callable[[], Any], batch: int = 500) -> int:
    """Store the type of quarantined records written by older pools (``quarantined/<type>``)
    plainly: quarantine is the ``flag_quarantined`` flag alone. Returns how many changed."""
    changed = 0
    for memory_type, part in typed.parts.items():
        if part is None:
            continue
        stored = QUARANTINE_PREFIX + memory_type.value
        while True:
            with hold():
                page = part.get(where={"memory_type": stored}, include=["metadatas"], limit=batch)
                if not page["ids"]:
                    break
                part.update(
                    ids=page["ids"],
                    metadatas=[
                        {"memory_type": memory_type.value, "flag_quarantined": True}
                        for _ in page["ids"]
                    ],
                )
                changed += len(page["ids"])
    if changed:
        log.info("%d quarantined memories now stored under their own type", changed)
    return changed
