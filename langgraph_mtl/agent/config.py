"""The coding agent's configuration in four groups, each checked and normalised once when built.

create_coding_agent(
    "local",
    pool=open_pool(),
    retrieval=RetrievalConfig(memory_types=("insight", "workflow"), k=5),
    writer=WriterConfig(memory_types=("trajectory", "insight")),
    sandbox=SandboxConfig(mode="bwrap", command_timeout=30),
    limits=Limits(steps=10),
)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from langgraph_mtl.agent.sandbox import SandboxMode
from langgraph_mtl.memory.enums import MemoryType, parse_memory_types
from langgraph_mtl.transfer.retrieval import QueryStrategy, Scorer

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

    from langgraph_mtl.nodes.outbox import Outbox

__all__ = ["Limits", "RetrievalConfig", "SandboxConfig", "WriterConfig"]

TypesArg = Iterable[MemoryType | str] | MemoryType | str
SANDBOX_MODES = ("auto", "bwrap", "none")


@dataclass(frozen=True)
class RetrievalConfig:
    """What the retrieval node fetches before the act loop.

    ``memory_types=None`` retrieves every type; ``strategy`` is the query made from the task
    (AUTO: the paper's per-type query, the plan for plan-based types); ``rerank`` lets the model
    reorder three times ``k`` candidates; ``min_similarity`` declines memories below it;
    ``scorers`` re-rank by similarity plus their bonuses."""

    memory_types: TypesArg | None = (MemoryType.INSIGHT,)
    k: int = 3
    strategy: QueryStrategy | str = QueryStrategy.AUTO
    rerank: bool = False
    min_similarity: float | None = None
    scorers: tuple[Scorer, ...] = ()

    def __post_init__(self) -> None:
        if self.memory_types is not None:
            types = parse_memory_types(self.memory_types, "retrieval.memory_types")
            object.__setattr__(self, "memory_types", types)
        if isinstance(self.k, bool) or not isinstance(self.k, int) or self.k < 1:
            raise ValueError(f"retrieval.k: expected a whole number >= 1, got {self.k!r}")
        try:
            object.__setattr__(self, "strategy", QueryStrategy(self.strategy))
        except ValueError:
            names = ", ".join(s.value for s in QueryStrategy)
            raise ValueError(
                f"retrieval.strategy: expected one of {names}, got {self.strategy!r}"
            ) from None
        if self.min_similarity is not None and not -1.0 <= self.min_similarity <= 1.0:
            raise ValueError(
                f"retrieval.min_similarity: expected -1..1, got {self.min_similarity!r}"
            )


@dataclass(frozen=True)
class WriterConfig:
    """What the writer node stores after the run: the ``memory_types`` the run is abstracted
    into, by ``model`` (default: the acting model); ``judge`` decides the outcome when the run
    has no verifier; ``outbox`` keeps runs the pool could not take."""

    memory_types: TypesArg = (MemoryType.INSIGHT,)
    model: str | BaseChatModel | None = None
    judge: str | BaseChatModel | None = None
    outbox: Outbox | str | None = None

    def __post_init__(self) -> None:
        types = parse_memory_types(self.memory_types, "writer.memory_types")
        if not types:
            raise ValueError("writer.memory_types: name at least one memory type")
        object.__setattr__(self, "memory_types", types)


@dataclass(frozen=True)
class SandboxConfig:
    """Where and how long commands run: ``mode`` "auto" (bubblewrap when available), "bwrap"
    or "none"; each command's timeout in seconds and the output kept from it."""

    mode: SandboxMode = "auto"
    command_timeout: float = 60.0
    max_output_chars: int = 4000

    def __post_init__(self) -> None:
        if self.mode not in SANDBOX_MODES:
            raise ValueError(f"sandbox.mode: expected auto, bwrap or none, got {self.mode!r}")
        if not self.command_timeout > 0:
            raise ValueError(
                f"sandbox.command_timeout: must be > 0 seconds, got {self.command_timeout!r}"
            )
        if self.max_output_chars < 100:
            raise ValueError(
                f"sandbox.max_output_chars: must be >= 100, got {self.max_output_chars!r}"
            )


@dataclass(frozen=True)
class Limits:
    """When the act loop stops: after ``steps`` actions or ``format_errors`` invalid actions in
    a row; ``history_tokens`` is how much of the conversation each call sees."""

    steps: int = 15
    format_errors: int = 3
    history_tokens: int = 6000

    def __post_init__(self) -> None:
        for name in ("steps", "format_errors", "history_tokens"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"limits.{name}: expected a whole number >= 1, got {value!r}")
