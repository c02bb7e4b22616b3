"""The four memory types of Memory Transfer Learning and the record every stored memory shares.

Each abstract type is a pydantic model whose docstring and field descriptions ARE the
instruction given to the abstracting model (through ``with_structured_output``).
"""

from __future__ import annotations

import hashlib
import json
import re
import uuid
from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from langgraph_mtl.memory.enums import Judge, MemoryType, Outcome

__all__ = [
    "SCHEMA_VERSION",
    "InsightMemory",
    "Judge",
    "MemoryRecord",
    "MemorySource",
    "MemoryType",
    "Outcome",
    "SummaryMemory",
    "TrajectoryMemory",
    "WorkflowMemory",
    "memory_id",
    "schema_for",
    "validate_domain",
    "validate_task_id",
]

SCHEMA_VERSION = 1
_MAX_FIELD_CHARS = 3000
_MAX_ITEMS = 12
_ID_NAMESPACE = uuid.UUID("6f1f3c52-1d0e-5a53-9d3b-6d746c2d6d74")


class TrajectoryMemory(BaseModel):
    """A raw trace: the task and every action with its observation, no reasoning text."""

    task: str = Field(description="The task statement as given to the agent.")
    steps: list[tuple[str, str]] = Field(
        default_factory=list, description="(action, observation) pairs in order."
    )


# Bounds a grammar-constrained model (llama.cpp compiles the JSON schema into a grammar) cannot
# step over; they are in the schema only, so the rules, not validation, judge other models'
# text. An insight's three fields hold at most 390 characters in all: 60 words of English.
# (Characters a field may not hold are not bounded so: a small model kept from writing one
# glues words together or pads the field with spaces.)
INSIGHT_CHARS = {"title": 60, "description": 130, "content": 200}


class _AbstractMemory(BaseModel):
    """Shared checks on a model's answer (kept out of the JSON schema the model sees)."""

    @field_validator("*", mode="before")
    @classmethod
    def _stripped(cls, value: Any) -> Any:
        """Text without the blank a grammar-bound reply may pad a field with."""
        if isinstance(value, str):
            return value.strip()
        if isinstance(value, list):
            return [item.strip() if isinstance(item, str) else item for item in value]
        return value

    @model_validator(mode="after")
    def _bounded(self) -> _AbstractMemory:
        for name, value in self:
            values = value if isinstance(value, list) else [value]
            if not values or len(values) > _MAX_ITEMS:
                raise ValueError(f"{name}: expected 1 to {_MAX_ITEMS} items")
            for item in values:
                if not isinstance(item, str) or not item.strip():
                    raise ValueError(f"{name}: must be non-empty text")
                if len(item) > _MAX_FIELD_CHARS:
                    raise ValueError(f"{name}: longer than {_MAX_FIELD_CHARS} characters")
        return self


class WorkflowMemory(_AbstractMemory):
    """A reusable workflow distilled from one coding-agent run.

    For a successful run: state when this workflow applies and list the few key commands or
    actions that made it work. For a failed run: state when this applies and list the
    anti-pattern to avoid together with what to do instead. Keep it general enough to help on
    a different codebase or language; do not copy long code.
    """

    goal: str = Field(
        description="One sentence: the kind of goal this workflow applies to.",
        json_schema_extra={"maxLength": 300},
    )
    steps: list[str] = Field(
        description="2-8 short, ordered key actions or commands (or anti-patterns to avoid).",
        json_schema_extra={"minItems": 1, "maxItems": 8, "items": {"maxLength": 200}},
    )


class SummaryMemory(_AbstractMemory):
    """A summary of one coding-agent run.

    Summarise the task and the experience: the environment, the key actions, the outcome and
    why it succeeded or failed, so a different agent on a different task can learn from it.
    """

    task_summary: str = Field(
        description="2-3 sentences describing the task.", json_schema_extra={"maxLength": 600}
    )
    experience_summary: str = Field(
        description=(
            "One paragraph: environment, key actions, outcome, and why the run succeeded or failed."
        ),
        json_schema_extra={"maxLength": 1200},
    )


class InsightMemory(_AbstractMemory):
    """One transferable insight learned from a coding-agent run.

    Write meta-knowledge that helps on OTHER tasks and domains: how to explore, validate,
    iterate or avoid a failure. For a failed run, name the cause the verifier's report shows
    and a general rule that prevents it; for a successful run, what made it work beyond this
    task, without retelling the algorithm. At most 60 words in all.
    Do not mention specific files, function names, queries, literals or strings from the task.
    """

    title: str = Field(
        description="A short, general title (at most 8 words).",
        json_schema_extra={"maxLength": INSIGHT_CHARS["title"]},
    )
    description: str = Field(
        description="One sentence (at most 20 words) saying when the insight applies.",
        json_schema_extra={"maxLength": INSIGHT_CHARS["description"]},
    )
    content: str = Field(
        description="1-3 sentences (at most 32 words) of actionable guidance.",
        json_schema_extra={"maxLength": INSIGHT_CHARS["content"]},
    )


_SCHEMAS: dict[MemoryType, type[BaseModel]] = {
    MemoryType.TRAJECTORY: TrajectoryMemory,
    MemoryType.WORKFLOW: WorkflowMemory,
    MemoryType.SUMMARY: SummaryMemory,
    MemoryType.INSIGHT: InsightMemory,
}


def schema_for(memory_type: MemoryType | str) -> type[BaseModel]:
    """The pydantic schema of a memory type."""
    return _SCHEMAS[MemoryType(memory_type)]


def utf8_safe(text: str) -> str:
    """``text`` with what UTF-8 cannot hold (a lone surrogate from undecodable bytes) as ``?``."""
    return text.encode("utf-8", "replace").decode("utf-8")


def memory_id(memory_type: MemoryType | str, domain: str, task_id: str, run_digest: str) -> str:
    """A stable id from a memory's provenance, so a retried write upserts instead of duplicating."""
    name = f"{MemoryType(memory_type).value}|{domain}|{task_id}|{run_digest}"
    return str(uuid.uuid5(_ID_NAMESPACE, utf8_safe(name)))


_DOMAIN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
_TASK_ID = re.compile(r"^[A-Za-z0-9_./:@+#=-][A-Za-z0-9_./:@+#=, -]{0,255}$")


def validate_domain(value: str, argument: str = "domain") -> str:
    """A domain name: 1-64 letters, digits, ``_``, ``.`` or ``-`` (it is rendered into prompts
    and used in filters, so nothing else is allowed)."""
    if not isinstance(value, str) or not _DOMAIN.match(value.strip()):
        raise ValueError(
            f"{argument}: {value!r} is not a domain name (1-64 letters, digits, '_', '.', '-')"
        )
    return value.strip()


def validate_task_id(value: str, argument: str = "task_id") -> str:
    """A task id: 1-256 letters, digits, spaces and ``_./:@+#=,-`` (no markup characters)."""
    if not isinstance(value, str) or not _TASK_ID.match(value.strip()):
        raise ValueError(
            f"{argument}: {value!r} is not a task id (1-256 letters, digits, spaces and _./:@+#=,-)"
        )
    return value.strip()


MAX_KEY_CHARS = 20_000
MAX_CONTENT_CHARS = 60_000
MAX_PAYLOAD_CHARS = 120_000
MAX_PAYLOAD_DEPTH = 32
MAX_LABEL_CHARS = 256
MAX_FLAG_CHARS = 1024
MAX_FLAG_NAME_CHARS = 64


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _nesting_depth(value: object, stop: int = MAX_PAYLOAD_DEPTH + 1) -> int:
    """How deeply lists and objects nest in a JSON-like value (a scalar is 0), counted without
    recursion and no further than ``stop``."""
    deepest, level = 0, [(value, 0)]
    while level:
        item, depth = level.pop()
        if isinstance(item, dict | list | tuple) and depth < stop:
            deepest = max(deepest, depth + 1)
            level.extend((child, depth + 1) for child in _children(item))
    return deepest


def _children(item: dict[Any, Any] | list[Any] | tuple[Any, ...]) -> Any:
    return item.values() if isinstance(item, dict) else item


class MemorySource(BaseModel):
    """One memory merged into another as a duplicate: where it came from."""

    model_config = ConfigDict(frozen=True)

    id: str
    task_id: str = ""
    outcome: str = Outcome.UNKNOWN.value
    agent_model: str = "unknown"
    created_at: str = ""

    @classmethod
    def of(cls, record: MemoryRecord) -> MemorySource:
        """The source entry a merged record leaves behind."""
        return cls(
            id=record.id,
            task_id=record.task_id,
            outcome=record.outcome.value,
            agent_model=record.agent_model,
            created_at=record.created_at,
        )


class MemoryRecord(BaseModel):
    """A stored memory: the typed payload plus provenance shared by every type.

    ``key`` is the text that is embedded for retrieval; ``content`` is what a reading agent sees;
    ``sources`` are the duplicates merged into it (oldest first).
    """

    model_config = ConfigDict(frozen=True, use_enum_values=False)

    id: str
    memory_type: MemoryType
    domain: str
    task_id: str
    outcome: Outcome = Outcome.UNKNOWN
    judged_by: Judge = Judge.NONE
    agent_model: str = Field(default="unknown", max_length=MAX_LABEL_CHARS)
    abstraction_model: str = Field(default="none", max_length=MAX_LABEL_CHARS)
    key: str = Field(min_length=1, max_length=MAX_KEY_CHARS)
    content: str = Field(min_length=1, max_length=MAX_CONTENT_CHARS)
    payload: dict[str, Any] = Field(default_factory=dict)
    created_at: str = Field(default_factory=_now)
    schema_version: int = SCHEMA_VERSION
    run_digest: str = ""
    flags: dict[str, str | int | float | bool] = Field(default_factory=dict)
    sources: tuple[MemorySource, ...] = ()

    @field_validator("key", "content", "agent_model", "abstraction_model", mode="before")
    @classmethod
    def _encodable(cls, value: Any) -> Any:
        """Text UTF-8 cannot hold is kept with those characters replaced, not refused."""
        return utf8_safe(value) if isinstance(value, str) else value

    @field_validator("domain")
    @classmethod
    def _safe_domain(cls, value: str) -> str:
        return validate_domain(value, "must be")

    @field_validator("task_id")
    @classmethod
    def _safe_task_id(cls, value: str) -> str:
        return validate_task_id(value, "must be")

    @field_validator("created_at")
    @classmethod
    def _aware_timestamp(cls, value: str) -> str:
        try:
            parsed = datetime.fromisoformat(value)
        except (TypeError, ValueError):
            raise ValueError(
                "must be an ISO 8601 time with a timezone, e.g. 2026-01-31T12:00:00+00:00"
            ) from None
        if parsed.tzinfo is None:
            raise ValueError("must carry a timezone, e.g. 2026-01-31T12:00:00+00:00")
        return value

    @field_validator("payload")
    @classmethod
    def _bounded_payload(cls, value: dict[str, Any]) -> dict[str, Any]:
        if _nesting_depth(value) > MAX_PAYLOAD_DEPTH:
            raise ValueError(
                f"nests more than {MAX_PAYLOAD_DEPTH} levels deep; flatten the structure"
            )
        size = len(json.dumps(value, ensure_ascii=False, default=str))
        if size > MAX_PAYLOAD_CHARS:
            raise ValueError(f"is {size} characters as JSON; at most {MAX_PAYLOAD_CHARS} fit")
        return value

    @field_validator("flags")
    @classmethod
    def _boolean_switches(cls, value: dict[str, Any]) -> dict[str, Any]:
        if "quarantined" in value and not isinstance(value["quarantined"], bool):
            raise ValueError(f"quarantined must be true or false, not {value['quarantined']!r}")
        for name, flag in value.items():
            if len(name) > MAX_FLAG_NAME_CHARS or (
                isinstance(flag, str) and len(flag) > MAX_FLAG_CHARS
            ):
                raise ValueError(
                    f"flag {name[:MAX_FLAG_NAME_CHARS]!r}: names take up to "
                    f"{MAX_FLAG_NAME_CHARS} characters, values {MAX_FLAG_CHARS}"
                )
        redacted = value.get("redacted", 0)
        if isinstance(redacted, bool) or not isinstance(redacted, int) or redacted < 0:
            raise ValueError(f"redacted must be a count (0 or more), not {redacted!r}")
        return value

    @field_validator("id")
    @classmethod
    def _no_control_chars(cls, value: str) -> str:
        if any(ord(ch) < 32 or ord(ch) == 127 for ch in value):
            raise ValueError("must not contain control characters")
        if not value.strip() or len(value) > 512:
            raise ValueError("must be 1 to 512 characters")
        return value.strip()

    @property
    def content_hash(self) -> str:
        """sha256 of the type and content, used for exact-duplicate detection."""
        return hashlib.sha256(f"{self.memory_type.value}\n{self.content}".encode()).hexdigest()
