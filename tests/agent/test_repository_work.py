"""The agent inside a real repository: it looks (numbered lines, outlines), searches and edits
in place; a long file it was never shown whole is never rewritten whole."""

from __future__ import annotations

import sys
from dataclasses import replace

import httpx
import openai
import pytest
from big_repo import (
    BUG_LINE,
    TASK,
    UNPOINTED,
    agent_context,
    big_module,
    coding_agent,
    json_action,
)
from langchain_core.messages import AIMessage
from langchain_openai.chat_models.base import (
    OpenAIContextOverflowError,
    OpenAIInvalidRequestError,
)
from steps import changed, check_run

from langgraph_mtl.agent import (
    Limits,
    RetrievalConfig,
    SandboxConfig,
    WriterConfig,
    create_coding_agent,
)
from langgraph_mtl.agent.actions import AgentAction
from langgraph_mtl.agent.dropping import dropped_definitions
from langgraph_mtl.agent.editing import (
    Replacement,
    apply_replacements,
    replace_definitions,
    replace_lines,
    write_file,
)
from langgraph_mtl.agent.guards import action_schema
from langgraph_mtl.agent.prompts import CHECK_PASSED
from langgraph_mtl.agent.replies import parse_action
from langgraph_mtl.agent.workspace import outline, search_workspace, view_file


def _fix_reply(edits: str, repo) -> str:
    """The scripted model's fix of clamp in the given edit format: a block, or the nine
    lines around the line the traceback points at (what a line edit without a range asks for)."""
    if edits == "search_replace":
        return "<<<<<<< SEARCH\n    if x < hi:\n=======\n    if x > hi:\n>>>>>>> REPLACE\n"
    lines = (repo / "big.py").read_text().splitlines()[BUG_LINE - 5 : BUG_LINE + 4]
    return "```python\n" + "\n".join(lines).replace("x < hi", "x > hi") + "\n```"


@pytest.mark.parametrize("edits", ["line_range", "search_replace"])
def test_a_one_line_bug_in_a_module_of_over_2000_lines_is_fixed_with_an_edit(
    edits, pool, scripted, repo
):
    before = (repo / "big.py").read_text()
    fix = _fix_reply(edits, repo)
    model = scripted(
        "1. fix the comparison the traceback points to 2. run the test",
        json_action("edit", path="big.py", thought="the comparison in clamp is reversed"),
        fix,
        json_action("run", command=f"{sys.executable} test_big.py"),
        json_action("submit"),
    )
    out = coding_agent(pool, model, edits=edits).invoke({"task": TASK}, context=agent_context(repo))
    assert out["verified"] is True, out["trajectory"]
    after = (repo / "big.py").read_text()
    changed = [
        i
        for i, (a, b) in enumerate(zip(before.splitlines(), after.splitlines(), strict=True), 1)
        if a != b
    ]
    assert changed == [BUG_LINE]
    assert len(after.splitlines()) == len(before.splitlines()) > 2000
    # after the edit, the check the task names runs at once: its output is in view
    edited = out["trajectory"][0]["observation"]
    assert "The check the task names, run after the change: `python3 test_big.py`" in edited
    assert edited.endswith("[exit code 0]\nok\n" + CHECK_PASSED), edited
    # it passes, so the run ends there: the scripted run and submit are never asked for
    assert len(out["trajectory"]) == 1 and out["submitted"] is True
    # the edit call showed the region the traceback points to
    edit_call = str(model.calls[2][-1].content)
    assert "    if x < hi:" in edit_call and "helper_0(" not in edit_call
    assert edit_call.endswith(f"The output points at line {BUG_LINE} of `big.py`: `if x < hi:`")
    # what the agent was shown first: the traceback's lines and the module's outline
    opening = str(model.calls[1][-1].content)
    assert f"{BUG_LINE}|     if x < hi:" in opening
    assert f"{BUG_LINE - 1}: def clamp (to {BUG_LINE + 2})" in opening


@pytest.mark.slow
def test_a_command_that_is_only_an_action_name_runs_the_declared_check(pool, scripted, repo):
    fix = "<<<<<<< SEARCH\n    if x < hi:\n=======\n    if x > hi:\n>>>>>>> REPLACE\n"
    no_fix = (
        "<<<<<<< SEARCH\n    if x < hi:\n=======\n    if x < hi:  # in range\n>>>>>>> REPLACE\n"
    )
    model = scripted(
        "1. fix the comparison 2. run the test",
        json_action("edit", path="big.py", thought="comment the comparison"),
        no_fix,  # the check still fails after it, so the run goes on
        json_action("run", command="run"),  # asked for a command, it gives the verb
        json_action("submit"),
        json_action("submit"),  # a submit after a failing check is questioned once
    )
    out = coding_agent(pool, model, edits="search_replace").invoke(
        {"task": TASK}, context=agent_context(repo)
    )
    check = out["trajectory"][1]
    assert check["action"] == "python3 test_big.py"
    assert check["observation"].startswith("NOTE: `run` is not a shell")
    assert out["history"][1]["policies"] == ["command-word"]  # who acted is data ...
    said = [str(m.content) for call in model.calls for m in call]
    assert any("NOTE: `run` is not a shell" in s for s in said)
    assert not any("[policy:" in s for s in said)  # ... and never in what the model reads
    assert "[exit code 1]" in check["observation"] and "AssertionError" in check["observation"]
    # with no check declared, the verb is refused, saying what to give instead
    model = scripted(
        "1. fix it",
        json_action("edit", path="big.py", thought="fix"),
        fix,
        json_action("run", command="check"),
        json_action("submit"),
        json_action("submit"),
    )
    out = coding_agent(pool, model).invoke(
        {"task": UNPOINTED}, context=replace(agent_context(repo), check_command=None)
    )
    refused = out["trajectory"][1]
    assert refused["action"].startswith("(invalid action)")
    assert "`check` is the name of an action, not a shell command" in refused["observation"]


@pytest.mark.slow
@pytest.mark.parametrize("edits", ["line_range", "search_replace"])
def test_a_long_file_never_shown_whole_is_never_rewritten_whole(edits, pool, scripted, repo):
    before = (repo / "big.py").read_text()
    model = scripted(
        "1. rewrite big.py",
        json_action("write_file", path="big.py"),  # asked for as an edit, never as a whole file
        "def clamp(x, lo, hi):\n    return x\n",  # a whole "file" where an edit was asked for
        json_action("submit"),
        json_action("submit"),
    )
    out = coding_agent(pool, model, edits=edits).invoke(
        {"task": UNPOINTED}, context=agent_context(repo)
    )
    assert (repo / "big.py").read_text() == before
    first = out["trajectory"][0]
    assert "too long to rewrite whole" in first["observation"]
    refused = {"line_range": "must come in one fenced code block", "search_replace": "no SEARCH"}
    assert refused[edits] in first["observation"]
    asked = [str(call[-1].content) for call in model.calls]
    assert not any("complete content of `big.py`" in text for text in asked)
    asked_for = {"line_range": "new content of lines", "search_replace": "SEARCH/REPLACE blocks"}
    assert any(asked_for[edits] in text for text in asked)
    # and the first action was not forced to be that write: any action was offered
    assert "view" in str(model.calls[1][0].content)


def test_an_edit_may_give_the_whole_corrected_function_instead_of_blocks(pool, scripted, repo):
    before = (repo / "big.py").read_text()
    fixed = "```python\ndef clamp(x, lo, hi):\n    if x > hi:\n        return hi\n    return max(x, lo)\n```"
    model = scripted(
        "1. fix clamp",
        json_action("edit", path="big.py", thought="fix the comparison in clamp"),
        fixed,
        json_action("run", command=f"{sys.executable} test_big.py"),
        default=json_action("submit"),
    )
    out = coding_agent(pool, model, edits="search_replace").invoke(
        {"task": TASK}, context=agent_context(repo)
    )
    assert out["verified"] is True, out["trajectory"]
    assert "replaced clamp" in out["trajectory"][0]["observation"]
    after = (repo / "big.py").read_text().splitlines()
    changed = [
        i for i, (a, b) in enumerate(zip(before.splitlines(), after, strict=True), 1) if a != b
    ]
    assert changed == [BUG_LINE]


@pytest.mark.parametrize("edits", ["search_replace", "line_range"])
def test_an_edit_whose_reply_holds_no_change_changes_nothing(edits, pool, scripted, repo):
    before = (repo / "big.py").read_text()
    model = scripted(
        "1. fix clamp",
        json_action("edit", path="big.py", start=BUG_LINE - 2, end=BUG_LINE + 2),
        "I would change the comparison.",  # words, no blocks: nothing to apply
        json_action("edit", path="big.py", start=BUG_LINE, end=BUG_LINE),
        "```\n```",  # an empty range: never a deletion
        default=json_action("submit"),
    )
    coding_agent(pool, model, edits=edits).invoke({"task": TASK}, context=agent_context(repo))
    assert (repo / "big.py").read_text() == before


def test_the_tools_refuse_a_whole_rewrite_of_a_long_file_and_edit_it_in_place(repo):
    from langgraph_mtl.agent.tools import create_sandbox_tools

    tools = {t.name: t for t in create_sandbox_tools(sandbox="none")}
    state = {"workspace": str(repo)}
    refused = tools["write_file"].invoke({"path": "big.py", "content": "stub\n", **state})
    assert "too long to rewrite whole" in refused
    done = tools["edit_file"].invoke(
        {"path": "big.py", "old": "    if x < hi:\n", "new": "    if x > hi:\n", **state}
    )
    assert done.startswith("[edited big.py")
    shown = tools["view_file"].invoke(
        {"path": "big.py", "start": BUG_LINE, "end": BUG_LINE, **state}
    )
    assert f"{BUG_LINE}|     if x > hi:" in shown
    found = tools["search_files"].invoke({"query": "def clamp", **state})
    assert f"big.py:{BUG_LINE - 1}: def clamp(x, lo, hi):" in found


def test_writing_what_a_file_already_holds_says_nothing_changed(repo):
    code = "def add(a, b):\n    return a - b\n"
    first = write_file(repo, "add.py", code)
    assert first.startswith("[wrote add.py: 2 lines") and first.outcome == "applied"
    again = write_file(repo, "add.py", code)
    assert again.startswith("[unchanged] add.py already holds exactly this")
    assert again.outcome == "unchanged"  # so the task's check is not run again: nothing new
    assert write_file(repo, "add.py", code.replace("-", "+")).startswith("[wrote add.py")


@pytest.mark.parametrize(
    ("path", "before", "after", "dropped"),
    [
        (  # renamed while fixed: every test of the old name breaks
            "solution.py",
            "def pairs_sum_to_zero(l):\n    return False\n",
            "def solution_pairs_sum_to_zero(l):\n    return True\n",
            "pairs_sum_to_zero",
        ),
        (  # a helper alone, the class and the function lost
            "shapes.py",
            "class Box:\n    pass\n\nasync def load():\n    return 1\n",
            "def helper():\n    return 2\n",
            "Box, load",
        ),
        ("lib.rs", "pub fn add(a: i32) -> i32 { a }\n", "fn add2() {}\n", "add"),
        (  # a module's constant left out: every module importing it breaks
            "utils.py",
            'no_default = "__no__default__"\nLIMIT: int = 3\n\n\ndef f():\n    return False\n',
            "def f():\n    if LIMIT == 3:\n        return None\n",
            "no_default, LIMIT",
        ),
    ],
)
def test_a_rewrite_that_drops_a_definition_is_refused_and_writes_nothing(
    repo, path, before, after, dropped
):
    (repo / path).write_text(before)
    refused = write_file(repo, path, after)
    assert refused.startswith(f"[refused] this rewrite of {path} drops {dropped}, which")
    assert (repo / path).read_text() == before
    # keeping every name, with helpers added or bodies changed, is written
    kept = before.replace("return False", "return True") + "\n" + after
    assert write_file(repo, path, kept).startswith(f"[wrote {path}")


def test_only_names_a_module_defines_count_as_dropped_not_comparisons_or_updates():
    old = "x = 1\ny: int\nx == 2\nx += 3\nif __name__ == '__main__':\n    z = 4\nVAR=5\n"
    # ``y: int`` assigns nothing, ``z`` is not top level, a comparison and an update define nothing
    assert dropped_definitions(old, "") == ["x", "VAR"]
    assert dropped_definitions(old, "x = 2\nVAR=6\n") == []


def test_edits_say_when_their_search_text_is_missing_or_not_unique_and_change_nothing(repo):
    before = (repo / "big.py").read_text()
    missing = apply_replacements(repo, "big.py", [Replacement("    if x <= hi:\n", "x\n")])
    assert "not found" in missing and "nothing was changed" in missing
    twice = apply_replacements(repo, "big.py", [Replacement("    return x + 1", "x")])
    assert "appears" in twice and "times" in twice
    one_of_two = [
        Replacement("    if x < hi:\n", "    if x > hi:\n"),
        Replacement("no such line\n", "x\n"),
    ]
    assert "block 2" in apply_replacements(repo, "big.py", one_of_two)
    assert (repo / "big.py").read_text() == before  # all or nothing
    assert "refused" in apply_replacements(repo, "big.py", [])
    # indentation differences alone are forgiven, once the lines are unique
    assert apply_replacements(
        repo, "big.py", [Replacement("if x < hi:\n", "    if x > hi:\n")]
    ).startswith("[edited")


def test_lines_copied_with_the_numbers_a_view_shows_are_edited_without_them(repo):
    shown = view_file(repo, "big.py", BUG_LINE - 2, BUG_LINE + 1).split("\n", 1)[1]
    fixed = shown.replace("x < hi", "x > hi")
    # the range names the bug's line only; the numbered lines say which lines they are
    assert replace_lines(repo, "big.py", BUG_LINE, BUG_LINE, fixed).startswith("[edited")
    lines = (repo / "big.py").read_text().splitlines()
    assert lines[BUG_LINE - 3 : BUG_LINE + 1] == [
        "",
        "def clamp(x, lo, hi):",
        "    if x > hi:",
        "        return hi",
    ]
    assert len(lines) == len(big_module().splitlines())
    block = Replacement(f"{BUG_LINE}|     if x > hi:", f"{BUG_LINE}|     if x >= hi:")
    assert apply_replacements(repo, "big.py", [block]).startswith("[edited")
    assert "    if x >= hi:" in (repo / "big.py").read_text().splitlines()
    # the lines around the range given back with the change are not written twice
    around = (repo / "big.py").read_text().splitlines(keepends=True)[BUG_LINE - 4 : BUG_LINE + 3]
    echoed = "".join(around).replace("x >= hi", "x >= lo")
    assert replace_lines(repo, "big.py", BUG_LINE, BUG_LINE, echoed).startswith("[edited")
    text = (repo / "big.py").read_text()
    assert text.count("def clamp(") == 1 and "    if x >= lo:\n        return hi\n" in text
    assert len(text.splitlines()) == len(big_module().splitlines())
    # a line that only looks numbered is kept as it is
    assert replace_lines(repo, "big.py", 1, 1, "1| 2\nx = 3\n").startswith("[edited")
    assert (repo / "big.py").read_text().startswith("1| 2\nx = 3\n")


def test_a_change_that_would_leave_a_python_file_unparsable_is_refused_with_its_line(repo):
    before = (repo / "big.py").read_text()
    said = replace_lines(repo, "big.py", BUG_LINE, BUG_LINE, "    if x > hi")
    assert said.startswith("[edit refused]") and "would not compile" in said
    assert f"line {BUG_LINE}: `if x > hi`" in said
    block = Replacement("    if x < hi:\n        return hi\n", "    if x > hi:\n    return hi\n")
    assert "would not compile" in apply_replacements(repo, "big.py", [block])
    stray = Replacement("        return hi\n", "        break\n")  # parses, does not compile
    assert "'break' outside loop" in apply_replacements(repo, "big.py", [stray])
    assert (repo / "big.py").read_text() == before
    # an edit whose new lines bring their indentation is not indented twice
    assert apply_replacements(
        repo, "big.py", [Replacement("if x < hi:\n", "    if x > hi:\n")]
    ).startswith("[edited")
    (repo / "small.py").write_text("def f():\n    return 1\n")
    assert "nothing was written" in write_file(repo, "small.py", "def f(:\n    return 2\n")
    assert (repo / "small.py").read_text() == "def f():\n    return 1\n"
    # a new file, another language, or a file broken already: not this check's to refuse
    assert write_file(repo, "new_mod.py", "def g(:\n").startswith("[wrote")
    assert write_file(repo, "notes.txt", "def g(:\n").startswith("[wrote")
    assert replace_lines(repo, "new_mod.py", 1, 1, "def g(x:").startswith("[edited")


def test_lines_given_out_of_their_context_are_indented_as_the_lines_they_replace(repo):
    before = (repo / "big.py").read_text().splitlines(keepends=True)
    # the body of clamp given flush left: it compiles only indented as the lines it replaces
    said = replace_lines(repo, "big.py", BUG_LINE, BUG_LINE + 1, "if x > hi:\n    return hi\n")
    assert said.startswith("[edited") and "indented as the lines it replaces" in said, said
    after = (repo / "big.py").read_text().splitlines(keepends=True)
    assert after[BUG_LINE - 1 : BUG_LINE + 1] == ["    if x > hi:\n", "        return hi\n"]
    assert (
        after[: BUG_LINE - 1] == before[: BUG_LINE - 1]
        and after[BUG_LINE + 1 :] == before[BUG_LINE + 1 :]
    )
    # and indented too deep, it is brought back; one that compiles as given is left as given
    said = replace_lines(repo, "big.py", BUG_LINE, BUG_LINE, "            if x > hi:")
    assert "indented as" in said and (repo / "big.py").read_text() == "".join(after)
    assert "indented as" not in replace_lines(
        repo, "big.py", BUG_LINE + 2, BUG_LINE + 2, "    return min(max(x, lo), hi)"
    )


def test_line_numbers_a_model_made_up_do_not_move_the_range(repo):
    before = (repo / "big.py").read_text().splitlines(keepends=True)
    # the right lines under numbers 100 too high: taken by their place, not by those numbers
    made_up = "".join(
        f"{BUG_LINE + 100 + i}| {line}"
        for i, line in enumerate(before[BUG_LINE - 2 : BUG_LINE + 1])
    ).replace("x < hi", "x > hi")
    said = replace_lines(repo, "big.py", BUG_LINE - 1, BUG_LINE + 1, made_up)
    assert said.startswith(f"[edited big.py: lines {BUG_LINE - 1}-{BUG_LINE + 1} replaced"), said
    after = (repo / "big.py").read_text().splitlines(keepends=True)
    assert len(after) == len(before) and after[BUG_LINE - 1] == "    if x > hi:\n"


def test_a_placeholder_where_code_was_is_refused_and_nothing_is_lost(repo):
    before = (repo / "big.py").read_text()
    stub = "def clamp(x, lo, hi):\n    # Your existing clamping logic here\n    return x\n"
    said = replace_definitions(repo, "big.py", stub)
    assert said is not None and said.startswith("[edit refused]")
    assert "`# Your existing clamping logic here`" in said and "Give the code itself" in said
    lines = "def clamp(x, lo, hi):\n    # ...\n    return hi\n"
    assert "`# ...`" in replace_lines(repo, "big.py", BUG_LINE - 1, BUG_LINE + 1, lines)
    block = Replacement("    if x < hi:\n", "    # rest of the function unchanged\n")
    assert apply_replacements(repo, "big.py", [block]).startswith("[edit refused]")
    assert (repo / "big.py").read_text() == before
    (repo / "small.py").write_text("def f():\n    return 1\n")
    assert "nothing was written" in write_file(repo, "small.py", "def f():\n    # ...\n")
    # a comment the file already holds, one after code, or prose: not a placeholder
    (repo / "held.py").write_text("def g():\n    # ...\n    return 1\n")
    assert write_file(repo, "held.py", "def g():\n    # ...\n    return 2\n").startswith("[wrote")
    (repo / "notes.md").write_text("intro\n")
    assert write_file(repo, "notes.md", "# ...\nmore\n").startswith("[wrote")
    fixed = (
        "def clamp(x, lo, hi):\n    if x > hi:  # the rest of the code stays\n        return hi\n"
    )
    assert replace_lines(repo, "big.py", BUG_LINE - 1, BUG_LINE + 1, fixed).startswith("[edited")


def test_views_searches_and_line_edits_work_on_numbered_lines(repo):
    whole = view_file(repo, "test_big.py")
    assert (
        whole.startswith("[test_big.py, all 4 lines]") and "2| assert clamp(5, 0, 3) == 3" in whole
    )
    long = view_file(repo, "big.py")
    assert "its outline" in long and "def helper_0 (to 4)" in long and "search for a name" in long
    assert "past its end" in view_file(repo, "big.py", 5000, 5010)
    assert "ends before it starts" in view_file(repo, "big.py", 30, 10)
    assert "search text is empty" in apply_replacements(repo, "big.py", [Replacement(" \n", "x")])
    assert "does not exist" in view_file(repo, "nope.py")
    # a path a little off is answered with the one meant
    assert view_file(repo, "bigg.py").endswith("does not exist (did you mean big.py?)")
    assert search_workspace(repo, "clamp", "big.pyy").endswith("(did you mean big.py?)")
    block = [Replacement("    if x < hi:", "    if x > hi:")]
    assert apply_replacements(repo, "big_.py", block).endswith("(did you mean big.py?)")
    assert replace_lines(repo, "bg.py", 1, 1, "x").endswith("(did you mean big.py?)")
    assert view_file(repo, "test_bigg.py").endswith("(did you mean test_big.py?)")
    assert "outside the workspace" in view_file(repo, "../etc/passwd")
    for refused in (
        view_file(repo, "big.py\0"),
        write_file(repo, "\0x.py", "x"),
        replace_lines(repo, "big\0.py", 1, 1, "x"),
    ):
        assert "NUL character" in refused
    assert view_file(repo, ".") == "[. is a directory] big.py test_big.py"
    assert search_workspace(repo, "clamp", ".").count("big.py") >= 1
    assert "outside the workspace" in write_file(repo, ".", "x")
    assert "no file or line holds" in search_workspace(repo, "zebra")
    assert replace_lines(repo, "test_big.py", 3, 3, "assert clamp(1, 0, 3) == 1").startswith(
        "[edited"
    )
    assert (repo / "test_big.py").read_text().splitlines()[2] == "assert clamp(1, 0, 3) == 1"
    assert "not a range" in replace_lines(repo, "test_big.py", 7, 9, "x")  # past the end
    # lines given just past the end are added after the last one, the lines before kept
    shown = "4| print('ok')\n5| x = 1\n6| y = 2\n"
    assert replace_lines(repo, "test_big.py", 5, 6, shown).startswith("[edited")
    assert (repo / "test_big.py").read_text().splitlines()[2:] == [
        "assert clamp(1, 0, 3) == 1",
        "print('ok')",
        "x = 1",
        "y = 2",
    ]
    assert "start at 7" in replace_lines(repo, "test_big.py", 9, 9, "z = 3")
    assert write_file(repo, "new.py", "print(1)\n").startswith("[wrote new.py")
    rust = outline("lib.rs", "pub fn a() {}\nstruct B;\nimpl B {\n    fn c(&self) {}\n}\n")
    assert "1: pub fn a()" in rust and "4:     fn c(&self)" in rust
    (repo / "solution.py").write_text("x = 1\n")  # a test is never answered with its code
    assert view_file(repo, "test_solution.py").endswith("(search for its name to find it)")


@pytest.mark.parametrize(
    ("reply", "kind", "detail"),
    [
        ("```bash\nview big.py 10-20\n```", "view", ("big.py", 10, 20)),
        ("```bash\nsearch def clamp\n```", "search", "def clamp"),
        (
            "Fix it.\nbig.py\n<<<<<<< SEARCH\n    if x < hi:\n=======\n    if x > hi:\n>>>>>>> REPLACE\n",
            "edit",
            "big.py",
        ),
        (
            "```python\n# file: `big.py`\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n```",
            "edit",
            "big.py",
        ),
    ],
)
def test_the_text_protocol_looks_searches_and_edits(reply, kind, detail):
    action = parse_action(AIMessage(reply))
    assert action.kind == kind
    if kind == "view":
        assert (action.path, action.start, action.end) == detail
    elif kind == "search":
        assert action.query == detail
    else:
        assert action.path == detail and len(action.edits) == 1


def test_native_tool_calls_look_and_edit():
    view = parse_action(
        AIMessage(
            "", tool_calls=[{"name": "view_file", "args": {"path": "a.py", "start": 3}, "id": "1"}]
        )
    )
    assert (view.kind, view.path, view.start) == ("view", "a.py", 3)
    edit = parse_action(
        AIMessage(
            "",
            tool_calls=[
                {"name": "edit_file", "args": {"path": "a.py", "old": "x", "new": "y"}, "id": "2"}
            ],
        )
    )
    assert edit.kind == "edit" and edit.edits == (Replacement("x", "y"),)


def test_limits_follow_the_kind_of_task(pool, scripted, repo):
    limits = Limits(steps=2, kinds={"repository": {"steps": 5}})
    assert limits.for_kind("repository").steps == 5
    assert limits.for_kind("function").steps == 2
    with pytest.raises(ValueError, match=r"limits.kinds\['repository'\]: unknown limit 'stepz'"):
        Limits(kinds={"repository": {"stepz": 5}})
    with pytest.raises(ValueError, match=r"limits.kinds\['repository'\].steps: must be a whole"):
        Limits(kinds={"repository": {"steps": 0}})
    counter = iter(range(100))
    model = scripted("plan", default=lambda _: json_action("run", command=f"echo {next(counter)}"))
    graph = create_coding_agent(
        model,
        pool=pool,
        retrieval=RetrievalConfig(memory_types="insight", strategy="task"),
        writer=WriterConfig(memory_types="trajectory"),
        sandbox=SandboxConfig(mode="none"),
        limits=limits,
        actions="json",
    ).compile()
    for kind, steps in (("repository", 5), (None, 2)):
        model.replies.append("plan")
        ctx = agent_context(repo)
        ctx.task_kind = kind
        out = graph.invoke({"task": "look around"}, context=ctx, config={"recursion_limit": 30})
        assert out["steps_taken"] == steps


def test_an_edit_that_gives_back_what_the_file_holds_says_nothing_changed(repo):
    from langgraph_mtl.agent.editing import replace_definitions

    before = (repo / "big.py").read_text()
    same = [Replacement("    if x < hi:", "    if x < hi:")]
    assert apply_replacements(repo, "big.py", same).startswith("[unchanged] big.py")
    copied = "def clamp(x, lo, hi):\n    if x < hi:\n        return hi\n    return max(x, lo)\n"
    assert replace_definitions(repo, "big.py", copied).startswith("[unchanged] big.py")
    line = before.splitlines()[BUG_LINE - 1]
    assert replace_lines(repo, "big.py", BUG_LINE, BUG_LINE, line).startswith("[unchanged]")
    assert (repo / "big.py").read_text() == before
    # one definition copied, one changed: only the changed one is named
    both = copied + "\n\ndef helper_0(x):\n    return x - 0\n"
    said = replace_definitions(repo, "big.py", both)
    assert said is not None and said.startswith("[edited big.py: replaced helper_0;")


def test_once_the_tasks_check_ran_after_a_change_any_action_may_follow(repo):
    from langgraph_mtl.agent.actions import Action, CheckAction
    from langgraph_mtl.agent.guards import questioned_submit

    bare = [changed("edit", "big.py")]
    assert action_schema(TASK, bare, unchanged=False) is CheckAction
    failing = check_run("python3 test_big.py", "boom", code=1)
    checked = [changed("edit", "big.py", after=[failing], checked=True)]
    assert action_schema(TASK, checked, unchanged=False) is AgentAction
    # a submit right after a check that failed is still questioned
    action = questioned_submit(Action("submit"), checked, unchanged=False, asked=set())
    assert action.kind == "invalid" and action.reason == "asked_after_failure"


def test_the_check_is_the_one_the_task_declares_never_one_its_wording_names(pool, scripted, repo):
    from big_repo import NAMELESS

    def run(context):
        model = scripted(
            "plan",
            json_action("edit", path="big.py", start=BUG_LINE, end=BUG_LINE),
            "```python\n    if x > hi:\n```",
            default=json_action("submit"),
        )
        return coding_agent(pool, model).invoke({"task": NAMELESS}, context=context)

    declared = run(agent_context(repo))
    assert declared["history"][0]["checked"]
    assert declared["history"][0]["after"][0]["command"] == "python3 test_big.py"
    assert "end-on-green" in declared["history"][0]["policies"]
    (repo / "big.py").write_text(big_module())
    undeclared = run(replace(agent_context(repo), check_command=None))
    assert not undeclared["history"][0]["checked"]  # the task's text names it: not enough
    assert not undeclared["history"][0]["after"]
    with pytest.raises(ValueError, match=r"context\.check_command: expected a shell command"):
        replace(agent_context(repo), check_command="  ")


def test_a_line_range_running_past_the_end_of_a_file_is_taken_to_its_end(repo):
    (repo / "small.py").write_text("a = 1\nb = 2\nc = 3\n")
    said = replace_lines(repo, "small.py", 2, 100, "b = 20\nc = 30\n")
    assert said.startswith("[edited small.py: lines 2-3 replaced"), said
    assert (repo / "small.py").read_text() == "a = 1\nb = 20\nc = 30\n"
    assert "not a range in it" in replace_lines(repo, "small.py", 9, 12, "x = 1\n")


def _refused(kind: type[Exception], message: str) -> Exception:
    """What an OpenAI-compatible client raises for a request the server refuses (400)."""
    request = httpx.Request("POST", "http://127.0.0.1:1/v1/chat/completions")
    return kind(message, response=httpx.Response(400, request=request), body=None)


@pytest.mark.parametrize(
    "kind",
    [openai.BadRequestError, OpenAIInvalidRequestError, OpenAIContextOverflowError],
    ids=["openai", "langchain-openai", "langchain-overflow"],
)
def test_a_request_longer_than_the_models_context_is_asked_again_with_less_history(
    kind, pool, scripted, repo
):
    def refuses_old_output(messages):
        if any("OLD-OUTPUT" in str(m.content) for m in messages):
            return _refused(kind, "request (8220 tokens) exceeds the available context size")
        return json_action("run", command="echo fits")

    always = _refused(kind, "Error code: 400 - request exceeds the available context size")
    model = scripted(
        "plan",
        json_action("run", command="echo OLD-OUTPUT"),
        json_action("run", command="echo newer"),
        refuses_old_output,  # the step that follows sees the old output: refused
        refuses_old_output,  # asked again without it
        default=always,
    )
    out = coding_agent(pool, model).invoke({"task": UNPOINTED}, context=agent_context(repo))
    steps = out["trajectory"]
    assert [s["action"] for s in steps[:3]] == ["echo OLD-OUTPUT", "echo newer", "echo fits"]
    # a model that refuses every length: the step is refused, the run goes on and ends
    model = scripted("plan", default=always)
    out = coding_agent(pool, model).invoke({"task": UNPOINTED}, context=agent_context(repo))
    assert "longer than the model's context" in out["trajectory"][0]["observation"]
    if kind is OpenAIContextOverflowError:
        return  # its kind says it is too long, whatever its words
    other = scripted("plan", default=_refused(kind, "unknown model"))
    with pytest.raises(kind):  # any other refusal is the caller's to see
        coding_agent(pool, other).invoke({"task": UNPOINTED}, context=agent_context(repo))


def test_an_edit_that_drops_a_top_level_definition_is_refused_and_changes_nothing(repo):
    before = (repo / "big.py").read_text()
    # lines 3-5 hold `def helper_0(x):` and its body; the new lines keep only the body
    said = replace_lines(repo, "big.py", 3, 5, "    return x + 100\n\n")
    assert said.startswith("[edit refused] this change of big.py drops helper_0"), said
    block = Replacement("def helper_1(x):\n    return x + 1\n", "    return x + 1\n")
    said = apply_replacements(repo, "big.py", [block])
    assert said.startswith("[edit refused] this change of big.py drops helper_1"), said
    assert (repo / "big.py").read_text() == before
    # the same lines with the definition kept are written
    kept = replace_lines(repo, "big.py", 3, 5, "def helper_0(x):\n    return x + 100\n\n")
    assert kept.startswith("[edited big.py"), kept
