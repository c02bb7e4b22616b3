"""The memory layer's vocabulary: memory types, outcomes, judges. Plain enums with no
dependencies, so the command line can offer them without loading the schemas."""

from __future__ import annotations

from enum import StrEnum

__all__ = ["Judge", "MemoryType", "Outcome"]


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
