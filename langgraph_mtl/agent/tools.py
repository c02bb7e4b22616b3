"""Sandboxed tools (``bash``, ``write_file``, ``submit``) and the executor every protocol shares.

The tools are real LangChain tools: bind them to a tool-calling model, or put them in a
``ToolNode`` of your own graph whose state has a ``workspace`` key::

    tools = create_sandbox_tools(sandbox="bwrap")
    builder.add_node("tools", ToolNode(tools))
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Annotated

from langchain_core.tools import BaseTool, tool
from langgraph.prebuilt import InjectedState

from langgraph_mtl.agent.actions import Action, code_from_reply
from langgraph_mtl.agent.fences import fence_file
from langgraph_mtl.agent.sandbox import Sandbox, SandboxMode

__all__ = [
    "create_sandbox_tools",
    "describe_workspace",
    "execute_action",
    "workspace_digest",
    "write_workspace_file",
]


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


def describe_workspace(
    workspace: str | Path, *, max_files: int = 6, max_chars: int = 5000, max_listed: int = 40
) -> str:
    """What the agent starts with: the workspace's files, small text files shown in full (a
    large tree is only listed), so it need not spend steps finding them."""
    root = Path(workspace)
    if not root.is_dir():
        return ""
    paths = sorted(
        p
        for p in root.rglob("*")
        if p.is_file() and not any(part.startswith(".") for part in p.relative_to(root).parts)
    )
    if not paths:
        return "The workspace is empty."
    names = [str(p.relative_to(root)) for p in paths]
    if len(paths) > max_files:
        shown = ", ".join(names[:max_listed]) + (" ..." if len(names) > max_listed else "")
        return f"The workspace holds {len(paths)} files: {shown}"
    parts, used = [], 0
    for path, name in zip(paths, names, strict=True):
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            parts.append(f"{name} (binary)")
            continue
        if used + len(text) > max_chars:
            parts.append(f"{name} ({len(text)} characters, not shown)")
            continue
        used += len(text)
        parts.append(f"{name}:\n{fence_file(name, text.rstrip())}")
    return "Files in the workspace:\n" + "\n".join(parts)


def write_workspace_file(workspace: str | Path, path: str, content: str) -> str:
    """Write ``content`` to ``path`` inside ``workspace`` and describe what happened; a path
    that leaves the workspace (``..``, an absolute path elsewhere, a symlink out) is refused."""
    root = Path(workspace).resolve()
    target = (root / path).resolve()  # an absolute ``path`` replaces root; links are followed
    if not target.is_relative_to(root) or target == root:
        return f"[refused] {path} is outside the workspace; give a path inside it"
    if target.is_dir():
        return f"[refused] {path} is a directory; give a file path"
    if content.lstrip().startswith("```"):  # small models wrap the file in a markdown fence
        content = code_from_reply(content)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(content, encoding="utf-8")
    lines = content.count("\n") + (not content.endswith("\n") and bool(content))
    return f"[wrote {target.relative_to(root)}: {lines} lines, {len(content)} characters]"


def execute_action(action: Action, sandbox: Sandbox) -> str:
    """Carry out a command or a file write in the sandbox's workspace; the observation."""
    if action.kind == "write":
        return write_workspace_file(sandbox.workspace, action.path, action.content)
    if action.kind == "command":
        return sandbox.run(action.command).render()
    raise ValueError(f"action: {action.kind!r} is not executable")


def create_sandbox_tools(
    *, sandbox: SandboxMode = "auto", timeout: float = 60.0, max_output_chars: int = 4000
) -> list[BaseTool]:
    """``bash``, ``write_file`` and ``submit`` tools acting in ``state["workspace"]``."""

    def box(workspace: str) -> Sandbox:
        return Sandbox(workspace, mode=sandbox, timeout=timeout, max_output_chars=max_output_chars)

    @tool
    def bash(command: str, workspace: Annotated[str, InjectedState("workspace")]) -> str:
        """Run one shell command in the task workspace; returns its exit code and output."""
        return execute_action(Action("command", command=command), box(workspace))

    @tool
    def write_file(
        path: str, content: str, workspace: Annotated[str, InjectedState("workspace")]
    ) -> str:
        """Write the complete content of a file in the task workspace (directories are made)."""
        return execute_action(Action("write", path=path, content=content), box(workspace))

    @tool
    def submit() -> str:
        """Finish the task: call when the work is done and checked."""
        return "Submitted."

    return [bash, write_file, submit]
