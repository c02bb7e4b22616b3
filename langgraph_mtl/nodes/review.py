"""Human review before a memory is shared: the writer node asks with ``interrupt()`` and writes,
edits or drops what it was told."""

from __future__ import annotations

from collections.abc import Sequence

from langgraph.types import interrupt

from langgraph_mtl.hygiene.sanitize import sanitize
from langgraph_mtl.memory.records import MemoryRecord

__all__ = ["human_review"]

_EDITABLE = {"content", "key", "outcome", "payload"}


def human_review(records: Sequence[MemoryRecord]) -> list[MemoryRecord]:
    """Show abstracted memories to a person (``interrupt``) and return what they approved,
    edited, or nothing if they dropped them. Raises ValueError for an answer it cannot use."""
    shown = [sanitize(r).record.model_dump(mode="json") for r in records]  # redacted first
    answer = interrupt({"memories": shown, "actions": ["write", "edit", "drop"]})
    action = answer.get("action") if isinstance(answer, dict) else answer
    if action == "drop":
        return []
    if action not in ("write", "edit"):
        raise ValueError(f"unknown action {action!r}; resume with write, edit or drop")
    chosen = answer.get("memories") if isinstance(answer, dict) else None
    edits = {m.get("id"): m for m in chosen if isinstance(m, dict)} if chosen else None
    if action == "edit" and not edits:
        raise ValueError("edit needs 'memories': a list of {id, field: new value}")
    approved = []
    for memory in shown:
        if edits is not None and memory["id"] not in edits:
            continue
        change = {k: v for k, v in (edits or {}).get(memory["id"], {}).items() if k != "id"}
        if set(change) - _EDITABLE:
            raise ValueError(f"a review can edit {sorted(_EDITABLE)}, not {sorted(change)}")
        approved.append(MemoryRecord.model_validate({**memory, **change, "judged_by": "human"}))
    return approved
