"""How a memory is stored in Chroma: its metadata, read back into a record, and the filter
language (``where`` clauses) of the pool's searches and listings."""

from __future__ import annotations

import inspect
import json
import logging
from collections.abc import Iterable
from enum import Enum
from typing import Any

from langgraph_mtl._keywords import check_keywords
from langgraph_mtl.memory.records import (
    SCHEMA_VERSION,
    Judge,
    MemoryRecord,
    MemorySource,
    MemoryType,
    Outcome,
    utf8_safe,
    validate_domain,
)

__all__ = [
    "FLAG_PREFIX",
    "PAGE_SIZE",
    "QUARANTINE_PREFIX",
    "as_values",
    "build_where",
    "decode_sources",
    "encode_sources",
    "filter_where",
    "from_chroma",
    "matches_where",
    "readable",
    "to_metadata",
]

_log = logging.getLogger(__name__)
_PASSED_OVER: set[str] = set()  # unreadable records already reported in this process

FLAG_PREFIX = "flag_"
QUARANTINE_PREFIX = "quarantined/"  # how pools written before the flag stored the type
PAGE_SIZE = 500
MERGED_FLAG = "merged"  # stored as ``flag_merged``: how many sources were merged in


def _json(value: Any) -> str:
    """``value`` as JSON text that UTF-8 can hold (a lone surrogate becomes ``?``)."""
    return utf8_safe(json.dumps(value, ensure_ascii=False))


def to_metadata(record: MemoryRecord) -> dict[str, Any]:
    """A record's Chroma metadata (flags as ``flag_*`` keys; quarantine is the flag
    ``flag_quarantined``, which every stored record carries)."""
    meta: dict[str, Any] = {
        "memory_type": record.memory_type.value,
        "domain": record.domain,
        "task_id": record.task_id,
        "outcome": record.outcome.value,
        "judged_by": record.judged_by.value,
        "agent_model": record.agent_model,
        "abstraction_model": record.abstraction_model,
        "key": record.key,
        "payload": _json(record.payload),
        "created_at": record.created_at,
        "schema_version": record.schema_version,
        "run_digest": record.run_digest,
        "content_hash": record.content_hash,
    }
    meta[FLAG_PREFIX + "quarantined"] = False
    for name, value in record.flags.items():
        if name != MERGED_FLAG:  # the count of the sources, written with them
            meta[FLAG_PREFIX + name] = value
    if record.sources:  # absent otherwise, so a rewrite keeps what was merged into it
        meta.update(encode_sources(record.sources))
    return meta


def encode_sources(sources: Iterable[MemorySource]) -> dict[str, Any]:
    """The metadata that stores a record's merged sources (and their count as a flag)."""
    entries = [s.model_dump() for s in sources]
    return {
        "sources": _json(entries),
        FLAG_PREFIX + MERGED_FLAG: len(entries),
    }


def decode_sources(meta: dict[str, Any]) -> tuple[MemorySource, ...]:
    """A record's merged sources from its metadata (entries that cannot be read are skipped)."""
    try:
        entries = json.loads(str(meta.get("sources") or "[]"))
    except ValueError:
        return ()
    out = []
    for entry in entries if isinstance(entries, list) else []:
        if isinstance(entry, dict) and entry.get("id"):
            out.append(
                MemorySource.model_validate({k: str(v) for k, v in entry.items() if v is not None})
            )
    return tuple(out)


def from_chroma(record_id: str, document: str | None, meta: dict[str, Any]) -> MemoryRecord:
    """The record stored under ``record_id`` with this document and metadata."""
    flags = {k[len(FLAG_PREFIX) :]: v for k, v in meta.items() if k.startswith(FLAG_PREFIX)}
    flags.pop(MERGED_FLAG, None)  # said by the sources
    return MemoryRecord(
        id=record_id,
        memory_type=MemoryType(str(meta["memory_type"]).removeprefix(QUARANTINE_PREFIX)),
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
        sources=decode_sources(meta),
    )


def readable(record_id: str, document: str | None, meta: dict[str, Any]) -> MemoryRecord | None:
    """:func:`from_chroma`, or None for a record whose stored fields cannot be read (written
    by other code): it is passed over (and logged, the first time), so one such record does
    not make the rest of the pool unreadable."""
    try:
        return from_chroma(record_id, document, meta)
    except (ValueError, KeyError, TypeError) as error:
        if record_id in _PASSED_OVER or len(_PASSED_OVER) >= 10_000:  # said once per record
            return None
        _PASSED_OVER.add(record_id)
        first = str(error).splitlines()[0] if str(error) else type(error).__name__
        _log.warning(
            "memory %s passed over: its stored fields cannot be read (%s); delete it or "
            "store it again",
            record_id,
            first[:200],
        )
        return None


def as_values(value: Any) -> list[str]:
    """Filter values as plain strings: one value or many, enums by their value."""
    if value is None:
        return []
    items = [value] if isinstance(value, str | Enum) else list(value)
    return [v.value if isinstance(v, Enum) else str(v) for v in items]


def _domains(value: str | Iterable[str] | None, argument: str) -> list[str]:
    """Domain filter values normalised as stored domains are, so " python " still matches."""
    return [validate_domain(v, argument) for v in as_values(value)]


def _stored_types(types: list[str]) -> list[str]:
    """Type filter values as stored: also under the prefix older pools gave quarantined ones
    (whether a quarantined memory is returned is the ``flag_quarantined`` filter's to say)."""
    return [*types, *(QUARANTINE_PREFIX + t for t in types if not t.startswith(QUARANTINE_PREFIX))]


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
        ("domain", _domains(exclude_domains, "exclude_domains"), "$nin"),
        ("domain", _domains(domains, "domains"), "$in"),
        ("memory_type", _stored_types(as_values(memory_types)), "$in"),
        ("outcome", as_values(outcomes), "$in"),
        ("agent_model", as_values(agent_models), "$in"),
        ("task_id", as_values(exclude_task_ids), "$nin"),
    ):
        if values:
            clauses.append({key: {op: sorted(set(values))}})
    for key, value in (extra or {}).items():
        clauses.append({key: value})
    if not clauses:
        return None
    return clauses[0] if len(clauses) == 1 else {"$and": clauses}


_FILTERS = tuple(inspect.signature(build_where).parameters)


def filter_where(filters: dict[str, Any]) -> dict[str, Any] | None:
    """:func:`build_where` of filters given as keywords, a name that is none of them an error
    naming the likely one."""
    check_keywords(filters, _FILTERS, "a pool filter")
    return build_where(**filters)


_COMPARE = {
    "$eq": lambda have, want: have == want,
    "$ne": lambda have, want: have != want,
    "$in": lambda have, want: have in want,
    "$nin": lambda have, want: have not in want,
    "$gt": lambda have, want: have > want,
    "$gte": lambda have, want: have >= want,
    "$lt": lambda have, want: have < want,
    "$lte": lambda have, want: have <= want,
}


def matches_where(where: dict[str, Any] | None, meta: dict[str, Any]) -> bool:
    """Whether stored metadata passes a ``where`` filter, as Chroma decides it (a field the
    metadata lacks matches nothing). Raises ValueError for an operator it does not know."""
    if not where:
        return True
    for key, condition in where.items():
        if key == "$and":
            if not all(matches_where(part, meta) for part in condition):
                return False
        elif key == "$or":
            if not any(matches_where(part, meta) for part in condition):
                return False
        elif key not in meta:
            return False
        elif isinstance(condition, dict):
            for op, want in condition.items():
                if op not in _COMPARE:
                    raise ValueError(f"where: unsupported operator {op!r}")
                try:
                    if not _COMPARE[op](meta[key], want):
                        return False
                except TypeError:  # a number compared with a string: no match, as in Chroma
                    return False
        elif meta[key] != condition:
            return False
    return True
