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
    create_coding_agent,
)
from langgraph_mtl.agent.sandbox import bubblewrap_available

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
        local_model, pool=pool, limits=Limits(steps=6), sandbox=SandboxConfig(mode="bwrap")
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
    assert out["memory_write_status"] == "ok"
    (written,) = out["memory_written"]
    record = pool.get(written)
    assert record.domain == "python"
    assert record.outcome.value == "success"
    assert record.memory_type.value == "insight"
    assert record.abstraction_model == "local"

    hits = retrieve_memories(
        pool,
        "Write a shell script that adds two numbers and test it",
        domain="shell",
        model=local_model,
        memory_types=["insight"],
    )
    assert [h.record.id for h in hits] == [written]
    assert retrieve_memories(pool, TASK, domain="python", memory_types=["insight"]) == []
