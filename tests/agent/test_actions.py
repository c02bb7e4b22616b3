"""The text action protocol, native tool calls and the files a task asks to write."""

from __future__ import annotations

import pytest
from langchain_core.messages import AIMessage

from langgraph_mtl.agent.actions import AgentAction, files_to_write, first_action_schema
from langgraph_mtl.agent.replies import parse_action


@pytest.mark.parametrize(
    ("reply", "kind", "command"),
    [
        ("Let me look.\n```bash\nls -la\n```", "command", "ls -la"),
        (
            "```sh\ncat > a.py << 'EOF'\nprint(1)\nEOF\n```",
            "command",
            "cat > a.py << 'EOF'\nprint(1)\nEOF",
        ),
        ("```\npython a.py\n```", "command", "python a.py"),
        ('I will run it: {"command": "pytest -q"}', "command", "pytest -q"),
        ("Done.\n```bash\nsubmit\n```", "submit", ""),
        ('{"action": "submit"}', "submit", ""),
        ("submit", "submit", ""),
    ],
)
def test_valid_replies(reply, kind, command):
    action = parse_action(AIMessage(reply))
    assert (action.kind, action.command) == (kind, command)


@pytest.mark.parametrize(
    ("reply", "error"),
    [
        ("I think we should list files.", "no ```bash block"),
        ("```python\nprint(1)\n```", "not a shell command block"),
        ("", "no ```bash block"),
        ('{"command": ""}', "no ```bash block"),
        ("```bash\n# Run the first command\n\n# then check\n```", "only comments"),
    ],
)
def test_protocol_errors_are_explained(reply, error):
    action = parse_action(reply)
    assert action.kind == "invalid"
    assert error in action.error


def test_several_blocks_run_the_first_with_a_note():
    action = parse_action("```bash\nls\n```\nthen\n```bash\npwd\n```")
    assert (action.kind, action.command) == ("command", "ls")
    assert "2 bash blocks; only the first was run" in action.note


def test_native_tool_calls():
    one = AIMessage("", tool_calls=[{"name": "bash", "args": {"command": "ls"}, "id": "c1"}])
    assert (parse_action(one).kind, parse_action(one).command, parse_action(one).tool_call_id) == (
        "command",
        "ls",
        "c1",
    )
    done = AIMessage("", tool_calls=[{"name": "submit", "args": {}, "id": "c2"}])
    assert parse_action(done).kind == "submit"
    two = AIMessage(
        "",
        tool_calls=[
            {"name": "bash", "args": {"command": "ls"}, "id": "a"},
            {"name": "bash", "args": {"command": "pwd"}, "id": "b"},
        ],
    )
    assert "2 tool calls" in parse_action(two).error


@pytest.mark.parametrize(
    ("task", "files"),
    [
        ("solution.py holds the stub. Implement the function in solution.py.", ["solution.py"]),
        (  # the input file is named by the request, the answer by the sentence asking for it
            "Request: print the contents of setup.sh wrapped to 40 columns\n\n"
            "Write a bash script answer.sh whose commands do what the request asks.",
            ["answer.sh"],
        ),
        (  # a traceback names the source; the test is named to be run, never to be changed
            "toolz/itertoolz.py:126: IndexError\nFAILED toolz/tests/test_itertoolz.py\n"
            "Fix it so that `pytest toolz/tests/test_itertoolz.py` passes.",
            ["toolz/itertoolz.py"],
        ),
        ("Fix the bug so that `pytest -q test_inflection.py` passes.", []),
        ("Make a.py and b_test.py agree; see conftest.py.", ["a.py"]),
    ],
)
def test_the_files_a_task_asks_to_write(task, files):
    assert files_to_write(task) == files


def test_the_first_action_may_be_anything_when_no_file_is_asked_for():
    assert first_action_schema("Fix the bug so that `pytest t/test_x.py` passes") is AgentAction
    schema = first_action_schema("Request: show setup.sh\nWrite answer.sh that does it.")
    assert schema.model_json_schema()["properties"]["path"]["const"] == "answer.sh"
