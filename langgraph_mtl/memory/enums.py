"""The memory layer's vocabulary: memory types, outcomes, judges. Plain enums with no
dependencies, so the command line can offer them without loading the schemas."""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum

__all__ = ["Judge", "MemoryType", "Outcome", "parse_memory_types"]


class MemoryType(StrEnum):
    """Memory types, from concrete to abstract."""

    TRAJECTORY = "trajectory"
    WORKFLOW = "workflow"
    SUMMARY = "summary"
    INSIGHT = "insight"


class Outcome(StrEnum):
    """How the run that produced a memory ended."""

    SUCCESS = "success"
    FAILURE = "failure"
    UNKNOWN = "unknown"


class Judge(StrEnum):
    """Who decided the outcome."""

    VERIFIER = "verifier"
    LLM_JUDGE = "llm-judge"
    HUMAN = "human"
    NONE = "none"


def parse_memory_types(
    value: Iterable[MemoryType | str] | MemoryType | str | None, argument: str
) -> tuple[MemoryType, ...]:
    """Memory types from names or members, in order, without repeats (``None``: none).
    Raises ValueError naming ``argument`` and the choices."""
    if value is None:
        return ()
    try:
        items = [value] if isinstance(value, str | MemoryType) else list(value)
        return tuple(dict.fromkeys(MemoryType(item) for item in items))
    except (TypeError, ValueError):
        names = ", ".join(t.value for t in MemoryType)
        raise ValueError(f"{argument}: expected some of {names}, got {value!r}") from None
