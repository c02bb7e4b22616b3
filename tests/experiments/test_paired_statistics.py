"""The statistics of the transfer report, against cases worked out by hand."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from langgraph_mtl_experiments.analysis import lisi
from langgraph_mtl_experiments.paired import compare, compare_means, flips, mcnemar_exact
from langgraph_mtl_experiments.passk import wilson_interval
from langgraph_mtl_experiments.report import write_report
from langgraph_mtl_experiments.runner import ResultStore

ROOT = Path(__file__).resolve().parents[2]


def test_lisi_of_equidistant_points_is_the_mean_inverse_simpson_by_hand():
    # seven points, every pair equally far apart: each point's kernel weights are uniform.
    # an A sees 3 A, 3 B -> 1 / (1/4 + 1/4) = 2; a B sees 4 A, 2 B -> 1 / (16/36 + 4/36) = 1.8
    assert lisi(np.eye(7), list("AAAABBB"), perplexity=2) == pytest.approx((4 * 2 + 3 * 1.8) / 7)


def test_lisi_weights_neighbours_by_distance_at_the_given_perplexity():
    # two far-apart tetrahedra; at perplexity 2 each point's 6 neighbours are its 3 mates and 3
    # far points, and the kernel puts (almost) all weight on the mates:
    # near points (A, A, B, B) each see A, B, B or A, A, B -> 1 / (1/9 + 4/9) = 1.8; far (C) -> 1
    e = np.eye(6)
    near = [e[0] + 0.05 * e[i] for i in range(1, 5)]
    far = [-e[0] + 0.05 * e[i] for i in range(1, 5)]
    value = lisi(np.array(near + far), list("AABBCCCC"), perplexity=2)
    assert value == pytest.approx((4 * 1.8 + 4 * 1.0) / 8, abs=1e-3)
    # an unweighted count of the 6 neighbours would give 36/14 for each near point
    assert abs(value - (4 * 36 / 14 + 4 * 1.0) / 8) > 0.3


def test_lisi_on_few_points_lowers_the_perplexity_to_fit():
    rng = np.random.default_rng(1)
    vectors = rng.normal(size=(14, 8))
    labels = list("ABCD" * 3 + "AB")
    assert lisi(vectors, labels, perplexity=30) == lisi(vectors, labels, perplexity=4)


def _rows(condition: str, outcomes: list[bool], *, receipts=None) -> list[dict]:
    return [
        {
            "condition": condition,
            "domain": "python" if i < 20 else "rust",
            "task_id": f"t{i}",
            "attempt": 0,
            "passed": ok,
            "receipts": receipts or [],
        }
        for i, ok in enumerate(outcomes)
    ]


# 40 paired tasks: 8 gained (failed zero-shot, solved with memory), 2 lost, 30 the same
BASE = [False] * 8 + [True] * 2 + [True] * 10 + [False] * 20
WITH = [True] * 8 + [False] * 2 + [True] * 10 + [False] * 20


def test_paired_delta_ci_and_mcnemar_match_the_hand_computation():
    rows = _rows("zero-shot", BASE) + _rows("mtl-insight", WITH)
    c = compare(rows, "mtl-insight")
    assert (c.tasks, c.gained, c.lost) == (40, 8, 2)
    assert c.delta == pytest.approx(6 / 40)
    # exact McNemar: 2 * P(X <= 2), X ~ Binomial(10, 1/2) = 2 * (1 + 10 + 45) / 1024
    assert c.p_value == pytest.approx(112 / 1024)
    # the bootstrap interval approaches the normal one: var(d) = 10/40 - 0.15^2 = 0.2275
    half = 1.96 * np.sqrt(0.2275 / 40)
    assert c.ci_low == pytest.approx(0.15 - half, abs=0.03)
    assert c.ci_high == pytest.approx(0.15 + half, abs=0.03)
    python = compare(rows, "mtl-insight", domain="python")
    assert (python.tasks, python.gained, python.lost, python.delta) == (20, 8, 2, 6 / 20)


def test_mcnemar_is_symmetric_and_one_without_discordant_pairs():
    assert mcnemar_exact(0, 0) == 1.0
    assert mcnemar_exact(3, 9) == mcnemar_exact(9, 3) == pytest.approx(2 * 299 / 4096)


def test_flips_name_the_direction_and_the_memories_given():
    given = [{"domain": "rust", "memory_type": "insight", "similarity": 0.61}]
    rows = _rows("zero-shot", BASE) + _rows("mtl-insight", WITH, receipts=given)
    found = flips(rows, "mtl-insight")
    assert [f.direction for f in found].count("gained") == 8
    assert [f.task_id for f in found if f.direction == "lost"] == ["t8", "t9"]
    assert found[0].receipts == given


def test_the_report_shows_the_paired_delta_with_its_interval_and_the_flips(tmp_path):
    store = ResultStore(tmp_path / "results.jsonl")
    given = [{"domain": "shell", "memory_type": "insight", "similarity": 0.42}]
    for row in _rows("zero-shot", BASE) + _rows("mtl-insight", WITH, receipts=given):
        store.add(row)
    text = write_report(store.path, out_dir=tmp_path / "out", k=1).read_text()
    pooled = next(line for line in text.splitlines() if line.startswith("| mtl-insight | all |"))
    assert "| 40 | 0.300 | 0.450 | +0.150 [" in pooled
    assert "| 8 / 2 | 0.109 |" in pooled
    assert "**mtl-insight**: 8 gained, 2 lost:" in text
    assert "- lost: python/t8 <- shell/insight 0.42" in text
    assert (tmp_path / "out" / "deltas.png").stat().st_size > 1000
    # the design check: python 12 of 20 zero-shot (Wilson by hand), rust 0 of 20 at the floor
    assert "| python | 20 | 12 | 0.600 | [0.39, 0.78] | yes |" in text
    assert "| rust | 20 | 0 | 0.000 | [0.00, 0.16] | no |" in text


def test_wilson_interval_matches_the_hand_computation():
    # 2 of 10: centre (0.2 + 1.96^2/20) / (1 + 1.96^2/10) = 0.2833, half-width 0.2266
    low, high = wilson_interval(2, 10)
    assert (low, high) == (pytest.approx(0.0567, abs=1e-4), pytest.approx(0.5098, abs=1e-4))
    assert wilson_interval(0, 10) == (0.0, pytest.approx(0.2775, abs=1e-4))
    assert wilson_interval(10, 10) == (pytest.approx(0.7225, abs=1e-4), 1.0)
    with pytest.raises(ValueError, match="passed <= n"):
        wilson_interval(3, 2)


@pytest.mark.slow
def test_lisi_of_the_committed_four_domain_pool_is_the_canonical_value():
    # the memories of experiments/results/4-domains-0.5b, embedded with the default embedder:
    # the canonical LISI separates the two types that a plain neighbour count (3.86 and 3.95)
    # could not
    from langgraph_mtl.pool.embeddings import resolve_embeddings

    embed = resolve_embeddings(None)
    snapshot = ROOT / "experiments" / "results" / "4-domains-0.5b" / "pool-snapshot.jsonl"
    groups: dict[str, tuple[list[str], list[str]]] = {}
    for line in snapshot.read_text().splitlines():
        record = json.loads(line)["record"]
        keys, domains = groups.setdefault(record["memory_type"], ([], []))
        keys.append(record["key"])
        domains.append(record["domain"])
    values = {
        kind: lisi(np.array(embed.embed_documents(keys)), domains)
        for kind, (keys, domains) in groups.items()
    }
    assert values["insight"] == pytest.approx(1.91, abs=0.01)
    assert values["trajectory"] == pytest.approx(1.36, abs=0.01)


def test_the_gate_table_says_which_flips_the_gate_removed_and_which_it_kept(tmp_path):
    # ungated: gains t0-t7, loses t8, t9; gated: keeps gains t0-t5, loses t8 only, t9 fixed
    gated = list(WITH)
    gated[6] = gated[7] = False  # two gains lost to the gate
    gated[9] = True  # one loss removed by the gate
    store = ResultStore(tmp_path / "results.jsonl")
    for row in (
        _rows("zero-shot", BASE) + _rows("mtl-insight", WITH) + _rows("mtl-insight-gated", gated)
    ):
        store.add(row)
    text = write_report(store.path, out_dir=tmp_path / "out", k=1).read_text()
    assert "### Relevance gate" in text
    assert "| mtl-insight | 40 | 2 | 1 | 8 | 6 | 0 / 0 |" in text


def test_the_gate_table_counts_only_the_tasks_the_gated_condition_ran(tmp_path):
    # ungated: gains t0-t7, loses t8, t9 and t15; the gated condition has run t0-t9 only, so
    # t15's loss is not one the gate could have kept or removed
    ungated = list(WITH)
    ungated[15] = False
    store = ResultStore(tmp_path / "results.jsonl")
    for row in (
        _rows("zero-shot", BASE)
        + _rows("mtl-insight", ungated)
        + _rows("mtl-insight-gated", WITH)[:10]
    ):
        store.add(row)
    text = write_report(store.path, out_dir=tmp_path / "out", k=1).read_text()
    assert "| mtl-insight | 10 | 2 | 2 | 8 | 8 | 0 / 0 |" in text


def test_the_gate_section_counts_the_attempts_it_reused(tmp_path):
    gated = _rows("mtl-insight-gated", WITH)
    for row in gated[:25]:
        row["reused_from"] = "zero-shot"
    for row in gated[25:31]:
        row["reused_from"] = "mtl-insight"
    store = ResultStore(tmp_path / "results.jsonl")
    for row in _rows("zero-shot", BASE) + _rows("mtl-insight", WITH) + gated:
        store.add(row)
    text = write_report(store.path, out_dir=tmp_path / "out", k=1).read_text()
    assert "mtl-insight-gated: of 40 attempts, 31 were given exactly the memories" in text
    assert "reused: 6 from mtl-insight, 25 from zero-shot); 9 ran." in text


def test_the_summary_delta_compares_a_growing_condition_on_the_tasks_it_shares(tmp_path):
    # zero-shot ran all 40 tasks, the condition python's first 10 (t0-t9): 2 of 10 -> 8 of 10.
    # Against zero-shot's whole average (0.3) the delta would read +0.500; on the same tasks it
    # is +0.600
    store = ResultStore(tmp_path / "results.jsonl")
    for row in _rows("zero-shot", BASE) + _rows("mtl-insight", WITH)[:10]:
        store.add(row)
    text = write_report(store.path, out_dir=tmp_path / "out", k=1).read_text()
    summary = next(line for line in text.splitlines() if line.startswith("| mtl-insight | "))
    assert summary.endswith("| +0.600 |"), summary
    assert "delta vs zero-shot (same tasks)" in text


def test_per_task_means_over_attempts_and_their_correlation_by_hand(tmp_path):
    # 4 tasks x 2 attempts. Differences (condition - baseline) per attempt:
    # t0: +1, +1   t1: +1, 0   t2: 0, 0   t3: -1, +1  -> task means 1, 0.5, 0, 0 -> 0.375
    base = {0: [False, False, True, True], 1: [False, True, True, False]}
    cond = {0: [True, True, True, False], 1: [True, True, True, True]}
    rows = []
    for attempt in (0, 1):
        for name, outcomes in (("zero-shot", base), ("mtl-insight", cond)):
            for row in _rows(name, outcomes[attempt]):
                rows.append({**row, "domain": "python", "attempt": attempt})
    c = compare_means(rows, "mtl-insight")
    assert (c.tasks, c.attempts) == (4, 2)
    assert c.delta == pytest.approx(0.375)
    # rho of (1, 1, 0, -1) with (1, 0, 0, 1): cov -0.125 / sqrt(var 0.6875 * var 0.25)
    assert c.rho == pytest.approx(-0.125 / np.sqrt(0.6875 * 0.25))
    assert c.ci_low <= 0.375 <= c.ci_high
    wide = compare_means(rows, "mtl-insight", level=0.995)  # an interim look's interval
    assert wide.delta == c.delta and wide.ci_low <= c.ci_low and wide.ci_high >= c.ci_high
    assert (wide.ci_low, wide.ci_high) != (c.ci_low, c.ci_high)
    by_hand = np.array([1, 0.5, 0, 0])[np.random.default_rng(0).integers(0, 4, size=(10_000, 4))]
    assert wide.ci_low == pytest.approx(np.percentile(by_hand.mean(axis=1), 0.25))
    # first attempts alone: t0 and t1 gained, t3 lost
    assert (compare(rows, "mtl-insight").gained, compare(rows, "mtl-insight").lost) == (2, 1)
    store = ResultStore(tmp_path / "results.jsonl")
    for row in rows:
        store.add(row)
    text = write_report(store.path, out_dir=tmp_path / "out", k=2).read_text()
    assert "| mtl-insight | all | 4 | 2 | +0.375 [" in text
    assert "| -0.30 |" in text
    row = next(
        line for line in text.splitlines() if line.startswith("| mtl-insight | all | 4 | 2 |")
    )
    assert row.count("[") == 2, row  # the 95% and the 99.5% interval
    single = compare_means([r for r in rows if r["attempt"] == 0], "mtl-insight")
    assert single.tasks == 0  # one attempt each: nothing to average
