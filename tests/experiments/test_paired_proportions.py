"""Arms compared task by task: Newcombe's paired interval against the paper's worked example,
the counts and the command."""

from __future__ import annotations

import json

import pytest
from langgraph_mtl_experiments.paired_proportions import compare_arms, labelled_rows, newcombe
from typer.testing import CliRunner

from langgraph_mtl.cli import app


def test_newcombe_gives_the_papers_interval_for_its_first_example():
    # Newcombe (1998), paired data: 36 both, 12 first only, 2 second only, 0 neither;
    # method 10 gives 0.0569 to 0.3404 around the difference 0.2
    low, high = newcombe(36, 12, 2, 0)
    assert (low, high) == pytest.approx((0.0569, 0.3404), abs=5e-5)


def test_newcombe_is_symmetric_when_the_arms_swap_and_holds_zero_without_flips():
    low, high = newcombe(10, 3, 7, 20)
    assert newcombe(10, 7, 3, 20) == pytest.approx((-high, -low))
    low, high = newcombe(12, 0, 0, 8)
    assert low < 0 < high and low == pytest.approx(-high)


def _rows(condition, outcomes, attempt=0):
    return [
        {"condition": condition, "domain": "python", "task_id": f"t{i}", "attempt": attempt,
         "passed": passed}
        for i, passed in enumerate(outcomes)
    ]  # fmt: skip


def test_arms_are_compared_on_the_tasks_both_ran_by_their_first_attempt():
    rows = (
        _rows("a", [True, True, False, False, True])
        + _rows("a", [False] * 5, attempt=1)  # later attempts do not count
        + _rows("b", [True, False, True, False])  # t4 only "a" ran
    )
    c = compare_arms(rows, "a", "b")
    assert (c.tasks, c.first_passed, c.second_passed, c.gained, c.lost) == (4, 2, 2, 1, 1)
    assert c.difference == 0 and c.p_value == 1.0
    with pytest.raises(ValueError, match="no rows of c"):
        compare_arms(rows, "a", "c")


def test_two_runs_with_one_condition_name_are_told_apart_by_a_label(tmp_path):
    before, after = tmp_path / "before.jsonl", tmp_path / "after.jsonl"
    before.write_text("".join(json.dumps(r) + "\n" for r in _rows("zero-shot", [False] * 6)))
    after.write_text("".join(json.dumps(r) + "\n" for r in _rows("zero-shot", [True] * 6)))
    rows = labelled_rows(f"old={before}") + labelled_rows(str(after))
    assert compare_arms(rows, "zero-shot", "old/zero-shot").gained == 6
    result = CliRunner().invoke(
        app,
        ["experiment", "compare", f"old={before}", str(after), "--pair", "zero-shot,old/zero-shot",
         "--json"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    [row] = json.loads(result.output)
    assert (row["gained"], row["lost"], row["p_value"]) == (6, 0, pytest.approx(0.03125))
    bad = CliRunner().invoke(app, ["experiment", "compare", str(after), "--pair", "zero-shot"])
    assert bad.exit_code != 0 and "FIRST,SECOND" in str(bad.exception)
