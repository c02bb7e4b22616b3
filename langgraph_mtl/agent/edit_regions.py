"""Which lines a line edit is asked for, when the model's own choice would waste the call: a
range guessed away from the line the output points at, the same lines again after they came
back unchanged, more lines than one reply holds, the same size again after a reply was cut off,
a range cutting a statement that would not compile. Read from the typed history."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from langgraph_mtl.agent.actions import Action
from langgraph_mtl.agent.blocks import enclosing_statement
from langgraph_mtl.agent.history import StepFacts
from langgraph_mtl.agent.tuning import TUNING
from langgraph_mtl.agent.writing import (
    editable_region,
    not_applied,
    pointed_line,
    pointed_region,
    read_since_run,
    step_range,
)

__all__: list[str] = []  # used within the agent package only

ONE_LINE = (
    "NOTE: the last edit of {path} gave its lines back unchanged, so only line {line}, the one "
    "the output points at, was asked for"
)
LINES_ABOVE = (
    "NOTE: line {line} of {path} came back unchanged when asked for alone, so the lines "
    "leading to it ({start}-{line}) were asked for: the cause may lie above it"
)
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


def steered_region(
    action: Action,
    text: str,
    region: tuple[int, int] | None,
    history: Sequence[StepFacts],
    task: str,
) -> tuple[Action, tuple[int, int] | None]:
    """The lines a line edit is asked for, with a note when they are not the ones it named:
    its own range, unless it was guessed (not read since the last command) away from the line
    the newest output points at; without one, the lines around that line; after an edit of
    the file that gave its lines back unchanged, other lines (:func:`_after_unchanged`);
    after replies cut off at the length limit, half as many lines for each; after one that
    would not have compiled, the whole statement the range cuts into."""
    path = action.path
    line = pointed_line(path, text, history, task, newest_only=True)
    guessed = not read_since_run(path, history)
    if region and line and not region[0] <= line <= region[1] and guessed:
        said = POINTED_INSTEAD.format(line=line, path=path, start=region[0], end=region[1])
        action, region = _noted(action, said), None
    failed = not_applied(path, history) or {}
    if failed.get("outcome") == "unchanged" and (
        moved := _after_unchanged(path, text, history, line, region)
    ):
        action, region = _noted(action, moved[0]), moved[1]
    region = region or pointed_region(path, text, history, task)
    region = region or editable_region(path, text, history, task)
    if region[1] - region[0] >= TUNING.max_asked_lines:  # a reply could not hold them all
        first = region[0]
        if line and region[0] <= line <= region[1]:  # from a little above the pointed line
            first = max(line - 20, region[0])
        region = (first, first + TUNING.max_asked_lines - 1)
        action = _noted(action, FEWER_LINES.format(path=path, start=region[0], end=region[1]))
    if shorter := _after_cut_off(path, text, history, task, region):
        action, region = _noted(action, shorter[0]), shorter[1]
    if path.endswith(".py") and failed.get("reason") == "uncompilable":
        whole = enclosing_statement(text, *region)
        if whole and whole != region:  # lines that did not fit with the ones around them
            said = WHOLE_STATEMENT.format(path=path, start=whole[0], end=whole[1])
            action, region = _noted(action, said), whole
    return action, region


def _after_cut_off(
    path: str, text: str, history: Sequence[StepFacts], task: str, region: tuple[int, int]
) -> tuple[str, tuple[int, int]] | None:
    """Fewer lines of ``region``, with the note saying so, after replies for ``path`` were cut
    off at the length limit (at temperature 0 the same ask is cut again): half as many for
    each such reply in a row, the line the output points at kept in, near the top. None: as
    it would be."""
    cuts = _cut_off_in_a_row(path, history)
    keep = max((region[1] - region[0] + 1) >> cuts, TUNING.min_asked_lines)
    if not cuts or keep >= region[1] - region[0] + 1:
        return None
    first, pointed = region[0], pointed_line(path, text, history, task)
    if pointed and region[0] <= pointed <= region[1]:
        first = max(min(pointed - keep // 4, region[1] - keep + 1), region[0])
    return SHORTER.format(path=path, start=first, end=first + keep - 1), (first, first + keep - 1)


def _cut_off_in_a_row(path: str, history: Sequence[StepFacts]) -> int:
    """How many of the newest steps in a row were replies for ``path`` cut off at the length
    limit."""
    return next(
        (
            n
            for n, facts in enumerate(reversed(history))
            if facts.get("reason") != "cut_off" or facts.get("path") != path
        ),
        len(history),
    )


def _after_unchanged(
    path: str,
    text: str,
    history: Sequence[StepFacts],
    line: int | None,
    region: tuple[int, int] | None,
) -> tuple[str, tuple[int, int]] | None:
    """Where the next edit of ``path`` is asked, with the note saying so, after its last one
    gave its lines back unchanged (at temperature 0 the same lines asked again come back the
    same): the line the output points at alone, then the lines leading to it; with no line
    pointed at and no range named, the lines after those asked. A range named that is the
    one just asked counts as none. None: as it would be."""
    asked = step_range(history[-1], "edit", path) if history else None
    region = None if region == asked else region
    if line and (not region or region[0] <= line <= region[1]):
        if asked != (line, line):
            return ONE_LINE.format(path=path, line=line), (line, line)
        above = (max(line - TUNING.lead_lines, 1), line)  # where the cause of a wrong line often is
        return LINES_ABOVE.format(path=path, line=line, start=above[0]), above
    if line or region or not asked:
        return None
    total = len(text.splitlines())  # no lead: as many lines after those, then from the top
    first = asked[1] + 1 if asked[1] < total else 1
    said = NEXT_LINES.format(path=path, start=asked[0], end=asked[1])
    return said, (first, min(first + asked[1] - asked[0], total))


def _noted(action: Action, note: str) -> Action:
    return replace(action, note="\n".join(filter(None, [action.note, note])))
