"""One step's model calls under the run's protocol: the action, and for a JSON write or edit
the focused call that gives the file's content or the edit (:mod:`.writing`).

A server that refuses the JSON schema switches this run (and only this run) to the text
protocol: the new protocol comes back with the action, and the act node keeps it in the run's
state.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, cast

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, SystemMessage

from langgraph_mtl.agent.actions import Action, from_agent_action
from langgraph_mtl.agent.blocks import enclosing_statement
from langgraph_mtl.agent.briefing import last_pointed_file, named_file, pointed_files
from langgraph_mtl.agent.editing import MAX_REWRITE_CHARS, parse_replacements
from langgraph_mtl.agent.guards import (
    action_schema,
    edited_instead_of_reread,
    failed_in_code,
    repair_of,
)
from langgraph_mtl.agent.prompts import (
    CUT_OFF,
    EMPTY_WRITE,
    JSON_INSTRUCTIONS,
    PROTOCOL_INSTRUCTIONS,
    SAME_FILE,
)
from langgraph_mtl.agent.replies import code_from_reply, not_code, parse_action
from langgraph_mtl.agent.setup import AgentSetup
from langgraph_mtl.agent.state import CodingAgentState
from langgraph_mtl.agent.tools import workspace_digest
from langgraph_mtl.agent.writing import (
    current_text,
    edit_messages,
    editable_region,
    last_output,
    not_applied,
    pointed_line,
    pointed_region,
    read_since_run,
    step_range,
    writer_messages,
)
from langgraph_mtl.memory.trajectory import Step, approx_tokens
from langgraph_mtl.model_calls import CallKind, call_config
from langgraph_mtl.model_errors import cut_off, refused_request, too_long_for_model
from langgraph_mtl.models import capped, reported_tokens

__all__ = ["Asked", "ask"]

log = logging.getLogger(__name__)

LONG_FILE_EDITED = (
    "NOTE: {path} is too long to rewrite whole without losing what you have not seen, so the "
    "change was asked for as an edit of the part that matters"
)
ONE_LINE = (
    "NOTE: the last edit of {path} gave its lines back unchanged, so only line {line}, the one "
    "the output points at, was asked for"
)
LINES_ABOVE = (
    "NOTE: line {line} of {path} came back unchanged when asked for alone, so the lines "
    "leading to it ({start}-{line}) were asked for: the cause may lie above it"
)
LEAD_LINES = 6  # lines above a pointed line asked with it once it came back unchanged alone
MAX_ASKED_LINES = 120  # lines of a line edit: about what one reply can give back
MIN_ASKED_LINES = 10
SHORTER = (
    "NOTE: the last reply for {path} was cut off at the length limit, so fewer lines, "
    "{start}-{end}, were asked for"
)
FEWER_LINES = (
    "NOTE: that range is too long to give back in one reply, so lines {start}-{end} of {path} "
    "were asked for"
)
WHOLE_STATEMENT = (
    "NOTE: the last edit of {path} would not have compiled, so the whole statement around it "
    "(lines {start}-{end}) was asked for"
)
NEXT_LINES = (
    "NOTE: lines {start}-{end} of {path} came back unchanged and no output points into it, so "
    "the lines after them were asked for"
)
POINTED_INSTEAD = (
    "NOTE: the output points at line {line} of {path}, outside lines {start}-{end}, so the edit "
    "was asked for the lines around line {line}"
)


# a reply that rewrites text may be this many times the text's length, plus some lines: a
# reply that runs on past that is cut off early instead of after minutes of generation
ROOM = 3
SPARE_TOKENS = 128


def _bounded(setup: AgentSetup, replaced: str) -> BaseChatModel:
    """The model for a call whose reply rewrites ``replaced`` (a file, an edit's lines): its
    replies bounded by that text's length (:data:`ROOM`); unbounded for a new file."""
    if not replaced.strip():
        return setup.chat
    return capped(setup.chat, ROOM * approx_tokens(replaced) + SPARE_TOKENS)


@dataclass(frozen=True)
class Asked:
    """What one step's calls gave: the reply, its action, the tokens used, and the protocol
    the run goes on with."""

    reply: AIMessage
    action: Action
    tokens: int
    protocol: str


def _unsupported(exc: Exception) -> bool:
    """Whether a structured-output call failed because the server cannot do it (not because
    the request was too long)."""
    if too_long_for_model(exc):
        return False
    return isinstance(exc, NotImplementedError) or refused_request(exc)


def ask(
    setup: AgentSetup,
    protocol: str,
    messages: list[AnyMessage],
    state: CodingAgentState,
    protects: Callable[[str], str | None] = lambda _: None,
) -> Asked:
    """The next action under ``protocol`` (see the module docstring); ``protects`` names the
    protected path a file lies in (never offered or asked for as a write or an edit)."""
    if protocol == "json":
        try:
            return _ask_json(setup, messages, state, protects)
        except Exception as exc:
            if not _unsupported(exc):
                raise
            log.warning("structured output unsupported here (%s): text protocol for this run", exc)
            protocol = "text"
            messages = [_to_text_protocol(messages[0]), *messages[1:]]
    actor = setup.tool_actor if protocol == "tools" and setup.tool_actor is not None else setup.chat
    reply = actor.invoke(messages, config=call_config(CallKind.ACT))
    return Asked(reply, parse_action(reply), reported_tokens(reply), protocol)


def _to_text_protocol(system: AnyMessage) -> SystemMessage:
    return SystemMessage(str(system.content).replace(JSON_INSTRUCTIONS, PROTOCOL_INSTRUCTIONS))


def _writable(workspace: str, names: list[str]) -> set[str]:
    """Of ``names``, the files that may be written whole: new ones and short ones."""
    return {n for n in names if len(current_text(workspace, n, limit=None)) <= MAX_REWRITE_CHARS}


def _ask_json(
    setup: AgentSetup,
    messages: list[AnyMessage],
    state: CodingAgentState,
    protects: Callable[[str], str | None],
) -> Asked:
    workspace = state["workspace"]
    trajectory = state.get("trajectory", [])
    schema = action_schema(
        str(state.get("task", "")),
        trajectory,
        unchanged=workspace_digest(workspace) == state.get("start_digest"),
        writable=lambda names: {n for n in _writable(workspace, names) if not protects(n)},
        pointed=pointed_files(str(state.get("task", "")), workspace),
    )
    structured = setup.chat.with_structured_output(schema, method="json_schema", include_raw=True)
    try:
        out = cast(dict[str, Any], structured.invoke(messages, config=call_config(CallKind.ACT)))
    except Exception as exc:
        if not cut_off(exc):  # cut off mid-action
            raise
        cut = AIMessage(content="(a reply cut off at the length limit)")
        return Asked(
            cut, Action("invalid", error="the reply was too long; keep it short"), 0, "json"
        )
    raw: AIMessage = out["raw"]
    if out["parsed"] is None:
        problem = str(out.get("parsing_error") or "not a valid action")[:200]
        bad = Action("invalid", error=f"the reply is not one action: {problem}")
        return Asked(raw, bad, reported_tokens(raw), "json")
    action = repair_of(from_agent_action(out["parsed"]), trajectory)
    action = edited_instead_of_reread(
        action,
        trajectory,
        lambda: (
            last_pointed_file(last_output(trajectory), workspace)
            or last_pointed_file(str(state.get("task", "")), workspace)
            or named_file(str(state.get("task", "")), workspace)
        ),
    )
    used = reported_tokens(raw)
    if protects(action.path) and action.kind in ("write", "edit"):
        return Asked(raw, action, used, "json")  # refused when carried out: nothing to ask for
    if action.kind == "write":
        action, more = _content(setup, action, state)
        used += more
    elif action.kind == "edit":
        action, more = _edit(setup, action, state)
        used += more
    return Asked(raw, action, used, "json")


def _memories(setup: AgentSetup, state: CodingAgentState) -> str:
    return str(state.get("memory_prompt", "")) if setup.focused_memories else ""


def _content(setup: AgentSetup, action: Action, state: CodingAgentState) -> tuple[Action, int]:
    """A write's content from the focused call; a file too long to rewrite is refused first."""
    current = current_text(state["workspace"], action.path, limit=None)
    if len(current) > MAX_REWRITE_CHARS:
        # a long file is never rewritten whole: the change is asked for as an edit instead
        as_edit = replace(action, kind="edit", note=LONG_FILE_EDITED.format(path=action.path))
        return _edit(setup, as_edit, state)
    ask = writer_messages(
        task=state["task"],
        path=action.path,
        current=current,  # short enough to be shown whole
        reason=action.thought,
        trajectory=state.get("trajectory", []),
        memory_prompt=_memories(setup, state),
    )
    writer = _bounded(setup, current)
    code = writer.invoke(ask, config=call_config(CallKind.WRITE))
    used = reported_tokens(code)
    same = code_from_reply(str(code.content)).strip() == current.strip()
    if current.strip() and same and failed_in_code(state.get("trajectory", [])):
        # the same file again after a failure it may cause (a model at temperature 0 repeats
        # itself): asked once more
        again = [*ask, code, HumanMessage(SAME_FILE.format(path=action.path))]
        code = writer.invoke(again, config=call_config(CallKind.WRITE))
        used += reported_tokens(code)
    if code.response_metadata.get("finish_reason") == "length":
        return replace(action, kind="invalid", error=CUT_OFF.format(path=action.path)), used
    content = code_from_reply(str(code.content))
    if not content.strip():
        return replace(action, kind="invalid", error=EMPTY_WRITE.format(path=action.path)), used
    if words := not_code(str(code.content), action.path, content):
        return replace(action, kind="invalid", error=words), used
    return replace(action, content=content), used


def _edit(setup: AgentSetup, action: Action, state: CodingAgentState) -> tuple[Action, int]:
    """An edit's blocks (or a line range's new content) from the focused call."""
    text = current_text(state["workspace"], action.path, limit=None)
    if not text:
        error = f"{action.path} is not an existing text file: write it as a new file instead"
        return replace(action, kind="invalid", error=error), 0
    by_lines = setup.edits == "line_range"
    trajectory = state.get("trajectory", [])
    if by_lines:
        action, region = _line_region(action, text, trajectory, state["task"])
    else:
        region = editable_region(action.path, text, trajectory, state["task"])
    ask = edit_messages(
        task=state["task"],
        path=action.path,
        text=text,
        region=region,
        by_lines=by_lines,
        reason=action.thought,
        trajectory=trajectory,
        memory_prompt=_memories(setup, state),
    )
    lines = text.splitlines(keepends=True)
    asked = "".join(lines[region[0] - 1 : region[1]]) or text
    reply = _bounded(setup, asked).invoke(ask, config=call_config(CallKind.WRITE))
    used = reported_tokens(reply)
    if reply.response_metadata.get("finish_reason") == "length":
        return replace(action, kind="invalid", error=CUT_OFF.format(path=action.path)), used
    if by_lines:
        start, end = region
        if "```" not in str(reply.content):  # words, not the lines asked for
            error = f"the lines for {action.path} must come in one fenced code block"
            return replace(action, kind="invalid", error=error), used
        new = code_from_reply(str(reply.content))
        if not new.strip():  # never an edit that silently deletes the range
            return replace(action, kind="invalid", error=EMPTY_WRITE.format(path=action.path)), used
        return replace(action, start=start, end=end, content=new), used
    said = str(reply.content)
    blocks = tuple(parse_replacements(said))  # a range the action named is moot
    # no blocks: the code given may still be whole functions to put in place of their names'
    code = code_from_reply(said) if not blocks and "```" in said else ""
    return replace(action, start=0, end=0, edits=blocks, content=code), used


def _noted(action: Action, note: str) -> Action:
    return replace(action, note="\n".join(filter(None, [action.note, note])))


def _line_region(
    action: Action, text: str, trajectory: Sequence[Step], task: str
) -> tuple[Action, tuple[int, int]]:
    """The lines a line edit is asked for, with a note when they are not the ones it named:
    its own range, unless it was guessed (not read since the last command) away from the line
    the newest output points at; without one, the lines around that line; after an edit of
    the file that gave its lines back unchanged, other lines (:func:`_after_unchanged`);
    after replies cut off at the length limit, half as many lines for each; after one that
    would not have compiled, the whole statement the range cuts into."""
    path = action.path
    region = (action.start, action.end) if action.start else None
    line = pointed_line(path, text, trajectory, task, newest_only=True)
    guessed = not read_since_run(path, trajectory)
    if region and line and not region[0] <= line <= region[1] and guessed:
        said = POINTED_INSTEAD.format(line=line, path=path, start=region[0], end=region[1])
        action, region = _noted(action, said), None
    failed = not_applied(path, trajectory)
    if failed.startswith("[unchanged]") and (
        moved := _after_unchanged(path, text, trajectory, line, region)
    ):
        action, region = _noted(action, moved[0]), moved[1]
    region = region or pointed_region(path, text, trajectory, task)
    region = region or editable_region(path, text, trajectory, task)
    if region[1] - region[0] >= MAX_ASKED_LINES:  # a reply could not hold them all
        first = region[0]
        if line and region[0] <= line <= region[1]:  # from a little above the pointed line
            first = max(line - 20, region[0])
        region = (first, first + MAX_ASKED_LINES - 1)
        action = _noted(action, FEWER_LINES.format(path=path, start=region[0], end=region[1]))
    if shorter := _after_cut_off(path, text, trajectory, task, region):
        action, region = _noted(action, shorter[0]), shorter[1]
    if path.endswith(".py") and "would not compile" in failed:
        whole = enclosing_statement(text, *region)
        if whole and whole != region:  # lines that did not fit with the ones around them
            said = WHOLE_STATEMENT.format(path=path, start=whole[0], end=whole[1])
            action, region = _noted(action, said), whole
    return action, region


def _after_cut_off(
    path: str, text: str, trajectory: Sequence[Step], task: str, region: tuple[int, int]
) -> tuple[str, tuple[int, int]] | None:
    """Fewer lines of ``region``, with the note saying so, after replies for ``path`` were cut
    off at the length limit (at temperature 0 the same ask is cut again): half as many for
    each such reply in a row, the line the output points at kept in, near the top. None: as
    it would be."""
    cuts = _cut_off_in_a_row(path, trajectory)
    keep = max((region[1] - region[0] + 1) >> cuts, MIN_ASKED_LINES)
    if not cuts or keep >= region[1] - region[0] + 1:
        return None
    first, pointed = region[0], pointed_line(path, text, trajectory, task)
    if pointed and region[0] <= pointed <= region[1]:
        first = max(min(pointed - keep // 4, region[1] - keep + 1), region[0])
    return SHORTER.format(path=path, start=first, end=first + keep - 1), (first, first + keep - 1)


def _cut_off_in_a_row(path: str, trajectory: Sequence[Step]) -> int:
    """How many of the newest steps in a row were replies for ``path`` cut off at the length
    limit."""
    said = CUT_OFF.format(path=path)
    return next(
        (
            n
            for n, step in enumerate(reversed(trajectory))
            if said not in str(step.get("observation", ""))
        ),
        len(trajectory),
    )


def _after_unchanged(
    path: str,
    text: str,
    trajectory: Sequence[Step],
    line: int | None,
    region: tuple[int, int] | None,
) -> tuple[str, tuple[int, int]] | None:
    """Where the next edit of ``path`` is asked, with the note saying so, after its last one
    gave its lines back unchanged (at temperature 0 the same lines asked again come back the
    same): the line the output points at alone, then the lines leading to it; with no line
    pointed at and no range named, the lines after those asked. A range named that is the
    one just asked counts as none. None: as it would be."""
    asked = step_range(trajectory[-1], "edit", path) if trajectory else None
    region = None if region == asked else region
    if line and (not region or region[0] <= line <= region[1]):
        if asked != (line, line):
            return ONE_LINE.format(path=path, line=line), (line, line)
        above = (max(line - LEAD_LINES, 1), line)  # where the cause of a wrong line often is
        return LINES_ABOVE.format(path=path, line=line, start=above[0]), above
    if line or region or not asked:
        return None
    total = len(text.splitlines())  # no lead: as many lines after those, then from the top
    first = asked[1] + 1 if asked[1] < total else 1
    said = NEXT_LINES.format(path=path, start=asked[0], end=asked[1])
    return said, (first, min(first + asked[1] - asked[0], total))
