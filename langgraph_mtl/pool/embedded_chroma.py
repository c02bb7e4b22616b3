"""An embedded Chroma directory that several threads and processes can share without breaking it.

Chroma's embedded client keeps the vector index in memory and assumes it is the only one using
its directory: two writing processes leave an index that fails every search, and a process that
missed another's writes searches a stale index. So every call on an embedded pool runs under the
directory's lock (one call at a time, across threads and processes), and a process whose client
has missed another process's write reopens it first. Waiting longer than ``timeout`` seconds
raises :class:`PoolBusyError`; many processes working at once belong on a Chroma server.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import chromadb
from chromadb.config import Settings
from filelock import FileLock, Timeout

from langgraph_mtl.pool.location import PoolUnavailableError

__all__ = [
    "EmbeddedChroma",
    "GuardedCollection",
    "PoolBusyError",
    "embedded_chroma",
    "guarded_client",
]

LOCK_FILE = "mtl.lock"
GENERATION_FILE = "mtl.generation"
# calls that change what is stored; every other call only reads
_WRITES = frozenset(
    {
        "add",
        "upsert",
        "update",
        "delete",
        "modify",
        "create_collection",
        "get_or_create_collection",
        "delete_collection",
        "reset",
    }
)
_OPENS = frozenset({"create_collection", "get_collection", "get_or_create_collection"})


class PoolBusyError(PoolUnavailableError):
    """Another process held the embedded pool's lock for longer than the timeout."""


class EmbeddedChroma:
    """One embedded Chroma directory as this process uses it: a client, a lock, a generation."""

    def __init__(self, path: Path, settings: Settings, *, timeout: float):
        self.path = path
        self._settings = settings
        self.timeout = timeout
        self._file_lock = FileLock(path / LOCK_FILE, thread_local=False)
        self._thread_lock = threading.RLock()
        self._depth = 0
        self._wrote = False
        self._seen: str | None = None
        self._client: Any = None
        self._collections: dict[str, Any] = {}

    @contextmanager
    def session(self, *, write: bool) -> Iterator[Any]:
        """Hold the directory for one operation; yields a client that has seen every write."""
        with self._thread_lock:
            outer = self._depth == 0
            if outer:
                self._acquire()
            self._depth += 1
            try:
                if outer:
                    self._refresh()
                self._wrote = self._wrote or write  # a write that failed halfway counts too
                yield self._client
            finally:
                self._depth -= 1
                if outer:
                    self._finish()

    def _acquire(self) -> None:
        try:
            self._file_lock.acquire(timeout=self.timeout)
        except Timeout:
            raise PoolBusyError(
                f"the pool at {self.path} stayed busy for {self.timeout:.0f} s (another process "
                "is using it); for several processes at once serve it: `chroma run --path "
                f"{self.path} --port 8000` and set MTL_POOL=http://localhost:8000"
            ) from None

    def _finish(self) -> None:
        try:
            if self._wrote:
                token = uuid.uuid4().hex
                (self.path / GENERATION_FILE).write_text(token)
                self._seen = token
        finally:
            self._wrote = False
            self._file_lock.release()

    def _refresh(self) -> None:
        marker = self.path / GENERATION_FILE
        current = marker.read_text() if marker.exists() else ""
        if self._client is not None and current == self._seen:
            return
        if self._client is not None:
            self._client.close()
        self._client = chromadb.PersistentClient(path=str(self.path), settings=self._settings)
        self._collections = {}
        self._seen = current

    def collection(self, name: str) -> Any:
        """The named collection on the current client (call inside :meth:`session`)."""
        if name not in self._collections:
            self._collections[name] = self._client.get_collection(name, embedding_function=None)
        return self._collections[name]

    def forget(self, name: str) -> None:
        """Drop a cached collection handle (after the collection was deleted)."""
        self._collections.pop(name, None)


class _Guarded:
    """Forwards attribute reads and method calls to the current object, each in a session."""

    def __init__(self, chroma: EmbeddedChroma, resolve: Callable[[Any], Any]) -> None:
        self._chroma = chroma
        self._resolve = resolve

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        with self._chroma.session(write=False) as client:
            value = getattr(self._resolve(client), name)
        if not callable(value):
            return value

        def call(*args: Any, **kwargs: Any) -> Any:
            with self._chroma.session(write=name in _WRITES) as client:
                result = getattr(self._resolve(client), name)(*args, **kwargs)
                if name == "delete_collection":
                    self._chroma.forget(str(args[0] if args else kwargs.get("name")))
            if name in _OPENS:
                return GuardedCollection(self._chroma, result.name)
            return result

        return call


class GuardedCollection(_Guarded):
    """A Chroma collection of an embedded directory, used one call at a time."""

    def __init__(self, chroma: EmbeddedChroma, name: str) -> None:
        super().__init__(chroma, lambda _client: chroma.collection(name))
        self.name = name


def embedded_chroma(path: Path, settings: Settings, *, timeout: float) -> EmbeddedChroma:
    """The one :class:`EmbeddedChroma` of this process for ``path`` (thread-safe); ``timeout``
    is how long its calls wait for another process before :class:`PoolBusyError`."""
    key = path.resolve()
    with _REGISTRY_LOCK:
        if key not in _REGISTRY:
            _REGISTRY[key] = EmbeddedChroma(key, settings, timeout=timeout)
        _REGISTRY[key].timeout = timeout
        return _REGISTRY[key]


def guarded_client(chroma: EmbeddedChroma) -> Any:
    """A client whose every call runs in a session of ``chroma``."""
    return _Guarded(chroma, lambda client: client)


_REGISTRY: dict[Path, EmbeddedChroma] = {}
_REGISTRY_LOCK = threading.Lock()
