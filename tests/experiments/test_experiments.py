"""Experiments: pass@k, leave-one-domain-out runs without leakage, resume, loaders, analysis."""

from __future__ import annotations

import itertools
import json
import sys

import numpy as np
import pytest
from helpers import TinyDomain, make_record, run_tiny, solve_tiny
from langgraph_mtl_experiments import (
    CONDITIONS,
    SWEEPS,
    Condition,
    ResultStore,
    generate_memories,
    pass_at_k,
    resolve_conditions,
    run_condition,
)
from langgraph_mtl_experiments.analysis import abstraction_scores, analyse, lisi
from langgraph_mtl_experiments.domains import Domain, Task, get_domain
from langgraph_mtl_experiments.pools import (
    annotate_abstraction,
    choose_sources,
    condition_pool,
    condition_scorers,
    write_snapshot,
)
from langgraph_mtl_experiments.repo_domain import mutants
from langgraph_mtl_experiments.report import scaling_points, signed, write_report
from langgraph_mtl_experiments.runner import summarize
from langgraph_mtl_experiments.verifiers import CommandCheck

from langgraph_mtl import MemoryRecord, open_pool
from langgraph_mtl.agent.sandbox import Sandbox
from langgraph_mtl.home import mtl_home
from langgraph_mtl.memory.records import memory_id
from langgraph_mtl.transfer.retrieval import retrieve_memories


@pytest.mark.parametrize(
    ("n", "c", "k"), [(3, 1, 1), (3, 1, 2), (5, 2, 3), (4, 0, 2), (4, 4, 1), (6, 3, 3)]
)
def test_pass_at_k_matches_brute_force(n, c, k):
    outcomes = [True] * c + [False] * (n - c)
    subsets = list(itertools.combinations(outcomes, k))
    assert pass_at_k(n, c, k) == pytest.approx(sum(any(s) for s in subsets) / len(subsets))


def test_pass_at_k_rejects_bad_counts():
    with pytest.raises(ValueError):
        pass_at_k(3, 4, 1)
    with pytest.raises(ValueError):
        pass_at_k(3, 1, 4)


def _memory(domain: str, task_id: str) -> MemoryRecord:
    return make_record(domain, task_id, f"write the number to out.txt ({domain} {task_id})")


def _run(
    condition: str,
    domain: str,
    model,
    pool,
    store: ResultStore,
    *,
    attempts: int,
    concurrency=1,
    progress=None,
) -> None:
    run_tiny(
        CONDITIONS[condition],
        model,
        pool,
        store,
        domain=domain,
        attempts=attempts,
        concurrency=concurrency,
        progress=progress,
    )


@pytest.fixture
def stocked(pool):
    pool.upsert([_memory(d, f"{d}-{i}") for d in ("alpha", "beta", "gamma") for i in range(4)])
    return pool


@pytest.mark.slow
def test_cross_domain_condition_never_leaks_the_target_domain(stocked, scripted, tmp_path):
    store = ResultStore(tmp_path / "results.jsonl")
    model = scripted(default=solve_tiny)
    _run("mtl-insight", "alpha", model, stocked, store, attempts=2)
    rows = list(store.rows())
    assert len(rows) == 8
    assert all(r["passed"] for r in rows)
    receipts = [rc for r in rows for rc in r["receipts"]]
    assert receipts
    assert all(rc["domain"] != "alpha" for rc in receipts)


def test_in_domain_condition_uses_only_own_domain_never_the_same_task(stocked, scripted, tmp_path):
    store = ResultStore(tmp_path / "results.jsonl")
    _run("in-domain-insight", "beta", scripted(default=solve_tiny), stocked, store, attempts=1)
    for row in store.rows():
        assert row["receipts"]
        assert all(rc["domain"] == "beta" for rc in row["receipts"])
        assert all(rc["task_id"] != row["task_id"] for rc in row["receipts"])


def test_concurrent_attempts_each_run_once_in_their_own_workspace(stocked, scripted, tmp_path):
    store = ResultStore(tmp_path / "results.jsonl")
    seen: list[tuple[str, int, float]] = []

    def progress(label, done, total, rate):
        seen.append((label, done, rate))
        assert total == 12

    run_condition(
        CONDITIONS["mtl-insight"],
        [TinyDomain("alpha")],
        model=scripted(default=solve_tiny),
        pool=stocked,
        store=store,
        attempts=3,
        split="all",
        step_limit=4,
        concurrency=4,
        progress=progress,
    )
    rows = list(store.rows())
    assert sorted((r["task_id"], r["attempt"]) for r in rows) == [
        (f"alpha-{i}", a) for i in range(4) for a in range(3)
    ]
    assert all(r["passed"] for r in rows)  # no run saw another's out.txt or lost its own
    assert [done for _, done, _ in seen] == list(range(13))  # announced at 0, then each run
    assert seen[-1] == ("mtl-insight / alpha", 12, 1.0)


def test_zero_shot_retrieves_nothing(stocked, scripted, tmp_path):
    store = ResultStore(tmp_path / "results.jsonl")
    _run("zero-shot", "gamma", scripted(default=solve_tiny), stocked, store, attempts=1)
    assert all(r["receipts"] == [] and r["memory_status"] == "disabled" for r in store.rows())


def test_an_interrupted_run_resumes_without_duplicates(stocked, scripted, tmp_path):
    path = tmp_path / "results.jsonl"
    store = ResultStore(path)
    first = scripted(default=solve_tiny)
    _run("zero-shot", "alpha", first, stocked, store, attempts=2)
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:5]) + "\n" + lines[5][:20])  # killed mid-write of row 6
    second = scripted(default=solve_tiny)
    _run("zero-shot", "alpha", second, stocked, store, attempts=2)
    rows = list(store.rows())
    keys = [(r["task_id"], r["attempt"]) for r in rows]
    assert len(rows) == 8
    assert len(set(keys)) == 8
    assert len(second.calls) < len(first.calls)  # only the missing attempts ran again


def test_a_resumed_run_announces_what_was_stored_then_reports_only_new_runs(
    stocked, scripted, tmp_path
):
    store = ResultStore(tmp_path / "results.jsonl")
    _run("zero-shot", "alpha", scripted(default=solve_tiny), stocked, store, attempts=1)
    lines = store.path.read_text().splitlines()
    store.path.write_text("\n".join(lines[:3]) + "\n")  # one of four attempts lost
    seen: list[tuple[int, int, float]] = []
    _run(
        "zero-shot",
        "alpha",
        scripted(default=solve_tiny),
        stocked,
        store,
        attempts=1,
        progress=lambda label, done, total, rate: seen.append((done, total, rate)),
    )
    assert seen == [(3, 4, 1.0), (4, 4, 1.0)]


def test_summary_and_report(tmp_path, pool):
    store = ResultStore(tmp_path / "r.jsonl")
    for cond, passes in (("zero-shot", [0, 0, 0]), ("mtl-insight", [1, 1, 0])):
        for attempt, ok in enumerate(passes):
            store.add(
                {
                    "condition": cond,
                    "domain": "python",
                    "task_id": "t1",
                    "attempt": attempt,
                    "passed": bool(ok),
                }
            )
            store.add(
                {
                    "condition": cond,
                    "domain": "rust",
                    "task_id": "r1",
                    "attempt": attempt,
                    "passed": False,
                }
            )
    summary = summarize(store.rows(), k=3)
    assert summary["mtl-insight"]["python"]["pass@1"] == pytest.approx(2 / 3)
    assert summary["zero-shot"]["python"]["pass@3"] == 0.0
    assert summary["mtl-insight"]["python"]["pass@3"] == 1.0
    assert summary["mtl-insight"]["avg (domains)"]["pass@1"] == pytest.approx(1 / 3)
    report = write_report(store.path, out_dir=tmp_path / "out", k=3).read_text()
    insight = next(line for line in report.splitlines() if line.startswith("| mtl-insight |"))
    assert insight.endswith("| +0.500 |")  # pass@3 averaged over domains: (1 - 0 + 0 - 0) / 2
    assert (tmp_path / "out" / "pass_rates.png").stat().st_size > 1000


def test_a_difference_that_rounds_to_zero_reads_plus_zero():
    assert 0.3 - (0.1 + 0.2) < 0  # floating point leaves a tiny negative remainder
    assert signed(0.3 - (0.1 + 0.2)) == "+0.000"
    assert signed(-0.0004) == "+0.000"
    assert signed(-0.0006) == "-0.001"
    assert signed(0.5) == "+0.500"


@pytest.mark.slow
def test_abstraction_analysis_separates_clustered_from_mixed():
    rng = np.random.default_rng(0)
    labels = ["a"] * 30 + ["b"] * 30 + ["c"] * 30
    centers = rng.normal(size=(3, 16)) * 5
    clustered = np.vstack([centers[i] + rng.normal(size=(30, 16)) for i in range(3)])
    mixed = rng.normal(size=(90, 16))
    tight, loose = analyse("trajectory", clustered, labels), analyse("insight", mixed, labels)
    assert tight.dbi < loose.dbi
    assert tight.lisi < loose.lisi
    assert tight.abstraction < loose.abstraction
    assert 1.0 <= lisi(mixed, labels) <= 3.0
    assert abstraction_scores(mixed, labels).shape == (90,)


@pytest.mark.toolchain
def test_python_loader_references_pass_and_wrong_solutions_fail(monkeypatch):
    domain = get_domain("python")
    tasks = domain.all_tasks()
    assert len(tasks) == 164
    for task in tasks[:5]:
        assert domain.check(task, task.reference).passed, task.task_id
        assert not domain.check(task, task.wrong).passed, task.task_id
    monkeypatch.setattr(domain, "usable", lambda task: True)  # the split, not the verdicts
    source, evaluation = domain.tasks("source"), domain.tasks("eval")
    assert len(source) + len(evaluation) == 164
    assert {t.task_id for t in source}.isdisjoint(t.task_id for t in evaluation)


@pytest.mark.toolchain
def test_rust_loader_references_pass_and_wrong_solutions_fail():
    domain = get_domain("rust")
    tasks = domain.all_tasks()
    assert len(tasks) >= 80
    for task in tasks[:3]:
        assert domain.check(task, task.reference).passed, task.task_id
        assert not domain.check(task, task.wrong).passed, task.task_id


@pytest.mark.toolchain
def test_verilog_loader_references_pass_and_wrong_solutions_fail():
    domain = get_domain("verilog")
    tasks = domain.all_tasks()
    assert len(tasks) == 154  # 2 of 156 references use casts this iverilog lacks
    for task in tasks[:3]:
        assert domain.check(task, task.reference).passed, task.task_id
        assert not domain.check(task, task.wrong).passed, task.task_id


@pytest.mark.toolchain
def test_shell_loader_builds_the_tree_and_compares_output_and_file_changes(tmp_path):
    domain = get_domain("shell")
    tasks = {t.task_id: t for t in domain.all_tasks()}
    # of 300: the rest cannot be told from a no-op or from printing, or vary per run
    assert len(tasks) >= 170
    for task in list(tasks.values())[:3]:
        assert domain.check(task, task.reference).passed, task.task_id
        assert not domain.check(task, task.wrong).passed, task.task_id
    make_dir = tasks["nl2bash/1/5"]  # "create a directory /testbed/test_dir"
    assert "testbed/test_dir" in make_dir.instruction
    assert "/testbed" not in make_dir.instruction
    make_dir.prepare(tmp_path)
    assert (tmp_path / "testbed" / "hello.c").exists()  # the image's tree, inside the workspace
    assert (tmp_path / "setup_nl2b_fs_1.sh").exists()
    # the second gold command is accepted too; a similar but different change is not
    assert domain.check(make_dir, {"answer.sh": "mkdir -v testbed/test_dir\n"}).passed
    assert not domain.check(make_dir, {"answer.sh": "mkdir testbed/test_dirs\n"}).passed
    verdict = domain.check(make_dir, {"answer.sh": "ls testbed\n"})
    assert not verdict.passed
    assert "does not do what was asked" in verdict.report


@pytest.mark.toolchain
def test_data_loader_runs_unittests_in_its_own_python_312_environment(tmp_path):
    domain = get_domain("data")
    (task,) = domain.tasks("eval", limit=1)
    assert task.task_id.startswith(("DFB/B", "DFB/V"))  # evaluation: the test and val splits
    assert "pandas" in task.instruction
    assert "import pandas as pd" in task.files["solution.py"]
    assert str(mtl_home()) not in task.instruction  # `python` is the environment's, by PATH
    seen = Sandbox(tmp_path, mode="none", env=task.env).run("python -c 'import pandas'")
    assert seen.exit_code == 0, seen.output
    verdict = domain.check(task, task.reference)
    assert verdict.passed, verdict.report
    verdict = domain.check(task, task.wrong)
    assert not verdict.passed
    assert "NotImplementedError" in verdict.report
    source_ids = {row["task_id"] for row in domain._rows_of("source")}
    assert len(source_ids) == 709
    assert all(i.startswith("DFB/T") for i in source_ids)
    assert source_ids.isdisjoint(row["task_id"] for row in domain._rows_of("eval"))


def test_unknown_domain_is_named():
    with pytest.raises(ValueError, match="unknown 'cobol'"):
        get_domain("cobol")


def test_results_rows_are_json_lines(tmp_path):
    store = ResultStore(tmp_path / "x.jsonl")
    store.add({"condition": "c", "domain": "d", "task_id": "t", "attempt": 0, "passed": True})
    assert json.loads((tmp_path / "x.jsonl").read_text())["passed"] is True


@pytest.mark.slow
def test_report_includes_the_abstraction_analysis_of_the_pool(tmp_path, pool):
    words = ["tests", "compile", "profile", "schema", "logs", "types"]
    pool.upsert(
        [
            MemoryRecord(
                id=memory_id(kind, d, f"{d}{i}", w),
                memory_type=kind,
                domain=d,
                task_id=f"{d}{i}",
                key=f"{d} {kind} {w} {i}",
                content=f"{d} {w}",
            )
            for d in ("python", "rust")
            for i, w in enumerate(words)
            for kind in ("trajectory", "insight")
        ]
    )
    store = ResultStore(tmp_path / "r.jsonl")
    store.add(
        {"condition": "zero-shot", "domain": "python", "task_id": "t", "attempt": 0, "passed": True}
    )
    text = write_report(store.path, out_dir=tmp_path / "out", pool=pool, k=1).read_text()
    assert "## Abstraction analysis" in text
    assert "| insight | 12 | 2 |" in text
    assert (tmp_path / "out" / "tsne.png").stat().st_size > 1000


def _mixed_pool(pool):
    pool.upsert(
        [_memory(d, f"{d}-{i}") for d in ("alpha", "beta", "gamma", "delta") for i in range(4)]
    )
    return pool


def test_a_snapshot_digest_depends_on_the_records_not_their_order_or_their_fields_order(
    pool, tmp_path
):
    first = _memory("alpha", "a-0").model_copy(update={"flags": {"votes": 2, "redacted": 1}})
    second = first.model_copy(update={"flags": {"redacted": 1, "votes": 2}})
    other = open_pool(":memory:", collection="snapshot-order", embeddings=pool.embeddings)
    more = _memory("beta", "b-0")
    pool.upsert([first, more])
    other.upsert([more, second])
    one = write_snapshot(pool, tmp_path / "one.jsonl")
    two = write_snapshot(other, tmp_path / "two.jsonl")
    assert one["memories"] == two["memories"] == 2
    assert one["sha256"] == two["sha256"]
    assert (tmp_path / "one.jsonl").read_text() == (tmp_path / "two.jsonl").read_text()
    changed = first.model_copy(update={"flags": {"votes": 3, "redacted": 1}})
    pool.upsert([changed])
    assert write_snapshot(pool, tmp_path / "three.jsonl")["sha256"] != one["sha256"]


@pytest.mark.slow
def test_pool_size_condition_sees_only_its_seeded_snapshotted_share(pool, scripted, tmp_path):
    _mixed_pool(pool)
    half = Condition("mtl-insight@pool0.5-s1", ("insight",), pool_fraction=0.5, seed=1)
    store = ResultStore(tmp_path / "results.jsonl")
    snapshots = tmp_path / "snapshots"
    run_condition(
        half,
        [TinyDomain("alpha")],
        model=scripted(default=solve_tiny),
        pool=pool,
        store=store,
        attempts=1,
        split="all",
        step_limit=4,
        k=3,
        snapshot_dir=snapshots,
    )
    manifest = json.loads((snapshots / "manifest.json").read_text())[half.name]
    assert manifest["memories"] == 8  # half of 16
    kept = [json.loads(line)["record"]["id"] for line in (snapshots / manifest["file"]).open()]
    receipts = {rc["id"] for row in store.rows() for rc in row["receipts"]}
    assert receipts
    assert receipts <= set(kept)
    assert pool.count() == 16  # the base pool is untouched
    again = condition_pool(pool, half)
    assert sorted(r.id for r in again.list_records()) == sorted(kept)  # same seed, same share
    other = condition_pool(pool, Condition("x", ("insight",), pool_fraction=0.5, seed=2))
    assert sorted(r.id for r in other.list_records()) != sorted(kept)


def test_source_domain_count_draws_that_many_domains_never_the_target(pool, scripted, tmp_path):
    _mixed_pool(pool)
    one = Condition("mtl-insight@sources1-s0", ("insight",), source_count=1)
    store = ResultStore(tmp_path / "results.jsonl")
    run_condition(
        one,
        [TinyDomain("alpha")],
        model=scripted(default=solve_tiny),
        pool=pool,
        store=store,
        attempts=1,
        split="all",
        step_limit=4,
        k=3,
    )
    rows = list(store.rows())
    (drawn,) = {tuple(r["source_domains"]) for r in rows}
    assert len(drawn) == 1
    assert drawn[0] != "alpha"
    assert {rc["domain"] for r in rows for rc in r["receipts"]} == {drawn[0]}
    assert all(r["tokens"] > 0 and r["settings"]["source_count"] == 1 for r in rows)
    assert choose_sources(one, "beta", ["alpha", "beta", "gamma"]) != ("beta",)


@pytest.mark.slow
def test_abstraction_reweighting_prefers_domain_invariant_memories(pool):
    _mixed_pool(pool)
    assert annotate_abstraction(pool) == 16
    scores = {r.id: r.flags["abstraction"] for r in pool.list_records()}
    assert all(-1e-6 <= s <= 1 + 1e-6 for s in scores.values())
    task = "write the number to out.txt"
    candidates = retrieve_memories(pool, task, domain="alpha", k=9, memory_types=["insight"])
    invariant = candidates[-1].record.id  # the least similar of the 3k candidates ...
    for hit in candidates:  # ... is made the only domain-invariant one
        pool.update_flags(hit.record.id, {"abstraction": float(hit.record.id == invariant)})
    plain = retrieve_memories(pool, task, domain="alpha", k=3, memory_types=["insight"])
    weighted = retrieve_memories(
        pool,
        task,
        domain="alpha",
        k=3,
        memory_types=["insight"],
        scorers=condition_scorers(Condition("w", ("insight",), abstraction_weight=100.0)),
    )
    assert invariant not in {h.record.id for h in plain}
    assert weighted[0].record.id == invariant
    assert all(h.record.domain != "alpha" for h in weighted)


def test_conditions_and_sweeps_resolve_by_name_and_reject_unknown_ones():
    chosen = resolve_conditions("zero-shot", "retrieval")
    assert [c.name for c in chosen][:2] == ["zero-shot", "mtl-insight@embedding"]
    assert len(chosen) == 4  # zero-shot is not repeated
    assert {c.pool_fraction for c in SWEEPS["pool-size"]} == {0.25, 0.5, 0.75, 1.0}
    with pytest.raises(ValueError, match="unknown sweep 'size'"):
        resolve_conditions("", "size")
    with pytest.raises(ValueError, match="unknown condition 'mtl-everything'"):
        resolve_conditions("mtl-everything")
    with pytest.raises(ValueError, match="pool_fraction"):
        Condition("bad", ("insight",), pool_fraction=0)
    with pytest.raises(ValueError, match=r"fixed:/nowhere/given\.jsonl: no such file"):
        resolve_conditions("zero-shot,fixed:/nowhere/given.jsonl")  # before any model starts


def test_without_a_key_nothing_goes_to_langsmith(stocked, scripted, tmp_path, monkeypatch):
    import langsmith

    for key in ("LANGSMITH_API_KEY", "LANGCHAIN_API_KEY"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setattr(langsmith, "evaluate", lambda *a, **k: pytest.fail("network used"))
    store = ResultStore(tmp_path / "results.jsonl")
    _run("zero-shot", "alpha", scripted(default=solve_tiny), stocked, store, attempts=1)
    assert len(list(store.rows())) == 4


def test_memory_generation_resumes_skipping_tasks_already_in_the_pool(pool, scripted):
    domain = TinyDomain("alpha")
    first = scripted(default=solve_tiny)
    written = generate_memories(
        [domain], model=first, pool=pool, limit=1, memory_types=["trajectory"], step_limit=3
    )
    assert written == 1
    assert {r.task_id for r in pool.list_records()} == {domain.tasks("source")[0].task_id}
    again = scripted(default=solve_tiny)
    assert (
        generate_memories(
            [domain], model=again, pool=pool, limit=2, memory_types=["trajectory"], step_limit=3
        )
        == 1
    )
    assert pool.count() == 2
    assert len(again.calls) < len(first.calls) * 2


def test_report_draws_the_pool_size_scaling_curve_from_sweep_settings(tmp_path):
    store = ResultStore(tmp_path / "r.jsonl")
    for condition in SWEEPS["pool-size"]:
        share = condition.pool_fraction  # pass rate grows with the pool in this made-up run
        for task in range(4):
            store.add(
                {
                    "condition": condition.name,
                    "domain": "python",
                    "task_id": f"t{task}",
                    "attempt": 0,
                    "passed": task < 4 * share,
                    "seconds": 1.0,
                    "steps": 2,
                    "tokens": 100,
                    "settings": condition.record(),
                }
            )
    points = scaling_points(list(store.rows()), k=1)
    assert list(points) == ["pool"]
    assert points["pool"] == {0.25: [0.25] * 3, 0.5: [0.5] * 3, 0.75: [0.75] * 3, 1.0: [1.0]}
    report = write_report(store.path, out_dir=tmp_path / "out", k=1).read_text()
    assert "## Scaling" in report
    assert "| pool | 0.25 | 0.250, 0.250, 0.250 |" in report
    assert "| mtl-insight | 4 | 1.0 | 2.0 | 100 |" in report
    assert (tmp_path / "out" / "scaling.png").stat().st_size > 1000


def test_the_held_out_project_is_none_of_the_development_projects():
    from langgraph_mtl_experiments.repo_domain import HeldOutRepoDomain, RepoDomain

    held = {p.package.name for p in HeldOutRepoDomain.projects}
    assert held == {"more-itertools"}
    assert not held & {p.package.name for p in RepoDomain.projects}
    assert get_domain("repo-heldout").name == "repo-heldout"


def test_repo_mutants_are_single_token_swaps_in_code_only():
    source = 'def f(a, b):\n    """a < b"""\n    return a < b and b != 0  # x + 1\n'
    found = mutants("demo", "demo.py", source)
    assert [(m.old, m.new) for m in found] == [("<", "<="), ("and", "or"), ("!=", "=="), ("0", "1")]
    assert found[0].apply(source).splitlines()[2] == "    return a <= b and b != 0  # x + 1"


@pytest.mark.toolchain
@pytest.mark.parametrize("name", ["repo", "repo-heldout"])
def test_repo_loader_plants_caught_bugs_and_refuses_edited_tests(tmp_path, name):
    domain = get_domain(name)
    (task,) = domain.tasks("eval", limit=1)
    assert task.check.startswith("python -m pytest -x -q ")  # declared, for the agent
    assert "fails:" in task.instruction
    assert "FAILED" in task.instruction or "Error" in task.instruction
    assert "`python -m pytest -x -q" in task.instruction  # no path of this machine
    seen = Sandbox(tmp_path, mode="none", env=task.env).run(
        "python -c 'import sys, pytest; print(sys.prefix)'"
    )
    assert sys.prefix in seen.output, seen.output  # the Python the tests are checked with
    assert domain.check(task, task.reference).passed
    assert not domain.check(task, task.wrong).passed
    tests = next(p for p in task.protected if "test" in p.rsplit("/", 1)[-1])
    assert tests not in task.verifier.solution_files  # never taken from the workspace
    cheat = {**task.wrong, tests: "def test_nothing():\n    pass\n"}
    assert not domain.check(task, cheat).passed
    assert task.task_id not in {t.task_id for t in domain.tasks("source", limit=1)}


def test_a_domain_whose_verifier_cannot_run_here_says_so_and_caches_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("MTL_HOME", str(tmp_path))

    class Broken(TinyDomain):
        def candidates(self):
            return [
                Task(
                    domain=self.name,
                    task_id="b-0",
                    instruction="i",
                    files={},
                    verifier=CommandCheck("no-such-compiler --check", ("a.txt",)),
                    reference={"a.txt": "x"},
                    wrong={},
                )
            ]

        all_tasks = Domain.all_tasks

    with pytest.raises(
        RuntimeError, match=r"broken: no reference solution passes(.|\n)*no-such-compiler"
    ):
        Broken("broken").all_tasks()
    assert not list((tmp_path / "cache").glob("broken-verified*.json"))


def test_stored_results_name_no_path_of_this_machine(tmp_path, monkeypatch):
    from pathlib import Path

    from langgraph_mtl_experiments.runner import ResultStore

    home = tmp_path / "state"
    monkeypatch.setenv("MTL_HOME", str(home))
    store = ResultStore(tmp_path / "results.jsonl")
    trace = f'File "{home}/envs/data/lib/site.py", line 3\nFile "{Path.home()}/x.py"'
    store.add(
        {
            "condition": "c",
            "domain": "d",
            "task_id": "t",
            "attempt": 0,
            "passed": False,
            "verification": trace,
        }
    )
    text = (tmp_path / "results.jsonl").read_text()
    assert str(home) not in text
    assert f"{Path.home()}/" not in text
    (row,) = store.rows()
    assert row["verification"] == 'File "$MTL_HOME/envs/data/lib/site.py", line 3\nFile "~/x.py"'


def test_the_trace_kept_in_results_rows_holds_no_secret_even_across_its_cut():
    from langgraph_mtl_experiments.attempts import brief_trace

    key = "sk-proj-" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"
    steps = [
        {"thought": "", "action": "cat .env", "observation": "x" * 220 + f" key={key}"},
        {"thought": "", "action": f"curl -H 'Authorization: Bearer {key}' host", "observation": ""},
    ]
    shown = json.dumps(brief_trace(steps))
    assert "sk-proj-" not in shown and key[8:20] not in shown
    assert "[REDACTED:" in shown
    assert brief_trace(steps)[0][1].startswith("x" * 220)  # the rest stays readable
