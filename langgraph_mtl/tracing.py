"""LangSmith tracing: on when ``LANGSMITH_TRACING=true`` and a key is set, a silent no-op otherwise.

langsmith with tracing requested but no key prints connection errors and holds the process
at exit while it retries; :func:`configure_tracing` turns such a half-set-up request off.
"""

from __future__ import annotations

import logging
import os

__all__ = ["configure_tracing", "tracing_enabled"]

log = logging.getLogger(__name__)

_FLAGS = ("LANGSMITH_TRACING", "LANGSMITH_TRACING_V2", "LANGCHAIN_TRACING_V2", "LANGCHAIN_TRACING")
_KEYS = ("LANGSMITH_API_KEY", "LANGCHAIN_API_KEY")


def _requested() -> bool:
    return any(os.environ.get(f, "").strip().lower() in ("1", "true", "yes") for f in _FLAGS)


def tracing_enabled() -> bool:
    """True when tracing is requested and an API key is present."""
    return _requested() and any(os.environ.get(k) for k in _KEYS)


def configure_tracing() -> bool:
    """Leave tracing on if it can work; switch a keyless request off. Returns the final state."""
    if _requested() and not tracing_enabled():
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
