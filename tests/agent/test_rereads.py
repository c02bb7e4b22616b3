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

from langgraph_mtl.agent.actions import AgentAction
from langgraph_mtl.agent.briefing import pointed_files
from langgraph_mtl.agent.guards import action_schema
from langgraph_mtl.agent.routing import stuck


def test_a_loop_alternating_without_progress_ends(pool, scripted, repo):
    assert stuck(
        [
            {"action": "view a", "observation": "A"},
            {"action": "view b", "observation": "B"},
            {"action": "view a", "observation": "A"},
            {"action": "view b", "observation": "B"},
        ]
    )
    assert not stuck(
        [
            {"action": "run t", "observation": "fail 1"},
            {"action": "edit a", "observation": "edited"},
            {"action": "run t", "observation": "fail 2"},
            {"action": "edit a", "observation": "edited"},
        ]
    )
    refused = "[edit refused] after this change a.py would not compile: unmatched ')'"
    tries = [f"edit a.py 303-308\n{lines}" for lines in ("x)", "y)", "z)")]
    assert stuck([{"action": t, "observation": f"NOTE: asked again\n{refused}"} for t in tries])
    assert not stuck([{"action": t, "observation": "[edited a.py: ...] fail"} for t in tries])
    other = [*tries[:2], "edit a.py 300-308\nw)"]  # another place: not the same change
    assert not stuck([{"action": t, "observation": refused} for t in other])
    four = [{"action": f"view {name}", "observation": name} for name in "abcd"]
    assert stuck([{"action": "run t", "observation": "fail"}, *four, *four])
    assert not stuck([*four, *four[:3], {"action": "view d", "observation": "changed"}])
    model = scripted(
        "plan",
        *[json_action("view", path=p, start=1, end=2) for p in ("big.py", "test_big.py") * 3],
        default=json_action("submit"),
    )
    out = coding_agent(pool, model).invoke({"task": NAMELESS}, context=agent_context(repo))
    assert out["steps_taken"] == 4  # not the 8 the limit allows


def _steps(*pairs: tuple[str, str]) -> list[dict[str, str]]:
    return [{"action": action, "observation": answer} for action, answer in pairs]


def test_a_repeat_with_other_steps_between_and_nothing_changed_ends_the_loop():
    tests = ("run t", "1 failed")
    assert stuck(_steps(tests, ("view a", "A"), tests, ("view b", "B"), tests))
    assert not stuck(
        _steps(tests, ("edit a 1-2\nx", "[edited a: ...]"), tests, ("view b", "B"), tests)
    )
    assert not stuck(_steps(tests, ("view a", "A"), ("run t", "2 failed"), ("view b", "B"), tests))
    # a refused change of one place, asked again between reads and behind two notes
    refused = (
        "NOTE: asked again\nNOTE: cut off\n[edit refused] a.py would not compile: unmatched ')'"
    )
    edits = [(f"edit a.py 303-308\n{lines}", refused) for lines in ("x)", "y)", "z)")]
    assert stuck(_steps(edits[0], ("view a.py 1-9", "A"), edits[1], ("search f", "F"), edits[2]))
    assert stuck(_steps(*edits))
    assert not stuck(_steps(edits[0], ("view a.py 1-9", "A"), edits[1], ("view b", "B")))
    other = ("edit a.py 303-308\nw)", "[edit refused] a.py would not compile: bad indent")
    assert not stuck(_steps(edits[0], ("view a.py 1-9", "A"), edits[1], other))


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
    assert second.startswith("NOTE: you read exactly this") and "edit of big.py" in second
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
    later = [{"action": "edit big.py", "observation": "no SEARCH/REPLACE block"}]
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
    read = {"action": view.describe(), "observation": "1| ...", "thought": ""}
    change = {"action": "edit big.py 5-5", "observation": "[edited big.py: ...]", "thought": ""}
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
