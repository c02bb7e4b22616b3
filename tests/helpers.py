"""Small builders shared by the tests."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from langgraph_mtl_experiments import Condition, Domain, ResultStore, Task
from langgraph_mtl_experiments.runner import run_condition
from langgraph_mtl_experiments.verifiers import CommandCheck

from langgraph_mtl import MemoryRecord, MemoryType, Outcome
from langgraph_mtl.memory.records import memory_id
from langgraph_mtl.testing import ScriptedChatModel
from langgraph_mtl.transfer.abstraction import FinishedRun


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


class TinyDomain(Domain):
    """Two shell tasks whose verifier checks a file's content."""

    def __init__(self, name: str) -> None:
        self.name = name

    def all_tasks(self) -> list[Task]:
        return self.candidates()

    def candidates(self) -> list[Task]:
        return [
            Task(
                domain=self.name,
                task_id=f"{self.name}-{i}",
                instruction=f"write {i} to out.txt",
                files={},
                verifier=CommandCheck(f"grep -qx {i} out.txt", ("out.txt",)),
                reference={"out.txt": f"{i}\n"},
                wrong={"out.txt": "none\n"},
            )
            for i in range(4)
        ]


def act_reply(messages, action: str, **fields: str) -> str:
    """A scripted act reply in the protocol the agent asked for (JSON action or ```bash)."""
    if "JSON action" in str(messages[0].content):
        return json.dumps({"thought": "next", "action": action, **fields})
    if action == "submit":
        return "```bash\nsubmit\n```"
    return f"```bash\n{fields['command']}\n```"


def tiny_number(messages) -> str:
    """The number a TinyDomain task asks for ("write N to out.txt")."""
    found = re.findall(r"write (\d+) to out\.txt", " ".join(str(m.content) for m in messages))
    return found[-1]


def solve_tiny(messages, *, then: str = ""):
    """Solves a TinyDomain task: writes out.txt (a JSON write_file, whose content comes in the
    focused call; a command under the text protocol), optionally runs ``then``, and submits."""
    last = str(messages[-1].content)
    if "complete content of `out.txt`" in last:  # the JSON protocol's focused write
        return f"```\n{tiny_number(messages)}\n```"
    seen = sum("Observation" in str(m.content) for m in messages)
    if seen == 0:
        if "JSON action" in str(messages[0].content):
            return act_reply(messages, "write_file", path="out.txt")
        return act_reply(messages, "run", command=f"echo {tiny_number(messages)} > out.txt")
    if seen == 1 and then:
        return act_reply(messages, "run", command=then)
    return act_reply(messages, "submit")


@dataclass
class CliResult:
    """What one ``mtl`` invocation did."""

    code: int
    out: str
    err: str

    @property
    def text(self) -> str:
        return self.out + self.err


def run_cli(capsys, *args: str) -> CliResult:
    """Run ``mtl`` in-process through its real entry point (errors handled as for a user)."""
    from langgraph_mtl.cli import main

    capsys.readouterr()
    code = main(list(args))
    captured = capsys.readouterr()
    return CliResult(code, captured.out, captured.err)


def run_tiny(
    condition: Condition, model: Any, pool: Any, store: ResultStore, **settings: Any
) -> None:
    """Run ``condition`` on TinyDomain ``domain`` (default "alpha"), every task, 4 steps, one
    attempt unless ``settings`` say otherwise."""
    domain = TinyDomain(settings.pop("domain", "alpha"))
    settings = {"attempts": 1, "split": "all", "step_limit": 4, **settings}
    run_condition(condition, [domain], model=model, pool=pool, store=store, **settings)


def scripted_solver() -> ScriptedChatModel:
    """A model that solves TinyDomain tasks, built where it is used (a Ray worker, say)."""
    return ScriptedChatModel(default=solve_tiny)


def _dies_once(marker: str, messages):
    """Solves a TinyDomain task, but the first call anywhere (``marker`` not there yet) kills
    the process it runs in, as a worker lost mid-attempt."""
    import os

    if not os.path.exists(marker):
        open(marker, "w").close()
        os._exit(1)
    return solve_tiny(messages)


def dying_solver(marker: str) -> ScriptedChatModel:
    """A model whose first call kills its process (see :func:`_dies_once`)."""
    import functools

    return ScriptedChatModel(default=functools.partial(_dies_once, marker))
