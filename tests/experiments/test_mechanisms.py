"""The report's mechanism endpoints (failure classes read from verifier reports), its paired
comparison against the placebo, and the quality proxies of the pool a run used."""

from __future__ import annotations

import json

import pytest
from helpers import make_record
from langgraph_mtl_experiments.conditions import CONDITIONS
from langgraph_mtl_experiments.failures import failure_class, failure_lines
from langgraph_mtl_experiments.pool_quality import pool_quality
from langgraph_mtl_experiments.report import write_report
from langgraph_mtl_experiments.runner import ResultStore

from langgraph_mtl import MemoryType

# reports as the verifiers write them (shortened), with the class each shows
REPORTS = [
    ("tampering: added Cargo.toml\nsolution.rs does not build as a library:\n", "tampering"),
    ("answer.sh is missing: write the command(s) into answer.sh", "missing"),
    ("[timed out after 20 s]", "timeout"),
    (
        "solution.rs does not build as a library:\nerror[E0308]: `if` and `else` have "
        "incompatible types\n  expected `u8`, found `char`",
        "type error",
    ),
    ("0 of 5 tests passed (5 ran)\nTypeError: 'NoneType' object is not callable", "type error"),
    (
        "solution.rs does not build as a library:\nerror[E0425]: cannot find value `x`",
        "does not load",
    ),
    (
        "the solution did not load: ('SyntaxError: invalid syntax (solution.py, line 1)',)",
        "does not load",
    ),
    ("0 of 455 tests passed, 0 failed, 1 errors", "does not load"),
    (
        "the simulation did not reach its verdict:\ntop_module.sv:19: error: can not select",
        "does not load",
    ),
    (
        "answer.sh does not do what was asked.\nits output:\nHere is the command you need",
        "narration",
    ),
    ("the tests stopped after 1 calls: ValueError", "runtime error"),
    (
        "thread 'tests::t' panicked at src/lib.rs:4:9:\nindex out of bounds: the len is 3",
        "runtime error",
    ),
    ("the tests did not all run and pass:\nassertion `left == right` failed", "wrong output"),
    (
        "answer.sh does not do what was asked.\nexpected output (first 600 chars):\n3",
        "wrong output",
    ),
    ("3 mismatches in 12 of 40 samples", "wrong output"),
    ("a check failed after 3 calls", "wrong output"),
    ("something nobody has seen before", "other"),
]


@pytest.mark.parametrize(("report", "expected"), REPORTS)
def test_each_verifier_report_falls_in_the_class_it_shows(report, expected):
    assert failure_class(report, passed=False) == expected
    assert failure_class(report, passed=True) == "passed"


def _row(condition, task, passed, verification="", receipts=(), domain="rust"):
    return {
        "condition": condition,
        "domain": domain,
        "task_id": task,
        "attempt": 0,
        "passed": passed,
        "verification": verification,
        "receipts": list(receipts),
        "settings": CONDITIONS[condition].record(),
    }


def test_the_endpoints_count_first_attempts_per_domain_and_condition():
    rows = [
        _row("zero-shot", "a", False, "tampering: added Cargo.toml"),
        _row("zero-shot", "b", False, "tampering: added Cargo.toml"),
        _row("mtl-insight", "a", False, "assertion `left == right` failed"),
        _row("mtl-insight", "b", True),
        {**_row("mtl-insight", "b", False, "tampering: x"), "attempt": 1},  # not a first
    ]
    lines = failure_lines(rows)
    header = next(line for line in lines if line.startswith("| domain"))
    assert header.split(" | ")[3:] == ["passed", "tampering", "wrong output |"]
    assert "| rust | mtl-insight | 2 | 1 | 0 | 1 |" in lines
    assert "| rust | zero-shot | 2 | 0 | 2 | 0 |" in lines


def test_every_condition_is_compared_with_the_placebo_as_well(tmp_path):
    store = ResultStore(tmp_path / "results.jsonl")
    for i in range(10):
        store.add(_row("zero-shot", f"t{i}", i < 3))
        store.add(_row("placebo-insight", f"t{i}", i < 4))
        store.add(_row("mtl-insight", f"t{i}", i < 6))
    text = write_report(store.path, out_dir=tmp_path / "out", k=1).read_text()
    assert "## Paired comparison with zero-shot" in text
    assert "## Paired comparison with placebo-insight" in text
    against_placebo = text.split("## Paired comparison with placebo-insight")[1]
    pooled = next(
        line for line in against_placebo.splitlines() if line.startswith("| mtl-insight | all |")
    )
    assert "| 10 | 0.400 | 0.600 | +0.200 [" in pooled and "| 2 / 0 |" in pooled
    assert (tmp_path / "out" / "deltas-vs-placebo-insight.png").stat().st_size > 1000


def test_quality_proxies_read_the_snapshot_and_the_receipts(tmp_path):
    short = make_record("python", "p1", "check", kind=MemoryType.INSIGHT)
    short = short.model_copy(update={"content": "Read the failing test before changing code."})
    named = make_record("rust", "r1", "names", kind=MemoryType.INSIGHT)
    named = named.model_copy(
        update={"content": "Call `int_to_mini_roman` with n_digits set, then strip it."}
    )
    snapshots = tmp_path / "snapshots"
    snapshots.mkdir()
    lines = [json.dumps({"record": r.model_dump(mode="json")}) for r in (short, named)]
    (snapshots / "mtl-insight.jsonl").write_text("\n".join(lines) + "\n")
    (snapshots / "manifest.json").write_text(
        json.dumps({"mtl-insight": {"file": "mtl-insight.jsonl", "memories": 2, "sha256": "x"}})
    )
    given = {"id": short.id, "domain": "python"}
    rows = [
        _row("mtl-insight", "a", True, receipts=[given]),
        _row("mtl-insight", "b", False, receipts=[given, {"id": named.id, "domain": "rust"}]),
        _row("mtl-insight", "c", False),
        _row("mtl-insight", "d", False),
    ]
    (quality,) = pool_quality(rows, tmp_path).values()
    assert (quality.insights, quality.naming_code) == (2, 1)
    assert quality.median_words == (7 + 8) / 2
    assert quality.top_share == 0.5  # the short insight went into 2 of 4 attempts
    assert dict(quality.source_mix) == {"python": 2, "rust": 1}


def test_the_actions_and_each_kind_of_refusal_are_counted_and_tabled():
    from langgraph_mtl_experiments.action_table import action_lines
    from langgraph_mtl_experiments.attempts import action_counts
    from steps import changed, invalid, ran, searched, viewed

    from langgraph_mtl.agent.actions import Action
    from langgraph_mtl.agent.history import facts_of
    from langgraph_mtl.agent.outcomes import Answer, refused

    clobber = Action("command", command="cat big.py > big.py")
    history = [
        viewed("big.py", "10 | def f():", 10, 30),
        searched("total", "big.py:12: total = 0"),
        changed("edit", "big.py", "refused", "no_match"),
        changed("edit", "big.py", "refused", "not_unique"),
        changed("write", "big.py", "refused", "too_long"),
        facts_of(clobber, refused("[refused] it would empty big.py", "clobber")),
        ran("python3 -m pytest", "1 failed"),
        changed("write", "a.py", "unchanged", "same"),
        invalid("format"),
        facts_of(Action("submit"), Answer("Submitted.", "submitted")),
    ]
    counts = action_counts(history)
    assert counts == {
        "command_refused": 1,
        "edit": 2,
        "edit_not_found": 1,
        "edit_not_unique": 1,
        "invalid": 1,
        "run": 2,
        "search": 1,
        "submit": 1,
        "view": 1,
        "write_file": 2,
        "write_refused": 1,
        "write_unchanged": 1,
    }
    rows = [
        {"domain": "repo", "condition": "zero-shot", "actions": counts},
        {"domain": "repo", "condition": "zero-shot", "actions": {"view": 1, "submit": 1}},
    ]
    table = action_lines(rows)
    assert table[0] == "## What the agent did"
    header = next(line for line in table if line.startswith("| domain"))
    row = next(line for line in table if line.startswith("| repo"))
    cells = dict(zip(header.strip("| ").split(" | "), row.strip("| ").split(" | "), strict=True))
    assert cells["attempts"] == "2" and cells["view"] == "1.0" and cells["edit"] == "1.0"
    assert cells["edit_not_found"] == "1" and cells["command_refused"] == "1"
    assert cells["write_unchanged"] == "1" and cells["write_file"] == "1.0"
    assert action_lines([{"domain": "x", "condition": "y"}]) == []


def test_a_trace_keeps_where_a_check_says_what_failed_and_redacts_secrets():
    from langgraph_mtl_experiments.attempts import brief_trace

    output = (
        "collecting ...\n" + "x" * 3000 + "\nE   SyntaxError: invalid syntax (mod.py, line 7)\n"
    )
    edit = "edit mod.py 5-9\n" + "y = 1\n" * 100 + "token = 'sk-proj-" + "a" * 40 + "'\n"
    trace = brief_trace([{"action": edit, "observation": output}], chars=100)
    action, observation = trace[0]
    assert observation.startswith("collecting ...") and "[...]" in observation
    assert observation.rstrip().endswith("SyntaxError: invalid syntax (mod.py, line 7)")
    assert len(observation) < 400 and action.startswith("edit mod.py 5-9") and len(action) <= 400
    short = brief_trace([{"action": "view a.py", "observation": "ok"}])
    assert short == [["view a.py", "ok"]]
    steps = [{"action": "ls", "observation": "NOTE: x"}, {"action": "ls", "observation": "y"}]
    acted = brief_trace(steps, [{"policies": ["note-repeats", "command-word"]}, {"policies": []}])
    assert acted[0][1] == "[policy:note-repeats,command-word] NOTE: x"  # who acted, per step
    assert acted[1][1] == "y"
    secret = "sk-proj-" + "b" * 40
    said = brief_trace([{"action": "x", "observation": "y" * 500 + " key " + secret}], chars=100)
    assert secret not in said[0][1]
