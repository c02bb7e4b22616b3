"""The agent inside a real repository: it looks (numbered lines, outlines), searches and edits
in place; a long file it was never shown whole is never rewritten whole."""

from __future__ import annotations

import json
import sys

import pytest
from langchain_core.messages import AIMessage
from pydantic import ValidationError

from langgraph_mtl.agent import (
    AgentContext,
    Limits,
    RetrievalConfig,
    SandboxConfig,
    WriterConfig,
    create_coding_agent,
)
from langgraph_mtl.agent.actions import AgentAction
from langgraph_mtl.agent.briefing import pointed_files
from langgraph_mtl.agent.editing import (
    Replacement,
    apply_replacements,
    replace_definitions,
    replace_lines,
    write_file,
)
from langgraph_mtl.agent.guards import action_schema
from langgraph_mtl.agent.replies import parse_action
from langgraph_mtl.agent.routing import stuck
from langgraph_mtl.agent.workspace import outline, search_workspace, view_file

BUG_LINE = 1503


def _big_module() -> str:
    """A module of about 2,100 lines with one planted bug (``<`` for ``>``) at BUG_LINE."""
    lines = ['"""A long module."""', ""]
    n = 0
    while len(lines) + 3 <= BUG_LINE - 2:
        lines += [f"def helper_{n}(x):", f"    return x + {n}", ""]
        n += 1
    lines += [""] * (BUG_LINE - 2 - len(lines))
    lines += ["def clamp(x, lo, hi):", "    if x < hi:", "        return hi"]
    lines += ["    return max(x, lo)", ""]
    assert lines[BUG_LINE - 1] == "    if x < hi:"
    while len(lines) < 2100:
        lines += [f"def helper_{n}(x):", f"    return x + {n}", ""]
        n += 1
    return "\n".join(lines) + "\n"


TEST = (
    "from big import clamp\nassert clamp(5, 0, 3) == 3\nassert clamp(2, 0, 3) == 2\nprint('ok')\n"
)
TASK = (
    "test_big.py fails:\n\n"
    "Traceback (most recent call last):\n"
    '  File "test_big.py", line 2, in <module>\n'
    f'  File "big.py", line {BUG_LINE}, in clamp\n'
    "AssertionError\n\n"
    "Fix the bug in big.py so that `python3 test_big.py` passes. Do not change the test."
)
# a script whose traceback ends at the bug's line
PROBE = "from big import clamp\nclamp(None, 0, 3)\n"
# the same request without the output that points at a line: any first action is offered
UNPOINTED = "Fix the bug in big.py's clamp so that `python3 test_big.py` passes."
# nor the function: nothing leads anywhere
NAMELESS = "Fix the bug in big.py so that `python3 test_big.py` passes."


@pytest.fixture
def repo(tmp_path):
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "big.py").write_text(_big_module())
    (ws / "test_big.py").write_text(TEST)
    return ws


def _json(action: str, **fields) -> str:
    return json.dumps({"thought": "next", "action": action, **fields})


def _agent(pool, model, **kwargs):
    return create_coding_agent(
        model,
        pool=pool,
        retrieval=RetrievalConfig(memory_types="insight", strategy="task"),
        writer=WriterConfig(memory_types="trajectory"),
        sandbox=SandboxConfig(mode="none"),
        limits=Limits(steps=8),
        actions="json",
        **kwargs,
    ).compile()


def _context(ws):
    return AgentContext(
        domain="python",
        task_id="big",
        workspace=str(ws),
        verify_command=f"{sys.executable} test_big.py",
        write=False,
    )


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
        _json("edit", path="big.py", thought="the comparison in clamp is reversed"),
        fix,
        _json("run", command=f"{sys.executable} test_big.py"),
        _json("submit"),
    )
    out = _agent(pool, model, edits=edits).invoke({"task": TASK}, context=_context(repo))
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
    assert edited.endswith("[exit code 0]\nok\n"), edited
    # the edit call showed the region the traceback points to
    edit_call = str(model.calls[2][-1].content)
    assert "    if x < hi:" in edit_call and "helper_0(" not in edit_call
    assert edit_call.endswith(f"The output points at line {BUG_LINE} of `big.py`: `if x < hi:`")
    # what the agent was shown first: the traceback's lines and the module's outline
    opening = str(model.calls[1][-1].content)
    assert f"{BUG_LINE}|     if x < hi:" in opening
    assert f"{BUG_LINE - 1}: def clamp (to {BUG_LINE + 2})" in opening


def test_a_command_that_is_only_an_action_name_runs_the_check_the_task_names(pool, scripted, repo):
    fix = "<<<<<<< SEARCH\n    if x < hi:\n=======\n    if x > hi:\n>>>>>>> REPLACE\n"
    model = scripted(
        "1. fix the comparison 2. run the test",
        _json("edit", path="big.py", thought="the comparison in clamp is reversed"),
        fix,
        _json("run", command="run"),  # asked for a command, it gives the verb
        _json("submit"),
    )
    out = _agent(pool, model, edits="search_replace").invoke({"task": TASK}, context=_context(repo))
    check = out["trajectory"][1]
    assert check["action"] == "python3 test_big.py"
    assert check["observation"].startswith("NOTE: `run` is not a shell command")
    assert "[exit code 0]" in check["observation"] and "ok" in check["observation"]
    # with no check named by the task, the verb is refused, saying what to give instead
    model = scripted(
        "1. fix it",
        _json("edit", path="big.py", thought="fix"),
        fix,
        _json("run", command="check"),
        _json("submit"),
        _json("submit"),
    )
    out = _agent(pool, model).invoke(
        {"task": UNPOINTED.split(" so that")[0]}, context=_context(repo)
    )
    refused = out["trajectory"][1]
    assert refused["action"].startswith("(invalid action)")
    assert "`check` is the name of an action, not a shell command" in refused["observation"]


@pytest.mark.parametrize("edits", ["line_range", "search_replace"])
def test_a_long_file_never_shown_whole_is_never_rewritten_whole(edits, pool, scripted, repo):
    before = (repo / "big.py").read_text()
    model = scripted(
        "1. rewrite big.py",
        _json("write_file", path="big.py"),  # asked for as an edit, never as a whole file
        "def clamp(x, lo, hi):\n    return x\n",  # a whole "file" where an edit was asked for
        _json("submit"),
        _json("submit"),
    )
    out = _agent(pool, model, edits=edits).invoke({"task": UNPOINTED}, context=_context(repo))
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
        _json("edit", path="big.py", thought="fix the comparison in clamp"),
        fixed,
        _json("run", command=f"{sys.executable} test_big.py"),
        default=_json("submit"),
    )
    out = _agent(pool, model, edits="search_replace").invoke({"task": TASK}, context=_context(repo))
    assert out["verified"] is True, out["trajectory"]
    assert "replaced clamp" in out["trajectory"][0]["observation"]
    after = (repo / "big.py").read_text().splitlines()
    changed = [
        i for i, (a, b) in enumerate(zip(before.splitlines(), after, strict=True), 1) if a != b
    ]
    assert changed == [BUG_LINE]


def test_a_line_edit_without_a_range_covers_the_few_lines_the_output_points_at(
    pool, scripted, repo
):
    window = range(BUG_LINE - 4, BUG_LINE + 5)
    lines = (repo / "big.py").read_text().splitlines()
    fixed = "\n".join(lines[n - 1].replace("x < hi", "x > hi") for n in window)
    model = scripted(
        "1. fix clamp",
        _json("edit", path="big.py", thought="the comparison is reversed"),
        f"```python\n{fixed}\n```",
        _json("run", command="python3 test_big.py"),
        _json("submit"),
    )
    out = _agent(pool, model).invoke({"task": TASK}, context=_context(repo))  # the default
    asked = str(model.calls[2][-1].content)
    assert f"new content of lines {BUG_LINE - 4}-{BUG_LINE + 4} of `big.py`" in asked
    assert out["verified"] is True, out["trajectory"]


@pytest.mark.parametrize("edits", ["search_replace", "line_range"])
def test_an_edit_whose_reply_holds_no_change_changes_nothing(edits, pool, scripted, repo):
    before = (repo / "big.py").read_text()
    model = scripted(
        "1. fix clamp",
        _json("edit", path="big.py", start=BUG_LINE - 2, end=BUG_LINE + 2),
        "I would change the comparison.",  # words, no blocks: nothing to apply
        _json("edit", path="big.py", start=BUG_LINE, end=BUG_LINE),
        "```\n```",  # an empty range: never a deletion
        default=_json("submit"),
    )
    _agent(pool, model, edits=edits).invoke({"task": TASK}, context=_context(repo))
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
    from langgraph_mtl.agent.guards import check_after_change

    code = "def add(a, b):\n    return a - b\n"
    assert write_file(repo, "add.py", code).startswith("[wrote add.py: 2 lines")
    again = write_file(repo, "add.py", code)
    assert again.startswith("[unchanged] add.py already holds exactly this")
    assert check_after_change("Make `python3 -m pytest` pass.", again) is None  # nothing new
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
    assert len(lines) == len(_big_module().splitlines())
    block = Replacement(f"{BUG_LINE}|     if x > hi:", f"{BUG_LINE}|     if x >= hi:")
    assert apply_replacements(repo, "big.py", [block]).startswith("[edited")
    assert "    if x >= hi:" in (repo / "big.py").read_text().splitlines()
    # the lines around the range given back with the change are not written twice
    around = (repo / "big.py").read_text().splitlines(keepends=True)[BUG_LINE - 4 : BUG_LINE + 3]
    echoed = "".join(around).replace("x >= hi", "x >= lo")
    assert replace_lines(repo, "big.py", BUG_LINE, BUG_LINE, echoed).startswith("[edited")
    text = (repo / "big.py").read_text()
    assert text.count("def clamp(") == 1 and "    if x >= lo:\n        return hi\n" in text
    assert len(text.splitlines()) == len(_big_module().splitlines())
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
    assert "does not exist" in view_file(repo, "nope.py")
    # a path a little off is answered with the one meant
    assert view_file(repo, "bigg.py").endswith("does not exist (did you mean big.py?)")
    assert search_workspace(repo, "clamp", "big.pyy").endswith("(did you mean big.py?)")
    block = [Replacement("    if x < hi:", "    if x > hi:")]
    assert apply_replacements(repo, "big_.py", block).endswith("(did you mean big.py?)")
    assert replace_lines(repo, "bg.py", 1, 1, "x").endswith("(did you mean big.py?)")
    assert view_file(repo, "test_bigg.py").endswith("(did you mean test_big.py?)")
    assert "outside the workspace" in view_file(repo, "../etc/passwd")
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
    four = [{"action": f"view {name}", "observation": name} for name in "abcd"]
    assert stuck([{"action": "run t", "observation": "fail"}, *four, *four])
    assert not stuck([*four, *four[:3], {"action": "view d", "observation": "changed"}])
    model = scripted(
        "plan",
        *[_json("view", path=p, start=1, end=2) for p in ("big.py", "test_big.py") * 3],
        default=_json("submit"),
    )
    out = _agent(pool, model).invoke({"task": NAMELESS}, context=_context(repo))
    assert out["steps_taken"] == 4  # not the 8 the limit allows


def test_reading_the_same_lines_again_is_answered_with_what_to_do_instead(pool, scripted, repo):
    region = {"path": "big.py", "start": BUG_LINE - 2, "end": BUG_LINE + 2}
    model = scripted(
        "plan", _json("view", **region), _json("view", **region), default=_json("submit")
    )
    out = _agent(pool, model).invoke({"task": NAMELESS}, context=_context(repo))
    first, second = (s["observation"] for s in out["trajectory"][:2])
    assert not first.startswith("NOTE")
    assert second.startswith("NOTE: you read exactly this") and "edit of big.py" in second
    assert second.endswith(first)  # the lines are still shown


def test_reading_a_test_again_says_to_change_the_code_it_tests_not_the_test(pool, scripted, repo):
    lines = {"path": "test_big.py", "start": 1, "end": 3}
    model = scripted(
        "plan", _json("view", **lines), _json("view", **lines), default=_json("submit")
    )
    out = _agent(pool, model).invoke({"task": NAMELESS}, context=_context(repo))
    second = out["trajectory"][1]["observation"]
    assert second.startswith("NOTE: you read exactly this a moment ago")
    assert "test_big.py is a test: it stays as it is" in second
    assert "edit of test_big.py" not in second


def test_listing_the_same_folder_again_says_to_open_a_file_not_to_edit_the_folder(
    pool, scripted, repo
):
    model = scripted(
        "plan", _json("view", path="."), _json("view", path="."), default=_json("submit")
    )
    out = _agent(pool, model).invoke({"task": NAMELESS}, context=_context(repo))
    first, second = (s["observation"] for s in out["trajectory"][:2])
    assert first.startswith("[. is a directory]")
    assert (
        second.startswith("NOTE: you listed this folder a moment ago") and "edit of" not in second
    )
    assert second.endswith(first)


def test_a_search_that_found_nothing_again_says_to_search_for_one_name(pool, scripted, repo):
    phrase = {"query": "extra functions in big", "path": "big.py"}
    model = scripted(
        "plan", _json("search", **phrase), _json("search", **phrase), default=_json("submit")
    )
    out = _agent(pool, model).invoke({"task": NAMELESS}, context=_context(repo))
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


def test_limits_follow_the_kind_of_task(pool, scripted, repo):
    limits = Limits(steps=2, kinds={"repository": {"steps": 5}})
    assert limits.for_kind("repository").steps == 5
    assert limits.for_kind("function").steps == 2
    with pytest.raises(ValueError, match=r"limits.kinds\['repository'\]: unknown limit 'stepz'"):
        Limits(kinds={"repository": {"stepz": 5}})
    with pytest.raises(ValueError, match=r"limits.kinds\['repository'\].steps: must be a whole"):
        Limits(kinds={"repository": {"steps": 0}})
    counter = iter(range(100))
    model = scripted("plan", default=lambda _: _json("run", command=f"echo {next(counter)}"))
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
        ctx = _context(repo)
        ctx.task_kind = kind
        out = graph.invoke({"task": "look around"}, context=ctx, config={"recursion_limit": 30})
        assert out["steps_taken"] == steps


def test_the_files_a_test_imports_are_the_workspaces_own_modules(tmp_path):
    from langgraph_mtl.agent.workspace import imported_files

    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "core.py").write_text("")
    (tmp_path / "src" / "lib").mkdir(parents=True)
    (tmp_path / "src" / "lib" / "__init__.py").write_text("")
    (tmp_path / "test_x.py").write_text(
        "import os\nimport pytest\nfrom pkg.core import f\nfrom . import rel\nimport lib\n"
    )
    assert imported_files(tmp_path, "test_x.py") == [
        "pkg/core.py",
        "src/lib/__init__.py",
    ]
    (tmp_path / "broken.py").write_text("def (:\n")
    assert imported_files(tmp_path, "broken.py") == []
    assert imported_files(tmp_path, "missing.py") == []


def _project(tmp_path):
    (tmp_path / "words").mkdir()
    helpers = "".join(f"def helper_{i}(x):\n    return x\n\n\n" for i in range(300))
    (tmp_path / "words" / "__init__.py").write_text(
        helpers + "def singularize(word):\n    if word == 'kine':\n        return 'kine'\n"
        "    return word.rstrip('s')\n"
    )
    for i in range(6):
        (tmp_path / "words" / f"extra_{i}.py").write_text(f"def extra_{i}():\n    pass\n")
    (tmp_path / "test_words.py").write_text(
        "import words\n\n\ndef test_singularize():\n    assert words.singularize('kine') == 'cow'\n"
    )
    return tmp_path


FAILING_TEST = (
    "    def test_singularize():\n"
    ">       assert words.singularize('kine') == 'cow'\n"
    "E       AssertionError: assert 'kine' == 'cow'\n\n"
    "test_words.py:5: AssertionError\n"
    "Fix the bug so that `python -m pytest -x -q test_words.py` passes."
)


def test_a_failure_pointing_only_at_a_test_shows_the_project_function_it_names(tmp_path):
    from langgraph_mtl.agent.briefing import describe_workspace

    root = _project(tmp_path)
    shown = describe_workspace(root, FAILING_TEST)
    assert "The project's code the task's output names:" in shown
    start = 1201  # singularize's line in words/__init__.py
    assert f"words/__init__.py, lines {start}-{start + 3} (singularize):" in shown
    assert f"{start + 1}|     if word == 'kine':" in shown
    assert "helper_0" not in shown  # the function, not the start of the file
    # an output naming many of the project's functions has no lead: none is shown
    broad = FAILING_TEST + "\nE   extra_0, extra_1, extra_2 and extra_3 should be curried"
    assert "The project's code the task's output names" not in describe_workspace(root, broad)
    # a traceback into the project's code is shown as it is; no name search then
    pointed = FAILING_TEST.replace("test_words.py:5:", f"words/__init__.py:{start + 2}:")
    assert "The project's code the task's output names" not in describe_workspace(root, pointed)


def test_names_in_files_already_shown_whole_are_not_shown_again(tmp_path):
    from langgraph_mtl.agent.briefing import describe_workspace

    (tmp_path / "solution.py").write_text("def singularize(word):\n    return word\n")
    shown = describe_workspace(tmp_path, "Implement `singularize` in solution.py.")
    assert "The project's code the task's output names" not in shown
    assert "def singularize(word):" in shown  # the file itself, shown whole


def test_the_briefing_never_shows_a_file_linked_from_outside_the_workspace(tmp_path):
    from langgraph_mtl.agent.briefing import describe_workspace

    secret = tmp_path / "secret.py"
    secret.write_text("def singularize(word):\n    KEY = 'hunter2-outside'\n    return word\n")
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "leak.py").symlink_to(secret)
    (ws / "notes.txt").symlink_to(secret)
    (ws / "test_words.py").write_text("import leak\n")
    shown = describe_workspace(ws, "leak.py:2: in singularize\ntest_words.py:1: AssertionError")
    assert "hunter2-outside" not in shown
    assert "leak.py" not in shown.split("Where the task")[0]  # not even listed


def test_a_link_a_command_made_to_a_host_file_is_never_read_for_the_memory(tmp_path):
    from langgraph_mtl.agent.workspace import changed_files, file_hashes

    host = tmp_path / "host-credentials"
    host.write_text("aws_secret = hunter2-on-the-host\n")
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "fix.py").write_text("x = 1\n")
    before = file_hashes(ws)
    (ws / "creds.txt").symlink_to(host)  # what `ln -s ~/... creds.txt` leaves behind
    (ws / "fix.py").write_text("x = 2\n")
    assert changed_files(ws, before) == {"fix.py": "x = 2\n"}
    assert "creds.txt" not in file_hashes(ws)


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
    from langgraph_mtl.agent.prompts import CHECKED

    edited = "[edited big.py: 1 block(s) applied; 2100 lines now]"
    bare = [{"action": "edit big.py", "observation": edited}]
    assert action_schema(TASK, bare, unchanged=False) is CheckAction
    ran = f"{edited}\n{CHECKED.format(command='python3 test_big.py')}\n[exit code 1]\nboom"
    checked = [{"action": "edit big.py", "observation": ran}]
    assert action_schema(TASK, checked, unchanged=False) is AgentAction
    # a submit right after a check that failed is still questioned
    action, flag = questioned_submit(Action("submit"), checked, unchanged=False, asked=set())
    assert action.kind == "invalid" and flag == "asked_after_failure"


@pytest.mark.parametrize(
    ("task", "check"),
    [
        ("Fix it so that `python -m pytest -x -q` passes.", "python -m pytest -x -q"),
        (
            "Check that it compiles with `iverilog -g2012 -o /tmp/a top.sv`.",
            "iverilog -g2012 -o /tmp/a top.sv",
        ),
        ("Implement it in solution.py and try it with `python`, which has pandas.", None),
        ("Implement `f` in solution.py.", None),
    ],
)
def test_the_check_a_task_names_is_a_command_that_checks_something(task, check):
    from langgraph_mtl.agent.guards import named_check

    assert named_check(task) == check


def test_the_next_edit_call_shows_what_the_check_after_the_last_change_printed(
    pool, scripted, repo
):
    wrong = "<<<<<<< SEARCH\n    if x < hi:\n=======\n    if x <= hi:\n>>>>>>> REPLACE\n"
    fix = "<<<<<<< SEARCH\n    if x <= hi:\n=======\n    if x > hi:\n>>>>>>> REPLACE\n"
    model = scripted(
        "1. fix clamp",
        _json("edit", path="big.py", thought="the comparison"),
        wrong,
        _json("edit", path="big.py", thought="still failing"),
        fix,
        _json("submit"),
    )
    out = _agent(pool, model, edits="search_replace").invoke(
        {"task": UNPOINTED}, context=_context(repo)
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
        _json("edit", path="big.py", start=far, end=far, thought="fix the comparison"),
        f"```python\n{fixed}\n```",
        _json("run", command=f"{sys.executable} test_big.py"),
        _json("submit"),
    )
    out = _agent(pool, model).invoke({"task": TASK}, context=_context(repo))
    asked = str(model.calls[2][-1].content)
    assert f"new content of lines {BUG_LINE - 4}-{BUG_LINE + 4} of `big.py`" in asked
    said = out["trajectory"][0]["observation"]
    assert f"points at line {BUG_LINE} of big.py, outside lines {far}-{far}" in said
    assert out["verified"] is True, out["trajectory"]


@pytest.mark.parametrize("read_first", [True, False])
def test_a_line_edit_of_lines_just_read_keeps_its_range(read_first, pool, scripted, repo):
    (repo / "probe.py").write_text(PROBE)
    far = BUG_LINE + 60
    run = _json("run", command=f"{sys.executable} probe.py")  # a traceback ending in clamp
    view = _json("view", path="big.py", start=far - 3, end=far + 3)
    edit = _json("edit", path="big.py", start=far, end=far, thought="rename")
    line = (repo / "big.py").read_text().splitlines()[far - 1]
    model = scripted(
        "1. run, read, edit",
        *([run, view] if read_first else [run]),
        edit,
        f"```python\n{line}  # seen\n```",
        default=_json("submit"),
    )
    _agent(pool, model).invoke({"task": UNPOINTED}, context=_context(repo))
    asked = str(model.calls[4 if read_first else 3][-1].content)
    if read_first:  # a range read after the run: the model's own
        assert f"new content of lines {far}-{far} of `big.py`" in asked
    else:  # a range guessed: where the traceback points
        assert f"new content of lines {BUG_LINE - 4}-{BUG_LINE + 4} of `big.py`" in asked


def test_a_line_range_running_past_the_end_of_a_file_is_taken_to_its_end(repo):
    (repo / "small.py").write_text("a = 1\nb = 2\nc = 3\n")
    said = replace_lines(repo, "small.py", 2, 100, "b = 20\nc = 30\n")
    assert said.startswith("[edited small.py: lines 2-3 replaced"), said
    assert (repo / "small.py").read_text() == "a = 1\nb = 20\nc = 30\n"
    assert "not a range in it" in replace_lines(repo, "small.py", 9, 12, "x = 1\n")


def test_reading_the_same_lines_again_becomes_an_edit_where_the_output_points(pool, scripted, repo):
    (repo / "probe.py").write_text(PROBE)
    lines = (repo / "big.py").read_text().splitlines()
    fixed = "\n".join(lines[BUG_LINE - 5 : BUG_LINE + 4]).replace("x < hi", "x > hi")
    run = _json("run", command=f"{sys.executable} probe.py")  # a traceback ending in clamp
    model = scripted(
        "1. read 2. fix",
        run,
        _json("view", path="big.py", start=1, end=20),
        _json("view", path="test_big.py"),
        _json("view", path="big.py", start=1, end=20),  # the same lines again
        f"```python\n{fixed}\n```",
        _json("run", command=f"{sys.executable} test_big.py"),
        default=_json("submit"),
    )
    out = _agent(pool, model).invoke({"task": UNPOINTED}, context=_context(repo))
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


def test_a_traceback_with_absolute_paths_points_into_the_workspace_only_inside_it(repo):
    from langgraph_mtl.agent.briefing import last_pointed_file

    inside_it = f'  File "{repo}/big.py", line {BUG_LINE}, in clamp\n'
    outside = f'  File "/usr/lib/python3/big.py", line {BUG_LINE}, in clamp\n'
    assert last_pointed_file(inside_it, repo) == "big.py"
    assert last_pointed_file(outside, repo) is None
    assert last_pointed_file(inside_it + f'  File "{repo}/test_big.py", line 2\n', repo) == "big.py"


@pytest.mark.parametrize("first", ["unchanged", "uncompilable"])
def test_the_next_call_for_a_file_says_why_its_last_change_was_not_applied(
    first, pool, scripted, repo
):
    lines = (repo / "big.py").read_text().splitlines()[BUG_LINE - 5 : BUG_LINE + 4]
    given = "\n".join(lines) if first == "unchanged" else "\n".join(lines).replace(":", "")
    fixed = "\n".join(lines).replace("x < hi", "x > hi")
    model = scripted(
        "1. fix clamp",
        _json("edit", path="big.py"),
        f"```python\n{given}\n```",
        _json("edit", path="big.py"),
        f"```python\n{fixed}\n```",
        _json("run", command=f"{sys.executable} test_big.py"),
        default=_json("submit"),
    )
    out = _agent(pool, model).invoke({"task": TASK}, context=_context(repo))
    said = "[unchanged] big.py" if first == "unchanged" else "[edit refused] after this change"
    assert said in out["trajectory"][0]["observation"]
    assert "was not applied" not in str(model.calls[2][-1].content)
    again = str(model.calls[4][-1].content)
    assert f"Your last change of `big.py` was not applied: {said}" in again
    assert out["verified"] is True, out["trajectory"]


def test_a_rewrite_asked_for_after_a_refused_one_says_why_only_for_that_file():
    from langgraph_mtl.agent.writing import writer_messages

    refused = "[refused] this rewrite of small.py drops f, which the file defines now"
    trajectory = [{"action": "write_file small.py\ng = 1\n", "observation": refused}]
    asked = writer_messages(
        task="t", path="small.py", current="def f(): ...\n", trajectory=trajectory
    )
    assert f"was not applied: {refused}" in str(asked[-1].content)
    other = writer_messages(task="t", path="small", trajectory=trajectory)
    assert "was not applied" not in str(other[-1].content)


def test_after_an_edit_that_would_not_compile_the_whole_statement_is_asked_for(
    pool, scripted, repo
):
    model = scripted(
        "1. fix clamp",
        _json("edit", path="big.py", start=BUG_LINE, end=BUG_LINE),
        "```python\n    if x > hi\n```",  # the colon lost: refused
        _json("edit", path="big.py", start=BUG_LINE, end=BUG_LINE),
        "```python\n    if x > hi:\n        return hi\n```",
        _json("run", command=f"{sys.executable} test_big.py"),
        default=_json("submit"),
    )
    out = _agent(pool, model).invoke({"task": TASK}, context=_context(repo))
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


def test_the_briefing_lists_only_the_workspaces_own_files(tmp_path):
    from langgraph_mtl.agent.briefing import describe_workspace

    for name in ("solution.py", "__pycache__/solution.py", "node_modules/a.js", ".git/HEAD"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x = 1\n")
    shown = describe_workspace(tmp_path, "Fix solution.py.")
    assert "solution.py" in shown
    assert "__pycache__" not in shown and "node_modules" not in shown and ".git" not in shown


class BadRequestError(Exception):
    """What an OpenAI-compatible client raises for a request the server refuses."""


def test_a_request_longer_than_the_models_context_is_asked_again_with_less_history(
    pool, scripted, repo
):
    def refuses_old_output(messages):
        if any("OLD-OUTPUT" in str(m.content) for m in messages):
            return BadRequestError("request (8220 tokens) exceeds the available context size")
        return _json("run", command="echo fits")

    always = BadRequestError("Error code: 400 - request exceeds the available context size")
    model = scripted(
        "plan",
        _json("run", command="echo OLD-OUTPUT"),
        _json("run", command="echo newer"),
        refuses_old_output,  # the step that follows sees the old output: refused
        refuses_old_output,  # asked again without it
        default=always,
    )
    out = _agent(pool, model).invoke({"task": UNPOINTED}, context=_context(repo))
    steps = out["trajectory"]
    assert [s["action"] for s in steps[:3]] == ["echo OLD-OUTPUT", "echo newer", "echo fits"]
    # a model that refuses every length: the step is refused, the run goes on and ends
    model = scripted("plan", default=always)
    out = _agent(pool, model).invoke({"task": UNPOINTED}, context=_context(repo))
    assert "longer than the model's context" in out["trajectory"][0]["observation"]
    other = scripted("plan", default=BadRequestError("unknown model"))
    with pytest.raises(BadRequestError):  # any other refusal is the caller's to see
        _agent(pool, other).invoke({"task": UNPOINTED}, context=_context(repo))


def test_a_line_range_too_long_for_one_reply_is_asked_for_in_part(pool, scripted, repo):
    model = scripted(
        "1. fix clamp",
        _json("edit", path="big.py", start=1, end=2000),
        default=_json("submit"),
    )
    out = _agent(pool, model).invoke({"task": TASK}, context=_context(repo))
    first, last = BUG_LINE - 20, BUG_LINE + 99  # around the line the traceback points at
    assert f"new content of lines {first}-{last} of `big.py`" in str(model.calls[2][-1].content)
    assert "too long to give back in one reply" in out["trajectory"][0]["observation"]


def test_after_lines_given_back_unchanged_the_pointed_line_alone_is_asked_for(pool, scripted, repo):
    lines = (repo / "big.py").read_text().splitlines()
    model = scripted(
        "1. fix clamp",
        _json("edit", path="big.py"),
        "```python\n" + "\n".join(lines[BUG_LINE - 5 : BUG_LINE + 4]) + "\n```",  # as they are
        _json("edit", path="big.py", start=BUG_LINE - 3, end=BUG_LINE + 3),
        "```python\n    if x > hi:\n```",
        _json("run", command=f"{sys.executable} test_big.py"),
        default=_json("submit"),
    )
    out = _agent(pool, model).invoke({"task": TASK}, context=_context(repo))
    assert out["trajectory"][0]["observation"].startswith("[unchanged] big.py")
    assert f"new content of lines {BUG_LINE}-{BUG_LINE} of" in str(model.calls[4][-1].content)
    assert (
        f"only line {BUG_LINE}, the one the output points at" in out["trajectory"][1]["observation"]
    )
    assert out["verified"] is True, out["trajectory"]


def test_an_edit_of_a_long_file_no_output_points_into_starts_at_the_function_the_task_names(
    pool, scripted, repo
):
    lines = (repo / "big.py").read_text().splitlines()
    first = BUG_LINE - 1  # `def clamp`: the task names clamp, no output names a line
    asked_lines = lines[first - 1 : first + 79]
    fixed = "\n".join(asked_lines).replace("x < hi", "x > hi")
    model = scripted(
        "1. fix clamp",
        _json("edit", path="big.py", thought="fix the comparison in clamp"),
        f"```python\n{fixed}\n```",
        default=_json("submit"),
    )
    out = _agent(pool, model).invoke({"task": UNPOINTED}, context=_context(repo))
    asked = str(model.calls[2][-1].content)
    assert f"new content of lines {first}-{first + 79} of `big.py`" in asked
    assert out["verified"] is True, out["trajectory"]


def test_after_lines_given_back_unchanged_with_no_lead_the_lines_after_them_are_asked_for(
    pool, scripted, repo
):
    lines = (repo / "big.py").read_text().splitlines()
    model = scripted(
        "1. fix big.py",
        _json("edit", path="big.py", thought="fix the bug"),
        "```python\n" + "\n".join(lines[:80]) + "\n```",  # the first lines, as they were
        _json("edit", path="big.py", thought="fix the bug"),
        "```python\n" + "\n".join(lines[80:160]) + "\n```",
        default=_json("submit"),
    )
    out = _agent(pool, model).invoke({"task": NAMELESS}, context=_context(repo))
    assert "new content of lines 1-80 of `big.py`" in str(model.calls[2][-1].content)
    assert "new content of lines 81-160 of `big.py`" in str(model.calls[4][-1].content)
    said = out["trajectory"][1]["observation"]
    assert "lines 1-80 of big.py came back unchanged" in said, said


def test_reading_a_test_again_becomes_an_edit_of_the_function_the_task_names(pool, scripted, repo):
    lines = (repo / "big.py").read_text().splitlines()
    first = BUG_LINE - 1  # `def clamp`
    fixed = "\n".join(lines[first - 1 : first + 79]).replace("x < hi", "x > hi")
    test = {"path": "test_big.py", "start": 1, "end": 3}
    model = scripted(
        "plan",
        _json("view", **test),
        _json("view", **test),
        f"```python\n{fixed}\n```",
        default=_json("submit"),
    )
    out = _agent(pool, model).invoke({"task": UNPOINTED}, context=_context(repo))
    second = out["trajectory"][1]
    assert second["action"].startswith(f"edit big.py {first}-{first + 79}"), second
    assert out["verified"] is True, out["trajectory"]
