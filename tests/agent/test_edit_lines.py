"""Which lines of a long file a line edit is asked for: where the output points, the range
just read, the whole statement after an edit that would not compile, the lines after ones
given back unchanged, the function the task names; and what the next call is told."""

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
from langchain_core.messages import AIMessage
from steps import changed


def test_a_line_edit_without_a_range_covers_the_few_lines_the_output_points_at(
    pool, scripted, repo
):
    window = range(BUG_LINE - 4, BUG_LINE + 5)
    lines = (repo / "big.py").read_text().splitlines()
    fixed = "\n".join(lines[n - 1].replace("x < hi", "x > hi") for n in window)
    model = scripted(
        "1. fix clamp",
        json_action("edit", path="big.py", thought="the comparison is reversed"),
        f"```python\n{fixed}\n```",
        json_action("run", command="python3 test_big.py"),
        json_action("submit"),
    )
    out = coding_agent(pool, model).invoke(
        {"task": TASK}, context=agent_context(repo)
    )  # the default
    asked = str(model.calls[2][-1].content)
    assert f"new content of lines {BUG_LINE - 4}-{BUG_LINE + 4} of `big.py`" in asked
    assert out["verified"] is True, out["trajectory"]


def test_the_next_edit_call_shows_what_the_check_after_the_last_change_printed(
    pool, scripted, repo
):
    wrong = "<<<<<<< SEARCH\n    if x < hi:\n=======\n    if x <= hi:\n>>>>>>> REPLACE\n"
    fix = "<<<<<<< SEARCH\n    if x <= hi:\n=======\n    if x > hi:\n>>>>>>> REPLACE\n"
    model = scripted(
        "1. fix clamp",
        json_action("edit", path="big.py", thought="the comparison"),
        wrong,
        json_action("edit", path="big.py", thought="still failing"),
        fix,
        json_action("submit"),
    )
    out = coding_agent(pool, model, edits="search_replace").invoke(
        {"task": UNPOINTED}, context=agent_context(repo)
    )
    assert out["verified"] is True, out["trajectory"]
    again = str(model.calls[4][-1].content)
    assert "What your last commands showed:\n$ python3 test_big.py\n[exit code 1]" in again
    assert "AssertionError" in again


def test_a_line_edit_naming_lines_the_output_does_not_point_at_is_asked_where_it_points(
    pool, scripted, repo
):
    lines = (repo / "big.py").read_text().splitlines()
    fixed = "\n".join(lines[BUG_LINE - 5 : BUG_LINE + 4]).replace("x < hi", "x > hi")
    far = BUG_LINE + 60  # a range the model guessed, nowhere near the traceback's line
    model = scripted(
        "1. fix clamp",
        json_action("edit", path="big.py", start=far, end=far, thought="fix the comparison"),
        f"```python\n{fixed}\n```",
        json_action("run", command=f"{sys.executable} test_big.py"),
        json_action("submit"),
    )
    out = coding_agent(pool, model).invoke({"task": TASK}, context=agent_context(repo))
    asked = str(model.calls[2][-1].content)
    assert f"new content of lines {BUG_LINE - 4}-{BUG_LINE + 4} of `big.py`" in asked
    said = out["trajectory"][0]["observation"]
    assert f"points at line {BUG_LINE} of big.py, outside lines {far}-{far}" in said
    assert out["verified"] is True, out["trajectory"]


@pytest.mark.parametrize("read_first", [True, False])
def test_a_line_edit_of_lines_just_read_keeps_its_range(read_first, pool, scripted, repo):
    (repo / "probe.py").write_text(PROBE)
    far = BUG_LINE + 60
    run = json_action("run", command=f"{sys.executable} probe.py")  # a traceback ending in clamp
    view = json_action("view", path="big.py", start=far - 3, end=far + 3)
    edit = json_action("edit", path="big.py", start=far, end=far, thought="rename")
    line = (repo / "big.py").read_text().splitlines()[far - 1]
    model = scripted(
        "1. run, read, edit",
        *([run, view] if read_first else [run]),
        edit,
        f"```python\n{line}  # seen\n```",
        default=json_action("submit"),
    )
    coding_agent(pool, model).invoke({"task": UNPOINTED}, context=agent_context(repo))
    asked = str(model.calls[4 if read_first else 3][-1].content)
    if read_first:  # a range read after the run: the model's own
        assert f"new content of lines {far}-{far} of `big.py`" in asked
    else:  # a range guessed: where the traceback points
        assert f"new content of lines {BUG_LINE - 4}-{BUG_LINE + 4} of `big.py`" in asked


@pytest.mark.parametrize("first", ["unchanged", "uncompilable"])
def test_the_next_call_for_a_file_says_why_its_last_change_was_not_applied(
    first, pool, scripted, repo
):
    lines = (repo / "big.py").read_text().splitlines()[BUG_LINE - 5 : BUG_LINE + 4]
    given = "\n".join(lines) if first == "unchanged" else "\n".join(lines).replace(":", "")
    fixed = "\n".join(lines).replace("x < hi", "x > hi")
    model = scripted(
        "1. fix clamp",
        json_action("edit", path="big.py"),
        f"```python\n{given}\n```",
        json_action("edit", path="big.py"),
        f"```python\n{fixed}\n```",
        json_action("run", command=f"{sys.executable} test_big.py"),
        default=json_action("submit"),
    )
    out = coding_agent(pool, model).invoke({"task": TASK}, context=agent_context(repo))
    said = "[unchanged] big.py" if first == "unchanged" else "[edit refused] after this change"
    assert said in out["trajectory"][0]["observation"]
    assert "was not applied" not in str(model.calls[2][-1].content)
    again = str(model.calls[4][-1].content)
    assert f"Your last change of `big.py` was not applied: {said}" in again
    assert out["verified"] is True, out["trajectory"]


def test_a_rewrite_asked_for_after_a_refused_one_says_why_only_for_that_file():
    from langgraph_mtl.agent.writing import writer_messages

    refused = "[refused] this rewrite of small.py drops f, which the file defines now"
    history = [changed("write", "small.py", "refused", "drops_definitions", text=refused)]
    asked = writer_messages(task="t", path="small.py", current="def f(): ...\n", history=history)
    assert f"was not applied: {refused}" in str(asked[-1].content)
    other = writer_messages(task="t", path="small", history=history)
    assert "was not applied" not in str(other[-1].content)


def test_after_an_edit_that_would_not_compile_the_whole_statement_is_asked_for(
    pool, scripted, repo
):
    model = scripted(
        "1. fix clamp",
        json_action("edit", path="big.py", start=BUG_LINE, end=BUG_LINE),
        "```python\n    if x > hi\n```",  # the colon lost: refused
        json_action("edit", path="big.py", start=BUG_LINE, end=BUG_LINE),
        "```python\n    if x > hi:\n        return hi\n```",
        json_action("run", command=f"{sys.executable} test_big.py"),
        default=json_action("submit"),
    )
    out = coding_agent(pool, model).invoke({"task": TASK}, context=agent_context(repo))
    assert "would not compile" in out["trajectory"][0]["observation"]
    assert f"new content of lines {BUG_LINE}-{BUG_LINE + 1} of" in str(model.calls[4][-1].content)
    said = out["trajectory"][1]["observation"]
    assert f"the whole statement around it (lines {BUG_LINE}-{BUG_LINE + 1})" in said
    assert out["verified"] is True, out["trajectory"]


def test_the_statement_a_range_cuts_into_is_the_smallest_that_holds_it():
    from langgraph_mtl.agent.blocks import enclosing_statement

    text = (
        "import x\n"  # 1
        "@wrap\n"  # 2
        "def get(seq, ind):\n"  # 3
        "    try:\n"  # 4
        "        return seq[ind]\n"  # 5
        "    except KeyError:\n"  # 6
        "        return None\n"  # 7
        "    else:\n"  # 8
        "        pass\n"  # 9
        "def other():\n"  # 10
        "    return 1\n"  # 11
    )
    assert enclosing_statement(text, 6, 8) == (4, 9)  # the try, not the function
    assert enclosing_statement(text, 3, 3) == (2, 9)  # a function with its decorator
    assert enclosing_statement(text, 8, 11) is None  # across two functions
    assert enclosing_statement(text, 6, 8, limit=3) is None  # too long to ask for whole
    assert enclosing_statement("def (:\n", 1, 1) is None


def test_a_line_range_too_long_for_one_reply_is_asked_for_in_part(pool, scripted, repo):
    model = scripted(
        "1. fix clamp",
        json_action("edit", path="big.py", start=1, end=2000),
        default=json_action("submit"),
    )
    out = coding_agent(pool, model).invoke({"task": TASK}, context=agent_context(repo))
    first, last = BUG_LINE - 20, BUG_LINE + 99  # around the line the traceback points at
    assert f"new content of lines {first}-{last} of `big.py`" in str(model.calls[2][-1].content)
    assert "too long to give back in one reply" in out["trajectory"][0]["observation"]


def test_after_lines_given_back_unchanged_the_pointed_line_alone_is_asked_for(pool, scripted, repo):
    lines = (repo / "big.py").read_text().splitlines()
    model = scripted(
        "1. fix clamp",
        json_action("edit", path="big.py"),
        "```python\n" + "\n".join(lines[BUG_LINE - 5 : BUG_LINE + 4]) + "\n```",  # as they are
        json_action("edit", path="big.py", start=BUG_LINE - 3, end=BUG_LINE + 3),
        "```python\n    if x > hi:\n```",
        json_action("run", command=f"{sys.executable} test_big.py"),
        default=json_action("submit"),
    )
    out = coding_agent(pool, model).invoke({"task": TASK}, context=agent_context(repo))
    assert out["trajectory"][0]["observation"].startswith("[unchanged] big.py")
    assert f"new content of lines {BUG_LINE}-{BUG_LINE} of" in str(model.calls[4][-1].content)
    assert (
        f"only line {BUG_LINE}, the one the output points at" in out["trajectory"][1]["observation"]
    )
    assert out["verified"] is True, out["trajectory"]


@pytest.mark.slow
def test_an_edit_of_a_long_file_no_output_points_into_covers_the_function_the_task_names(
    pool, scripted, repo
):
    lines = (repo / "big.py").read_text().splitlines()
    first = BUG_LINE - 1  # `def clamp`: the task names clamp, no output names a line
    asked_lines = lines[first - 1 : first + 3]  # its four lines, not the helpers after it
    fixed = "\n".join(asked_lines).replace("x < hi", "x > hi")
    model = scripted(
        "1. fix clamp",
        json_action("edit", path="big.py", thought="fix the comparison in clamp"),
        f"```python\n{fixed}\n```",
        default=json_action("submit"),
    )
    out = coding_agent(pool, model).invoke({"task": UNPOINTED}, context=agent_context(repo))
    asked = str(model.calls[2][-1].content)
    assert f"new content of lines {first}-{first + 3} of `big.py`" in asked
    assert out["verified"] is True, out["trajectory"]


def test_after_lines_given_back_unchanged_with_no_lead_the_lines_after_them_are_asked_for(
    pool, scripted, repo
):
    lines = (repo / "big.py").read_text().splitlines()
    model = scripted(
        "1. fix big.py",
        json_action("edit", path="big.py", thought="fix the bug"),
        "```python\n" + "\n".join(lines[:80]) + "\n```",  # the first lines, as they were
        json_action("edit", path="big.py", thought="fix the bug"),
        "```python\n" + "\n".join(lines[80:160]) + "\n```",
        default=json_action("submit"),
    )
    out = coding_agent(pool, model).invoke({"task": NAMELESS}, context=agent_context(repo))
    assert "new content of lines 1-80 of `big.py`" in str(model.calls[2][-1].content)
    assert "new content of lines 81-160 of `big.py`" in str(model.calls[4][-1].content)
    said = out["trajectory"][1]["observation"]
    assert "lines 1-80 of big.py came back unchanged" in said, said


def test_after_the_pointed_line_alone_came_back_unchanged_the_lines_leading_to_it_are_asked(
    pool, scripted, repo
):
    lines = (repo / "big.py").read_text().splitlines()
    lead = "\n".join(lines[BUG_LINE - 7 : BUG_LINE])  # lines BUG_LINE-6 to BUG_LINE
    model = scripted(
        "1. fix clamp",
        json_action("edit", path="big.py"),
        "```python\n" + "\n".join(lines[BUG_LINE - 5 : BUG_LINE + 4]) + "\n```",  # as they are
        json_action("edit", path="big.py"),
        "```python\n" + lines[BUG_LINE - 1] + "\n```",  # the pointed line, as it is
        json_action("edit", path="big.py"),
        "```python\n" + lead.replace("x < hi", "x > hi") + "\n```",
        default=json_action("submit"),
    )
    out = coding_agent(pool, model).invoke({"task": TASK}, context=agent_context(repo))
    asked = [str(call[-1].content) for call in model.calls[2::2]]
    assert f"new content of lines {BUG_LINE}-{BUG_LINE} of" in asked[1]
    assert f"new content of lines {BUG_LINE - 6}-{BUG_LINE} of" in asked[2]
    assert "the lines leading to it" in out["trajectory"][2]["observation"]
    assert out["verified"] is True, out["trajectory"]


def test_a_range_named_again_after_its_lines_came_back_unchanged_is_not_asked_again(
    pool, scripted, repo
):
    lines = (repo / "big.py").read_text().splitlines()
    same = json_action("edit", path="big.py", start=201, end=240, thought="fix the bug")
    model = scripted(
        "1. fix big.py",
        same,
        "```python\n" + "\n".join(lines[200:240]) + "\n```",  # as they are
        same,  # the same range again
        "```python\n" + "\n".join(lines[240:280]) + "\n```",
        default=json_action("submit"),
    )
    coding_agent(pool, model).invoke({"task": NAMELESS}, context=agent_context(repo))
    assert "new content of lines 201-240 of `big.py`" in str(model.calls[2][-1].content)
    assert "new content of lines 241-280 of `big.py`" in str(model.calls[4][-1].content)


def test_after_a_reply_cut_off_at_the_length_limit_fewer_lines_are_asked(pool, scripted, repo):
    lines = (repo / "big.py").read_text().splitlines()
    fixed = "\n".join(lines[BUG_LINE - 6 : BUG_LINE + 14]).replace("x < hi", "x > hi")
    edit = json_action("edit", path="big.py", start=BUG_LINE - 40, end=BUG_LINE + 39)
    cut = AIMessage(
        "```python\ndef clamp(x, lo, hi):\n", response_metadata={"finish_reason": "length"}
    )
    model = scripted(
        "1. fix big.py",
        edit,
        cut,
        edit,  # the same 80 lines named again, at temperature 0 cut off again
        cut,
        edit,
        f"```python\n{fixed}\n```",
        default=json_action("submit"),
    )
    out = coding_agent(pool, model).invoke({"task": TASK}, context=agent_context(repo))
    asked = [str(model.calls[n][-1].content) for n in (2, 4, 6)]
    assert f"new content of lines {BUG_LINE - 40}-{BUG_LINE + 39} of" in asked[0]
    # halved each time, the line the traceback points at kept in, near the top
    assert f"new content of lines {BUG_LINE - 10}-{BUG_LINE + 29} of" in asked[1]
    assert f"new content of lines {BUG_LINE - 5}-{BUG_LINE + 14} of" in asked[2]
    assert "was cut off at the length limit, so fewer lines" in out["trajectory"][2]["observation"]
    assert out["verified"] is True, out["trajectory"]
