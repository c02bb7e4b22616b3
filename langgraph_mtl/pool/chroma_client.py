"""The Chroma client for a pool location: embedded (shared safely, see ``embedded_chroma``),
a server, or memory; a read-only directory is read from a private copy."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from functools import partial
from pathlib import Path
from typing import Any

import chromadb
from chromadb.config import Settings
from pydantic import ValidationError

from langgraph_mtl.pool.embedded_chroma import embedded_chroma, guarded_client
from langgraph_mtl.pool.location import SQLITE_FILE, PoolLocation, PoolUnavailableError

__all__ = ["Transaction", "chroma_client", "short_error"]

Transaction = Callable[[], AbstractContextManager[Any]]


def chroma_client(
    where: PoolLocation, *, create: bool, lock_timeout: float
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
                f"no Chroma server answered at {where.url} ({short_error(exc)}); start one with "
                "`chroma run --path DIR --port PORT` or fix --pool / MTL_POOL"
            ) from exc
        return client, str(where), nullcontext
    assert where.path is not None
    if not create:
        where.require_pool()
    _require_intact(where.path)
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


def _require_intact(path: Path) -> None:
    """Raise :class:`PoolUnavailableError` when the directory's database file is not one."""
    sqlite = path / SQLITE_FILE
    if not sqlite.is_file() or not sqlite.stat().st_size:
        return
    with sqlite.open("rb") as handle:
        header = handle.read(16)
    if header != b"SQLite format 3\x00":
        raise PoolUnavailableError(
            f"the pool at {path} is damaged: {SQLITE_FILE} is not a SQLite database; restore "
            "the directory from a backup, or import an export into a new pool (`mtl pool "
            "import`)"
        )


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


def short_error(exc: Exception) -> str:
    """One line that names what went wrong (a record's field for a validation error)."""
    if isinstance(exc, ValidationError) and exc.errors():
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "record"
        return f"record.{where}: {first['msg'].removeprefix('Value error, ')}"[:240]
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return f"{type(exc).__name__}: {text[:200]}"
