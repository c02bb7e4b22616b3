"""The agent's action protocol: one shell command per turn, as text or as a native tool call.

Text form (works with models without tool calling)::

    I will run the tests.
    ```bash
    python -m pytest -q
    ```

or one JSON object ``{"command": "python -m pytest -q"}``. To finish: a block containing only
``submit``, or ``{"action": "submit"}``. Native form: a ``bash`` or ``submit`` tool call.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Literal

from langchain_core.messages import AIMessage
from langchain_core.tools import tool

__all__ = ["PROTOCOL_INSTRUCTIONS", "Action", "bash", "parse_action", "submit"]

SUBMIT_WORD = "submit"
PROTOCOL_INSTRUCTIONS = f"""\
Work in the workspace with shell commands, ONE command per reply. Each reply: one or two
sentences of reasoning, then exactly one fenced block holding the command, for example:
```bash
ls -la
```
You will get the command's output back. Create or edit files with shell commands (for example
`cat > file.py << 'EOF'` ... `EOF`). Check your work by running it. When the task is done,
reply with a block containing only:
```bash
{SUBMIT_WORD}
```"""

FORMAT_ERROR = (
    "FORMAT ERROR: {problem}. Reply with one or two sentences of reasoning and then exactly ONE "
    "fenced ```bash block containing one shell command (or only `submit` when done)."
)

_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[ \t]*\n(.*?)```", re.DOTALL)
_SHELL_LANGS = {"", "bash", "sh", "shell", "console", "zsh"}


@dataclass(frozen=True)
class Action:
    """A parsed reply: run a command, submit, or a protocol error to report back."""

    kind: Literal["command", "submit", "invalid"]
    command: str = ""
    error: str = ""
    thought: str = ""
    tool_call_id: str | None = None
    note: str = ""


@tool
def bash(command: str) -> str:
    """Run one shell command in the task workspace and return its output."""
    raise NotImplementedError("executed by the coding agent's act node")


@tool
def submit() -> str:
    """Finish the task: call when the work is done and checked."""
    raise NotImplementedError("handled by the coding agent's act node")


def _only_comments(body: str) -> bool:
    return all(not line.strip() or line.lstrip().startswith("#") for line in body.splitlines())


def _from_json(text: str) -> Action | None:
    start, end = text.find("{"), text.rfind("}")
    if start == -1 or end <= start:
        return None
    try:
        data: Any = json.loads(text[start : end + 1])
    except json.JSONDecodeError:
        return None
    if not isinstance(data, dict):
        return None
    thought = text[:start].strip()
    if str(data.get("action", "")).lower() == SUBMIT_WORD:
        return Action("submit", thought=thought)
    command = data.get("command") or (data.get("arguments") or {}).get("command")
    if isinstance(command, str) and command.strip():
        return Action("command", command=command.strip(), thought=thought)
    return None


def _from_tool_calls(message: AIMessage) -> Action:
    calls = message.tool_calls
    if len(calls) != 1:
        return Action("invalid", error=f"{len(calls)} tool calls in one reply; make exactly one")
    call = calls[0]
    thought = str(message.content or "")
    if call["name"] == "submit":
        return Action("submit", thought=thought, tool_call_id=call.get("id"))
    command = (call.get("args") or {}).get("command", "")
    if call["name"] != "bash" or not isinstance(command, str) or not command.strip():
        return Action("invalid", error=f"unknown or empty tool call {call['name']!r}",
                      tool_call_id=call.get("id"))  # fmt: skip
    return Action("command", command=command.strip(), thought=thought, tool_call_id=call.get("id"))


def parse_action(message: AIMessage | str) -> Action:
    """Parse a model reply into an action; never raises."""
    if isinstance(message, AIMessage) and message.tool_calls:
        return _from_tool_calls(message)
    text = message if isinstance(message, str) else str(message.content or "")
    blocks = [(lang.lower(), body.strip()) for lang, body in _FENCE.findall(text) if body.strip()]
    shell = [body for lang, body in blocks if lang in _SHELL_LANGS]
    thought = text.split("```", 1)[0].strip()
    if len(shell) == 1:
        body = shell[0]
        if body.strip().lower() == SUBMIT_WORD:
            return Action("submit", thought=thought)
        if _only_comments(body):
            return Action("invalid", error="the bash block holds only comments, no command")
        return Action("command", command=body, thought=thought)
    if len(shell) > 1:  # small models often write a whole script of blocks: run the first
        note = f"NOTE: your reply had {len(shell)} bash blocks; only the first was run."
        return Action("command", command=shell[0], thought=thought, note=note)
    parsed = _from_json(text)
    if parsed is not None:
        return parsed
    if text.strip().lower() == SUBMIT_WORD:
        return Action("submit")
    if blocks:
        return Action("invalid", error="the code block is not a shell command block")
    return Action("invalid", error="no ```bash block found")


def format_error(action: Action) -> str:
    """The observation fed back when a reply breaks the protocol."""
    return FORMAT_ERROR.format(problem=action.error)
