"""The scaffold-tax benchmark: the agent and the single reply on the same tasks, resumable."""

from __future__ import annotations

import dataclasses

from helpers import TinyDomain, act_reply, solve_tiny

from langgraph_mtl.experiments.runner import ResultStore
from langgraph_mtl.experiments.scaffold import run_scaffold_tax, scaffold_table
from langgraph_mtl.testing import ScriptedChatModel


class KeyedTinyDomain(TinyDomain):
    """TinyDomain whose tasks know their reference file (what a single reply must write)."""

    def _candidates(self):
        return [dataclasses.replace(t, reference={"out.txt": f"{t.task_id[-1]}\n"})
                for t in super()._candidates()]  # fmt: skip

    def tasks(self, split="all", *, limit=None, seed=0):
        return self._candidates()[:limit]


def _reply(messages):
    system = str(messages[0].content)
    if system.startswith("You are a careful programmer"):  # the single reply: right for task 0 only
        return "```\n0\n```"
    if "write a short plan" in system:
        return "write the number"
    if "JSON action" in system:
        return solve_tiny(messages)
    return act_reply(messages, "submit")


def test_both_approaches_on_the_same_tasks_then_resume(tmp_path):
    model = ScriptedChatModel(default=_reply)
    store = ResultStore(tmp_path / "scaffold.jsonl")
    domain = KeyedTinyDomain("alpha")
    rows = run_scaffold_tax(model, [domain], store=store, limit=3, step_limit=3)
    by = {(r["condition"], r["task_id"]): r["passed"] for r in rows}
    assert by == {("single-reply", "alpha-0"): True, ("single-reply", "alpha-1"): False,
                  ("single-reply", "alpha-2"): False, ("agent", "alpha-0"): True,
                  ("agent", "alpha-1"): True, ("agent", "alpha-2"): True}  # fmt: skip
    table = scaffold_table(rows)
    assert "| alpha | agent | 3 | 1.000 |" in table
    assert "| alpha | single-reply | 3 | 0.333 |" in table
    calls = len(model.calls)
    again = run_scaffold_tax(model, [domain], store=store, limit=3, step_limit=3)
    assert len(model.calls) == calls  # everything was stored: nothing runs again
    assert len(again) == 6
    assert len(store.path.read_text().splitlines()) == 6
