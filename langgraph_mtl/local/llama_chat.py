"""``ChatOpenAI`` for a llama.cpp server: the server's own timings kept with each reply, and
each kind of call sent to a request slot of its own so its prompt prefix stays cached.

An agent's act calls share a long prefix (instructions, task, the steps so far), and so do its
write calls, but the two differ from each other: sent to one slot, each evicts the other's
cache and the next call processes its whole prompt again. With ``lanes`` set, a call goes to
the slot of its lane (which of several runs at once it belongs to, ``mtl_lane`` in its
metadata; 0 when not given) and of its kind's group (:data:`SLOT_GROUPS`), so the server needs
``lanes * len(SLOT_GROUPS)`` slots (:func:`slots_for`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.messages import BaseMessage
from langchain_core.outputs import ChatResult
from langchain_openai import ChatOpenAI

from langgraph_mtl.model_calls import LANE_KEY, CallKind, call_kind

__all__ = ["SLOT_GROUPS", "LlamaCppChat", "slot_of", "slots_for"]

# the kinds that share a slot: act calls, write calls, and the rest (one or two a run each)
SLOT_GROUPS: tuple[frozenset[CallKind], ...] = (
    frozenset({CallKind.ACT}),
    frozenset({CallKind.WRITE}),
    frozenset(set(CallKind) - {CallKind.ACT, CallKind.WRITE}),
)


def slots_for(lanes: int) -> int:
    """How many request slots a server needs for ``lanes`` runs at once, a slot per group."""
    return max(lanes, 1) * len(SLOT_GROUPS)


def slot_of(metadata: Mapping[str, Any] | None, lanes: int) -> int:
    """The slot of a call with this metadata (its lane and its kind's group)."""
    found = dict(metadata or {})
    try:
        lane = int(found.get(LANE_KEY, 0)) % max(lanes, 1)
    except (TypeError, ValueError):
        lane = 0
    kind = call_kind(found)
    group = next(i for i, kinds in enumerate(SLOT_GROUPS) if kind in kinds)
    return lane * len(SLOT_GROUPS) + group


class LlamaCppChat(ChatOpenAI):
    """``ChatOpenAI`` for a llama.cpp server (see the module docstring); ``lanes=0`` leaves the
    choice of slot to the server."""

    lanes: int = 0

    def _routed(self, run: Any, kwargs: dict[str, Any]) -> dict[str, Any]:
        if self.lanes < 1:
            return kwargs
        slot = slot_of(getattr(run, "metadata", None), self.lanes)
        extra = {**(self.extra_body or {}), **(kwargs.get("extra_body") or {}), "id_slot": slot}
        return {**kwargs, "extra_body": extra}

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        routed = self._routed(run_manager, kwargs)
        return super()._generate(messages, stop=stop, run_manager=run_manager, **routed)

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        routed = self._routed(run_manager, kwargs)
        return await super()._agenerate(messages, stop=stop, run_manager=run_manager, **routed)

    def _create_chat_result(self, response: Any, generation_info: dict | None = None) -> ChatResult:
        result = super()._create_chat_result(response, generation_info)
        found = response.get("timings") if isinstance(response, dict) else None
        if found is None:
            found = getattr(response, "timings", None)
        if isinstance(found, Mapping):
            timings = dict(found)
            for generation in result.generations:
                generation.message.response_metadata["timings"] = timings
        return result
