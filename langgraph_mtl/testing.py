"""Offline stand-ins for tests and demos: a scripted chat model and a hashing embedder."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable, RunnableLambda
from pydantic import BaseModel, Field, PrivateAttr

__all__ = ["HashingEmbeddings", "ScriptedChatModel"]

Reply = str | AIMessage | Callable[[list[BaseMessage]], str | AIMessage]


class ScriptedChatModel(BaseChatModel):
    """Answers with scripted replies in order (a reply may be a function of the messages).

    Supports ``bind_tools`` and ``with_structured_output`` (the reply text is parsed as JSON
    into the schema, so a scripted bad reply fails the way a real model's would). Every call's
    messages are kept in ``calls``. When the script runs out, ``default`` is used, or an error.
    """

    replies: list[Any] = Field(default_factory=list)
    default: Any = None
    model_name: str = "scripted"
    _index: int = PrivateAttr(default=0)
    _calls: list[list[BaseMessage]] = PrivateAttr(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "scripted"

    @property
    def calls(self) -> list[list[BaseMessage]]:
        return self._calls

    def _next(self, messages: list[BaseMessage]) -> AIMessage:
        self._calls.append(list(messages))
        if self._index < len(self.replies):
            reply = self.replies[self._index]
            self._index += 1
        elif self.default is not None:
            reply = self.default
        else:
            raise RuntimeError(f"ScriptedChatModel ran out of replies after {self._index}")
        if callable(reply):
            reply = reply(list(messages))
        if isinstance(reply, Exception):
            raise reply
        if isinstance(reply, AIMessage):
            return reply
        text = str(reply)  # usage as a real server reports it (4 characters per token)
        prompt = sum(len(str(m.content)) for m in messages) // 4
        usage = {
            "input_tokens": prompt,
            "output_tokens": len(text) // 4,
            "total_tokens": prompt + len(text) // 4,
        }
        return AIMessage(content=text, usage_metadata=usage)

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        return ChatResult(generations=[ChatGeneration(message=self._next(messages))])

    def bind_tools(  # type: ignore[override]
        self, tools: Sequence[Any], **kwargs: Any
    ) -> Runnable[Any, BaseMessage]:
        return self.bind(tools=tools, **kwargs)

    def with_structured_output(  # type: ignore[override]
        self, schema: type[BaseModel], *, include_raw: bool = False, **kwargs: Any
    ) -> Runnable[Any, Any]:
        def parse(message: BaseMessage) -> BaseModel:
            text = str(message.content)
            match = re.search(r"\{.*\}", text, re.DOTALL)
            return schema.model_validate(json.loads(match.group(0) if match else text))

        def parse_with_raw(message: BaseMessage) -> dict[str, Any]:
            try:
                return {"raw": message, "parsed": parse(message), "parsing_error": None}
            except (ValueError, TypeError) as exc:
                return {"raw": message, "parsed": None, "parsing_error": exc}

        return self | RunnableLambda(parse_with_raw if include_raw else parse)


class HashingEmbeddings(Embeddings):
    """Deterministic bag-of-words vectors: texts sharing words are similar. No model, no network."""

    def __init__(self, dimension: int = 256) -> None:
        self.dimension = dimension
        self.name = f"hashing-{dimension}"

    def _vector(self, text: str) -> list[float]:
        vec = np.zeros(self.dimension, dtype=np.float64)
        for word in re.findall(r"[a-z0-9]+", text.lower()):
            digest = hashlib.sha1(word.encode()).digest()
            index = int.from_bytes(digest[:4], "little") % self.dimension
            vec[index] += 1.0 if digest[4] % 2 else -1.0
        norm = float(np.linalg.norm(vec))
        if norm == 0.0:
            vec[0], norm = 1.0, 1.0
        return (vec / norm).tolist()

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._vector(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._vector(text)
