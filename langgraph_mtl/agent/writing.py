"""The focused call that writes a file under the JSON protocol.

The action says which file to write and why; its content is then asked for in a call of its
own that holds what writing it needs and nothing else: the task, the retrieved memories, the
file as it is now, and on a rewrite what the last commands showed and the reason. A short
prompt is where small models write their best code: before any command has run, the call is
exactly the model's single reply to the task (the scaffold-tax baseline uses this same
function), so the loop can only add to it: running the code and fixing what the output shows.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from langchain_core.messages import AnyMessage, HumanMessage, SystemMessage

from langgraph_mtl.agent.actions import CONTENT_REQUEST
from langgraph_mtl.agent.fences import fence_file
from langgraph_mtl.memory.trajectory import Step

__all__ = ["WRITER_SYSTEM", "current_text", "writer_messages"]

WRITER_SYSTEM = "You are a careful programmer. Answer with code only."
MAX_FILE_CHARS = 20000
MAX_SEEN_CHARS = 1500


def current_text(workspace: str, path: str) -> str:
    """The file's text as it is now ("" when missing, binary or too long to show)."""
    target = Path(workspace) / path
    try:
        text = target.read_text(encoding="utf-8") if target.is_file() else ""
    except (OSError, UnicodeDecodeError):
        return ""
    return text if len(text) <= MAX_FILE_CHARS else ""


def _seen(trajectory: Sequence[Step], last: int = 2) -> str:
    """What the last commands (not writes) printed, newest last."""
    runs = [s for s in trajectory if not str(s.get("action", "")).startswith("write_file ")]
    parts = []
    for step in runs[-last:]:
        output = str(step.get("observation", ""))[-MAX_SEEN_CHARS:]
        parts.append(f"$ {str(step.get('action', ''))[:300]}\n{output}")
    return "\n\n".join(parts)


def writer_messages(
    *,
    task: str,
    path: str,
    current: str = "",
    reason: str = "",
    trajectory: Sequence[Step] = (),
    memory_prompt: str = "",
) -> list[AnyMessage]:
    """The messages of the call that writes ``path``'s complete content (``current``: its
    text now)."""
    system = WRITER_SYSTEM + (f"\n\n{memory_prompt}" if memory_prompt else "")
    prompt = f"{task}\n\n{CONTENT_REQUEST.format(path=path)}"
    if current:
        prompt += f"\n\nThe current `{path}`:\n{fence_file(path, current)}"
    if seen := _seen(trajectory):
        prompt += f"\n\nWhat your last commands showed:\n{seen}"
        if reason.strip():
            prompt += f"\n\nWhy you are writing `{path}` again: {reason.strip()}"
    return [SystemMessage(system), HumanMessage(prompt)]
