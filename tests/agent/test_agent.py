"""The prebuilt coding agent with a scripted model: protocol, limits, memory in and out."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import steps
from helpers import insight_json
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from pydantic import Field

from langgraph_mtl import MemoryRecord, MemoryType
from langgraph_mtl.agent import (
    AgentContext,
    Limits,
    RetrievalConfig,
    SandboxConfig,
    WriterConfig,
    create_coding_agent,
)
from langgraph_mtl.agent.outcomes import Answer
from langgraph_mtl.agent.tuning import TUNING
from langgraph_mtl.memory.records import memory_id
from langgraph_mtl.nodes.outbox import Outbox
from langgraph_mtl.testing import ScriptedChatModel

ROOT = Path(__file__).resolve().parents[2]
WRITE_HELLO = "I will write the file.\n```bash\nprintf 'print(\"hi\")\\n' > hello.py\n```"
RUN_HELLO = "Check it.\n```bash\npython3 hello.py\n```"
SUBMIT = "Done.\n```bash\nsubmit\n```"


def agent(pool, model, tmp_path, *, writes="insight", command_timeout=60.0, **kwargs):
    kwargs.setdefault("sandbox", SandboxConfig(mode="none", command_timeout=command_timeout))
    kwargs.setdefault("actions", "text")
    kwargs.setdefault("retrieval", RetrievalConfig(memory_types="insight", strategy="task"))
    writer = WriterConfig(memory_types=writes, outbox=Outbox(tmp_path / "outbox.jsonl"))
    return create_coding_agent(model, pool=pool, writer=writer, **kwargs).compile()


def context(tmp_path, **kwargs):
    kwargs.setdefault("domain", "python")
    kwargs.setdefault("task_id", "hello")
    return AgentContext(workspace=str(tmp_path / "ws"), **kwargs)


def test_topology_snapshot(pool, scripted, tmp_path):
    graph = agent(pool, scripted(), tmp_path)
    assert (
        graph.get_graph().draw_mermaid()
        == (ROOT / "tests" / "data" / "coding_agent.mmd").read_text()
    )


def test_solves_verifies_and_writes_a_memory(pool, scripted, tmp_path):
    model = scripted(
        "1. write the file 2. run it",
        WRITE_HELLO,
        RUN_HELLO,
        SUBMIT,
        insight_json("Run the program before submitting"),
    )
    out = agent(pool, model, tmp_path).invoke(
        {"task": "Write hello.py that prints hi"},
        context=context(tmp_path, verify_command='test "$(python3 hello.py)" = hi'),
    )
    assert (tmp_path / "ws" / "hello.py").exists()
    assert out["submitted"]
    assert out["steps_taken"] == 3
    assert out["verified"] is True
    assert [s["action"] for s in out["trajectory"]][-1] == "submit"
    assert "hi" in out["trajectory"][1]["observation"]
    assert "exit code 0" in out["trajectory"][1]["observation"]
    assert out["memory_write_status"] == "ok"
    (stored,) = pool.list_records()
    assert stored.outcome.value == "success"
    assert stored.judged_by.value == "verifier"
    assert stored.key == "Run the program before submitting"
    assert stored.domain == "python"


class CappedScripted(ScriptedChatModel):
    """A scripted model with a reply limit, recording the limit of every call."""

    max_tokens: int | None = None
    limits: list[int | None] = Field(default_factory=list)

    def _next(self, messages):
        self.limits.append(self.max_tokens)
        return super()._next(messages)


def test_the_plan_reply_is_capped_and_the_actions_are_not(pool, tmp_path):
    model = CappedScripted(
        replies=["1. write the file", WRITE_HELLO, SUBMIT, insight_json("Run it first")],
        max_tokens=1536,
    )
    agent(pool, model, tmp_path).invoke(
        {"task": "Write hello.py that prints hi"}, context=context(tmp_path)
    )
    assert model.limits[0] == TUNING.plan_tokens < 1536
    assert model.limits[1:3] == [1536, 1536]


def test_failed_verification_is_recorded_as_failure(pool, scripted, tmp_path):
    model = scripted(
        "plan",
        "```bash\ntouch notes.txt\n```",
        SUBMIT,
        insight_json("Check the output before submitting"),
    )
    out = agent(pool, model, tmp_path).invoke(
        {"task": "Write hello.py"}, context=context(tmp_path, verify_command="test -f hello.py")
    )
    assert out["verified"] is False
    assert "exit code 1" in out["verification"]
    assert pool.list_records()[0].outcome.value == "failure"


def test_format_errors_are_fed_back_and_counted(pool, scripted, tmp_path):
    model = scripted(
        "plan",
        "I would list the files",
        "```python\nprint(1)\n```",
        "```bash\ntouch notes.txt\n```",
        SUBMIT,
        insight_json("Follow the protocol"),
    )
    out = agent(pool, model, tmp_path).invoke({"task": "t"}, context=context(tmp_path))
    assert out["format_errors"] == 2
    assert out["submitted"]
    feedback = [
        m.content
        for m in out["messages"]
        if isinstance(m, HumanMessage) and "FORMAT ERROR" in m.content
    ]
    assert len(feedback) == 2
    assert "no ```bash block found" in feedback[0]
    third_call = model.calls[3]
    assert "FORMAT ERROR" in third_call[-1].content  # the model saw the error next turn


def test_submit_before_any_command_is_refused(pool, scripted, tmp_path):
    model = scripted("plan", SUBMIT, WRITE_HELLO, SUBMIT)
    out = agent(pool, model, tmp_path, writes="trajectory").invoke(
        {"task": "t"}, context=context(tmp_path)
    )
    assert out["steps_taken"] == 3
    assert out["format_errors"] == 1
    assert out["submitted"]
    assert "nothing in the workspace has changed" in out["trajectory"][0]["observation"]


def test_a_submit_right_after_a_failing_command_is_questioned_once(pool, scripted, tmp_path):
    fail = "Check.\n```bash\ntouch a.txt && python3 -c 'raise SystemExit(3)'\n```"
    model = scripted("plan", fail, SUBMIT, fail, SUBMIT)
    out = agent(pool, model, tmp_path, writes="trajectory").invoke(
        {"task": "t"}, context=context(tmp_path)
    )
    questioned = out["trajectory"][1]["observation"]
    assert "your last command failed (exit code 3)" in questioned
    assert out["steps_taken"] == 4  # asked once: the second submit after a failure stands
    assert out["submitted"]


def test_a_submit_after_a_passing_command_stands(pool, scripted, tmp_path):
    model = scripted("plan", WRITE_HELLO, RUN_HELLO, SUBMIT)
    out = agent(pool, model, tmp_path, writes="trajectory").invoke(
        {"task": "t"}, context=context(tmp_path)
    )
    assert out["steps_taken"] == 3
    assert out["submitted"]


def test_a_second_submit_without_changes_is_accepted(pool, scripted, tmp_path):
    model = scripted("plan", "```bash\nls\n```", SUBMIT, SUBMIT)
    out = agent(pool, model, tmp_path, writes="trajectory").invoke(
        {"task": "t"}, context=context(tmp_path)
    )
    assert out["steps_taken"] == 3
    assert out["format_errors"] == 1
    assert out["submitted"]


def test_repeated_format_errors_end_the_run(pool, scripted, tmp_path):
    model = scripted("plan", "```bash\necho ok\n```", default="I am done, it works.")
    out = agent(pool, model, tmp_path, writes="trajectory").invoke(
        {"task": "t"}, context=context(tmp_path)
    )
    assert out["steps_taken"] == 4
    assert out["format_errors"] == 3
    assert not out.get("submitted")


def test_step_limit_stops_the_loop(pool, scripted, tmp_path):
    model = scripted("plan", default=lambda messages: f"```bash\necho {len(messages)}\n```")
    graph = agent(pool, model, tmp_path, limits=Limits(steps=4), writes="trajectory")
    out = graph.invoke({"task": "loop forever"}, context=context(tmp_path))
    assert out["steps_taken"] == 4
    assert not out.get("submitted")
    assert len(out["trajectory"]) == 4
    assert out["memory_write_status"] == "ok"


@pytest.mark.slow
def test_command_timeout_is_reported(pool, scripted, tmp_path):
    model = scripted("plan", "```bash\nsleep 20\n```", SUBMIT, SUBMIT)
    graph = agent(pool, model, tmp_path, command_timeout=1, writes="trajectory")
    out = graph.invoke({"task": "wait"}, context=context(tmp_path))
    assert out["trajectory"][0]["observation"].startswith("[timed out]")


def test_memories_of_other_domains_reach_the_system_prompt(pool, scripted, tmp_path):
    pool.upsert(
        [
            MemoryRecord(
                id=memory_id("insight", d, "t", d),
                memory_type=MemoryType.INSIGHT,
                domain=d,
                task_id="t",
                key=f"{d} lesson about writing files",
                content=f"{d.upper()} LESSON",
            )
            for d in ("rust", "python")
        ]
    )
    model = scripted(
        "a query plan about writing files",
        "1. touch a.txt 2. submit",
        "```bash\ntouch a.txt\n```",
        SUBMIT,
        insight_json("x"),
    )
    auto = RetrievalConfig(memory_types="insight", strategy="auto")
    graph = agent(pool, model, tmp_path, retrieval=auto)
    out = graph.invoke({"task": "writing files"}, context=context(tmp_path))
    assert [r["domain"] for r in out["memory_receipts"]] == ["rust"]
    query_call, plan_call, act_call = model.calls[:3]  # retrieval comes before planning
    assert "RUST LESSON" not in str(query_call)
    for call in (plan_call, act_call):  # the memories shape the plan and every act step
        assert isinstance(call[0], SystemMessage)
        assert "RUST LESSON" in call[0].content
        assert "PYTHON LESSON" not in call[0].content
    assert "1. touch a.txt 2. submit" in act_call[1].content


def test_native_tool_calls(pool, scripted, tmp_path):
    model = scripted(
        "plan",
        AIMessage(
            "",
            tool_calls=[{"name": "bash", "args": {"command": "echo native > n.txt"}, "id": "c1"}],
        ),
        AIMessage("", tool_calls=[{"name": "submit", "args": {}, "id": "c2"}]),
    )
    graph = agent(pool, model, tmp_path, actions="tools", writes="trajectory")
    out = graph.invoke({"task": "write n.txt"}, context=context(tmp_path))
    assert (tmp_path / "ws" / "n.txt").read_text() == "native\n"
    assert out["submitted"]


def _json(action, **fields):
    return json.dumps({"thought": "next", "action": action, **fields})


CHECK = _json("run", command="true")  # right after a write, the schema offers only a command


def test_json_actions_write_run_and_submit(pool, scripted, tmp_path):
    model = scripted(
        "1. write hello.py 2. run it",
        _json("write_file", path="hello.py"),
        'Here it is:\n```python\nprint("hi")\n```',  # the content, asked for separately
        _json("run", command="python3 hello.py"),
        _json("submit"),
    )
    graph = agent(pool, model, tmp_path, actions="json", writes="trajectory")
    out = graph.invoke(
        {"task": "Write hello.py that prints hi"},
        context=context(tmp_path, verify_command='test "$(python3 hello.py)" = hi'),
    )
    assert out["verified"] is True
    assert out["steps_taken"] == 3
    assert out["commands_run"] == 2
    assert "format_errors" not in out
    assert "wrote hello.py: 1 lines" in out["trajectory"][0]["observation"]
    assert "hi" in out["trajectory"][1]["observation"]
    assert "JSON action" in model.calls[1][0].content  # the act prompt names the protocol
    assert "complete content of `hello.py`" in model.calls[2][-1].content
    assert (tmp_path / "ws" / "hello.py").read_text() == 'print("hi")\n'
    assert out["tokens_used"] > 0


def test_json_protocol_is_the_default_for_models_without_a_profile(pool, scripted, tmp_path):
    model = scripted(
        "plan", _json("write_file", path="ok.txt"), "```\nok\n```", CHECK, _json("submit")
    )
    graph = agent(pool, model, tmp_path, actions="auto", writes="trajectory")
    out = graph.invoke({"task": "say ok"}, context=context(tmp_path))
    assert out["submitted"]
    assert out["trajectory"][0]["action"] == "write_file ok.txt\nok\n"


def test_invalid_json_actions_are_fed_back(pool, scripted, tmp_path):
    model = scripted(
        "plan",
        "I think I should write a file",  # not JSON: a server without a grammar could say this
        _json("write_file", path="../escape.txt"),
        "```\nx\n```",
        _json("write_file", path="notes.txt"),
        "```\nn\n```",
        _json("run"),  # no command
        CHECK,
        _json("submit"),
    )
    graph = agent(pool, model, tmp_path, actions="json", writes="trajectory")
    out = graph.invoke({"task": "t"}, context=context(tmp_path))
    assert out["format_errors"] == 2
    assert "not one action" in out["trajectory"][0]["observation"]
    assert "outside the workspace" in out["trajectory"][1]["observation"]
    assert not (tmp_path / "escape.txt").exists()
    assert "run needs a command" in out["trajectory"][3]["observation"]
    assert out["trajectory"][3]["observation"].startswith("INVALID ACTION")  # no bash advice
    assert out["submitted"]


def test_json_schema_offers_no_submit_until_the_workspace_changes(pool, scripted, tmp_path):
    model = scripted(
        "plan",
        _json("submit"),  # outside the schema of the first actions: a grammar would forbid it
        _json("write_file", path="a.txt"),
        "```\nA\n```",
        CHECK,
        _json("submit"),
    )
    graph = agent(pool, model, tmp_path, actions="json", writes="trajectory")
    out = graph.invoke({"task": "write a.txt"}, context=context(tmp_path))
    assert "INVALID ACTION" in out["trajectory"][0]["observation"]
    assert out["submitted"]
    assert (tmp_path / "ws" / "a.txt").read_text() == "A\n"


def test_json_schema_asks_for_a_check_right_after_a_write(pool, scripted, tmp_path):
    model = scripted(
        "plan",
        _json("write_file", path="f.py"),
        "```python\nprint(1)\n```",
        _json("submit"),  # unchecked: outside the schema right after a write
        _json("write_file", path="f.py"),  # a rewrite of what never ran: outside it too
        _json("run", command="python3 f.py"),
        _json("submit"),
    )
    graph = agent(pool, model, tmp_path, actions="json", writes="trajectory")
    out = graph.invoke({"task": "write f.py"}, context=context(tmp_path))
    assert "not one action" in out["trajectory"][1]["observation"]
    assert "not one action" in out["trajectory"][2]["observation"]
    assert out["trajectory"][3]["action"] == "python3 f.py"
    assert out["submitted"]


def test_running_the_failed_command_again_rewrites_the_file_instead(pool, scripted, tmp_path):
    model = scripted(
        "plan",
        _json("write_file", path="f.py"),
        "```python\nraise SystemExit(2)\n```",
        _json("run", command="python3 f.py"),
        _json("run", command="python3 f.py"),  # the same failing command, nothing changed
        "```python\nprint('fixed')\n```",  # so the file is asked for again, with the error
        _json("run", command="python3 f.py"),
        _json("submit"),
    )
    graph = agent(pool, model, tmp_path, actions="json", writes="trajectory")
    out = graph.invoke({"task": "write f.py"}, context=context(tmp_path))
    repaired = out["trajectory"][2]
    assert repaired["action"].startswith("write_file f.py\nprint('fixed')")
    assert repaired["observation"].startswith("NOTE: the same failing command again")
    assert out["history"][2]["policies"] == ["repair-failed-run"]
    assert "exit code 2" in model.calls[5][-1].content  # the writer saw what failed
    assert "fixed" in out["trajectory"][3]["observation"]
    assert out["submitted"]


def test_a_rewrite_that_repeats_the_file_is_asked_for_once_more(pool, scripted, tmp_path):
    model = scripted(
        "plan",
        _json("write_file", path="f.py"),
        "```python\nraise SystemExit(2)\n```",
        _json("run", command="python3 f.py"),
        _json("run", command="python3 f.py"),  # the same failing command: the file again
        "```python\nraise SystemExit(2)\n```",  # at temperature 0, the same file
        "```python\nprint('fixed')\n```",  # told so, a change
        _json("run", command="python3 f.py"),
        _json("submit"),
    )
    graph = agent(pool, model, tmp_path, actions="json", writes="trajectory")
    out = graph.invoke({"task": "write f.py"}, context=context(tmp_path))
    assert "That is exactly what f.py holds now" in model.calls[6][-1].content
    assert out["trajectory"][2]["action"].startswith("write_file f.py\nprint('fixed')")
    assert "fixed" in out["trajectory"][3]["observation"]
    assert out["submitted"]


def test_a_command_naming_a_missing_file_says_where_files_are(pool, scripted, tmp_path):
    model = scripted(
        "plan",
        _json("write_file", path="solution.py"),
        "```python\ndef pairs(l):\n    return True\n```",
        _json("run", command="python pairs.py"),  # the function's name, not the file's
        _json("run", command="python pairs.py"),  # again: no rewrite mends a missing file
        _json("run", command="python solution.py"),
        _json("submit"),
    )
    graph = agent(pool, model, tmp_path, actions="json", writes="trajectory")
    out = graph.invoke({"task": "write solution.py"}, context=context(tmp_path))
    wrong, again, right = out["trajectory"][1:4]
    note = "NOTE: there is no pairs.py in the workspace; it holds: solution.py."
    assert note in wrong["observation"]
    assert again["action"] == "python pairs.py"  # the right file is not rewritten
    assert again["observation"].startswith("NOTE: this repeats your previous")
    assert "note-repeats" in out["history"][2]["policies"]
    assert note in again["observation"]
    assert (tmp_path / "ws" / "solution.py").read_text() == "def pairs(l):\n    return True\n"
    assert right["action"] == "python solution.py"
    assert out["submitted"]


def test_a_rewrite_after_a_missing_file_is_not_pushed_to_change_the_file(pool, scripted, tmp_path):
    model = scripted(
        "plan",
        _json("write_file", path="solution.py"),
        "```python\nprint('ok')\n```",
        _json("run", command="python pairs.py"),  # fails: no such file
        _json("write_file", path="solution.py"),
        "```python\nprint('ok')\n```",  # the same, correct file: written as it is
        _json("run", command="python solution.py"),
        _json("submit"),
    )
    graph = agent(pool, model, tmp_path, actions="json", writes="trajectory")
    out = graph.invoke({"task": "write solution.py"}, context=context(tmp_path))
    assert not any("That is exactly what" in str(m.content) for c in model.calls for m in c)
    assert out["trajectory"][2]["action"].startswith("write_file solution.py\nprint('ok')")
    assert "ok" in out["trajectory"][3]["observation"]
    assert out["submitted"]


def test_viewing_a_missing_file_again_says_it_does_not_exist(tmp_path):
    from langgraph_mtl.agent.actions import Action
    from langgraph_mtl.agent.guards import noted_repeat

    view = Action("view", path="test_solution.py")
    gone = steps.viewed("test_solution.py", "[error] gone", reason="missing")
    noted = noted_repeat(view, [gone])
    assert noted.note.startswith("NOTE: you were just told test_solution.py does not exist")
    assert "edit of" not in noted.note
    again = noted_repeat(view, [gone, gone])  # a third time
    assert again.note == noted.note


def test_a_missing_file_found_elsewhere_is_named_with_its_folder(tmp_path):
    from langgraph_mtl.agent.guards import missing_path_hint

    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "core.py").write_text("x = 1\n")
    output = "ERROR: file or directory not found: core.py"
    failed = Answer(f"[exit code 4]\n{output}", "failed", exit_code=4, output=output)
    assert missing_path_hint("pytest -q core.py", failed, tmp_path) == (
        "NOTE: there is no core.py in the workspace; files named core.py: pkg/core.py.",
        "core.py",
    )
    assert missing_path_hint("pytest -q pkg/core.py", failed, tmp_path) == ("", "")  # it exists
    passed = Answer("[exit code 0]\nok", "done", exit_code=0, output="ok")
    assert missing_path_hint("pytest -q core.py", passed, tmp_path) == ("", "")


@pytest.mark.parametrize("bad", [("../outside",), ("/etc",), ("",)])
def test_protected_paths_outside_the_workspace_are_an_error_naming_them(bad):
    with pytest.raises(ValueError, match=r"context\.protected: .* name files or folders inside"):
        AgentContext(workspace="ws", protected=bad)


def test_a_workspace_that_is_a_file_is_an_error_naming_it(pool, scripted, tmp_path):
    (tmp_path / "notes.txt").write_text("keep me\n")
    for bad, why in [("notes.txt", "is a file"), ("notes.txt/sub", "cannot be made")]:
        graph = agent(pool, scripted("1. plan", default=SUBMIT), tmp_path)
        context = AgentContext(domain="python", workspace=str(tmp_path / bad))
        with pytest.raises(ValueError, match=rf"workspace: .*{why}.*; give a directory"):
            graph.invoke({"task": "add one"}, context=context)
    assert (tmp_path / "notes.txt").read_text() == "keep me\n"


@pytest.mark.parametrize("task", [None, "", "  \n", 42, ["add one"]])
def test_a_missing_or_empty_task_is_an_error_and_nothing_is_written(pool, scripted, tmp_path, task):
    graph = agent(pool, scripted("1. plan", default=SUBMIT), tmp_path)
    given = {} if task is None else {"task": task}
    with pytest.raises(ValueError, match=r"task: the agent needs the task's text"):
        graph.invoke(given, context=AgentContext(domain="python", workspace=str(tmp_path)))
    assert pool.count() == 0 and not (tmp_path / "outbox.jsonl").exists()


def test_one_protected_name_given_as_a_string_protects_that_path_not_its_letters():
    assert AgentContext(workspace="ws", protected="tests").protected == ("tests",)


def test_the_run_contexts_protected_files_are_never_changed_by_the_agent(pool, scripted, tmp_path):
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "test_f.py").write_text("from f import f\n\ndef test_f():\n    assert f() == 1\n")
    (ws / "f.py").write_text("def f():\n    return 0\n")
    model = scripted(
        "plan",
        _json("run", command="python3 -c 'import f; print(f.f())'"),
        _json("edit", path="test_f.py"),  # to weaken the test: refused, nothing asked for
        _json("edit", path="f.py"),  # to fix the code
        "<<<<<<< SEARCH\n    return 0\n=======\n    return 1\n>>>>>>> REPLACE",
        CHECK,
        _json("submit"),
    )
    graph = agent(
        pool, model, tmp_path, actions="json", writes="trajectory", edits="search_replace"
    )
    out = graph.invoke(
        {"task": "make test_f.py pass"}, context=context(tmp_path, protected=("test_f.py",))
    )
    refused = out["trajectory"][1]["observation"]
    assert refused.startswith("[refused] test_f.py is protected in this task"), refused
    assert refused.endswith("Change the code they test. It imports: f.py."), refused
    assert "== 1" in (ws / "test_f.py").read_text()
    assert (ws / "f.py").read_text() == "def f():\n    return 1\n"
    assert out["submitted"]


def test_a_protected_test_asked_to_change_again_opens_the_code_it_tests(pool, scripted, tmp_path):
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "pkg").mkdir()
    (ws / "pkg" / "__init__.py").write_text("")
    (ws / "pkg" / "core.py").write_text("def f():\n    return 0\n")
    test = "from pkg import core\nimport pkg\n\ndef test_f():\n    assert core.f() == 1\n"
    (ws / "test_f.py").write_text(test)
    model = scripted(
        "plan",
        _json("edit", path="test_f.py"),  # refused: the test is protected
        _json("edit", path="test_f.py"),  # again: the code it tests is opened instead
        _json("write_file", path="test_f.py"),  # and again, as a whole write
        default=_json("submit"),
    )
    graph = agent(pool, model, tmp_path, actions="json", writes="trajectory")
    out = graph.invoke(
        {"task": "make test_f.py pass"}, context=context(tmp_path, protected=("test_f.py",))
    )
    first, second, third = out["trajectory"][:3]
    assert first["observation"].startswith("[refused] test_f.py is protected")
    assert second["action"] == "view pkg/core.py"
    assert second["observation"].startswith("NOTE: test_f.py stays as it is"), second
    assert "1| def f():" in second["observation"]
    assert third["action"] == "view pkg/core.py"
    assert (ws / "test_f.py").read_text() == test


def test_the_code_opened_for_a_protected_test_is_the_one_the_output_names(tmp_path):
    from langgraph_mtl.agent.actions import Action
    from langgraph_mtl.agent.guards import redirected_from_protected

    for name, text in {
        "a.py": "A = 1\n",
        "b.py": "B = 1\n",
        "t.py": "import a\nimport b\n",
    }.items():
        (tmp_path / name).write_text(text)
    refusal = "[refused] t.py is protected in this task ... It imports: a.py, b.py."
    ran = steps.ran("pytest", 'File "b.py", line 1\nNameError')
    said = steps.changed("edit", "t.py", "refused", "protected", text=refusal)
    edit = Action("edit", path="t.py")
    assert redirected_from_protected(edit, [ran, said], str(tmp_path)).path == "b.py"
    assert redirected_from_protected(edit, [said], str(tmp_path)).path == "a.py"
    assert redirected_from_protected(edit, [ran], str(tmp_path)) == edit  # never refused yet
    other = Action("edit", path="a.py")
    assert redirected_from_protected(other, [ran, said], str(tmp_path)) == other


def test_an_action_cut_off_at_the_length_limit_is_a_refused_step_and_the_run_goes_on(
    pool, scripted, tmp_path
):
    from openai import LengthFinishReasonError
    from openai.types.chat import ChatCompletion

    cut = LengthFinishReasonError(completion=ChatCompletion.model_construct())
    model = scripted("plan", cut, _json("submit"), default=_json("submit"))
    graph = agent(pool, model, tmp_path, actions="json", writes="trajectory")
    out = graph.invoke({"task": "write f.py"}, context=context(tmp_path))
    assert "the reply was too long; keep it short" in out["trajectory"][0]["observation"]
    assert out["steps_taken"] >= 2


def test_a_file_cut_off_at_the_length_limit_is_not_written(pool, scripted, tmp_path):
    cut = AIMessage(
        '```python\ndef f():\n    return "unterminated',
        response_metadata={"finish_reason": "length"},
    )
    model = scripted(
        "plan",
        _json("write_file", path="f.py"),
        cut,
        _json("write_file", path="f.py"),
        "```python\ndef f():\n    return 1\n```",
        CHECK,
        _json("submit"),
    )
    graph = agent(pool, model, tmp_path, actions="json", writes="trajectory")
    out = graph.invoke({"task": "write f.py"}, context=context(tmp_path))
    assert "cut off at the length limit" in out["trajectory"][0]["observation"]
    assert "wrote f.py" in out["trajectory"][1]["observation"]
    assert (tmp_path / "ws" / "f.py").read_text() == "def f():\n    return 1\n"


def test_words_given_as_a_python_file_are_not_written(pool, scripted, tmp_path):
    model = scripted(
        "plan",
        _json("write_file", path="f.py"),
        "```python\ndef f():\n    return 1\n```",
        CHECK,
        _json("write_file", path="f.py"),
        "To fix the error, install pandas with pip install pandas",  # words, no code block
        _json("write_file", path="notes.txt"),
        "Install pandas with pip",  # not a Python file: written as it is
        CHECK,
        _json("submit"),
    )
    graph = agent(pool, model, tmp_path, actions="json", writes="trajectory")
    out = graph.invoke({"task": "write f.py"}, context=context(tmp_path))
    assert "was words, not code (line 1: invalid syntax)" in out["trajectory"][2]["observation"]
    assert (tmp_path / "ws" / "f.py").read_text() == "def f():\n    return 1\n"
    assert (tmp_path / "ws" / "notes.txt").read_text() == "Install pandas with pip\n"


@pytest.mark.parametrize(
    ("path", "content", "refused"),
    [
        ("solution.rs", "The failing command's output shows that the compiler cannot divide", True),
        ("top.v", "To fix this you can change the width of the counter", True),
        ("solution.rs", "fn add(a: i32, b: i32) -> i32 {\n    a + b\n}", False),
        (
            "solution.rs",
            "// The function returns the sum of the two numbers given\nfn f() {}",
            False,
        ),
        ("solution.rs", "use std::collections::HashMap;\n", False),
        ("answer.sh", "Find all the files in the current folder and count them", False),
        ("notes.txt", "The failing command's output shows that the compiler cannot divide", False),
    ],
)
def test_words_given_as_a_code_file_in_any_braced_language_are_refused(path, content, refused):
    from langgraph_mtl.agent.replies import not_code

    said = not_code(content, path, content)
    assert (said is not None) is refused
    assert not_code(f"```\n{content}\n```", path, content) is None  # a fenced reply is code


def test_commands_get_the_run_context_environment(pool, scripted, tmp_path):
    model = scripted("plan", 'Look.\n```bash\necho "tool=$MTL_TOOL_DIR"\n```', SUBMIT, SUBMIT)
    out = agent(pool, model, tmp_path, writes="trajectory").invoke(
        {"task": "t"}, context=context(tmp_path, command_env={"MTL_TOOL_DIR": "/opt/tools"})
    )
    assert "tool=/opt/tools" in out["trajectory"][0]["observation"]


def test_the_first_write_is_a_code_file_the_task_names(pool, scripted, tmp_path):
    from langgraph_mtl.agent.actions import first_action_schema

    schema = first_action_schema("Write upper.py that reads input.txt and prints it in upper case")
    assert schema.model_json_schema()["properties"]["path"]["const"] == "upper.py"
    assert first_action_schema("Fix the bug") is not schema  # names no code file: any path
    model = scripted(
        "plan",
        _json("write_file", path="input.txt"),  # an input file: outside the first schema
        _json("write_file", path="upper.py"),
        "```python\nprint(open('input.txt').read().upper())\n```",
        CHECK,
        _json("submit"),
    )
    graph = agent(pool, model, tmp_path, actions="json", writes="trajectory")
    (tmp_path / "ws").mkdir()
    (tmp_path / "ws" / "input.txt").write_text("hello\n")
    out = graph.invoke(
        {"task": "Write upper.py that reads input.txt and prints it in upper case"},
        context=context(tmp_path),
    )
    assert "INVALID ACTION" in out["trajectory"][0]["observation"]
    assert (tmp_path / "ws" / "input.txt").read_text() == "hello\n"
    assert (tmp_path / "ws" / "upper.py").exists()
    assert out["submitted"]


def test_a_path_holding_content_is_refused(pool, scripted, tmp_path):
    model = scripted(
        "plan",
        _json("write_file", path="count.sh\n\n#!/bin/bash\nwc -l data.txt"),
        _json("write_file", path="count.sh"),
        "```bash\nwc -l < data.txt\n```",
        CHECK,
        _json("submit"),
    )
    graph = agent(pool, model, tmp_path, actions="json", writes="trajectory")
    out = graph.invoke({"task": "write the line-count script"}, context=context(tmp_path))
    assert "must be one file name" in out["trajectory"][0]["observation"]
    assert sorted(p.name for p in (tmp_path / "ws").iterdir()) == ["count.sh"]


def test_an_empty_write_leaves_the_file_as_it_was(pool, scripted, tmp_path):
    model = scripted(
        "plan",
        _json("write_file", path="f.py"),
        "```python\nx = 1\n```",
        CHECK,
        _json("write_file", path="f.py"),
        "```\n```",  # nothing: a small model's rewrite can come back empty
        _json("submit"),
    )
    graph = agent(pool, model, tmp_path, actions="json", writes="trajectory")
    out = graph.invoke({"task": "write f.py"}, context=context(tmp_path))
    assert "was empty, so nothing was written" in out["trajectory"][2]["observation"]
    assert (tmp_path / "ws" / "f.py").read_text() == "x = 1\n"


def test_choose_protocol_reads_the_model_profile(scripted):
    from langgraph_mtl.agent.setup import choose_protocol

    tools = scripted().model_copy(update={"profile": {"tool_calling": True}})
    plain = scripted().model_copy(update={"profile": {"structured_output": False}})
    assert choose_protocol(tools) == "tools"
    assert choose_protocol(plain) == "text"
    assert choose_protocol(scripted()) == "json"
    assert choose_protocol(tools, "text") == "text"


def test_limits_by_kind_given_in_the_wrong_shape_are_an_error_naming_it():
    with pytest.raises(ValueError, match=r"limits\.kinds\['repository'\]: expected .* mapping"):
        Limits(kinds={"repository": 20})
    with pytest.raises(ValueError, match=r"limits\.kinds: expected limits by kind"):
        Limits(kinds=[("repository", {"steps": 20})])


def test_bad_arguments_are_named(pool, scripted):
    with pytest.raises(ValueError, match=r"limits\.steps"):
        create_coding_agent(scripted(), pool=pool, limits=Limits(steps=0))
    with pytest.raises(ValueError, match=r"sandbox\.command_timeout"):
        create_coding_agent(scripted(), pool=pool, sandbox=SandboxConfig(command_timeout=0))
    with pytest.raises(ValueError, match=r"retrieval\.memory_types"):
        create_coding_agent(scripted(), pool=pool, retrieval=RetrievalConfig(memory_types="memo"))
    with pytest.raises(ValueError, match=r"retrieval\.k"):
        create_coding_agent(scripted(), pool=pool, retrieval=RetrievalConfig(k=0))
    with pytest.raises(ValueError, match=r"writer\.memory_types"):
        create_coding_agent(scripted(), pool=pool, writer=WriterConfig(memory_types=()))
    with pytest.raises(ValueError, match="model"):
        create_coding_agent("", pool=pool)
    for setting, value in [("limits", 5), ("sandbox", "bwrap"), ("retrieval", {"k": 3})]:
        with pytest.raises(ValueError, match=rf"{setting}: expected a \w+\(\.\.\.\), got"):
            create_coding_agent(scripted(), pool=pool, **{setting: value})


def test_the_same_action_three_times_ends_the_run(pool, scripted, tmp_path):
    model = scripted(
        "plan",
        _json("write_file", path="a.txt"),
        "```\nA\n```",
        default=_json("run", command="echo same"),
    )
    graph = agent(pool, model, tmp_path, actions="json", writes="trajectory")
    out = graph.invoke({"task": "t"}, context=context(tmp_path))
    assert out["steps_taken"] == 4
    assert "repeats your previous action" in out["trajectory"][2]["observation"]


def test_code_comes_out_of_a_fence_even_an_unclosed_one():
    from langgraph_mtl.agent.replies import code_from_reply

    assert code_from_reply("Sure:\n```python\nx = 1\n```\nDone.") == "x = 1\n"
    assert code_from_reply("```python\nx = 1\ny = 2") == "x = 1\ny = 2\n"
    assert code_from_reply("x = 1") == "x = 1\n"


@pytest.mark.slow
def test_a_dropped_connection_to_the_model_is_retried(pool, scripted, tmp_path):
    model = scripted(
        ConnectionError("connection reset by peer"),
        "1. write the file 2. run it",
        WRITE_HELLO,
        ConnectionError("connection reset by peer"),
        RUN_HELLO,
        SUBMIT,
        insight_json("Run the program before submitting"),
    )
    out = agent(pool, model, tmp_path).invoke(
        {"task": "Write hello.py that prints hi"},
        context=context(tmp_path, verify_command='test "$(python3 hello.py)" = hi'),
    )
    assert out["verified"] is True
    assert out["steps_taken"] == 3


def test_files_are_shown_in_fences_labelled_with_their_language(pool, scripted, tmp_path):
    (tmp_path / "ws").mkdir()
    (tmp_path / "ws" / "solution.py").write_text('def f():\n    """Return 1."""\n')
    model = scripted(
        "plan",
        _json("write_file", path="solution.py"),
        "```python\ndef f():\n    return 1\n```",
        CHECK,
        _json("submit"),
    )
    graph = agent(pool, model, tmp_path, actions="json", writes="trajectory")
    out = graph.invoke({"task": "Implement f in solution.py"}, context=context(tmp_path))
    assert out["submitted"]
    opening = model.calls[1][1].content  # the act loop's first message: task and files
    content_request = model.calls[2][-1].content  # the focused call that writes the file
    for prompt in (opening, content_request):
        assert '```python\ndef f():\n    """Return 1."""\n```' in prompt


@pytest.mark.slow
def test_a_silent_run_of_a_file_that_only_defines_functions_runs_the_tasks_examples(
    pool, scripted, tmp_path
):
    model = scripted(
        "plan",
        _json("write_file", path="solution.py"),
        "```python\ndef right_angle(a, b, c):\n    return a * a + b * b == c\n```",
        _json("run", command="python solution.py"),  # defines, calls nothing
        _json("submit"),  # after the failed examples: questioned
        _json("run", command="python solution.py"),
        _json("run", command="python solution.py"),  # the same failing run: a rewrite
        "```python\ndef right_angle(a, b, c):\n    return a * a + b * b == c * c\n```",
        _json("run", command="python solution.py"),
        _json("submit"),
    )
    graph = agent(pool, model, tmp_path, actions="json", writes="trajectory")
    task = (
        "Write right_angle(a, b, c) in solution.py. Example: right_angle(3, 4, 5) == True, "
        "right_angle(1, 2, 3) == False; def right_angle(a, b, c) takes three ints."
    )
    out = graph.invoke({"task": task}, context=context(tmp_path))
    seen = out["trajectory"][1]["observation"]
    assert "only defines its functions and calls none, so it checked nothing" in seen
    # the run shows what the silent one hid, and fails
    assert "right_angle(3, 4, 5) -> False, but the task expects True: WRONG" in seen
    assert "right_angle(1, 2, 3) -> False, as expected" in seen
    assert "right_angle(a, b, c)" not in seen.split("run (", 1)[1]  # a signature is no example
    assert "[exit code 1]" in seen
    assert out["asked_after_failure"]  # so a submit is questioned,
    assert "WRONG" in str(model.calls[7][-1].content)  # and the rewrite sees what was wrong
    assert "right_angle(3, 4, 5) -> True, as expected" in out["trajectory"][5]["observation"]
    assert out["submitted"]


def test_an_idle_run_runs_the_docstring_examples_through_doctest(tmp_path):
    from langgraph_mtl.agent.idle_runs import idle_check
    from langgraph_mtl.agent.sandbox import Sandbox

    silent = Answer("[exit code 0] (no output)", exit_code=0, output="")
    (tmp_path / "s.py").write_text(
        'def f(x):\n    """\n    >>> f(1)\n    2\n    """\n    return x\n'
    )
    check = idle_check("python3 s.py", silent, tmp_path)
    assert check is not None and check.command == "python3 -m doctest s.py"
    ran = Sandbox(tmp_path, mode="none").run(check.command).render()
    assert "Failed example" in ran and "Expected:\n    2\nGot:\n    1" in ran
    (tmp_path / "run.py").write_text("def f():\n    return 1\n\nprint(f())\n")
    (tmp_path / "main.py").write_text(
        "def f():\n    return 1\n\nif __name__ == '__main__':\n    f()\n"
    )
    assert idle_check("python run.py", silent, tmp_path) is None  # it calls something
    assert idle_check("python main.py", silent, tmp_path) is None
    printed = Answer("[exit code 0]\n2", exit_code=0, output="2")
    assert idle_check("python s.py", printed, tmp_path) is None  # it printed
    assert idle_check("pytest s.py", silent, tmp_path) is None  # not a run of the file


def test_example_calls_take_literal_calls_of_the_files_functions_only():
    from langgraph_mtl.agent.idle_runs import example_calls

    text = (
        "def f(n):\n  f(3) == 4, f([1, (2, 3)]) ➞ 5, f(n) is wrong, g(1), self.f(2), "
        "f(__import__('os')), f(3)"
    )
    assert example_calls(text, {"f"}) == [("f(3)", "4"), ("f([1, (2, 3)])", "5")]
    said = "g(5) returns [1, 5] # since 5 is odd; g(19) -> 19 - 5 - 6 = 8; g('a') ➞ \"b\"."
    assert example_calls(said, {"g"}) == [("g(5)", "[1, 5]"), ("g(19)", None), ("g('a')", "'b'")]
