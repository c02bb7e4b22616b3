"""Chat models from one kind of string, parsed in one place.

``"local"`` / ``"local:0.5b"`` / ``"local:1.5b"``: the embedded llama.cpp model (the ``mtl``
command starts its server; elsewhere ``MTL_LOCAL_BASE_URL`` names a running one).
``"local:http://host:port/v1"``: any OpenAI-protocol server. ``"openai:gpt-5-mini"`` or a bare
OpenAI model name. ``"<provider>:<model>"``: any provider LangChain's ``init_chat_model`` knows
(``anthropic:...``, ``azure_openai:...``, ...), given its integration package.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from langchain_core.language_models import BaseChatModel

__all__ = [
    "LOCAL_VARIANTS",
    "ModelSpec",
    "ModelSpecError",
    "capped",
    "local_chat_model",
    "model_label",
    "parse_model_spec",
    "reported_tokens",
    "resolve_chat_model",
]

LOCAL_VARIANTS = ("0.5b", "1.5b")


class ModelSpecError(ValueError):
    """A model string that cannot be used (unknown form, missing key or package)."""


@dataclass(frozen=True)
class ModelSpec:
    """A parsed model string: ``provider`` is "local", "openai" or an init_chat_model provider;
    for "local", ``variant`` is the pinned weights and ``base_url`` a running server if known."""

    provider: str
    name: str = ""
    variant: str = "0.5b"
    base_url: str | None = None

    @property
    def is_local(self) -> bool:
        return self.provider == "local"

    @property
    def needs_server(self) -> bool:
        """A local model with no server yet: the caller has to start one."""
        return self.is_local and not self.base_url


def parse_model_spec(text: str, *, argument: str = "model") -> ModelSpec:
    """Parse a model string (see the module docstring); raises :class:`ModelSpecError`."""
    if not isinstance(text, str) or not text.strip():
        raise ModelSpecError(f"{argument}: expected a model name, got {text!r}")
    name = text.strip()
    if name == "local":
        return ModelSpec("local", base_url=os.environ.get("MTL_LOCAL_BASE_URL") or None)
    if name.startswith("local:"):
        rest = name.split(":", 1)[1]
        if rest.startswith(("http://", "https://")):
            return ModelSpec("local", base_url=rest)
        if rest in LOCAL_VARIANTS:
            return ModelSpec("local", variant=rest)
        raise ModelSpecError(
            f"{argument}: {name!r}: after 'local:' give a variant ({', '.join(LOCAL_VARIANTS)}) "
            "or a server URL (local:http://127.0.0.1:8080/v1)"
        )
    provider, sep, model = name.partition(":")
    if not sep:
        return ModelSpec("openai", name=name)
    if not model or not provider.replace("_", "").replace("-", "").isalnum():
        raise ModelSpecError(f"{argument}: {name!r} is not '<provider>:<model>'")
    return ModelSpec(provider.lower(), name=model)


def resolve_chat_model(model: str | BaseChatModel, *, argument: str = "model") -> BaseChatModel:
    """A chat model from an instance or a model string (resolved once, at build time).

    Raises:
        ModelSpecError: the string is malformed, a key or an integration package is missing,
            or a local model has no server to talk to.
    """
    if isinstance(model, BaseChatModel):
        return model
    spec = parse_model_spec(model, argument=argument)
    if spec.is_local:
        if not spec.base_url:
            raise ModelSpecError(
                f"{argument}: {model!r} needs a running local server: start one with `mtl serve` "
                "and set MTL_LOCAL_BASE_URL, or pass 'local:http://127.0.0.1:PORT/v1'"
            )
        return local_chat_model(spec.base_url)
    if spec.provider == "openai":
        if not (os.environ.get("OPENAI_API_KEY") or os.environ.get("OPENAI_BASE_URL")):
            raise ModelSpecError(
                f"{argument}: {model!r} needs OPENAI_API_KEY (or OPENAI_BASE_URL for a "
                "compatible server); or use a local model: 'local'"
            )
        from langchain_openai import ChatOpenAI

        return ChatOpenAI(model=spec.name, api_key=os.environ.get("OPENAI_API_KEY") or "none")  # type: ignore[arg-type]
    from langchain.chat_models import init_chat_model

    try:
        return init_chat_model(spec.name, model_provider=spec.provider)
    except ImportError as exc:
        raise ModelSpecError(f"{argument}: {model!r}: {exc}") from exc
    except ValueError as exc:
        raise ModelSpecError(
            f"{argument}: {model!r}: {str(exc).splitlines()[0]} (use 'local', "
            f"'local:{LOCAL_VARIANTS[0]}', an OpenAI model name, or '<provider>:<model>' for a "
            "provider LangChain's init_chat_model knows)"
        ) from exc


def local_chat_model(base_url: str, *, lanes: int = 0, **kwargs: Any) -> BaseChatModel:
    """A chat model for a local OpenAI-protocol server, with bounded replies and a timeout;
    llama.cpp keeps the prompt's cache between requests (an agent's steps share their prefix)
    and reports its own timings, kept with each reply. ``lanes``: runs at once on a server
    started with a slot per lane and kind of call
    (:mod:`langgraph_mtl.local.llama_chat`); 0 leaves the slot to the server."""
    from langgraph_mtl.local.llama_chat import LlamaCppChat

    kwargs.setdefault("extra_body", {"cache_prompt": True})
    kwargs.setdefault("temperature", 0)
    kwargs.setdefault("max_tokens", int(os.environ.get("MTL_MAX_TOKENS", "1536")))
    kwargs.setdefault("timeout", 300)
    return LlamaCppChat(
        model="local",
        base_url=base_url,
        api_key="local",  # type: ignore[arg-type]
        lanes=lanes,
        **kwargs,
    )


def capped(model: BaseChatModel, max_tokens: int) -> BaseChatModel:
    """A copy of the model whose replies stop at ``max_tokens`` (a short reply must stay short
    when a small model rambles); the model itself when it has no such setting or a lower one."""
    fields = getattr(type(model), "model_fields", {})
    current = getattr(model, "max_tokens", None)
    if "max_tokens" in fields and (current is None or current > max_tokens):
        return model.model_copy(update={"max_tokens": max_tokens})
    return model


def reported_tokens(message: object) -> int:
    """Tokens a reply used (prompt + completion), as its server reported them; 0 if unknown."""
    return int((getattr(message, "usage_metadata", None) or {}).get("total_tokens", 0))


def model_label(model: object | None) -> str:
    """A short name for a model, for provenance fields."""
    if model is None:
        return "none"
    for attr in ("model_name", "model", "name"):
        value = getattr(model, attr, None)
        if isinstance(value, str) and value:
            return value
    return type(model).__name__
