"""Finished runs as step records: conversion from LangChain messages, digest, truncation."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from typing import Any, TypedDict, cast

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage

from langgraph_mtl.memory.records import utf8_safe

__all__ = [
    "Step",
    "approx_tokens",
    "clean_text",
    "coerce_steps",
    "map_step",
    "render_steps",
    "run_digest",
    "steps_from_messages",
    "task_from_messages",
    "truncate_steps",
]

_CHARS_PER_TOKEN = 4


class Step(TypedDict, total=False):
    """One agent step: its reasoning, the action it took and what it observed."""

    thought: str
    action: str
    observation: str


def map_step(step: Step, fn: Callable[[str], str]) -> Step:
    """A copy of a step with ``fn`` applied to each of its texts."""
    return cast(Step, {key: fn(str(value)) for key, value in step.items()})


def approx_tokens(text: str) -> int:
    """A tokenizer-free token estimate (4 characters a token), good enough for budgets."""
    return len(text) // _CHARS_PER_TOKEN + 1


def _text(message: BaseMessage) -> str:
    content = message.content
    if isinstance(content, str):
        return content
    parts = [p.get("text", "") if isinstance(p, dict) else str(p) for p in content]
    return "\n".join(p for p in parts if p)


def task_from_messages(messages: Sequence[BaseMessage]) -> str:
    """The first human message's text: the task the run was given."""
    for message in messages:
        if isinstance(message, HumanMessage):
            return _text(message)
    return ""


def steps_from_messages(messages: Sequence[BaseMessage]) -> list[Step]:
    """Steps from a message history: AI tool calls become actions, tool results observations.

    With a text protocol (no tool calls) each AI message is an action and the next human
    message its observation. The first human message (the task) and system messages are skipped.
    """
    steps: list[Step] = []
    by_call: dict[str, Step] = {}
    seen_task = False
    for message in messages:
        if isinstance(message, SystemMessage):
            continue
        if isinstance(message, HumanMessage) and not seen_task:
            seen_task = True
            continue
        if isinstance(message, AIMessage):
            if message.tool_calls:
                for call in message.tool_calls:
                    args = json.dumps(call.get("args", {}), ensure_ascii=False, sort_keys=True)
                    step: Step = {
                        "thought": _text(message),
                        "action": f"{call['name']}({args})",
                        "observation": "",
                    }
                    steps.append(step)
                    if call.get("id"):
                        by_call[str(call["id"])] = step
            else:
                steps.append({"thought": "", "action": _text(message), "observation": ""})
        elif isinstance(message, ToolMessage):
            target = by_call.get(message.tool_call_id)
            if target is not None:
                target["observation"] = _text(message)
        elif isinstance(message, HumanMessage) and steps and not steps[-1]["observation"]:
            steps[-1]["observation"] = _text(message)
    return steps


def run_digest(task: str, steps: Sequence[Step]) -> str:
    """A short, stable fingerprint of a run (task plus actions and observations)."""
    body = json.dumps(
        [task, [[s.get("action", ""), s.get("observation", "")] for s in steps]],
        ensure_ascii=False,
    )
    return hashlib.sha256(body.encode("utf-8", "replace")).hexdigest()[:32]


def _clip(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    head = limit * 2 // 3
    tail = limit - head
    return f"{text[:head]}\n[... {len(text) - limit} characters cut ...]\n{text[-tail:]}"


def truncate_steps(
    steps: Sequence[Step], *, max_tokens: int = 6000, max_field_chars: int = 2000
) -> list[Step]:
    """Fit steps into a token budget: clip long fields, then drop middle steps, marking the cut."""
    clipped = [map_step(step, lambda v: _clip(v, max_field_chars)) for step in steps]

    def cost(step: Step) -> int:
        return sum(approx_tokens(str(v)) for v in step.values())

    if sum(cost(s) for s in clipped) <= max_tokens:
        return clipped
    head: list[Step] = []
    tail: list[Step] = []
    budget = max_tokens - 20
    left, right = 0, len(clipped) - 1
    take_head = True
    while left <= right:
        step = clipped[left] if take_head else clipped[right]
        if cost(step) > budget:
            break
        budget -= cost(step)
        if take_head:
            head.append(step)
            left += 1
        else:
            tail.insert(0, step)
            right -= 1
        take_head = not take_head
    omitted = right - left + 1
    marker: Step = {"thought": "", "action": f"[... {omitted} steps cut ...]", "observation": ""}
    return head + ([marker] if omitted > 0 else []) + tail


def render_steps(steps: Sequence[Step], *, with_thoughts: bool = False) -> str:
    """Steps as plain text for a prompt or a trajectory memory."""
    lines: list[str] = []
    for number, step in enumerate(steps, start=1):
        if with_thoughts and step.get("thought"):
            lines.append(f"Step {number} thought: {step['thought']}")
        lines.append(f"Step {number} action: {step.get('action', '')}")
        if step.get("observation"):
            lines.append(f"Step {number} observation: {step['observation']}")
    return "\n".join(lines)


def _as_text(value: Any) -> str:
    if isinstance(value, bytes | bytearray):
        return bytes(value).decode("utf-8", "replace")  # binary or non-UTF-8 output
    return "" if value is None else str(value)


def coerce_steps(raw: Any) -> list[Step]:
    """Accept steps as dicts or (action, observation) pairs; anything else is an error."""
    steps: list[Step] = []
    for index, item in enumerate(raw or []):
        if isinstance(item, dict):
            steps.append(
                Step(
                    thought=_as_text(item.get("thought", "")),
                    action=_as_text(item.get("action", "")),
                    observation=_as_text(item.get("observation", "")),
                )
            )
        elif isinstance(item, list | tuple) and len(item) == 2:
            steps.append(
                {"thought": "", "action": _as_text(item[0]), "observation": _as_text(item[1])}
            )
        else:
            raise ValueError(f"trajectory step {index} is not a dict or (action, observation) pair")
    return steps


def clean_text(text: str) -> str:
    """Drop control characters (but newlines and tabs) and unpaired surrogates."""
    text = utf8_safe(text)
    return "".join(ch for ch in text if ch in "\n\t" or (ord(ch) >= 32 and ord(ch) != 127))
