"""The agent on the real local model solves a small fixed set of tasks (a minimum count, not a
single lucky task), each checked by its verifier."""

from __future__ import annotations

import pytest

from langgraph_mtl.agent import (
    AgentContext,
    Limits,
    RetrievalConfig,
    WriterConfig,
    create_coding_agent,
)

pytestmark = pytest.mark.integration

# (task id, starting files, task, verify command)
TASKS = [
    (
        "greet",
        {},
        "Create greet.py with a function greet(name) that returns 'Hello, NAME!' for "
        "the given name, for example greet('Ann') returns 'Hello, Ann!'.",
        "python3 -c \"from greet import greet; assert greet('Ann') == 'Hello, Ann!'\"",
    ),
    (
        "evens",
        {},
        "Create evens.py with a function evens(xs) that returns the even numbers of "
        "the list xs, in order.",
        "python3 -c 'from evens import evens; assert evens([1, 2, 3, 4, 6]) == [2, 4, 6]'",
    ),
    (
        "upper",
        {"input.txt": "hello\n"},
        "Write upper.py that reads input.txt and prints its content in upper case.",
        "python3 upper.py | grep -qx HELLO",
    ),
    (
        "count",
        {"data.txt": "a\nb\nc\n"},
        "Write a shell script count.sh that prints the number of lines in data.txt.",
        "bash count.sh | grep -qw 3",
    ),
]
MINIMUM = 3


def test_local_model_solves_most_of_a_fixed_task_set(local_model, tmp_path):
    graph = create_coding_agent(
        local_model,
        pool=lambda: None,
        retrieval=RetrievalConfig(memory_types=None),
        writer=WriterConfig(memory_types="trajectory"),
        limits=Limits(steps=6),
    ).compile()
    solved = []
    for task_id, files, task, verify in TASKS:
        workspace = tmp_path / task_id
        workspace.mkdir()
        for name, text in files.items():
            (workspace / name).write_text(text)
        out = graph.invoke(
            {"task": task},
            context=AgentContext(
                domain="python",
                task_id=task_id,
                workspace=str(workspace),
                verify_command=verify,
                retrieve=False,
                write=False,
            ),
            config={"recursion_limit": 30},
        )
        if out.get("verified"):
            solved.append(task_id)
        print(task_id, out.get("verified"), [s["action"][:120] for s in out["trajectory"]])
    assert len(solved) >= MINIMUM, solved
