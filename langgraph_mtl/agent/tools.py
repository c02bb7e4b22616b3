"""Sandboxed tools and the executor every protocol shares.

The tools are real LangChain tools (``bash``, ``view_file``, ``search_files``, ``edit_file``,
``write_file``, ``submit``): bind them to a tool-calling model, or put them in a ``ToolNode`` of
your own graph whose state has a ``workspace`` key::

    tools = create_sandbox_tools(sandbox="bwrap")
    builder.add_node("tools", ToolNode(tools))
"""

from __future__ import annotations

import errno
import hashlib
import posixpath
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

from langchain_core.messages import AnyMessage, ToolMessage
from langchain_core.tools import BaseTool, tool
from langgraph.prebuilt import InjectedState

from langgraph_mtl.agent.actions import Action
from langgraph_mtl.agent.clobbering import clobbered_input
from langgraph_mtl.agent.editing import (
    Replacement,
    apply_replacements,
    replace_definitions,
    replace_lines,
    write_file,
)
from langgraph_mtl.agent.outcomes import Answer, Outcome, done, failed, refused
from langgraph_mtl.agent.prompts import PROTECTED
from langgraph_mtl.agent.replies import code_from_reply
from langgraph_mtl.agent.sandbox import CommandResult, Sandbox, SandboxMode
from langgraph_mtl.agent.workspace import (
    has_content,
    imported_files,
    search_workspace,
    view_file,
)

__all__ = ["create_sandbox_tools"]


def workspace_digest(workspace: str | Path, *, max_files: int = 5000) -> str:
    """A cheap fingerprint of the workspace's files (paths, sizes, modification times): it
    changes when anything is written, by a tool or by a command."""
    root = Path(workspace)
    digest = hashlib.sha256()
    for count, path in enumerate(sorted(root.rglob("*"))):
        if count >= max_files:
            break
        try:
            info = path.lstat()
        except OSError:
            continue
        digest.update(f"{path.relative_to(root)}\0{info.st_size}\0{info.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def write_workspace_file(
    workspace: str | Path, path: str, content: str, *, checked: bool = True
) -> Answer:
    """Write a whole file inside ``workspace`` (see :func:`.editing.write_file`; a reply
    wrapped in a markdown fence is unwrapped) and describe what happened."""
    if content.lstrip().startswith("```"):  # small models wrap the file in a markdown fence
        content = code_from_reply(content)
    return write_file(workspace, path, content, checked=checked)


UNSEEN = (
    "[refused] {path} exists and was not shown whole in this conversation, so a rewrite would "
    "lose what was not seen: view it (view_file without a range) first, or change part of it "
    "with edit_file"
)


def command_answer(result: CommandResult) -> Answer:
    """A command's answer: done when it exited 0, else failed; with its exit code and output."""
    ok = result.exit_code == 0 and not result.timed_out
    outcome: Outcome = "done" if ok else "failed"
    reason = "timed_out" if result.timed_out else ""
    return Answer(
        result.render(), outcome, reason, exit_code=result.exit_code, output=result.output
    )


def answer_facts(answer: Answer, path: str = "", *, whole: bool = False) -> dict[str, Any]:
    """What a tool's answer says, as data (a ``ToolMessage``'s ``artifact``): its outcome,
    reason, exit code, the path it was about, and whether the conversation now holds that file
    whole (a view of every line, or its own write)."""
    return {
        "outcome": answer.outcome,
        "reason": answer.reason,
        "exit_code": answer.exit_code,
        "path": path,
        "whole": whole or answer.reason == "whole",
    }


def unseen_rewrite(workspace: str | Path, path: str, messages: Sequence[AnyMessage]) -> str:
    """The refusal of a whole rewrite of an existing file that no earlier answer in
    ``messages`` showed whole (a view of all its lines, or this conversation's own write of
    it, known from the answers' artifacts); "" when it may be rewritten."""
    if not has_content(workspace, path):
        return ""
    name = posixpath.normpath(path.strip())
    for message in messages:
        facts = message.artifact if isinstance(message, ToolMessage) else None
        if not isinstance(facts, dict) or posixpath.normpath(str(facts.get("path", ""))) != name:
            continue
        if facts.get("whole"):
            return ""
    return refused(UNSEEN.format(path=path), "unseen")


CLOBBER = (
    "[refused] `{command}` would empty {path} before reading it (the shell truncates a `>` "
    "target first), so nothing was run. To change {path}, use write_file or edit (or write to "
    "a new file and move it over)."
)


def execute_action(action: Action, sandbox: Sandbox, *, guarded: bool = True) -> Answer:
    """Carry out an action in the sandbox's workspace; its answer, text with its typed
    outcome (a path the file system refuses, too long or through a file, is answered, not
    raised). Without ``guarded``, a change is written whatever it breaks (see :func:`.editing.write_file`)
    and a command that would empty a file it reads is run as given."""
    try:
        answer = _carried_out(action, sandbox, guarded=guarded)
    except OSError as error:
        mark = "[refused]" if action.kind in ("write", "edit") else "[error]"
        why = error.strerror or str(error)
        if error.errno in (errno.EEXIST, errno.ENOTDIR):  # a.py/b.py where a.py is a file
            why = "a folder on that path is a file"
        text = f"{mark} {action.path or action.query!r}: {why}; give another path"
        return refused(text, "os_error") if mark == "[refused]" else failed(text, "os_error")
    return answer if isinstance(answer, Answer) else done(answer)


def _carried_out(action: Action, sandbox: Sandbox, *, guarded: bool) -> str:
    root = sandbox.workspace
    if action.kind in ("write", "edit") and (name := sandbox.protects(action.path)):
        tested = imported_files(root, action.path)
        said = f" It imports: {', '.join(tested)}." if tested else ""
        return refused(PROTECTED.format(path=action.path, name=name) + said, "protected")
    if action.kind == "write":
        return write_workspace_file(root, action.path, action.content, checked=guarded)
    if action.kind == "view":
        return view_file(root, action.path, action.start, action.end)
    if action.kind == "search":
        return search_workspace(root, action.query, action.path)
    if action.kind == "edit":
        if action.start and not action.edits and action.content:  # a range and its new lines
            start, end = action.start, action.end
            return replace_lines(root, action.path, start, end, action.content, checked=guarded)
        if not action.edits and action.content:  # whole functions or classes, by name
            replaced = replace_definitions(root, action.path, action.content, checked=guarded)
            if replaced is not None:
                return replaced
        return apply_replacements(root, action.path, action.edits, checked=guarded)
    if action.kind == "command":
        lost = clobbered_input(action.command, exists=lambda p: has_content(root, p))
        if guarded and lost is not None:
            return refused(CLOBBER.format(command=action.command, path=lost), "clobber")
        return command_answer(sandbox.run(action.command))
    raise ValueError(f"action: {action.kind!r} is not executable")


def create_sandbox_tools(
    *,
    sandbox: SandboxMode = "auto",
    timeout: float = 60.0,
    max_output_chars: int = 4000,
    hide: Sequence[str] = (),
    protected: Sequence[str] = (),
) -> list[BaseTool]:
    """The agent's operations as tools acting in ``state["workspace"]``: ``bash``,
    ``view_file``, ``search_files``, ``edit_file``, ``write_file`` and ``submit``; ``hide``:
    more paths the commands must not see; ``protected``: workspace files or folders (the
    tests, say) never written or edited, and read-only to commands under bubblewrap."""

    def box(workspace: str) -> Sandbox:
        return Sandbox(
            workspace,
            mode=sandbox,
            timeout=timeout,
            max_output_chars=max_output_chars,
            hidden=hide,
            protected=protected,
        )

    def answered(answer: Answer, path: str = "", whole: bool = False) -> tuple[str, dict[str, Any]]:
        return str(answer), answer_facts(answer, path, whole=whole)

    @tool(response_format="content_and_artifact")
    def bash(
        command: str, workspace: Annotated[str, InjectedState("workspace")]
    ) -> tuple[str, dict[str, Any]]:
        """Run one shell command in the task workspace; returns its exit code and output."""
        return answered(execute_action(Action("command", command=command), box(workspace)))

    @tool(response_format="content_and_artifact")
    def view_file(
        path: str,
        workspace: Annotated[str, InjectedState("workspace")],
        start: int = 0,
        end: int = 0,
    ) -> tuple[str, dict[str, Any]]:
        """Show lines start-end of a file with their numbers (without a range: a short file
        whole, a long one as an outline of its classes and functions)."""
        view = Action("view", path=path, start=start, end=end)
        return answered(execute_action(view, box(workspace)), path)

    @tool(response_format="content_and_artifact")
    def search_files(
        query: str, workspace: Annotated[str, InjectedState("workspace")], path: str = ""
    ) -> tuple[str, dict[str, Any]]:
        """Find files whose name holds the text and lines that hold it (in path, or all)."""
        search = Action("search", query=query, path=path)
        return answered(execute_action(search, box(workspace)), path)

    @tool(response_format="content_and_artifact")
    def edit_file(
        path: str, old: str, new: str, workspace: Annotated[str, InjectedState("workspace")]
    ) -> tuple[str, dict[str, Any]]:
        """Replace the exact text old (which must appear once in the file) with new."""
        edit = Action("edit", path=path, edits=(Replacement(old, new),))
        return answered(execute_action(edit, box(workspace)), path)

    @tool(response_format="content_and_artifact")
    def write_file(
        path: str,
        content: str,
        workspace: Annotated[str, InjectedState("workspace")],
        messages: Annotated[Sequence[AnyMessage] | None, InjectedState("messages")] = None,
    ) -> tuple[str, dict[str, Any]]:
        """Write the complete content of a new file, or of a short one already viewed whole (a
        long existing file is changed with edit_file instead)."""
        if messages is not None and (unseen := unseen_rewrite(workspace, path, messages)):
            return answered(Answer(unseen, "refused", "unseen"), path)
        written = execute_action(Action("write", path=path, content=content), box(workspace))
        return answered(written, path, whole=written.outcome == "applied")

    @tool
    def submit() -> str:
        """Finish the task: call when the work is done and checked."""
        return "Submitted."

    return [bash, view_file, search_files, edit_file, write_file, submit]
