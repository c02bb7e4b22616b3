"""Free-text replies read as actions: the text protocol (a fenced block per reply, or
search/replace blocks), native tool calls, and the file content of a focused call.

The text protocol, for servers without structured output::

      I will run the tests.
      ```bash
      python -m pytest -q
      ```

``view FILE 10-40`` and ``search TEXT`` in a bash block look and search; a file path followed
by ``<<<<<<< SEARCH`` / ``=======`` / ``>>>>>>> REPLACE`` blocks edits that file.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import replace
from typing import Any

from langchain_core.messages import AIMessage

from langgraph_mtl.agent.actions import Action
from langgraph_mtl.agent.editing import Replacement, parse_replacements
from langgraph_mtl.agent.prompts import NOT_CODE, SUBMIT_WORD

__all__ = ["code_from_reply"]

FORMAT_ERROR = (
    "FORMAT ERROR: {problem}. Reply with one or two sentences of reasoning and then exactly ONE "
    "fenced ```bash block containing one shell command (or only `submit` when done)."
)
_CODE_BLOCK = re.compile(r"```[^\n]*\n(.*?)```", re.DOTALL)
_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[ \t]*\n(.*?)```", re.DOTALL)
_SHELL_LANGS = {"", "bash", "sh", "shell", "console", "zsh"}
_VIEW = re.compile(r"^view\s+(\S+)(?:\s+(\d+)\s*(?:-\s*(\d+))?)?\s*$")
_SEARCH = re.compile(r"^search\s+(.+?)\s*$")
_EDIT_PATH = re.compile(r"[`'\"]?((?:[\w.-]+/)*[\w.-]+\.\w+)[`'\":]?\s*$")


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


# languages whose code never opens with a plain English sentence (shell and text can)
_BRACED = (".rs", ".c", ".h", ".cc", ".cpp", ".hpp", ".java", ".go", ".js", ".ts", ".v", ".sv")
_SENTENCE = re.compile(r"^[A-Z][a-z']*(?: [A-Za-z',]+){5}")
_CODE_CHARS = re.compile(r"[(){};=<>\[\]#/*`]")


def not_code(reply: str, path: str, content: str) -> str | None:
    """Why a reply without a code block, given as a code file's content, is words and not code
    (a Python file that does not parse; a Rust, C, Go, Verilog, ... file that opens with an
    English sentence), or None: such a reply is never written over the file."""
    if "```" in reply:
        return None
    if path.endswith(".py"):
        try:
            ast.parse(content)
        except SyntaxError as exc:
            return NOT_CODE.format(path=path, error=f"line {exc.lineno}: {exc.msg}")
        return None
    first = next((line.strip() for line in content.splitlines() if line.strip()), "")
    opening = first[:48]
    if path.endswith(_BRACED) and _SENTENCE.match(first) and not _CODE_CHARS.search(opening):
        return NOT_CODE.format(path=path, error=f"line 1 is a sentence: {first[:60]!r}")
    return None


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


def _from_edit(text: str) -> Action | None:
    """A file path, then SEARCH/REPLACE blocks, as an edit of that file."""
    edits = parse_replacements(text)
    if not edits:
        return None
    before = text[: text.index("<<<<<<<")].replace("```", "\n").rstrip().splitlines()
    named = next((m[1] for line in reversed(before) if (m := _EDIT_PATH.search(line))), "")
    if not named:
        return Action("invalid", error="an edit needs the file's path on the line before it")
    thought = before[0].strip() if before and not _EDIT_PATH.search(before[0]) else ""
    return Action("edit", path=named, edits=tuple(edits), thought=thought)


def _tool_action(name: str, args: dict[str, Any], thought: str, call_id: str | None) -> Action:
    path = str(args.get("path", "")).strip()
    if name == "submit":
        return Action("submit", thought=thought, tool_call_id=call_id)
    if name == "write_file" and path:
        content = str(args.get("content", ""))
        return Action("write", path=path, content=content, thought=thought, tool_call_id=call_id)
    if name == "view_file" and path:
        start, end = int(args.get("start") or 0), int(args.get("end") or 0)
        return Action(
            "view", path=path, start=start, end=end, thought=thought, tool_call_id=call_id
        )
    if name == "search_files" and str(args.get("query", "")).strip():
        query = str(args["query"]).strip()
        return Action("search", query=query, path=path, thought=thought, tool_call_id=call_id)
    if name == "edit_file" and path and isinstance(args.get("old"), str):
        edit = Replacement(args["old"], str(args.get("new", "")))
        return Action("edit", path=path, edits=(edit,), thought=thought, tool_call_id=call_id)
    command = args.get("command", "")
    if name == "bash" and isinstance(command, str) and command.strip():
        return Action("command", command=command.strip(), thought=thought, tool_call_id=call_id)
    return Action(
        "invalid", error=f"unknown or incomplete tool call {name!r}", tool_call_id=call_id
    )


def _from_tool_calls(message: AIMessage) -> Action:
    calls = message.tool_calls
    if len(calls) != 1:
        return Action("invalid", error=f"{len(calls)} tool calls in one reply; make exactly one")
    call = calls[0]
    try:
        return _tool_action(
            call["name"], call.get("args") or {}, str(message.content or ""), call.get("id")
        )
    except (TypeError, ValueError) as exc:
        return Action(
            "invalid",
            error=f"bad arguments to {call['name']!r}: {exc}",
            tool_call_id=call.get("id"),
        )


def _from_shell(body: str, thought: str) -> Action:
    line = body.strip()
    if line.lower() == SUBMIT_WORD:
        return Action("submit", thought=thought)
    if "\n" not in line and (view := _VIEW.match(line)):
        start, end = int(view[2] or 0), int(view[3] or view[2] or 0)
        return Action("view", path=view[1], start=start, end=end, thought=thought)
    if "\n" not in line and (search := _SEARCH.match(line)):
        return Action("search", query=search[1].strip("'\""), thought=thought)
    if _only_comments(body):
        return Action("invalid", error="the bash block holds only comments, no command")
    return Action("command", command=body, thought=thought)


def parse_action(message: AIMessage | str) -> Action:
    """Parse a text-protocol reply or a tool call into an action; never raises."""
    if isinstance(message, AIMessage) and message.tool_calls:
        return _from_tool_calls(message)
    text = message if isinstance(message, str) else str(message.content or "")
    if (edit := _from_edit(text)) is not None:
        return edit
    blocks = [(lang.lower(), body.strip()) for lang, body in _FENCE.findall(text) if body.strip()]
    shell = [body for lang, body in blocks if lang in _SHELL_LANGS]
    thought = text.split("```", 1)[0].strip()
    if len(shell) == 1:
        return _from_shell(shell[0], thought)
    if len(shell) > 1:  # small models often write a whole script of blocks: run the first
        note = f"NOTE: your reply had {len(shell)} bash blocks; only the first was run."
        return replace(_from_shell(shell[0], thought), note=note)
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
