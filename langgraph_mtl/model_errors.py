"""How a model call's error is read, for any provider: one that may pass on its own (worth
another try), a request the server refused, one too long for the model's context, a
structured reply cut off at the length limit. Providers' and LangChain's error classes are
told apart by name, so none of their packages needs to be installed."""

from __future__ import annotations

__all__ = ["cut_off", "passing_server_error", "refused_request", "too_long_for_model"]

_BUSY = (408, 409, 429)  # timeout, conflict, rate limit: another try may pass
# no reply came: openai's and anthropic's connection errors (timeouts included), httpx's
_NO_REPLY = {"APIConnectionError", "TransportError"}
# a request the server refused as it stands (HTTP 400 or 422)
_REFUSED = {"BadRequestError", "UnprocessableEntityError", "ModelInvalidRequestError"}
_TOO_LONG_WORDS = ("context size", "context length", "context window", "maximum context")


def passing_server_error(exc: BaseException) -> bool:
    """Whether a model call's error may pass on its own (a lost connection, a timeout, an
    overloaded server, a 5xx reply): worth another try. A refused request (4xx) or a bug is
    not; the provider's client has already retried what it knows how to."""
    # a reply from the server: openai's and most providers' errors, httpx's and requests'
    for status in (
        getattr(exc, "status_code", None),
        getattr(getattr(exc, "response", None), "status_code", None),
    ):
        if isinstance(status, int):
            return status >= 500 or status in _BUSY
    return isinstance(exc, ConnectionError | TimeoutError) or bool(_kinds(exc) & _NO_REPLY)


def _kinds(exc: BaseException) -> set[str]:
    """The names of the classes ``exc`` is an instance of."""
    return {kind.__name__ for kind in type(exc).__mro__}


def cut_off(exc: BaseException) -> bool:
    """Whether a structured reply failed because it reached the length limit mid-answer."""
    return "LengthFinishReasonError" in _kinds(exc)


def refused_request(exc: BaseException) -> bool:
    """Whether a model call failed because the server refused the request as it stands."""
    return bool(_kinds(exc) & _REFUSED)


def too_long_for_model(exc: BaseException) -> bool:
    """Whether a model call failed because its request exceeds the model's context window
    (LangChain's ``ContextOverflowError``, or a refusal whose message says so: llama.cpp's
    "exceeds the available context size")."""
    if "ContextOverflowError" in _kinds(exc):
        return True
    said = str(exc).lower()
    return refused_request(exc) and any(words in said for words in _TOO_LONG_WORDS)
