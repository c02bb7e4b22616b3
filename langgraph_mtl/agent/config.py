"""The coding agent's configuration in four groups, each checked and normalised once when built
and passed whole to what uses it (the retrieval and writer settings are the nodes' own).

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

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from langgraph_mtl.agent.sandbox import SandboxMode, path_names
from langgraph_mtl.nodes.retrieval_node import RetrievalConfig
from langgraph_mtl.nodes.writer_node import WriterConfig
from langgraph_mtl.pool.search import checked_k

__all__ = ["Limits", "RetrievalConfig", "SandboxConfig", "WriterConfig"]

SANDBOX_MODES = ("auto", "bwrap", "none")
# the agent retrieves insights unless told otherwise (the most abstract type transfers best),
# searching with the task itself (or the problem's text in state["memory_query"]): no extra call
DEFAULT_RETRIEVAL = RetrievalConfig(memory_types="insight", strategy="task")


@dataclass(frozen=True)
class SandboxConfig:
    """Where and how long commands run: ``mode`` "auto" (bubblewrap when available), "bwrap"
    or "none"; each command's timeout in seconds and the output kept from it; ``hide``: more
    folders or files the commands must not see (beside ``$MTL_HOME``, the user's caches and
    this project's checkout, always hidden), e.g. a folder of task files and answers."""

    mode: SandboxMode = "auto"
    command_timeout: float = 60.0
    max_output_chars: int = 4000
    hide: tuple[str, ...] = ()  # more folders or files the agent's commands must not see

    def __post_init__(self) -> None:
        if self.mode not in SANDBOX_MODES:
            raise ValueError(f"sandbox.mode: expected auto, bwrap or none, got {self.mode!r}")
        if not self.command_timeout > 0:
            raise ValueError(
                f"sandbox.command_timeout: must be > 0 seconds, got {self.command_timeout!r}"
            )
        try:
            object.__setattr__(self, "hide", path_names(self.hide))
        except ValueError as exc:
            raise ValueError(f"sandbox.hide: {exc}") from None
        if self.max_output_chars < 100:
            raise ValueError(
                f"sandbox.max_output_chars: must be >= 100, got {self.max_output_chars!r}"
            )


@dataclass(frozen=True)
class Limits:
    """When the act loop stops: after ``steps`` actions or ``format_errors`` invalid actions in
    a row; ``history_tokens`` is how much of the conversation each call sees. ``kinds`` gives
    other limits for a kind of task (the run context's ``task_kind``), e.g.
    ``Limits(steps=8, kinds={"repository": {"steps": 20, "history_tokens": 8000}})``: a bug
    in a real repository takes reading a traceback, finding the function and fixing one line."""

    steps: int = 15
    format_errors: int = 3
    history_tokens: int = 6000
    kinds: Mapping[str, Mapping[str, int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name in _LIMITS:
            object.__setattr__(self, name, checked_k(getattr(self, name), f"limits.{name}"))
        if not isinstance(self.kinds, Mapping):
            raise ValueError(f"limits.kinds: expected {_KINDS_EXAMPLE}, got {self.kinds!r:.60}")
        kinds = {}
        for kind, values in self.kinds.items():
            if not isinstance(values, Mapping):
                raise ValueError(
                    f"limits.kinds[{kind!r}]: expected the kind's limits as a mapping like "
                    f"{{'steps': 20}}, got {values!r:.60}"
                )
            unknown = set(values) - set(_LIMITS)
            if unknown:
                raise ValueError(
                    f"limits.kinds[{kind!r}]: unknown limit {sorted(unknown)[0]!r}; "
                    f"choose from {', '.join(_LIMITS)}"
                )
            kinds[str(kind)] = {
                k: checked_k(v, f"limits.kinds[{kind!r}].{k}") for k, v in values.items()
            }
        object.__setattr__(self, "kinds", kinds)

    def for_kind(self, kind: str | None) -> Limits:
        """The limits of a kind of task (these, with the kind's own where it has any)."""
        own = self.kinds.get(kind or "")
        return replace(self, kinds={}, **own) if own else self


_LIMITS = ("steps", "format_errors", "history_tokens")
_KINDS_EXAMPLE = "limits by kind of task, like {'repository': {'steps': 20}}"
