"""The text action protocol and native tool calls."""

from __future__ import annotations

import pytest
from langchain_core.messages import AIMessage

from langgraph_mtl.agent.actions import parse_action


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
