"""The scaffold-tax benchmark: the agent and the single reply on the same tasks, resumable."""

from __future__ import annotations

import dataclasses

from helpers import TinyDomain, act_reply, tiny_number
from langgraph_mtl_experiments.runner import ResultStore
from langgraph_mtl_experiments.scaffold import run_scaffold_tax, scaffold_table

from langgraph_mtl.testing import ScriptedChatModel


class KeyedTinyDomain(TinyDomain):
    """TinyDomain whose tasks know their reference file (what a single reply must write)."""

    def candidates(self):
        return [
            dataclasses.replace(t, reference={"out.txt": f"{t.task_id[-1]}\n"})
            for t in super().candidates()
        ]

    def tasks(self, split="all", *, limit=None, seed=0):
        return self.candidates()[:limit]


def _reply(messages):
    """Writes 0 at first (right for task 0 only); a rewrite that saw a command's output is right."""
    system, last = str(messages[0].content), str(messages[-1].content)
    if system.startswith("You are a careful programmer"):  # a write: the single reply's prompt
        return (
            f"```\n{tiny_number(messages) if 'What your last commands showed' in last else 0}\n```"
        )
    if "write a short plan" in system:
        return "write the number"
    seen = sum("Observation" in str(m.content) for m in messages)
    if "JSON action" in system and seen in (0, 2):
        return act_reply(messages, "write_file", path="out.txt")
    if seen == 1:
        return act_reply(messages, "run", command="cat out.txt")
    return act_reply(messages, "submit")


def test_both_approaches_on_the_same_tasks_then_resume(tmp_path):
    model = ScriptedChatModel(default=_reply)
    store = ResultStore(tmp_path / "scaffold.jsonl")
    domain = KeyedTinyDomain("alpha")
    rows = run_scaffold_tax(model, [domain], store=store, limit=3, step_limit=4)
    by = {(r["condition"], r["task_id"]): r["passed"] for r in rows}
    assert by == {
        ("single-reply", "alpha-0"): True,
        ("single-reply", "alpha-1"): False,
        ("single-reply", "alpha-2"): False,
        ("agent", "alpha-0"): True,
        ("agent", "alpha-1"): True,
        ("agent", "alpha-2"): True,
    }
    agent_rows = [r for r in rows if r["condition"] == "agent"]
    assert all(r["trace"] and r["trace"][0][0] for r in agent_rows)  # each run, readable
    table = scaffold_table(rows)
    assert "| alpha | agent | 3 | 1.000 |" in table
    assert "| alpha | single-reply | 3 | 0.333 |" in table
    calls = len(model.calls)
    again = run_scaffold_tax(model, [domain], store=store, limit=3, step_limit=4)
    assert len(model.calls) == calls  # everything was stored: nothing runs again
    assert len(again) == 6
    assert len(store.path.read_text().splitlines()) == 6


def test_progress_reports_stored_rows_once_then_each_new_run(tmp_path):
    model = ScriptedChatModel(default=_reply)
    store = ResultStore(tmp_path / "scaffold.jsonl")
    domain = KeyedTinyDomain("alpha")
    run_scaffold_tax(model, [domain], store=store, limit=2, step_limit=4)
    reports: list[tuple[str, int, int]] = []
    run_scaffold_tax(
        model,
        [domain],
        store=store,
        limit=3,  # one task more: each approach has 2 stored, 1 to run
        step_limit=4,
        progress=lambda label, done, total, rate: reports.append((label, done, total)),
    )
    assert reports == [
        ("single-reply / alpha", 2, 3),  # the stored rows, in one report
        ("single-reply / alpha", 3, 3),
        ("agent / alpha", 2, 3),
        ("agent / alpha", 3, 3),
    ]


def test_the_agent_runs_under_each_policy_preset_named(tmp_path):
    import pytest

    model = ScriptedChatModel(default=_reply)
    store = ResultStore(tmp_path / "scaffold.jsonl")
    approaches = ("agent:bare", "agent:small-model")
    rows = run_scaffold_tax(
        model, [KeyedTinyDomain("alpha")], store=store, limit=2, approaches=approaches
    )
    assert [r["condition"] for r in rows] == ["agent:bare"] * 2 + ["agent:small-model"] * 2
    assert "| alpha | agent:bare | 2 |" in scaffold_table(rows)
    assert all(r["policies"] == {} for r in rows[:2])  # the bare loop: no policy acts
    assert any(r["policies"] for r in rows[2:])
    from langgraph_mtl_experiments.action_table import policy_lines

    table = policy_lines(rows)
    assert table[0] == "## Which policies acted"
    assert any(line.startswith("| alpha | agent:small-model | 2 |") for line in table)
    with pytest.raises(ValueError, match="approach 'agent:huge': expected one of"):
        run_scaffold_tax(model, [], store=store, approaches=("agent:huge",))
