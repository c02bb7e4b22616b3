"""A long module with one planted bug, its test, the tasks that point at it more or less,
and the scripted agent the repository tests run."""

from __future__ import annotations

import json
import sys

from langgraph_mtl.agent import (
    AgentContext,
    Limits,
    RetrievalConfig,
    SandboxConfig,
    WriterConfig,
    create_coding_agent,
)

BUG_LINE = 1503


def big_module() -> str:
    """A module of about 2,100 lines with one planted bug (``<`` for ``>``) at BUG_LINE."""
    lines = ['"""A long module."""', ""]
    n = 0
    while len(lines) + 3 <= BUG_LINE - 2:
        lines += [f"def helper_{n}(x):", f"    return x + {n}", ""]
        n += 1
    lines += [""] * (BUG_LINE - 2 - len(lines))
    lines += ["def clamp(x, lo, hi):", "    if x < hi:", "        return hi"]
    lines += ["    return max(x, lo)", ""]
    assert lines[BUG_LINE - 1] == "    if x < hi:"
    while len(lines) < 2100:
        lines += [f"def helper_{n}(x):", f"    return x + {n}", ""]
        n += 1
    return "\n".join(lines) + "\n"


TEST = (
    "from big import clamp\nassert clamp(5, 0, 3) == 3\nassert clamp(2, 0, 3) == 2\nprint('ok')\n"
)


TASK = (
    "test_big.py fails:\n\n"
    "Traceback (most recent call last):\n"
    '  File "test_big.py", line 2, in <module>\n'
    f'  File "big.py", line {BUG_LINE}, in clamp\n'
    "AssertionError\n\n"
    "Fix the bug in big.py so that `python3 test_big.py` passes. Do not change the test."
)


# a script whose traceback ends at the bug's line
PROBE = "from big import clamp\nclamp(None, 0, 3)\n"


# the same request without the output that points at a line: any first action is offered
UNPOINTED = "Fix the bug in big.py's clamp so that `python3 test_big.py` passes."


# nor the function: nothing leads anywhere
NAMELESS = "Fix the bug in big.py so that `python3 test_big.py` passes."


def json_action(action: str, **fields) -> str:
    return json.dumps({"thought": "next", "action": action, **fields})


def coding_agent(pool, model, **kwargs):
    return create_coding_agent(
        model,
        pool=pool,
        retrieval=RetrievalConfig(memory_types="insight", strategy="task"),
        writer=WriterConfig(memory_types="trajectory"),
        sandbox=SandboxConfig(mode="none"),
        limits=Limits(steps=8),
        actions="json",
        **kwargs,
    ).compile()


def agent_context(ws):
    return AgentContext(
        domain="python",
        task_id="big",
        workspace=str(ws),
        verify_command=f"{sys.executable} test_big.py",
        check_command="python3 test_big.py",  # the check the task declares
        write=False,
    )
