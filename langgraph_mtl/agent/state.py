"""The agent's run context (what a run is given) and its graph state (what a run records)."""

from __future__ import annotations

import operator
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Annotated

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages

from langgraph_mtl.agent.history import StepFacts
from langgraph_mtl.agent.sandbox import path_names
from langgraph_mtl.agent.verdict import WorkspaceVerifier
from langgraph_mtl.agent.workspace import outside_workspace
from langgraph_mtl.nodes.base import MemoryContext, MemoryState

__all__ = ["AgentContext", "CodingAgentState"]


@dataclass
class AgentContext(MemoryContext):
    """Run settings: the memory settings plus the workspace and how the finished run is
    checked: ``verifier`` (a callable given the workspace path, e.g. a task's hidden tests run
    outside the workspace) or else ``verify_command`` (a shell command run in the sandbox).
    ``command_env``: variables the agent's commands get, e.g. a ``PATH`` that puts the task's
    interpreter first. ``task_kind`` picks the limits of that kind of task
    (:class:`.config.Limits`, e.g. "repository"). ``protected``: workspace files or folders
    the agent must leave as they are (a task's tests): its writes and edits of them are
    refused, and under bubblewrap its commands see them read-only. ``check_command``: the
    command that checks the work (``python -m pytest -q``), declared by the task; policies run
    it after a change (never found in the task's wording)."""

    workspace: str | None = None
    task_kind: str | None = None
    command_env: dict[str, str] | None = None
    protected: tuple[str, ...] = ()
    verify_command: str | None = None
    check_command: str | None = None
    verifier: WorkspaceVerifier | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.workspace is not None and not isinstance(self.workspace, str | os.PathLike):
            raise ValueError(
                f"context.workspace: expected a folder path, got {self.workspace!r:.60}"
            )
        if self.command_env is not None and not (
            isinstance(self.command_env, Mapping)
            and all(isinstance(k, str) and isinstance(v, str) for k, v in self.command_env.items())
        ):
            raise ValueError(
                f"context.command_env: expected names and values as text, like {{'PATH': '/x'}}, "
                f"got {self.command_env!r:.60}"
            )
        for name in ("verify_command", "check_command"):
            given = getattr(self, name)
            if given is not None and (not isinstance(given, str) or not given.strip()):
                raise ValueError(
                    f"context.{name}: expected a shell command as text, like 'pytest -q', "
                    f"got {given!r:.60}"
                )
        if self.verifier is not None and not callable(self.verifier):
            raise ValueError(
                "context.verifier: expected a callable given the workspace, got "
                f"{self.verifier!r:.60}"
            )
        try:
            named = path_names(self.protected)
        except ValueError as exc:
            raise ValueError(f"context.protected: {exc}") from None
        for name in named:
            if why := outside_workspace(name):
                raise ValueError(
                    f"context.protected: {name!r} {why}; name files or folders inside the "
                    "workspace, relative to it, like 'tests' or 'src/test_a.py'"
                )
        self.protected = named


class CodingAgentState(MemoryState, total=False):
    """The agent's state: the memory keys plus the conversation and the run's bookkeeping."""

    messages: Annotated[list[AnyMessage], add_messages]
    history: list[StepFacts]  # the typed record of each act step (:mod:`.history`)
    plan: str
    protocol: str  # this run's action protocol (a server refusing the schema switches it)
    steps_taken: int
    commands_run: int
    submitted: bool
    format_errors: int
    consecutive_format_errors: int
    tokens_used: Annotated[int, operator.add]
    verification: str
    tampered: list[str]
    workspace: str
    start_digest: str
    start_files: dict[str, str]  # path -> sha256 of each text file when the run began
    changed_files: dict[str, str]  # path -> text of the files the run changed, as they ended
    asked_to_change: bool
    asked_after_failure: bool
