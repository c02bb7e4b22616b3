"""Small builders shared by the tests."""

from __future__ import annotations

import json

from langgraph_mtl import FinishedRun


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
