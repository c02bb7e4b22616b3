"""The agent's tuned numbers, in one frozen object: each bounds what a small model is shown or
asked for, and each was set by measuring the local models (see the changelog)."""

from __future__ import annotations

from dataclasses import dataclass

__all__: list[str] = []  # used within the agent package only


@dataclass(frozen=True)
class Tuning:
    """What the loop and its policies show and ask for, in lines, characters, tokens or steps."""

    # what the model is asked for
    plan_tokens: int = 256  # a 3-4 step plan is about 100 tokens; a rambling one costs every step
    reply_room: int = 3  # a reply rewriting text may be this many times its length ...
    spare_tokens: int = 128  # ... plus this many tokens
    max_command: int = 800  # characters of one command: a reply's grammar ends within its cap
    max_rewrite_chars: int = 6_000  # about 1,500 tokens: what one reply of the local model holds
    # what it is shown
    view_lines: int = 120  # lines one view shows without a range (an outline beyond that)
    max_view_lines: int = 200  # lines one view shows at most, whatever range it asks
    max_line_chars: int = 400  # characters of one line a view shows (a minified line is cut)
    search_hits: int = 40  # lines one search shows
    max_seen_chars: int = 1_500  # characters of a command's output a focused call is shown
    region_lines: int = 40  # lines shown around each place an edit is about
    pointed_lines: int = 4  # lines either side of a pointed line that a line edit gives back
    context_lines: int = 12  # lines around each place the task's output points at, up front
    max_ranges: int = 6  # such places shown up front
    max_definitions: int = 2  # project functions shown because the task's output names them
    max_named: int = 3  # more names than this in the output: none of them is the lead
    definition_lines: int = 40  # lines of each such function
    max_scanned: int = 400  # Python files searched for them
    max_statement_lines: int = 80  # a longer statement is not asked for whole
    # what the policies look back on
    read_memory: int = 4  # recent steps a repeated read is compared with
    longest_cycle: int = 4  # steps in the longest round of actions noticed repeating
    recent: int = 6  # steps in which a third repeat with nothing changed between is noticed
    lead_lines: int = 6  # lines above a pointed line asked with it once it came back unchanged
    max_asked_lines: int = 120  # lines of one line edit: about what one reply can give back
    min_asked_lines: int = 10  # the fewest lines a line edit is cut down to
    max_calls: int = 8  # example calls an idle-run check runs


TUNING = Tuning()
