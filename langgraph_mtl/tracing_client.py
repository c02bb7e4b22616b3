"""The LangSmith client every trace of the project goes through: one per process, redacting and
quick to give up.

- **Redacting**: every run's inputs, outputs, metadata and error text pass through the project's
  secret redaction (:func:`langgraph_mtl.hygiene.redaction.redact_value`) before they leave the
  process; so do the dataset examples and feedback comments the experiments upload.
- **Never waiting on a dead endpoint**: requests time out after a few seconds and are not retried;
  once the endpoint has failed (refused, a server error, no answer in time, the API key refused,
  no LangSmith API at that address), every later request fails at once, and the run says so in
  one line naming the setting to check. The final flush at exit then takes no longer than the
  first failure did.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

__all__ = ["endpoint_down", "redact_for_trace", "redacting_client", "reset_client"]

log = logging.getLogger("langgraph_mtl.tracing")

CONNECT_SECONDS = 2.0
READ_SECONDS = 3.0

_LOCK = threading.Lock()
_CLIENT: list[Any] = []  # the process's client, made on first use
_DOWN = threading.Event()


def redact_for_trace(data: Any) -> Any:
    """``data`` (JSON-like) with every secret in it redacted."""
    from langgraph_mtl.hygiene.redaction import redact_value

    clean, _ = redact_value(data)
    return clean


def endpoint_down() -> bool:
    """Whether the LangSmith endpoint failed in this process (nothing is sent after that)."""
    return _DOWN.is_set()


def _went_down(url: str, why: str) -> None:
    """Say once why LangSmith failed (``why`` completes "LangSmith at <host> ...") and send
    nothing more."""
    if _DOWN.is_set():
        return
    _DOWN.set()
    host = url.split("/", 3)[2] if "://" in url else url
    log.warning("LangSmith at %s %s: tracing is off for the rest of this run", host, why)
    logging.getLogger("langsmith").setLevel(logging.CRITICAL)  # said once, here


def _guarded_session() -> Any:
    """A requests session that fails at once after the endpoint has failed once."""
    import requests

    class GuardedSession(requests.Session):
        def request(self, method: str, url: str, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
            target = str(url)
            if _DOWN.is_set():
                raise requests.ConnectionError("LangSmith is not answering: tracing is off")
            kwargs["timeout"] = (CONNECT_SECONDS, READ_SECONDS)
            try:
                response = super().request(method, url, *args, **kwargs)
            except requests.RequestException as exc:
                said = str(exc).lower()
                why = (
                    f"no answer in {READ_SECONDS:g} s"
                    if "timed out" in said or "timeout" in said
                    else "connection refused"
                    if "refused" in said
                    else type(exc).__name__
                )
                _went_down(target, f"is not answering ({why})")
                raise
            if failure := _failure(response.status_code, target):
                _went_down(target, failure)
            return response

    return GuardedSession()


def _failure(status: int, url: str) -> str | None:
    """What an answer's status says about the endpoint, when it means nothing will get through:
    a server error, the key refused, or no run ingestion at that address."""
    if status >= 500:
        return f"is not answering (HTTP {status})"
    if status in (401, 403):
        return f"refused the API key (HTTP {status}): check LANGSMITH_API_KEY"
    if status in (404, 405) and "/runs" in url:
        return f"takes no traces (HTTP {status} for {url.split('?')[0]}): check LANGSMITH_ENDPOINT"
    return None


def _client_url() -> str:
    """The endpoint of the process's client, for a failure the SDK reports without one."""
    return str(getattr(_CLIENT[0], "api_url", "LangSmith")) if _CLIENT else "LangSmith"


# run fields beyond inputs, outputs and metadata that can carry text: a model's serialized
# settings, invocation parameters, streamed tokens, an error, tags
_FREE_TEXT = ("serialized", "extra", "events", "error", "tags")


def _redacting_client_class() -> Any:
    from langsmith import Client

    class RedactingClient(Client):
        """A LangSmith client whose runs are redacted whole before they are queued."""

        def create_run(self, *args: Any, **kwargs: Any) -> None:
            super().create_run(*args, **_redacted_fields(kwargs))

        def update_run(self, *args: Any, **kwargs: Any) -> None:
            super().update_run(*args, **_redacted_fields(kwargs))

    return RedactingClient


def _redacted_fields(fields: dict[str, Any]) -> dict[str, Any]:
    return {k: redact_for_trace(v) if k in _FREE_TEXT and v else v for k, v in fields.items()}


def redacting_client() -> Any:
    """The process's LangSmith client (made on first use): redacting, and quick to give up
    on a dead endpoint (see the module docstring). Use it for a graph of your own with
    ``langsmith.tracing_context(client=redacting_client())``; the project's nodes install it
    as LangSmith's default client when tracing is on."""
    with _LOCK:
        if not _CLIENT:
            from urllib3.util.retry import Retry

            _CLIENT.append(
                _redacting_client_class()(
                    session=_guarded_session(),
                    anonymizer=redact_for_trace,
                    retry_config=Retry(total=0, raise_on_status=False),
                    timeout_ms=(int(CONNECT_SECONDS * 1000), int(READ_SECONDS * 1000)),
                    tracing_error_callback=lambda exc: _went_down(
                        _client_url(), f"failed ({type(exc).__name__})"
                    ),
                )
            )
        return _CLIENT[0]


def reset_client() -> None:
    """Forget the process's client and the endpoint's state (tests, a new endpoint)."""
    with _LOCK:
        _CLIENT.clear()
        _DOWN.clear()
