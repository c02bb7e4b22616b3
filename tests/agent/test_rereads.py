"""Reading the same thing again shows nothing new: it is answered with what to do instead,
or becomes an edit of the file the output or the task leads to; loops end early."""

from __future__ import annotations

import sys

import pytest
from big_repo import (
    BUG_LINE,
    NAMELESS,
    PROBE,
    TASK,
    UNPOINTED,
    agent_context,
    coding_agent,
    json_action,
)
from pydantic import ValidationError
from steps import changed, ran, searched, viewed

from langgraph_mtl.agent.actions import AgentAction
from langgraph_mtl.agent.briefing import pointed_files
from langgraph_mtl.agent.guards import action_schema
from langgraph_mtl.agent.history import StepFacts
from langgraph_mtl.agent.loops import stuck


def test_a_loop_alternating_without_progress_ends(pool, scripted, repo):
    assert stuck([viewed("a", "A"), viewed("b", "B"), viewed("a", "A"), viewed("b", "B")])
    edit = changed("edit", "a", content="y\n")
    assert not stuck([ran("t", "fail 1"), edit, ran("t", "fail 2"), edit])

    def refused_edit(lines: str, outcome: str = "refused", start: int = 303) -> StepFacts:
        return changed("edit", "a.py", outcome, "uncompilable", start=start, end=308, content=lines)  # type: ignore[arg-type]

    tries = [refused_edit(lines) for lines in ("x)", "y)", "z)")]
    assert stuck(tries)
    assert not stuck([refused_edit(lines, "applied") for lines in ("x)", "y)", "z)")])
    other = [*tries[:2], refused_edit("w)", start=300)]  # another place: not the same change
    assert not stuck(other)
    four = [viewed(name, name) for name in "abcd"]
    assert stuck([ran("t", "fail"), *four, *four])
    assert not stuck([*four, *four[:3], viewed("d", "changed")])

    def rereading():
        views = [json_action("view", path=p, start=1, end=2) for p in ("big.py", "test_big.py")]
        return scripted("plan", *views * 3, default=json_action("submit"))

    out = coding_agent(pool, rereading()).invoke({"task": NAMELESS}, context=agent_context(repo))
    assert out["steps_taken"] == 4  # not the 8 the limit allows
    assert out["history"][-1]["result"] == out["history"][1]["result"]
    bare = coding_agent(pool, rereading(), policies="bare").invoke(
        {"task": NAMELESS}, context=agent_context(repo)
    )
    assert bare["steps_taken"] == 7  # without StopWhenStuck: the six views and the submit


def test_a_repeat_with_other_steps_between_and_nothing_changed_ends_the_loop():
    tests = ran("t", "1 failed")
    assert stuck([tests, viewed("a", "A"), tests, viewed("b", "B"), tests])
    edited = changed("edit", "a", start=1, end=2)
    assert not stuck([tests, edited, tests, viewed("b", "B"), tests])
    assert not stuck([tests, viewed("a", "A"), ran("t", "2 failed"), viewed("b", "B"), tests])
    # a refused change of one place, asked again between reads, whatever lines it gave
    edits = [
        changed("edit", "a.py", "refused", "uncompilable", start=303, end=308, content=lines)
        for lines in ("x)", "y)", "z)")
    ]
    assert stuck([edits[0], viewed("a.py", "A", 1, 9), edits[1], searched("f", "F"), edits[2]])
    assert stuck(edits)
    assert not stuck([edits[0], viewed("a.py", "A", 1, 9), edits[1], viewed("b", "B")])
    other = changed(
        "edit", "a.py", "refused", "uncompilable", start=303, end=308, text="bad indent"
    )
    assert not stuck([edits[0], viewed("a.py", "A", 1, 9), edits[1], other])


def test_reading_the_same_lines_again_is_answered_with_what_to_do_instead(pool, scripted, repo):
    region = {"path": "big.py", "start": BUG_LINE - 2, "end": BUG_LINE + 2}
    model = scripted(
        "plan",
        json_action("view", **region),
        json_action("view", **region),
        default=json_action("submit"),
    )
    out = coding_agent(pool, model).invoke({"task": NAMELESS}, context=agent_context(repo))
    first, second = (s["observation"] for s in out["trajectory"][:2])
    assert not first.startswith("NOTE")
    assert second.startswith("NOTE: you read exactly this")
    assert "change big.py" in second and "`python3 test_big.py`" in second  # the declared check
    assert second.endswith(first)  # the lines are still shown


def test_reading_a_test_again_says_to_change_the_code_it_tests_not_the_test(pool, scripted, repo):
    lines = {"path": "test_big.py", "start": 1, "end": 3}
    model = scripted(
        "plan",
        json_action("view", **lines),
        json_action("view", **lines),
        default=json_action("submit"),
    )
    out = coding_agent(pool, model).invoke({"task": NAMELESS}, context=agent_context(repo))
    second = out["trajectory"][1]["observation"]
    assert second.startswith("NOTE: you read exactly this a moment ago")
    assert "test_big.py is a test: it stays as it is" in second
    assert "edit of test_big.py" not in second


def test_listing_the_same_folder_again_says_to_open_a_file_not_to_edit_the_folder(
    pool, scripted, repo
):
    model = scripted(
        "plan",
        json_action("view", path="."),
        json_action("view", path="."),
        default=json_action("submit"),
    )
    out = coding_agent(pool, model).invoke({"task": NAMELESS}, context=agent_context(repo))
    first, second = (s["observation"] for s in out["trajectory"][:2])
    assert first.startswith("[. is a directory]")
    assert (
        second.startswith("NOTE: you listed this folder a moment ago") and "edit of" not in second
    )
    assert second.endswith(first)


def test_a_search_that_found_nothing_again_says_to_search_for_one_name(pool, scripted, repo):
    phrase = {"query": "extra functions in big", "path": "big.py"}
    model = scripted(
        "plan",
        json_action("search", **phrase),
        json_action("search", **phrase),
        default=json_action("submit"),
    )
    out = coding_agent(pool, model).invoke({"task": NAMELESS}, context=agent_context(repo))
    first, second = (s["observation"] for s in out["trajectory"][:2])
    assert first.startswith("[no file or line holds")
    assert second.startswith("NOTE: you searched for exactly this a moment ago and nothing")
    assert "edit of" not in second and second.endswith(first)


def test_the_first_move_on_lines_already_shown_is_an_edit_of_their_file(repo):
    long_files: set[str] = set()  # big.py is too long to be written whole
    first = action_schema(
        TASK, [], unchanged=True, writable=lambda _: long_files, pointed=pointed_files(TASK, repo)
    )
    assert first.model_validate({"thought": "t", "action": "edit", "path": "big.py"})
    for other in ({"action": "view", "path": "big.py"}, {"action": "edit", "path": "x.py"}):
        with pytest.raises(ValidationError):
            first.model_validate({"thought": "t", **other})
    assert pointed_files(TASK, repo) == ["big.py"]  # the test the traceback names is left out
    later = [changed("edit", "big.py", "refused", "no_blocks")]
    assert (
        action_schema(
            TASK, later, unchanged=True, writable=lambda _: long_files, pointed=["big.py"]
        )
        is AgentAction
    )
    unpointed = action_schema(UNPOINTED, [], unchanged=True, writable=lambda _: long_files)
    assert unpointed is AgentAction


def test_reading_the_same_lines_again_becomes_an_edit_where_the_output_points(pool, scripted, repo):
    (repo / "probe.py").write_text(PROBE)
    lines = (repo / "big.py").read_text().splitlines()
    fixed = "\n".join(lines[BUG_LINE - 5 : BUG_LINE + 4]).replace("x < hi", "x > hi")
    run = json_action("run", command=f"{sys.executable} probe.py")  # a traceback ending in clamp
    model = scripted(
        "1. read 2. fix",
        run,
        json_action("view", path="big.py", start=1, end=20),
        json_action("view", path="test_big.py"),
        json_action("view", path="big.py", start=1, end=20),  # the same lines again
        f"```python\n{fixed}\n```",
        json_action("run", command=f"{sys.executable} test_big.py"),
        default=json_action("submit"),
    )
    out = coding_agent(pool, model).invoke({"task": UNPOINTED}, context=agent_context(repo))
    fourth = out["trajectory"][3]
    assert fourth["action"].startswith(f"edit big.py {BUG_LINE - 4}-{BUG_LINE + 4}"), fourth
    assert "reads again what you read a moment ago" in fourth["observation"]
    assert out["verified"] is True, out["trajectory"]


def test_a_read_repeated_after_a_change_stays_a_read():
    from langgraph_mtl.agent.actions import Action
    from langgraph_mtl.agent.guards import edited_instead_of_reread

    view = Action("view", path="big.py", start=1, end=20)
    read = viewed("big.py", "1| ...", 1, 20)
    change = changed("edit", "big.py", start=5, end=5)
    assert edited_instead_of_reread(view, [read], lambda: "big.py").kind == "edit"
    assert edited_instead_of_reread(view, [read, change], lambda: "big.py") == view
    assert edited_instead_of_reread(view, [read], lambda: None) == view  # nothing pointed at


def test_reading_a_test_again_becomes_an_edit_of_the_function_the_task_names(pool, scripted, repo):
    lines = (repo / "big.py").read_text().splitlines()
    first = BUG_LINE - 1  # `def clamp`, four lines
    fixed = "\n".join(lines[first - 1 : first + 3]).replace("x < hi", "x > hi")
    test = {"path": "test_big.py", "start": 1, "end": 3}
    model = scripted(
        "plan",
        json_action("view", **test),
        json_action("view", **test),
        f"```python\n{fixed}\n```",
        default=json_action("submit"),
    )
    out = coding_agent(pool, model).invoke({"task": UNPOINTED}, context=agent_context(repo))
    second = out["trajectory"][1]
    assert second["action"].startswith(f"edit big.py {first}-{first + 3}\n"), second
    assert out["verified"] is True, out["trajectory"]
