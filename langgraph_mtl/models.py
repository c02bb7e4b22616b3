"""Chat-model resolution: a ``BaseChatModel`` or a model string, resolved once."""

from __future__ import annotations

import os
from typing import Any

from langchain_core.language_models import BaseChatModel

__all__ = ["local_chat_model", "model_label", "resolve_chat_model"]


def resolve_chat_model(model: str | BaseChatModel, *, argument: str = "model") -> BaseChatModel:
    """A chat model from an instance or a string.

    Strings: ``"openai:gpt-5-mini"`` or a bare OpenAI model name (``OPENAI_BASE_URL`` points it
    at any OpenAI-compatible server); ``"local"`` or ``"local:<base_url>"`` for a local
    OpenAI-protocol server (``MTL_LOCAL_BASE_URL``, as started by ``mtl serve``).
    """
    if isinstance(model, BaseChatModel):
        return model
    if not isinstance(model, str) or not model.strip():
        raise ValueError(f"{argument}: expected a model name or a BaseChatModel, got {model!r}")
    from langchain_openai import ChatOpenAI

    name = model.strip()
    if name == "local" or name.startswith("local:"):
        base_url = name.split(":", 1)[1] if ":" in name else os.environ.get("MTL_LOCAL_BASE_URL")
        if not base_url:
            raise ValueError(
                f"{argument}: 'local' needs a running local server: start one with `mtl serve` "
                "and set MTL_LOCAL_BASE_URL, or pass 'local:http://127.0.0.1:PORT/v1'"
            )
        return local_chat_model(base_url)
    if name.startswith("openai:"):
        name = name.split(":", 1)[1]
    elif ":" in name:
        raise ValueError(
            f"{argument}: unknown model provider in {model!r} (use 'openai:' or 'local')"
        )
    return ChatOpenAI(model=name)


def local_chat_model(base_url: str, **kwargs: Any) -> BaseChatModel:
    """``ChatOpenAI`` for a local OpenAI-protocol server, with bounded replies and a timeout."""
    from langchain_openai import ChatOpenAI

    kwargs.setdefault("temperature", 0)
    kwargs.setdefault("max_tokens", int(os.environ.get("MTL_MAX_TOKENS", "512")))
    kwargs.setdefault("timeout", 300)
    return ChatOpenAI(model="local", base_url=base_url, api_key="local", **kwargs)  # type: ignore[arg-type]


def model_label(model: object | None) -> str:
    """A short name for a model, for provenance fields."""
    if model is None:
        return "none"
    for attr in ("model_name", "model", "name"):
        value = getattr(model, attr, None)
        if isinstance(value, str) and value:
            return value
    return type(model).__name__
