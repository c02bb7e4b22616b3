"""Each policy acts on the failure it names and nothing else; policies switch off; what they add
is tagged; and no decision reads the words the model is shown."""

from __future__ import annotations

import sys
from dataclasses import replace

import pytest
from big_repo import BUG_LINE, NAMELESS, PROBE, agent_context, coding_agent, json_action
from steps import changed, check_run, ran, viewed

from langgraph_mtl.agent import acting, policies
from langgraph_mtl.agent.actions import Action, AgentAction, CheckAction
from langgraph_mtl.agent.outcomes import Answer
from langgraph_mtl.agent.policies import AfterTool, Policies, Policy, StepView
from langgraph_mtl.agent.policy_set import (
    BARE,
    PRESETS,
    SAFE_EDITS,
    SMALL_MODEL,
    AskAgainOnSameFile,
    CommandWord,
    EditInsteadOfReread,
    EditRegion,
    EndOnGreen,
    IdleRunCheck,
    MissingPathHint,
    NarrowSchema,
    NoteRepeats,
    QuestionSubmit,
    RedirectFromProtected,
    RepairFailedRun,
    StopWhenStuck,
)
from langgraph_mtl.agent.sandbox import Sandbox
from langgraph_mtl.agent.setup import choose_policies
from langgraph_mtl.agent.tools import execute_action


def view_of(tmp_path, history=(), *, task="Write f.py.", check=None, unchanged=False, asked=()):
    return StepView(
        task=task,
        workspace=str(tmp_path),
        history=list(history),
        box=Sandbox(tmp_path, mode="none"),
        check=check,
        asked=frozenset(asked),
        digest=lambda: unchanged,
    )


def test_every_policy_is_named_documented_and_in_the_small_model_preset():
    names = [p.name for p in SMALL_MODEL]
    assert len(set(names)) == len(names) == 14
    for item in SMALL_MODEL:
        assert item.name and type(item).__doc__ and len(type(item).__doc__) > 60
    assert BARE == () and [p.name for p in SAFE_EDITS] == ["safe-edits"]
    assert set(PRESETS) == {"bare", "safe-edits", "small-model"}


def test_a_tool_calling_model_gets_the_safe_edits_and_any_other_the_small_model_preset():
    assert choose_policies("auto", native_tools=True) == SAFE_EDITS
    assert choose_policies("auto", native_tools=False) == SMALL_MODEL
    assert choose_policies("bare", native_tools=False) == ()
    mine = (NoteRepeats(),)
    assert choose_policies(mine, native_tools=True) == mine
    with pytest.raises(ValueError, match="policies: expected auto, bare"):
        choose_policies("tiny", native_tools=False)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="expected Policy objects"):
        Policies(["note-repeats"])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="each policy once"):
        Policies([NoteRepeats(), NoteRepeats()])


def test_safe_edits_refuse_a_change_that_breaks_the_file_and_bare_writes_it(tmp_path):
    (tmp_path / "f.py").write_text("def f():\n    return 1\n")
    broken = Action("edit", path="f.py", start=2, end=2, content="    return (\n")
    box = Sandbox(tmp_path, mode="none")
    guarded = execute_action(broken, box, guarded=Policies(SAFE_EDITS).guards_changes)
    assert guarded.outcome == "refused" and guarded.reason == "uncompilable"
    assert (tmp_path / "f.py").read_text() == "def f():\n    return 1\n"
    bare = execute_action(broken, box, guarded=Policies(BARE).guards_changes)
    assert bare.outcome == "applied" and "return (" in (tmp_path / "f.py").read_text()
    (tmp_path / "data.txt").write_text("keep\n")
    clobber = Action("command", command="sort data.txt > data.txt")
    assert execute_action(clobber, box, guarded=True).reason == "clobber"
    assert execute_action(clobber, box, guarded=False).outcome == "done"


def test_narrow_schema_offers_only_a_check_right_after_a_change(tmp_path):
    after = view_of(tmp_path, [changed("edit", "f.py")])
    assert NarrowSchema().narrow_schema(AgentAction, after) is CheckAction
    checked = view_of(tmp_path, [changed("edit", "f.py", after=[check_run("t")], checked=True)])
    assert NarrowSchema().narrow_schema(AgentAction, checked) is AgentAction
    acted: list[str] = []
    assert Policies([NarrowSchema()]).narrow_schema(AgentAction, after, acted) is CheckAction
    assert acted == ["narrow-schema"]
    assert Policies().narrow_schema(AgentAction, after, []) is AgentAction  # switched off


def test_repair_failed_run_turns_the_same_failing_command_into_a_rewrite(tmp_path):
    history = [changed("write", "f.py"), ran("python3 f.py", "boom", code=2)]
    again = Action("command", command="python3 f.py")
    repaired = RepairFailedRun().after_model(again, view_of(tmp_path, history))
    assert (repaired.kind, repaired.path) == ("write", "f.py")
    passed = [changed("write", "f.py"), ran("python3 f.py", "ok", code=0)]
    assert RepairFailedRun().after_model(again, view_of(tmp_path, passed)) == again


def test_edit_instead_of_reread_edits_the_file_the_output_points_at(tmp_path):
    (tmp_path / "big.py").write_text("x = 1\n")
    history = [ran("t", 'File "big.py", line 1\nboom'), viewed("big.py", "1| x = 1", 1, 1)]
    reread = Action("view", path="big.py", start=1, end=1)
    edited = EditInsteadOfReread().after_model(reread, view_of(tmp_path, history))
    assert (edited.kind, edited.path) == ("edit", "big.py")
    first = EditInsteadOfReread().after_model(reread, view_of(tmp_path, history[:1]))
    assert first == reread  # a first read stands


def test_edit_region_asks_for_the_lines_the_output_points_at(tmp_path):
    text = "".join(f"x{n} = {n}\n" for n in range(1, 301))
    history = [ran("t", 'File "m.py", line 200\nboom')]
    far = Action("edit", path="m.py", start=20, end=22)
    action, region = EditRegion().edit_region(far, text, (20, 22), view_of(tmp_path, history))
    assert region is not None and region[0] <= 200 <= region[1]
    assert "points at line 200" in action.note
    assert Policy().edit_region(far, text, (20, 22), view_of(tmp_path, history)) == (
        far,
        (20, 22),
    )


def test_ask_again_on_same_file_only_after_a_failure_the_code_may_cause(tmp_path):
    failed = view_of(tmp_path, [ran("python3 f.py", "boom", code=1)])
    assert "f.py" in (AskAgainOnSameFile().ask_again("f.py", failed) or "")
    assert AskAgainOnSameFile().ask_again("f.py", view_of(tmp_path, [ran("x", code=0)])) is None


def test_question_submit_asks_each_question_once(tmp_path):
    submit = Action("submit")
    early = QuestionSubmit().before_tool(submit, view_of(tmp_path, unchanged=True))
    assert early.kind == "invalid" and early.reason == "asked_to_change"
    asked = view_of(tmp_path, unchanged=True, asked={"asked_to_change"})
    assert QuestionSubmit().before_tool(submit, asked) == submit
    failing = view_of(tmp_path, [ran("pytest", "1 failed")])
    assert QuestionSubmit().before_tool(submit, failing).reason == "asked_after_failure"


def test_command_word_runs_the_declared_check_never_one_found_in_the_task(tmp_path):
    word = Action("command", command="run")
    declared = view_of(tmp_path, check="pytest -q", task="Fix it.")
    assert CommandWord().before_tool(word, declared).command == "pytest -q"
    named = view_of(tmp_path, task="Fix it so that `pytest -q` passes.")
    assert CommandWord().before_tool(word, named).kind == "invalid"


def test_note_repeats_and_redirect_from_protected(tmp_path):
    command = Action("command", command="pytest")
    noted = NoteRepeats().before_tool(command, view_of(tmp_path, [ran("pytest", "1 failed")]))
    assert "repeats your previous action" in noted.note
    (tmp_path / "a.py").write_text("A = 1\n")
    (tmp_path / "t.py").write_text("import a\n")
    refused = changed("edit", "t.py", "refused", "protected")
    edit = Action("edit", path="t.py")
    moved = RedirectFromProtected().before_tool(edit, view_of(tmp_path, [refused]))
    assert (moved.kind, moved.path) == ("view", "a.py")
    assert RedirectFromProtected().before_tool(edit, view_of(tmp_path)) == edit


def test_end_on_green_runs_the_declared_check_after_a_change_and_ends_when_it_passes(tmp_path):
    applied = Answer("[wrote f.py]", "applied")
    write = Action("write", path="f.py")
    for check, ends in (("true", True), ("false", False)):
        added = AfterTool()
        EndOnGreen().after_tool(write, applied, view_of(tmp_path, check=check), added)
        assert added.checked and added.ends is ends and added.runs[0]["command"] == check
    nothing = AfterTool()
    EndOnGreen().after_tool(
        write, Answer("same", "unchanged"), view_of(tmp_path, check="true"), nothing
    )
    EndOnGreen().after_tool(write, applied, view_of(tmp_path), nothing)  # no check declared
    assert not nothing.runs


def test_missing_path_hint_and_idle_run_check(tmp_path):
    (tmp_path / "solution.py").write_text(
        'def f(x):\n    """\n    >>> f(1)\n    1\n    """\n    return x\n'
    )
    command = Action("command", command="python pairs.py")
    output = "python: can't open file 'pairs.py': No such file or directory"
    missing = Answer(f"[exit code 2]\n{output}", "failed", exit_code=2, output=output)
    added = AfterTool()
    MissingPathHint().after_tool(command, missing, view_of(tmp_path), added)
    assert added.missing == "pairs.py" and "solution.py" in added.notes[0]
    silent = Answer("[exit code 0] (no output)", "done", exit_code=0, output="")
    idle = AfterTool()
    run = Action("command", command="python3 solution.py")
    IdleRunCheck().after_tool(run, silent, view_of(tmp_path), idle)
    assert "doctest" in idle.runs[0]["command"] and idle.runs[0]["exit_code"] == 0


def test_stop_when_stuck_ends_a_loop_the_bare_loop_runs_on():
    three = [ran("pytest", "1 failed")] * 3
    assert StopWhenStuck().should_end(three)
    assert Policies(SMALL_MODEL).should_end(three) == "stop-when-stuck"
    assert Policies(BARE).should_end(three) is None


def test_a_policy_that_acts_is_recorded_and_what_it_adds_is_untagged(tmp_path):
    """The model reads a policy's note as the agent before the policies wrote it; who acted
    is data (the step's facts), never a tag in the text."""
    acted: list[str] = []
    history = [ran("pytest", "1 failed")]
    action = Policies(SMALL_MODEL).before_tool(
        Action("command", command="pytest"), view_of(tmp_path, history), acted
    )
    assert action.note.startswith("NOTE: this repeats")
    assert acted == ["note-repeats"]
    quiet: list[str] = []
    Policies(SMALL_MODEL).before_tool(Action("command", command="ls"), view_of(tmp_path), quiet)
    assert quiet == []


def _reworded(text: str) -> str:
    """Every mark and phrase the agent's answers and notes use, said otherwise."""
    for old, new in (
        ("[edit refused]", "REFUSAL:"),
        ("[refused]", "Not done:"),
        ("[unchanged]", "Same as before:"),
        ("[wrote ", "Written: "),
        ("[edited ", "Changed: "),
        ("[error]", "Problem:"),
        ("[exit code ", "(status "),
        ("NOTE: ", "Hint - "),
        ("is a directory]", "(a folder)"),
        ("[no file or line holds", "Nothing holds"),
        ("The check the task names", "Your task's test"),
        ("does not exist", "is not there"),
    ):
        text = text.replace(old, new)
    return f"«{text}»"


def _decisions(out: dict) -> list[tuple]:
    keys = ("kind", "action", "path", "lines", "outcome", "reason", "checked", "missing")
    steps = [
        (*[str(facts.get(k)) for k in keys], tuple(facts["policies"])) for facts in out["history"]
    ]
    return [*steps, ("end", out.get("steps_taken"), out.get("submitted"), out.get("verified"))]


def _scenarios(repo):
    (repo / "probe.py").write_text(PROBE)
    lines = (repo / "big.py").read_text().splitlines()
    fixed = "\n".join(lines[BUG_LINE - 5 : BUG_LINE + 4]).replace("x < hi", "x > hi")
    wrong = "\n".join(lines[BUG_LINE - 5 : BUG_LINE + 4]).replace("x < hi", "x <")
    return [
        (  # a wrong guess, a refusal, repeats, rereads, a missing file, then the fix and the check
            json_action("run", command="python3 nothing.py"),
            json_action("run", command="python3 nothing.py"),
            json_action("run", command=f"{sys.executable} probe.py"),
            json_action("view", path="big.py", start=1, end=20),
            json_action("view", path="big.py", start=1, end=20),
            f"```python\n{wrong}\n```",
            json_action("edit", path="big.py", start=BUG_LINE, end=BUG_LINE),
            f"```python\n{fixed}\n```",
        ),
        (  # reading in circles until the loop is stopped
            *[json_action("view", path=p, start=1, end=2) for p in ("big.py", "test_big.py") * 3],
        ),
        (  # a submit before any change, a bare word for a command, an edit of the protected test
            json_action("submit"),
            json_action("run", command="test"),
            json_action("edit", path="test_big.py", start=1, end=1),
            json_action("edit", path="test_big.py", start=1, end=1),
            json_action("search", query="no such text here"),
            json_action("search", query="no such text here"),
        ),
        (  # with no check declared: a change, then a read where only a check is offered
            json_action("edit", path="big.py", start=BUG_LINE, end=BUG_LINE),
            f"```python\n{fixed.splitlines()[4]}\n```",
            json_action("view", path="big.py", start=1, end=3),
            json_action("run", command=f"{sys.executable} test_big.py"),
        ),
    ]


@pytest.mark.parametrize("preset", ["small-model", "bare"])
def test_rewording_every_answer_and_note_changes_no_decision(
    pool, scripted, repo, tmp_path, monkeypatch, preset
):
    import shutil

    def run(replies, where):
        shutil.copytree(repo, where)
        model = scripted("1. fix", *replies, default=json_action("submit"))
        context = replace(agent_context(where), protected=("test_big.py",))
        if where.name.endswith("3"):
            context = replace(context, check_command=None)
        return coding_agent(pool, model, policies=preset).invoke(
            {"task": NAMELESS}, context=context
        )

    plain = [run(replies, tmp_path / f"plain{n}") for n, replies in enumerate(_scenarios(repo))]
    made = Answer.__new__
    monkeypatch.setattr(
        Answer,
        "__new__",
        staticmethod(lambda cls, text, *a, **k: made(cls, _reworded(text), *a, **k)),
    )
    voiced = policies.voice
    monkeypatch.setattr(policies, "voice", lambda name, text: voiced(name, _reworded(text)))
    formatted = acting.format_error
    monkeypatch.setattr(acting, "format_error", lambda *a: _reworded(formatted(*a)))
    again = [run(replies, tmp_path / f"again{n}") for n, replies in enumerate(_scenarios(repo))]
    assert "«" in again[0]["trajectory"][0]["observation"]  # the words did change
    for before, after in zip(plain, again, strict=True):
        assert _decisions(before) == _decisions(after)
    if preset == "small-model":
        acted = {name for out in plain for facts in out["history"] for name in facts["policies"]}
        assert len(acted) >= 8, acted  # the scenarios exercise most policies


def test_the_documentation_lists_every_policy_with_its_presets():
    from pathlib import Path

    page = (Path(__file__).parents[2] / "docs" / "agent.md").read_text()
    rows = {line.split("|")[1].strip(" `") for line in page.splitlines() if line.startswith("| `")}
    assert rows == {item.name for item in SMALL_MODEL}


def test_the_notes_on_a_task_with_no_tests_never_send_it_to_fix_code_or_run_tests(tmp_path):
    """An OS question answered in a file: no bug, no tests, no check declared."""
    listed = viewed(".", "[. is a directory] notes.txt", reason="directory")
    again = NoteRepeats().before_tool(Action("view", path="."), view_of(tmp_path, [listed]))
    read = viewed("notes.txt", "1| ...")
    reread = NoteRepeats().before_tool(Action("view", path="notes.txt"), view_of(tmp_path, [read]))
    for note in (again.note, reread.note):
        assert "write what the task asks for" in note
        assert not any(word in note for word in ("fix", "test", "check", "bug"))
    checked = view_of(tmp_path, [listed], check="pytest -q")
    assert "`pytest -q`" in NoteRepeats().before_tool(Action("view", path="."), checked).note
