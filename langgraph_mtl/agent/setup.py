"""What every node of one agent shares, resolved once when the agent is built: the models, the
action protocol asked for, the sandbox, the limits and how edits are asked for. Frozen: a run
never changes it (what a run decides, such as falling back to the text protocol, lives in that
run's state)."""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, cast

from langchain_core.language_models import BaseChatModel
from langchain_core.tools import BaseTool

from langgraph_mtl.agent.config import Limits, SandboxConfig
from langgraph_mtl.agent.edit_format import DEFAULT_EDITS, EDIT_FORMATS, EditFormat
from langgraph_mtl.agent.policies import Policies, Policy, PolicyChoice
from langgraph_mtl.agent.sandbox import Sandbox
from langgraph_mtl.agent.state import AgentContext, CodingAgentState
from langgraph_mtl.agent.tools import create_sandbox_tools

__all__: list[str] = []  # used within the agent package only

ActionProtocol = Literal["auto", "json", "tools", "text"]


def choose_policies(
    choice: PolicyChoice | Sequence[Policy], *, native_tools: bool
) -> tuple[Policy, ...]:
    """The policies a run gets: a preset by name, the given ones, or with "auto" the safe edits
    for a model that calls tools natively and the small-model preset for any other."""
    from langgraph_mtl.agent.policy_set import PRESETS  # the policies import the agent's parts

    if isinstance(choice, str):
        if choice == "auto":
            return PRESETS["safe-edits" if native_tools else "small-model"]
        if choice not in PRESETS:
            raise ValueError(
                f"policies: expected auto, {', '.join(PRESETS)} or a sequence of policies, "
                f"got {choice!r}"
            )
        return PRESETS[choice]
    if not isinstance(choice, Sequence):
        raise ValueError(f"policies: expected a preset name or a sequence, got {choice!r:.60}")
    return tuple(cast(Sequence[Policy], choice))


def choose_protocol(model: BaseChatModel, requested: ActionProtocol = "auto") -> str:
    """The action protocol for a model: ``requested`` unless "auto", which takes native tool
    calls when the model's profile declares tool calling, the text protocol when it declares
    no structured output, and schema-constrained JSON otherwise (local and compatible servers,
    whose profile is unknown)."""
    if requested != "auto":
        return requested
    profile = getattr(model, "profile", None) or {}
    if profile.get("tool_calling"):
        return "tools"
    if profile.get("structured_output") is False:
        return "text"
    return "json"


@dataclass(frozen=True)
class AgentSetup:
    """One agent's resolved settings (see :func:`.graph.create_coding_agent`)."""

    chat: BaseChatModel
    actions: ActionProtocol = "auto"
    sandbox: SandboxConfig = field(default_factory=SandboxConfig)
    limits: Limits = field(default_factory=Limits)
    plan: bool = True
    edits: EditFormat = DEFAULT_EDITS
    focused_memories: bool = True  # memories also in the calls that write a file or an edit
    tools: tuple[BaseTool, ...] = ()
    tool_actor: Any = None  # the model bound to the tools, when the tools protocol is possible
    policies: Policies = field(default_factory=Policies)

    @classmethod
    def build(
        cls,
        chat: BaseChatModel,
        *,
        actions: ActionProtocol,
        sandbox: SandboxConfig,
        limits: Limits,
        plan: bool,
        edits: EditFormat,
        focused_memories: bool,
        policies: PolicyChoice | Sequence[Policy] = "auto",
    ) -> AgentSetup:
        if actions not in ("auto", "json", "tools", "text"):
            raise ValueError(f"actions: expected auto, json, tools or text, got {actions!r}")
        if edits not in EDIT_FORMATS:
            raise ValueError(f"edits: expected line_range or search_replace, got {edits!r}")
        tools = tuple(
            create_sandbox_tools(
                sandbox=sandbox.mode,
                timeout=sandbox.command_timeout,
                max_output_chars=sandbox.max_output_chars,
                hide=sandbox.hide,
            )
        )
        native = choose_protocol(chat, actions) == "tools"
        actor = chat.bind_tools(list(tools)) if native else None
        chosen = Policies(choose_policies(policies, native_tools=native))
        return cls(
            chat, actions, sandbox, limits, plan, edits, focused_memories, tools, actor, chosen
        )

    def limits_for(self, context: AgentContext | None) -> Limits:
        """The limits of this run's kind of task."""
        return self.limits.for_kind(getattr(context, "task_kind", None))

    def workspace(self, state: CodingAgentState, context: AgentContext | None) -> str:
        """The run's workspace: in state, else the context's, else a fresh folder."""
        found = state.get("workspace") or getattr(context, "workspace", None)
        if not found:
            return tempfile.mkdtemp(prefix="mtl-ws-")
        try:
            Path(found).mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            why = "is a file" if Path(found).is_file() else f"cannot be made ({exc.strerror})"
            raise ValueError(
                f"workspace: {found!r} {why}; give a directory the agent may write in"
            ) from None
        return str(found)

    def box(self, workspace: str, context: AgentContext | None) -> Sandbox:
        """A sandbox for the run's commands (with the context's ``command_env``)."""
        return Sandbox(
            workspace,
            mode=self.sandbox.mode,
            timeout=self.sandbox.command_timeout,
            max_output_chars=self.sandbox.max_output_chars,
            hidden=self.sandbox.hide,
            protected=getattr(context, "protected", ()) or (),
            env=getattr(context, "command_env", None),
        )
