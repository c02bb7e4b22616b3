"""The agent's actions: run a command, write a file, or submit; and the three ways to ask for one.

- ``json``: the model answers one :class:`AgentAction` through JSON-schema structured output.
  Servers that compile the schema into a grammar (llama.cpp) cannot produce a malformed reply.
- ``tools``: native tool calls of the sandboxed tools (:mod:`langgraph_mtl.agent.tools`).
- ``text``: a fenced ```bash block per reply, for servers without structured output::

      I will run the tests.
      ```bash
      python -m pytest -q
      ```

Every protocol yields the same :class:`Action`, executed by one executor.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass
from typing import Any, Literal

from langchain_core.messages import AIMessage
from pydantic import BaseModel, Field

__all__ = [
    "CONTENT_REQUEST",
    "CUT_OFF",
    "EMPTY_WRITE",
    "JSON_INSTRUCTIONS",
    "PROTOCOL_INSTRUCTIONS",
    "TOOLS_INSTRUCTIONS",
    "Action",
    "AgentAction",
    "CheckAction",
    "FirstAction",
    "files_to_write",
    "first_action_schema",
    "code_from_reply",
    "not_python",
    "format_error",
    "from_agent_action",
    "parse_action",
]

SUBMIT_WORD = "submit"
MAX_COMMAND = 800  # characters: a reply's grammar ends within the server's token cap
CONTENT_REQUEST = "Reply with the complete content of `{path}` in one fenced code block."
EMPTY_WRITE = "the content given for {path} was empty, so nothing was written"
CUT_OFF = (
    "the content of {path} was cut off at the length limit, so it was not written: write a "
    "shorter file"
)
NOT_CODE = (
    "the reply for {path} was not Python code ({error}), so nothing was written: reply with "
    "the file's complete code in one ```python block"
)
_CODE_BLOCK = re.compile(r"```[^\n]*\n(.*?)```", re.DOTALL)


def code_from_reply(text: str) -> str:
    """The file content in a free-form reply: its longest fenced block, else the whole reply."""
    blocks = _CODE_BLOCK.findall(text)
    if blocks:
        code = max(blocks, key=len)
    elif "```" in text:  # an opening fence the reply never closed (cut off, or forgotten)
        code = text.split("```", 1)[1].split("\n", 1)[-1]
    else:
        code = text.strip()
    return code if code.endswith("\n") else code + "\n"


def not_python(reply: str, path: str, content: str) -> str | None:
    """Why a reply without a code block, given as a Python file's content, is not Python (a
    model answering in words), or None: such a reply is never written over the file."""
    if not path.endswith(".py") or "```" in reply:
        return None
    try:
        ast.parse(content)
    except SyntaxError as exc:
        return NOT_CODE.format(path=path, error=f"line {exc.lineno}: {exc.msg}")
    return None


JSON_INSTRUCTIONS = """\
Work in the workspace one action at a time, code first. Each reply is one JSON action:
- {"action": "write_file", "path": ...} writes a whole file: use it for all code, with the file
  name the task gives (a relative path); you are then asked for the file's complete content;
  your first action is always a write_file;
- {"action": "run", "command": ...} runs one shell command and shows you its output;
- {"action": "submit"} ends the task: once you have run your code and seen it work."""

TOOLS_INSTRUCTIONS = (
    "Use the tools one call per turn: write_file for code, bash to run commands and check your "
    "work, submit when the task is done and checked."
)

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


class AgentAction(BaseModel):
    """The coding agent's next action. Choose exactly one: "write_file" writes the file at
    `path` (you are then asked for its complete content), "run" runs one shell `command` in the
    workspace, "submit" finishes the task once the work is done and checked."""

    thought: str = Field(description="One short sentence: why this action.", max_length=200)
    action: Literal["write_file", "run", "submit"] = Field(description="What to do.")
    path: str = Field(
        default="", description="write_file: the file's path in the workspace.", max_length=200
    )
    command: str = Field(default="", description="run: one shell command.", max_length=MAX_COMMAND)


class FirstAction(AgentAction):
    """The coding agent's first move, while nothing in the workspace has changed: write the
    file the task is about (`path`; you are then asked for its complete content, seeing the
    file as it is). Running and submitting come after."""

    action: Literal["write_file"] = Field(description="What to do.")  # type: ignore[assignment]


class CheckAction(AgentAction):
    """The coding agent's move right after writing a file: run one shell `command` that checks
    it (compile it, run it on an example, run the tests). Writing again and submitting come
    after the check."""

    action: Literal["run"] = Field(description="What to do.")  # type: ignore[assignment]


CODE_FILE = re.compile(
    r"(?<![\w./-])((?:[\w-]+/)*[\w-]+\.(?:py|sh|bash|rs|sv|v|js|ts|go|c|h|cc|cpp|java|rb|sql|r|jl))"
    r"(?![\w/-])"
)


_WRITE_VERB = re.compile(
    r"\b(write|implement|complete|fix|create|edit|change|modify|update)\b", re.I
)
_TEST_FILE = re.compile(r"(^|/)(tests?/|test_[^/]*$|[^/]*_test\.\w+$|conftest\.py$)")
_SENTENCE_END = re.compile(r"(?<=[.!?:])\s+|\n")


def files_to_write(task: str) -> list[str]:
    """The code files ``task`` asks to write: those it names in a sentence that asks for a
    change (``Implement the function in solution.py``), else all it names; never a test file
    (``test_x.py``, ``tests/...``), which a task names to be run, not changed."""
    named = {n for n in CODE_FILE.findall(task) if not _TEST_FILE.search(n)}
    asked = {
        name
        for sentence in _SENTENCE_END.split(task)
        if _WRITE_VERB.search(sentence)
        for name in CODE_FILE.findall(sentence)
    }
    return sorted((asked & named) or named)


def first_action_schema(task: str) -> type[AgentAction]:
    """The first action's schema for ``task``: a write_file of one of :func:`files_to_write`,
    when there are any, so a small model starts on the code and not by overwriting an input
    file or a test; else any action (a bug to find is read before it is fixed)."""
    names = files_to_write(task)
    if not names:
        return AgentAction
    namespace = {
        "__doc__": FirstAction.__doc__,
        "__annotations__": {"path": Literal[tuple(names)]},
        "path": Field(description="The file to write."),
    }
    return type("FirstAction", (FirstAction,), namespace)


@dataclass(frozen=True)
class Action:
    """A parsed reply: run a command, write a file, submit, or a protocol error to report."""

    kind: Literal["command", "write", "submit", "invalid"]
    command: str = ""
    error: str = ""
    thought: str = ""
    tool_call_id: str | None = None
    note: str = ""
    path: str = ""
    content: str = ""

    def describe(self) -> str:
        """The action as one line for the trajectory."""
        if self.kind == "write":
            return f"write_file {self.path}\n{self.content}"
        return SUBMIT_WORD if self.kind == "submit" else self.command


def from_agent_action(action: AgentAction | FirstAction) -> Action:
    """The :class:`Action` of a structured reply (fields the action does not use are ignored)."""
    thought = action.thought.strip()
    if action.action == "submit":
        return Action("submit", thought=thought)
    if action.action == "write_file":
        path = action.path.strip()
        if not path:
            return Action("invalid", error="write_file needs a path", thought=thought)
        if any(ord(ch) < 32 for ch in path) or "```" in path:
            error = "write_file's path must be one file name, like count.sh, not its content"
            return Action("invalid", error=error, thought=thought)
        return Action("write", path=path, thought=thought)
    if not action.command.strip():
        return Action("invalid", error="run needs a command", thought=thought)
    return Action("command", command=action.command.strip(), thought=thought)


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
    thought, call_id = str(message.content or ""), call.get("id")
    args = call.get("args") or {}
    if call["name"] == "submit":
        return Action("submit", thought=thought, tool_call_id=call_id)
    if call["name"] == "write_file" and isinstance(args.get("path"), str) and args["path"].strip():
        return Action(
            "write",
            path=args["path"].strip(),
            content=str(args.get("content", "")),
            thought=thought,
            tool_call_id=call_id,
        )
    command = args.get("command", "")
    if call["name"] != "bash" or not isinstance(command, str) or not command.strip():
        return Action(
            "invalid", error=f"unknown or empty tool call {call['name']!r}", tool_call_id=call_id
        )
    return Action("command", command=command.strip(), thought=thought, tool_call_id=call_id)


def parse_action(message: AIMessage | str) -> Action:
    """Parse a text-protocol reply or a tool call into an action; never raises."""
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


def format_error(action: Action, protocol: str = "text") -> str:
    """The observation fed back when a reply is not a usable action under ``protocol``."""
    if protocol == "text":
        return FORMAT_ERROR.format(problem=action.error)
    return f"INVALID ACTION: {action.error}."
