"""The agent's steering as named, switchable policies over the typed step history.

The loop (plan, act, route, finish) works with no policy at all. Each policy is one rule family,
written for a failure a model makes, behind one set of middleware-shaped hooks; a run takes a
tuple of them (``create_coding_agent(..., policies="small-model")``), and the name of each policy
that acts is kept in the step's facts, so a trace shows who acted; what the model reads carries
no such tag. The policies themselves and the presets are in :mod:`.policy_set`.

Hooks, in the order a step meets them:

- ``narrow_schema``: the JSON schema of the next action (JSON protocol);
- ``after_model``: the action the JSON protocol's reply chose, before its focused write call;
- ``edit_region``: the lines a line edit is asked for;
- ``ask_again``: what to say when the focused call gave a file back unchanged;
- ``before_tool``: the complete action, before it is carried out (every protocol);
- ``after_tool``: after it, commands to run and notes to add;
- ``should_end``: whether the run ends now.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import ClassVar, Literal

from langgraph_mtl.agent.actions import Action, AgentAction
from langgraph_mtl.agent.history import Run, StepFacts
from langgraph_mtl.agent.outcomes import Answer
from langgraph_mtl.agent.sandbox import Sandbox

__all__ = ["Policy", "StepView"]

PolicyChoice = Literal["auto", "bare", "safe-edits", "small-model"]


@dataclass
class StepView:
    """What a policy sees of the run at a step: the task, its declared check, the workspace
    and its sandbox, the typed history, and the one-time questions already asked."""

    task: str
    workspace: str
    history: Sequence[StepFacts]
    box: Sandbox
    check: str | None = None
    asked: frozenset[str] = frozenset()
    digest: Callable[[], bool] = field(default=lambda: False, repr=False)

    @cached_property
    def unchanged(self) -> bool:
        """Whether nothing in the workspace has changed since the run began (walked once)."""
        return self.digest()


@dataclass
class AfterTool:
    """What ``after_tool`` hooks add to a step: notes, the commands they ran, whether the
    task's declared check was one, a missing file named, and whether the run ends now."""

    notes: list[str] = field(default_factory=list)
    runs: list[Run] = field(default_factory=list)
    checked: bool = False
    missing: str = ""
    ends: bool = False
    acted: list[str] = field(default_factory=list)


class Policy:
    """One rule family. Subclasses set ``name`` and override the hooks they need; each says in
    its docstring which failure it addresses. ``guards_changes``: the executor refuses a change
    that would break the file (see :class:`.policy_set.SafeEdits`)."""

    name: ClassVar[str] = ""
    guards_changes: ClassVar[bool] = False

    def narrow_schema(self, schema: type[AgentAction], view: StepView) -> type[AgentAction]:
        return schema

    def after_model(self, action: Action, view: StepView) -> Action:
        return action

    def edit_region(
        self, action: Action, text: str, region: tuple[int, int] | None, view: StepView
    ) -> tuple[Action, tuple[int, int] | None]:
        return action, region

    def ask_again(self, path: str, view: StepView) -> str | None:
        return None

    def before_tool(self, action: Action, view: StepView) -> Action:
        return action

    def after_tool(self, action: Action, answer: Answer, view: StepView, added: AfterTool) -> None:
        return None

    def should_end(self, history: Sequence[StepFacts]) -> bool:
        return False

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


def voice(name: str, text: str) -> str:
    """What policy ``name`` says to the model: ``text`` as it is. Every note or error a policy
    adds passes here (rewording or translating them is one change); who said it is kept in the
    step's facts, not in the text."""
    return text


class Policies:
    """A run's policies, in order, applied hook by hook; each records its name when it acts."""

    def __init__(self, items: Sequence[Policy] = ()) -> None:
        for item in items:
            if not isinstance(item, Policy):
                raise ValueError(
                    f"policies: expected Policy objects (see langgraph_mtl.agent.policy_set), "
                    f"got {item!r:.60}"
                )
        names = [item.name for item in items]
        if len(set(names)) != len(names):
            raise ValueError(f"policies: each policy once, got {', '.join(names)}")
        self.items = tuple(items)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(item.name for item in self.items)

    @property
    def guard(self) -> str | None:
        """The name of the policy that guards changes (see :attr:`Policy.guards_changes`)."""
        return next((item.name for item in self.items if item.guards_changes), None)

    @property
    def guards_changes(self) -> bool:
        return self.guard is not None

    def narrow_schema(
        self, schema: type[AgentAction], view: StepView, acted: list[str]
    ) -> type[AgentAction]:
        for item in self.items:
            narrowed = item.narrow_schema(schema, view)
            if narrowed is not schema:
                acted.append(item.name)
            schema = narrowed
        return schema

    def _rewrite(self, hook: str, action: Action, view: StepView, acted: list[str]) -> Action:
        for item in self.items:
            new = getattr(item, hook)(action, view)
            if new != action:
                acted.append(item.name)
                new = _voiced(item.name, action, new)
            action = new
        return action

    def after_model(self, action: Action, view: StepView, acted: list[str]) -> Action:
        return self._rewrite("after_model", action, view, acted)

    def before_tool(self, action: Action, view: StepView, acted: list[str]) -> Action:
        return self._rewrite("before_tool", action, view, acted)

    def edit_region(
        self, action: Action, text: str, view: StepView, acted: list[str]
    ) -> tuple[Action, tuple[int, int] | None]:
        region: tuple[int, int] | None = (action.start, action.end) if action.start else None
        for item in self.items:
            new, moved = item.edit_region(action, text, region, view)
            if (new, moved) != (action, region):
                acted.append(item.name)
                new = _voiced(item.name, action, new)
            action, region = new, moved
        return action, region

    def ask_again(self, path: str, view: StepView, acted: list[str]) -> str | None:
        for item in self.items:
            if said := item.ask_again(path, view):
                acted.append(item.name)
                return said
        return None

    def after_tool(self, action: Action, answer: Answer, view: StepView) -> AfterTool:
        added = AfterTool()
        for item in self.items:
            before = (len(added.notes), len(added.runs), added.ends, added.missing)
            item.after_tool(action, answer, view, added)
            if (len(added.notes), len(added.runs), added.ends, added.missing) != before:
                added.acted.append(item.name)
                added.notes[before[0] :] = [voice(item.name, n) for n in added.notes[before[0] :]]
        return added

    def should_end(self, history: Sequence[StepFacts]) -> str | None:
        """The name of the policy that ends the run now, or None."""
        return next((item.name for item in self.items if item.should_end(history)), None)


def _voiced(name: str, old: Action, new: Action) -> Action:
    """``new`` with what ``name`` added to its note or error passed through :func:`voice`."""
    note, error = new.note, new.error
    if note != old.note and note:
        added = note.removeprefix(old.note).lstrip("\n") if old.note else note
        kept = note[: len(note) - len(added)].rstrip("\n")
        note = "\n".join(filter(None, [kept, voice(name, added)]))
    if error != old.error and error:
        error = voice(name, error)
    return replace(new, note=note, error=error)
