"""Runs of one compiled agent share nothing: a run whose server refuses the JSON schema falls
back to the text protocol alone, while a run beside it keeps its protocol."""

from __future__ import annotations

import json
import threading
from concurrent.futures import ThreadPoolExecutor

from langgraph_mtl.agent import (
    AgentContext,
    RetrievalConfig,
    SandboxConfig,
    WriterConfig,
    create_coding_agent,
)
from langgraph_mtl.agent.prompts import JSON_INSTRUCTIONS, PLAN_INSTRUCTION
from langgraph_mtl.testing import ScriptedChatModel

REFUSED = "REFUSE-SCHEMA"


class SchemaRefused(NotImplementedError):
    """What a server without structured output answers to a schema."""


def test_a_schema_refused_in_one_run_leaves_a_concurrent_run_on_its_protocol(pool, tmp_path):
    both_acting = threading.Barrier(2, timeout=20)
    switched = threading.Event()
    seen: dict[str, list[str]] = {"plain": [], "refused": []}

    def reply(messages):
        system, task = str(messages[0].content), str(messages[1].content)
        run = "refused" if REFUSED in task else "plain"
        if system.startswith(PLAN_INSTRUCTION):
            return "1. write out.txt 2. submit"
        if "complete content of `out.txt`" in str(messages[-1].content):
            return "```\ndone\n```"
        json_call = JSON_INSTRUCTIONS in system
        seen[run].append("json" if json_call else "text")
        steps = sum("Observation" in str(m.content) for m in messages)
        if steps == 0 and len(seen[run]) == 1:
            both_acting.wait()  # both runs are in their act loop at once
        if run == "refused":
            if json_call:
                return SchemaRefused("json_schema is not supported by this server")
            switched.set()
            return "```bash\necho done > out.txt\n```" if steps == 0 else "```bash\nsubmit\n```"
        if steps == 1:
            switched.wait(20)  # the other run has fallen back before this one goes on
        if steps == 0:
            return json.dumps({"thought": "t", "action": "write_file", "path": "out.txt"})
        if steps == 1:
            return json.dumps({"thought": "t", "action": "run", "command": "cat out.txt"})
        return json.dumps({"thought": "t", "action": "submit"})

    model = ScriptedChatModel(default=reply)
    graph = create_coding_agent(
        model,
        pool=pool,
        retrieval=RetrievalConfig(memory_types="insight", strategy="task"),
        writer=WriterConfig(memory_types="trajectory"),
        sandbox=SandboxConfig(mode="none"),
        actions="json",
    ).compile()

    def attempt(name: str, task: str) -> dict:
        ws = tmp_path / name
        context = AgentContext(domain="python", task_id=name, workspace=str(ws), write=False)
        return graph.invoke({"task": task}, context=context)

    with ThreadPoolExecutor(max_workers=2) as runs:
        plain = runs.submit(attempt, "plain", "Write out.txt holding done.")
        refused = runs.submit(attempt, "refused", f"Write out.txt holding done. {REFUSED}")
        plain_out, refused_out = plain.result(), refused.result()

    assert refused_out["protocol"] == "text"
    assert seen["refused"][0] == "json" and set(seen["refused"][1:]) == {"text"}
    assert plain_out["protocol"] == "json"
    assert seen["plain"] == ["json", "json", "json"]  # after the other run switched, too
    assert plain_out["submitted"] and refused_out["submitted"]
    assert (tmp_path / "plain" / "out.txt").read_text() == "done\n"
    assert (tmp_path / "refused" / "out.txt").read_text() == "done\n"
