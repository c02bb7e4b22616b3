"""Options shared by the ``mtl`` commands (kept free of heavy imports so ``--help`` is fast)."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import typer

from langgraph_mtl.memory.enums import MemoryType

__all__ = [
    "DEFAULT_COLLECTION",
    "CollectionOpt",
    "domain_name",
    "EmbeddingsOpt",
    "JsonOpt",
    "KOpt",
    "MemoryTypesOpt",
    "ModelOpt",
    "PoolOpt",
    "Variant",
]

DEFAULT_COLLECTION = "mtl_memories"


class Variant(StrEnum):
    """The pinned local model weights."""

    small = "0.5b"
    large = "1.5b"


def _pool_text(value: str | None) -> str | None:
    """A ``--pool`` value: absent means the default pool, but a blank one is a mistake (it
    must not quietly become the default pool)."""
    if value is not None and not value.strip():
        raise typer.BadParameter("is empty: give a directory, http(s)://host:port or :memory:")
    return value


PoolOpt = Annotated[
    str | None,
    typer.Option(
        "--pool",
        envvar="MTL_POOL",
        callback=_pool_text,
        help="Pool directory, http(s)://host:port or :memory:.",
    ),
]


def _collection_name(value: str) -> str:
    """A ``--collection`` value checked as the pool checks it, before any pool is opened."""
    from langgraph_mtl.pool.location import PoolLocationError, check_collection_name

    try:
        return check_collection_name(value)
    except PoolLocationError as exc:
        raise typer.BadParameter(str(exc).removesuffix(" (--collection)")) from exc


CollectionOpt = Annotated[
    str,
    typer.Option("--collection", callback=_collection_name, help="Chroma collection name."),
]
EmbeddingsOpt = Annotated[
    str | None,
    typer.Option(
        "--embeddings", help="The pool's embedder: 'minilm' (offline default) or 'openai:<model>'."
    ),
]
ModelOpt = Annotated[
    str,
    typer.Option(
        "--model",
        envvar="MTL_MODEL",
        help="'local', 'local:1.5b', 'local:http://host:port/v1', 'openai:gpt-5-mini', "
        "'<provider>:<model>'.",
    ),
]
MemoryTypesOpt = Annotated[
    list[MemoryType] | None,
    typer.Option("--memory-type", help="Repeatable."),
]
KOpt = Annotated[int, typer.Option("--k", min=1, max=100, help="How many memories.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON document.")]


def domain_name(value: str | None) -> str | None:
    """A ``--domain`` value checked as the pool checks it, so a bad one is an option error."""
    if value is None:
        return None
    from langgraph_mtl.memory.records import validate_domain

    try:
        return validate_domain(value, "domain")
    except ValueError as exc:
        raise typer.BadParameter(str(exc).removeprefix("domain: ")) from None
