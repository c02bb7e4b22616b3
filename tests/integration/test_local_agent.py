"""The coding agent on the real local model: solves a trivial task, memory crosses domains."""

from __future__ import annotations

import subprocess
import sys

import pytest

from langgraph_mtl import open_pool, retrieve_memories
from langgraph_mtl.agent import (
    AgentContext,
    Limits,
    SandboxConfig,
    WriterConfig,
    create_coding_agent,
)
from langgraph_mtl.agent.sandbox import bubblewrap_available
from langgraph_mtl.transfer.insight_rules import insight_problems

pytestmark = pytest.mark.integration

TASK = (
    "Create add.py defining a Python function add(a, b) that returns a + b. Then run "
    "python3 -c 'from add import add; print(add(2, 3))' to check it prints 5."
)


def test_local_model_solves_a_task_and_its_memory_transfers(local_model, tmp_path):
    assert bubblewrap_available(), "the integration run expects bubblewrap (installed by .ci/run)"
    pool = open_pool(str(tmp_path / "pool"), collection="integration")
    workspace = tmp_path / "ws"
    graph = create_coding_agent(
        local_model,
        pool=pool,
        writer=WriterConfig(memory_types=("trajectory", "insight")),
        limits=Limits(steps=6),
        sandbox=SandboxConfig(mode="bwrap"),
    ).compile()
    out = graph.invoke(
        {"task": TASK},
        context=AgentContext(
            domain="python",
            task_id="add",
            workspace=str(workspace),
            verify_command="python3 -c 'from add import add; assert add(2, 3) == 5'",
        ),
        config={"recursion_limit": 20},
    )
    # an independent check of the agent's work, outside the agent's own verifier
    check = subprocess.run(
        [
            sys.executable,
            "-c",
            "from add import add; assert add(2, 3) == 5; assert add(-1, 1) == 0",
        ],
        cwd=workspace,
        capture_output=True,
        text=True,
        check=False,
    )
    assert check.returncode == 0, (out["trajectory"], check.stderr)
    assert out["verified"] is True
    # the trajectory needs no model call; the small model's insight keeps the insight rules
    # (short, none of the task's own names): the grammar the schema makes bounds what it writes
    status = out["memory_write_status"]
    assert status == "ok", status
    records = [pool.get(i) for i in out["memory_written"]]
    assert {r.domain for r in records} == {"python"}
    assert {r.outcome.value for r in records} == {"success"}
    (trajectory,) = [r for r in records if r.memory_type.value == "trajectory"]
    (insight,) = [r for r in records if r.memory_type.value == "insight"]
    assert insight.abstraction_model == "local"
    assert insight_problems(insight.payload, [TASK]) == []

    hits = retrieve_memories(
        pool,
        "Write a shell script that adds two numbers and test it",
        domain="shell",
        memory_types=["trajectory"],
    )
    assert [h.record.id for h in hits] == [trajectory.id]
    assert retrieve_memories(pool, TASK, domain="python", memory_types=["trajectory"]) == []


def test_create_agent_with_the_middleware_on_the_local_model(local_model, tmp_path):
    """A real model behind ``create_agent``: a shell run's memory reaches a python run's first
    model call, and each run writes its own."""
    from langchain.agents import create_agent

    from langgraph_mtl import MemoryContext
    from langgraph_mtl.nodes import MemoryTransferMiddleware

    pool = open_pool(str(tmp_path / "pool"), collection="middleware")
    agent = create_agent(
        local_model,
        tools=[],
        system_prompt="Answer in one short sentence.",
        middleware=[MemoryTransferMiddleware(pool)],
        context_schema=MemoryContext,
    )
    first = agent.invoke(
        {"messages": [("user", "How do I count the lines of a file in the shell?")]},
        context=MemoryContext(domain="shell", task_id="lines"),
    )
    assert first["memory_written"] and first["messages"][-1].content
    second = agent.invoke(
        {"messages": [("user", "How do I count the lines of a file in Python?")]},
        context=MemoryContext(domain="python", task_id="rows"),
    )
    assert [r["domain"] for r in second["memory_receipts"]] == ["shell"]
    assert second["memory_status"] == "ok" and second["memory_written"]
