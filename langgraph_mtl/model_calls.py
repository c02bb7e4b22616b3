"""What each model call is for, and a record of every call a run makes.

Every call site names its kind (:class:`CallKind`) in the call's metadata with
:func:`call_config`. A server that keeps prompt caches per request slot can then keep each
kind's prefix warm (:mod:`langgraph_mtl.local.llama_chat`), and :class:`CallRecorder`, a
callback handler given to ``graph.invoke(..., config={"callbacks": [recorder]})``, keeps one
:class:`CallRecord` per call: its kind, prompt, cached and completion tokens, and seconds (the
server's own timings where it reports them, else the wall clock).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from enum import StrEnum
from typing import Any
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.outputs import LLMResult
from langchain_core.runnables import RunnableConfig

__all__ = [
    "CALL_KEY",
    "LANE_KEY",
    "CallKind",
    "CallRecord",
    "CallRecorder",
    "call_config",
    "call_kind",
    "summarize_calls",
]

CALL_KEY = "mtl_call"  # the call's kind, in its metadata
LANE_KEY = "mtl_lane"  # which of several runs at once a call belongs to, in its metadata


class CallKind(StrEnum):
    """What a model call is for."""

    PLAN = "plan"  # the plan made before acting
    ACT = "act"  # the next action
    WRITE = "write"  # a file's content or an edit's lines
    QUERY = "query"  # a retrieval query (a plan or goal made from the task), a rerank
    ABSTRACT = "abstract"  # a memory abstracted from a finished run
    JUDGE = "judge"  # a verdict on a run or a memory
    OTHER = "other"  # a call no site named


# a call no site named is known by the LangGraph node it ran in
_BY_NODE = {
    "plan": CallKind.PLAN,
    "act": CallKind.ACT,
    "retrieve_memories": CallKind.QUERY,
    "write_memory": CallKind.ABSTRACT,
}


def call_config(kind: CallKind) -> RunnableConfig:
    """The config a call site passes to ``invoke`` to name its kind."""
    return {"metadata": {CALL_KEY: kind.value}}


def call_kind(metadata: Mapping[str, Any] | None) -> CallKind:
    """The kind of a call from its metadata: named by its site, else by its node."""
    found = dict(metadata or {})
    named = str(found.get(CALL_KEY, ""))
    if named in CallKind._value2member_map_:
        return CallKind(named)
    return _BY_NODE.get(str(found.get("langgraph_node", "")), CallKind.OTHER)


@dataclass
class CallRecord:
    """One model call: its kind, tokens and seconds. ``seconds`` is the server's own time
    (prompt processing plus generation) when it reports one, else the wall clock;
    ``cached_tokens`` is the part of the prompt the server took from its cache;
    ``finish_reason`` is "length" for a reply cut off at its limit."""

    kind: str
    prompt_tokens: int = 0
    cached_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0
    prompt_seconds: float = 0.0
    wall_seconds: float = 0.0
    finish_reason: str = ""
    failed: bool = False

    def as_row(self) -> dict[str, Any]:
        """The record as a results row keeps it."""
        return asdict(self)


def _number(value: object) -> float:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0.0


def _measured(record: CallRecord, result: LLMResult) -> None:
    """Fill ``record`` from a finished call's reply: usage and, from llama.cpp, its timings."""
    generations = [g for batch in result.generations for g in batch]
    message = getattr(generations[0], "message", None) if generations else None
    meta: Mapping[str, Any] = getattr(message, "response_metadata", None) or {}
    usage: Mapping[str, Any] = getattr(message, "usage_metadata", None) or {}
    details: Mapping[str, Any] = usage.get("input_token_details") or {}
    record.prompt_tokens = int(usage.get("input_tokens", 0))
    record.completion_tokens = int(usage.get("output_tokens", 0))
    record.cached_tokens = int(details.get("cache_read", 0) or 0)
    record.finish_reason = str(meta.get("finish_reason") or "")
    timings: Mapping[str, Any] = meta.get("timings") or {}
    if timings:  # llama.cpp: the server's own milliseconds and its cache hits
        record.prompt_seconds = round(_number(timings.get("prompt_ms")) / 1000, 3)
        predicted = _number(timings.get("predicted_ms")) / 1000
        record.seconds = round(record.prompt_seconds + predicted, 3)
        record.cached_tokens = int(_number(timings.get("cache_n"))) or record.cached_tokens
        if not record.prompt_tokens:
            record.prompt_tokens = int(_number(timings.get("prompt_n"))) + record.cached_tokens
        if not record.completion_tokens:
            record.completion_tokens = int(_number(timings.get("predicted_n")))
    else:
        record.seconds = record.wall_seconds


class CallRecorder(BaseCallbackHandler):
    """A callback handler keeping a :class:`CallRecord` per chat-model call it sees (a run's
    calls, when given to that run's ``invoke``); safe to share between threads."""

    raise_error = False  # a record that cannot be made never fails the run

    def __init__(self) -> None:
        self.records: list[CallRecord] = []
        self._open: dict[UUID, tuple[CallRecord, float]] = {}
        self._lock = threading.Lock()

    def on_chat_model_start(
        self,
        serialized: dict[str, Any],
        messages: list[list[Any]],
        *,
        run_id: UUID,
        metadata: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        record = CallRecord(kind=call_kind(metadata).value)
        with self._lock:
            self._open[run_id] = (record, time.monotonic())

    def _close(self, run_id: UUID) -> CallRecord | None:
        with self._lock:
            opened = self._open.pop(run_id, None)
        if opened is None:
            return None
        record, started = opened
        record.wall_seconds = round(time.monotonic() - started, 3)
        return record

    def on_llm_end(self, response: LLMResult, *, run_id: UUID, **kwargs: Any) -> None:
        record = self._close(run_id)
        if record is None:
            return
        _measured(record, response)
        with self._lock:
            self.records.append(record)

    def on_llm_error(self, error: BaseException, *, run_id: UUID, **kwargs: Any) -> None:
        record = self._close(run_id)
        if record is None:
            return
        record.failed = True
        record.seconds = record.wall_seconds
        with self._lock:
            self.records.append(record)

    def rows(self) -> list[dict[str, Any]]:
        """Every call so far, in the order they ended, as results rows keep them."""
        with self._lock:
            return [record.as_row() for record in self.records]


def summarize_calls(calls: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, float]]:
    """Per kind of call: how many, their tokens (prompt, cached, completion), their seconds,
    and how many were cut off at the length limit."""
    out: dict[str, dict[str, float]] = {}
    for call in calls:
        kind = out.setdefault(
            str(call.get("kind", CallKind.OTHER.value)),
            dict.fromkeys(
                ("calls", "prompt_tokens", "cached_tokens", "completion_tokens", "seconds", "cut"),
                0.0,
            ),
        )
        kind["calls"] += 1
        for name in ("prompt_tokens", "cached_tokens", "completion_tokens", "seconds"):
            kind[name] += _number(call.get(name))
        kind["cut"] += call.get("finish_reason") == "length"
    return out
