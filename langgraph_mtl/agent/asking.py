"""One step's model calls under the run's protocol: the action, and for a JSON write or edit
the focused call that gives the file's content or the edit (:mod:`.writing`).

A server that refuses the JSON schema switches this run (and only this run) to the text
protocol: the new protocol comes back with the action, and the act node keeps it in the run's
state.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace
from typing import Any, cast

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, SystemMessage

from langgraph_mtl.agent.actions import Action, AgentAction, from_agent_action
from langgraph_mtl.agent.editing import parse_replacements
from langgraph_mtl.agent.policies import Policies, StepView, voice
from langgraph_mtl.agent.prompts import (
    CUT_OFF,
    EMPTY_WRITE,
    JSON_INSTRUCTIONS,
    PROTOCOL_INSTRUCTIONS,
)
from langgraph_mtl.agent.replies import code_from_reply, not_code, parse_action
from langgraph_mtl.agent.setup import AgentSetup
from langgraph_mtl.agent.tuning import TUNING
from langgraph_mtl.agent.writing import (
    current_text,
    edit_messages,
    editable_region,
    writer_messages,
)
from langgraph_mtl.memory.trajectory import approx_tokens
from langgraph_mtl.model_calls import CallKind, call_config
from langgraph_mtl.model_errors import cut_off, refused_request, too_long_for_model
from langgraph_mtl.models import capped, reported_tokens

__all__: list[str] = []  # used within the agent package only

log = logging.getLogger(__name__)

LONG_FILE_EDITED = (
    "NOTE: {path} is too long to rewrite whole without losing what you have not seen, so the "
    "change was asked for as an edit of the part that matters"
)
# a reply that rewrites text may be this many times the text's length, plus some lines: a
# reply that runs on past that is cut off early instead of after minutes of generation


def _bounded(setup: AgentSetup, replaced: str) -> BaseChatModel:
    """The model for a call whose reply rewrites ``replaced`` (a file, an edit's lines): its
    replies bounded by that text's length (:data:`TUNING.reply_room`); unbounded for a new file."""
    if not replaced.strip():
        return setup.chat
    return capped(setup.chat, TUNING.reply_room * approx_tokens(replaced) + TUNING.spare_tokens)


@dataclass(frozen=True)
class Asked:
    """What one step's calls gave: the reply, its action, the tokens used, the protocol the
    run goes on with, and the policies that acted on the action."""

    reply: AIMessage
    action: Action
    tokens: int
    protocol: str
    acted: tuple[str, ...] = ()


def _unsupported(exc: Exception) -> bool:
    """Whether a structured-output call failed because the server cannot do it (not because
    the request was too long)."""
    if too_long_for_model(exc):
        return False
    return isinstance(exc, NotImplementedError) or refused_request(exc)


@dataclass
class Turn:
    """One step's asking: the agent's setup, the run's policies, what they see of the run,
    and the memories shown in the focused calls."""

    setup: AgentSetup
    policies: Policies
    view: StepView
    memories: str = ""
    acted: list[str] = field(default_factory=list)


def ask(turn: Turn, protocol: str, messages: list[AnyMessage]) -> Asked:
    """The next action under ``protocol`` (see the module docstring)."""
    if protocol == "json":
        try:
            return _ask_json(turn, messages)
        except Exception as exc:
            if not _unsupported(exc):
                raise
            log.warning("structured output unsupported here (%s): text protocol for this run", exc)
            protocol = "text"
            messages = [_to_text_protocol(messages[0]), *messages[1:]]
    setup = turn.setup
    actor = setup.tool_actor if protocol == "tools" and setup.tool_actor is not None else setup.chat
    reply = actor.invoke(messages, config=call_config(CallKind.ACT))
    return Asked(reply, parse_action(reply), reported_tokens(reply), protocol)


def _to_text_protocol(system: AnyMessage) -> SystemMessage:
    return SystemMessage(str(system.content).replace(JSON_INSTRUCTIONS, PROTOCOL_INSTRUCTIONS))


def _ask_json(turn: Turn, messages: list[AnyMessage]) -> Asked:
    view = turn.view
    schema = turn.policies.narrow_schema(AgentAction, view, turn.acted)
    chat = turn.setup.chat
    structured = chat.with_structured_output(schema, method="json_schema", include_raw=True)
    try:
        out = cast(dict[str, Any], structured.invoke(messages, config=call_config(CallKind.ACT)))
    except Exception as exc:
        if not cut_off(exc):  # cut off mid-action
            raise
        cut = AIMessage(content="(a reply cut off at the length limit)")
        too_long = Action(
            "invalid", error="the reply was too long; keep it short", reason="cut_off"
        )
        return Asked(cut, too_long, 0, "json", tuple(turn.acted))
    raw: AIMessage = out["raw"]
    if out["parsed"] is None:
        problem = str(out.get("parsing_error") or "not a valid action")[:200]
        bad = Action("invalid", error=f"the reply is not one action: {problem}", reason="format")
        return Asked(raw, bad, reported_tokens(raw), "json", tuple(turn.acted))
    action = turn.policies.after_model(from_agent_action(out["parsed"]), view, turn.acted)
    used = reported_tokens(raw)
    if view.box.protects(action.path) and action.kind in ("write", "edit"):
        return Asked(raw, action, used, "json", tuple(turn.acted))  # refused when carried out
    if action.kind == "write":
        action, more = _content(turn, action)
        used += more
    elif action.kind == "edit":
        action, more = _edit(turn, action)
        used += more
    return Asked(raw, action, used, "json", tuple(turn.acted))


def _cut(action: Action) -> Action:
    return replace(action, kind="invalid", error=CUT_OFF.format(path=action.path), reason="cut_off")


def _content(turn: Turn, action: Action) -> tuple[Action, int]:
    """A write's content from the focused call; a file too long to rewrite whole is asked for
    as an edit when changes are guarded."""
    view = turn.view
    current = current_text(view.workspace, action.path, limit=None)
    if len(current) > TUNING.max_rewrite_chars and (guard := turn.policies.guard):
        # a long file is never rewritten whole: the change is asked for as an edit instead
        turn.acted.append(guard)
        said = voice(guard, LONG_FILE_EDITED.format(path=action.path))
        return _edit(turn, replace(action, kind="edit", note=said))
    ask = writer_messages(
        task=view.task,
        path=action.path,
        current=current,
        reason=action.thought,
        history=view.history,
        memory_prompt=turn.memories,
    )
    writer = _bounded(turn.setup, current)
    code = writer.invoke(ask, config=call_config(CallKind.WRITE))
    used = reported_tokens(code)
    same = code_from_reply(str(code.content)).strip() == current.strip()
    if current.strip() and same:
        again = turn.policies.ask_again(action.path, view, turn.acted)
        if again:
            code = writer.invoke(
                [*ask, code, HumanMessage(again)], config=call_config(CallKind.WRITE)
            )
            used += reported_tokens(code)
    if code.response_metadata.get("finish_reason") == "length":
        return _cut(action), used
    content = code_from_reply(str(code.content))
    if not content.strip():
        error = EMPTY_WRITE.format(path=action.path)
        return replace(action, kind="invalid", error=error, reason="empty"), used
    if words := not_code(str(code.content), action.path, content):
        return replace(action, kind="invalid", error=words, reason="not_code"), used
    return replace(action, content=content), used


def _edit(turn: Turn, action: Action) -> tuple[Action, int]:
    """An edit's blocks (or a line range's new content) from the focused call."""
    view = turn.view
    text = current_text(view.workspace, action.path, limit=None)
    if not text:
        error = f"{action.path} is not an existing text file: write it as a new file instead"
        return replace(action, kind="invalid", error=error, reason="missing"), 0
    by_lines = turn.setup.edits == "line_range"
    region: tuple[int, int] | None = None
    if by_lines:
        action, region = turn.policies.edit_region(action, text, view, turn.acted)
    region = region or editable_region(action.path, text, view.history, view.task)
    ask = edit_messages(
        task=view.task,
        path=action.path,
        text=text,
        region=region,
        by_lines=by_lines,
        reason=action.thought,
        history=view.history,
        memory_prompt=turn.memories,
    )
    lines = text.splitlines(keepends=True)
    asked = "".join(lines[region[0] - 1 : region[1]]) or text
    reply = _bounded(turn.setup, asked).invoke(ask, config=call_config(CallKind.WRITE))
    used = reported_tokens(reply)
    if reply.response_metadata.get("finish_reason") == "length":
        return _cut(action), used
    if by_lines:
        start, end = region
        if "```" not in str(reply.content):  # words, not the lines asked for
            error = f"the lines for {action.path} must come in one fenced code block"
            return replace(action, kind="invalid", error=error, reason="format"), used
        new = code_from_reply(str(reply.content))
        if not new.strip():  # never an edit that silently deletes the range
            error = EMPTY_WRITE.format(path=action.path)
            return replace(action, kind="invalid", error=error, reason="empty"), used
        return replace(action, start=start, end=end, content=new), used
    said = str(reply.content)
    blocks = tuple(parse_replacements(said))  # a range the action named is moot
    # no blocks: the code given may still be whole functions to put in place of their names'
    code = code_from_reply(said) if not blocks and "```" in said else ""
    return replace(action, start=0, end=0, edits=blocks, content=code), used
