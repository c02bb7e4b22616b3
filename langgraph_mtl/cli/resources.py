"""What commands open: the pool and a chat model (starting the local model server if needed).

Both are opened after the command's arguments have been checked, never before.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
import urllib.request
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from langgraph_mtl.cli.errors import CliError, require_extra
from langgraph_mtl.cli.output import err

if TYPE_CHECKING:
    from langgraph_mtl.models import ModelSpec
    from langgraph_mtl.pool.memory_pool import MemoryPool

__all__ = ["chat_model", "check_model", "open_for_read", "open_for_write"]


def open_for_read(pool: str | None, collection: str, embeddings: str | None = None) -> MemoryPool:
    """An existing pool, read only: nothing is created, a read-only pool is read from a copy."""
    return _open(pool, collection, embeddings, create=False)


def open_for_write(pool: str | None, collection: str, embeddings: str | None = None) -> MemoryPool:
    """The pool, created if it does not exist yet."""
    return _open(pool, collection, embeddings, create=True)


def _open(pool: str | None, collection: str, embeddings: str | None, *, create: bool) -> Any:
    from langgraph_mtl.pool.location import default_pool_location, parse_location

    where = parse_location(pool or default_pool_location())  # fails before any heavy import
    if not create:
        where.require_pool()
    from langgraph_mtl.pool.opening import open_pool

    with err.status("opening the memory pool"):
        return open_pool(pool, collection=collection, embeddings=embeddings, create=create)


def check_model(text: str) -> ModelSpec:
    """Parse a ``--model`` value and check it can be used: a malformed string, a missing key,
    package or extra is a usage error (exit 2); a local server that does not answer, a failure."""
    from langgraph_mtl.models import parse_model_spec

    spec = parse_model_spec(text, argument="--model")
    if spec.is_local and spec.base_url:
        _probe(spec.base_url)
    elif spec.needs_server:
        require_extra("local" if spec.variant == "0.5b" else "local-1-5b", "xllamacpp")
    elif not spec.is_local:
        from langgraph_mtl.models import resolve_chat_model

        resolve_chat_model(text, argument="--model")  # a missing key or package, named now
    return spec


def _probe(base_url: str) -> None:
    url = base_url.rstrip("/") + "/models"
    try:
        with urllib.request.urlopen(url, timeout=5) as reply:
            json.loads(reply.read() or b"{}")
    except (OSError, ValueError) as exc:
        reason = getattr(exc, "reason", None) or exc
        raise CliError(
            f"no model server answered at {base_url} ({reason}); start one with `mtl serve` "
            "or fix --model / MTL_LOCAL_BASE_URL",
            code=1,
        ) from None


@contextlib.contextmanager
def chat_model(text: str, *, parallel: int = 1, temperature: float | None = None) -> Iterator[Any]:
    """The chat model for a ``--model`` value already passed through :func:`check_model`.
    ``local[:variant]`` starts the pinned local model server for the duration (``parallel``
    request slots); ``temperature`` overrides the default."""
    from langgraph_mtl.models import local_chat_model, parse_model_spec, resolve_chat_model

    spec = parse_model_spec(text, argument="--model")
    settings: dict[str, Any] = {} if temperature is None else {"temperature": temperature}
    if spec.is_local and spec.base_url:
        yield local_chat_model(spec.base_url, **settings)
        return
    if not spec.needs_server:
        chat = resolve_chat_model(text, argument="--model")
        yield chat.model_copy(update=settings) if settings else chat
        return
    from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn

    from langgraph_mtl.local.server import LocalModelServer

    # a request slot per run and kind of call keeps each prompt prefix cached (set
    # MTL_WARM_PREFIXES=0 to leave the slot to the server, with ``parallel`` slots)
    warm = os.environ.get("MTL_WARM_PREFIXES", "1") != "0"
    server = LocalModelServer(
        variant=spec.variant, parallel=parallel, lanes=parallel if warm else 0
    )
    with Progress(
        TextColumn("{task.description}"), BarColumn(), DownloadColumn(), console=err
    ) as bar:
        job = bar.add_task(f"preparing {spec.variant} weights", total=None)
        started = time.monotonic()
        try:
            server.start(progress=lambda done, total: bar.update(job, completed=done, total=total))
        except (RuntimeError, TimeoutError) as exc:
            raise CliError(str(exc).splitlines()[0], code=1) from exc
        bar.update(job, description=f"local model ready ({time.monotonic() - started:.1f}s)")
    try:
        yield server.chat_model(**settings)
    finally:
        server.stop()
