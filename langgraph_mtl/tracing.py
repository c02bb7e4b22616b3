"""LangSmith tracing: on when ``LANGSMITH_TRACING=true`` and a key is set, a silent no-op otherwise.

When it is on, :func:`configure_tracing` makes the project's redacting client
(:mod:`.tracing_client`) LangSmith's default, so every run traced in the process (a graph's
root run, its nodes, the models they call) is redacted before it is sent. A tracing request
without a key is switched off: langsmith would print connection errors and hold the process
at exit while it retried.
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import os
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any, Literal

__all__ = ["configure_tracing", "redacted_for_trace", "traced", "tracing_enabled", "untraced"]

log = logging.getLogger(__name__)

_FLAGS = ("LANGSMITH_TRACING", "LANGSMITH_TRACING_V2", "LANGCHAIN_TRACING_V2", "LANGCHAIN_TRACING")
_KEYS = ("LANGSMITH_API_KEY", "LANGCHAIN_API_KEY")


def _requested() -> bool:
    return any(os.environ.get(f, "").strip().lower() in ("1", "true", "yes") for f in _FLAGS)


def tracing_enabled() -> bool:
    """True when tracing is requested and an API key is present."""
    return _requested() and any(os.environ.get(k) for k in _KEYS)


def configure_tracing() -> bool:
    """Tracing through the redacting client when it can work; a keyless request switched off.
    Called where a run can start (the nodes' and tools' factories, ``open_pool``, the ``mtl``
    command); returns whether tracing is on."""
    if tracing_enabled():
        import langsmith

        from langgraph_mtl.tracing_client import redacting_client

        langsmith.configure(client=redacting_client())
        return True
    if _requested():
        for flag in _FLAGS:
            if flag in os.environ:
                os.environ[flag] = "false"
        try:  # langsmith caches environment reads
            from langsmith import utils

            utils.get_env_var.cache_clear()  # type: ignore[attr-defined]
        except (ImportError, AttributeError):
            pass
        log.debug("LangSmith tracing requested without an API key: tracing is off")
    return tracing_enabled()


def _plain(value: Any) -> Any:
    """A traceable form of a value: models and records as data, anything else by its type."""
    from langchain_core.runnables import Runnable
    from pydantic import BaseModel

    if isinstance(value, str | int | float | bool) or value is None:
        return value
    if isinstance(value, Runnable):  # a model: its name, not its settings
        return f"<{type(value).__name__}>"
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _plain(dataclasses.asdict(value))
    if isinstance(value, BaseModel):
        return _plain(value.model_dump(mode="json"))
    return f"<{type(value).__name__}>"


def redacted_for_trace(data: Any) -> dict[str, Any]:
    """The inputs or outputs of a memory-layer run as LangSmith may see them: plain data with
    every secret redacted (passed as ``process_inputs`` / ``process_outputs``)."""
    from langgraph_mtl.hygiene.redaction import redact_value

    clean, _ = redact_value(_plain(data))
    return clean if isinstance(clean, dict) else {"output": clean}


def traced(name: str, run_type: Literal["chain", "retriever"] = "chain") -> Any:
    """``langsmith.traceable`` for memory-layer functions: inputs and outputs are redacted.

    When nothing is being traced (no tracing requested, no run in progress) the function is
    called directly, so an untraced run pays nothing for the redacted copies."""
    from langsmith import traceable
    from langsmith.utils import tracing_is_enabled

    def decorate(function: Callable[..., Any]) -> Callable[..., Any]:
        with_trace = traceable(
            name=name,
            run_type=run_type,
            process_inputs=redacted_for_trace,
            process_outputs=redacted_for_trace,
        )(function)

        @functools.wraps(function)
        def call(*args: Any, **kwargs: Any) -> Any:
            if tracing_is_enabled():
                return with_trace(*args, **kwargs)
            return function(*args, **kwargs)

        return call

    return decorate


def untraced() -> AbstractContextManager[None]:
    """No tracing inside: for model calls whose inputs and outputs a ``traced`` caller already
    records redacted (LangChain would trace them raw)."""
    from langsmith.run_helpers import tracing_context

    return tracing_context(enabled=False)
