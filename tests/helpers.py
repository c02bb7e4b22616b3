"""Small builders shared by the tests."""

from __future__ import annotations

import json

from langgraph_mtl import FinishedRun, MemoryRecord, MemoryType, Outcome
from langgraph_mtl.memory_types import memory_id


def insight_json(
    title: str, description: str = "When tests exist.", content: str = "Run them."
) -> str:
    return json.dumps({"title": title, "description": description, "content": content})


def make_run(domain: str, task_id: str, task: str, *, verified: bool | None = True) -> FinishedRun:
    return FinishedRun(
        task=task,
        steps=[
            {"thought": "look around", "action": "ls", "observation": "main.py test_main.py"},
            {"thought": "run tests", "action": "pytest -q", "observation": "3 passed"},
        ],
        domain=domain,
        task_id=task_id,
        verified=verified,
        agent_model="agent-x",
    )


def make_record(
    domain: str,
    task_id: str,
    key: str,
    content: str | None = None,
    *,
    kind: MemoryType | str = MemoryType.INSIGHT,
    outcome: Outcome = Outcome.SUCCESS,
    agent_model: str = "m1",
) -> MemoryRecord:
    """A stored-memory record with a stable id; content defaults to the key."""
    return MemoryRecord(
        id=memory_id(kind, domain, task_id, key),
        memory_type=kind,
        domain=domain,
        task_id=task_id,
        outcome=outcome,
        agent_model=agent_model,
        key=key,
        content=key if content is None else content,
        payload={"raw": key if content is None else content},
    )
