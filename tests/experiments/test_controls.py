"""The controls every memory condition is measured against: a placebo (memories drawn at random
from the same pool), memories given per task from a file (the oracle probe), a cap on how often
one memory is given, and trajectories shown short but whole."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from helpers import TinyDomain, make_record, solve_tiny
from langgraph_mtl_experiments import CONDITIONS, ResultStore, run_condition
from langgraph_mtl_experiments.conditions import Condition, resolve_conditions
from langgraph_mtl_experiments.given import read_given_file
from langgraph_mtl_experiments.tasks import Task
from langgraph_mtl_experiments.twin_map import TwinMap, load_twin_map
from langgraph_mtl_experiments.twins import write_answer_file, write_oracle_file

from langgraph_mtl import MemoryRecord, MemoryType
from langgraph_mtl.pool.reports import ScoredMemory
from langgraph_mtl.transfer.retrieval import render_memory_block


def _stock(pool) -> None:
    pool.upsert(
        [
            make_record(d, f"{d}-{i}", f"write the number to out.txt ({d} {d}-{i})")
            for d in ("alpha", "beta", "gamma")
            for i in range(6)
        ]
    )


def _rows(
    condition: Condition, pool, scripted, tmp_path, *, attempts: int = 1, model=None
) -> list[dict]:
    store = ResultStore(tmp_path / f"{condition.name}.jsonl")
    run_condition(
        condition,
        [TinyDomain("alpha")],
        model=model or scripted(default=solve_tiny),
        pool=pool,
        store=store,
        attempts=attempts,
        split="all",
        step_limit=4,
    )
    return list(store.rows())


@pytest.mark.slow
def test_a_placebo_gives_k_seeded_memories_from_other_domains_never_the_task(
    pool, scripted, tmp_path
):
    _stock(pool)
    placebo = CONDITIONS["placebo-insight"]
    first = _rows(placebo, pool, scripted, tmp_path / "a", attempts=2)
    again = _rows(placebo, pool, scripted, tmp_path / "b", attempts=2)
    assert [r["receipts"] for r in first] == [r["receipts"] for r in again]  # seeded
    given = [rc for r in first for rc in r["receipts"]]
    assert len(given) == 4 * 2 * 3  # k for each of 4 tasks x 2 attempts
    assert all(rc["domain"] in ("beta", "gamma") for rc in given)
    by_attempt = [tuple(rc["id"] for rc in r["receipts"]) for r in first]
    assert len(set(by_attempt)) > 1  # drawn per task and attempt, not one fixed set
    assert all(-1 <= rc["similarity"] <= 1 for rc in given)


def test_a_file_gives_each_task_its_own_memories(pool, scripted, tmp_path):
    _stock(pool)
    oracle = tmp_path / "oracle.jsonl"
    oracle.write_text(
        json.dumps(
            {
                "task_id": "alpha-1",
                "memories": [
                    {"content": "The answer is the number the task names.", "domain": "beta"}
                ],
            }
        )
        + "\n"
    )
    (condition,) = resolve_conditions(f"fixed:{oracle}")
    assert condition.name == "fixed-oracle"
    rows = {r["task_id"]: r for r in _rows(condition, pool, scripted, tmp_path)}
    assert [rc["domain"] for rc in rows["alpha-1"]["receipts"]] == ["beta"]
    assert all(rows[t]["receipts"] == [] for t in ("alpha-0", "alpha-2", "alpha-3"))


@pytest.mark.slow
def test_no_memory_is_given_in_more_than_its_share_of_the_attempts(pool, scripted, tmp_path):
    _stock(pool)
    uncapped = Condition("mtl-insight-uncapped", ("insight",), strategy="task")
    capped = Condition("mtl-insight-capped", ("insight",), strategy="task", max_share=0.25)
    free = Counter(
        rc["id"]
        for r in _rows(uncapped, pool, scripted, tmp_path / "u", attempts=2)
        for rc in r["receipts"]
    )
    held = Counter(
        rc["id"]
        for r in _rows(capped, pool, scripted, tmp_path / "c", attempts=2)
        for rc in r["receipts"]
    )
    assert max(free.values()) > 2  # without the cap, the nearest memories come back every time
    assert max(held.values()) <= 2  # 8 attempts x 0.25


def test_a_long_trajectory_is_shown_short_but_whole():
    steps = []
    for n in range(1, 9):
        code = "return a - b" if n < 8 else "return a + b"
        steps += [
            f"Step {n} action: write_file add.py\ndef add(a, b):\n    {code}",
            f"Step {n} observation: [wrote add.py]",
        ]
    steps += ["Step 9 action: python3 check.py", "Step 9 observation: " + "ok\n" * 3]
    content = "Task: write add.py\n" + "\n".join(steps) + "\n" + "Traceback noise\n" * 200
    record = MemoryRecord(
        id="t1", memory_type=MemoryType.TRAJECTORY, domain="python", task_id="t", key="k",
        content=content,
    )  # fmt: skip
    block = render_memory_block([ScoredMemory(record, 0.5)], max_tokens=300)
    assert "return a + b" in block  # the last file it wrote, whole
    assert "return a - b" not in block  # not the first, buggy attempt
    assert "Step 9 action: python3 check.py" in block  # and its last check
    assert "earlier steps left out" in block


def _task(domain, task_id, problem, solution=""):
    return Task(
        domain=domain,
        task_id=task_id,
        instruction="Implement the function in the file.",
        files={},
        verifier=None,
        problem=problem,
        reference={"solution": solution} if solution else {},
    )


class _Fixed:
    def __init__(self, name, tasks):
        self.name, self._tasks = name, tasks

    def tasks(self, split):
        return self._tasks

    def all_tasks(self):
        return self._tasks


_TWINS = TwinMap.from_json({"twins": {"rust:R/1": ["python:HE/2"], "rust:R/2": ["python:HE/3"]}})


def test_twins_come_from_the_map_both_ways_and_a_malformed_map_is_named():
    assert _TWINS.twins_of("rust", "R/1") == ("HE/2",)
    assert _TWINS.twins_of("python", "HE/2") == ("R/1",)
    assert _TWINS.twins_of("python", "HE/9") == ()
    for bad in ({"twins": {"R/1": ["python:HE/2"]}}, {"twins": {"rust:R/1": "python:HE/2"}}, {}):
        with pytest.raises(ValueError, match="twin map"):
            TwinMap.from_json(bad)


def test_the_oracle_file_gives_each_task_its_mapped_twins_reference_not_a_look_alike(tmp_path):
    python = _Fixed(
        "python",
        [
            _task("python", "HE/2", '"""Return maximum element in the list."""', "def f(): 1"),
            # the same words, but not the twin the map names: never given
            _task("python", "HE/7", '"""Return maximum element in the list."""', "def g(): 2"),
        ],
    )
    rust = _Fixed("rust", [_task("rust", "R/1", "// Return maximum element.\nfn maximum() {")])
    path = tmp_path / "oracle.jsonl"
    assert write_oracle_file(rust, python, path, twins=_TWINS) == 1
    (memory,) = read_given_file(path)["R/1"]
    assert memory.domain == "python" and memory.task_id == "HE/2"
    assert "def f(): 1" in memory.content and "def g()" not in memory.content


def test_the_answer_file_gives_each_task_its_own_solution(tmp_path):
    python = _Fixed("python", [_task("python", f"HE/{i}", "p", f"def f(): {i}") for i in (1, 2)])
    path = tmp_path / "answers.jsonl"
    assert write_answer_file([python], path) == 2
    given = read_given_file(path)
    assert ["def f(): 1" in given["HE/1"][0].content, "def f(): 2" in given["HE/2"][0].content] == [
        True,
        True,
    ]
    assert given["HE/1"][0].task_id == "HE/1"


@pytest.mark.slow
def test_no_search_or_placebo_gives_a_task_a_memory_written_on_its_twin(pool, scripted, tmp_path):
    _stock(pool)  # alpha-i, beta-i, gamma-i for i < 6
    twins = TwinMap.from_json(
        {"twins": {f"alpha:alpha-{i}": [f"beta:beta-{i}", f"gamma:gamma-{i}"] for i in range(4)}}
    )
    for name in ("mtl-insight", "placebo-insight"):
        store = ResultStore(tmp_path / f"{name}.jsonl")
        run_condition(
            CONDITIONS[name],
            [TinyDomain("alpha")],
            model=scripted(default=solve_tiny),
            pool=pool,
            store=store,
            split="all",
            attempts=2,
            step_limit=4,
            k=6,
            twins=twins,
        )
        rows = list(store.rows())
        assert rows and all(r["receipts"] for r in rows)
        for row in rows:
            number = row["task_id"].split("-")[1]
            given = {rc["task_id"] for rc in row["receipts"]}
            assert not given & {f"beta-{number}", f"gamma-{number}"}, (name, row["task_id"], given)


def test_without_the_map_a_twin_would_be_given(pool, scripted, tmp_path):
    """The check above can fail: with no twins named, the twin's memory is among those found."""
    _stock(pool)
    store = ResultStore(tmp_path / "plain.jsonl")
    run_condition(
        CONDITIONS["mtl-insight"],
        [TinyDomain("alpha")],
        model=scripted(default=solve_tiny),
        pool=pool,
        store=store,
        split="all",
        attempts=1,
        step_limit=4,
        k=12,
        twins=TwinMap(),
    )
    given = {rc["task_id"] for r in store.rows() for rc in r["receipts"]}
    assert {"beta-0", "gamma-0"} <= given


@pytest.mark.toolchain
def test_the_committed_twin_map_names_every_rust_task_and_only_real_python_ones():
    from langgraph_mtl_experiments.domains import get_domain

    rust = {t.task_id for t in get_domain("rust").all_tasks()}
    python = {t.task_id for t in get_domain("python").all_tasks()}
    twins = load_twin_map()
    assert all(twins.twins_of("rust", task) for task in rust)
    named = {t for task in rust for t in twins.twins_of("rust", task)}
    assert named <= python and len(named) >= 0.9 * len(rust)


@pytest.mark.slow
def test_the_writes_ablation_keeps_memories_out_of_the_write_calls_only(pool, scripted, tmp_path):
    _stock(pool)

    def calls(name: str) -> tuple[list[str], list[str], list[dict]]:
        model = scripted(default=solve_tiny)
        rows = _rows(CONDITIONS[name], pool, scripted, tmp_path, model=model)
        texts = ["\n".join(str(m.content) for m in call) for call in model.calls]
        writes = [t for t in texts if "complete content of `out.txt`" in t]
        others = [t for t in texts if t not in writes]
        return writes, others, rows

    def given(text: str) -> bool:
        return "write the number to out.txt (" in text  # a stocked memory's content

    writes, others, rows = calls("mtl-insight-content")
    assert writes and all(given(t) for t in writes)
    assert all(r["agent"]["focused_memories"] for r in rows)
    writes, others, rows = calls("mtl-insight-content-no-writes")
    assert writes and not any(given(t) for t in writes)
    assert any(given(t) for t in others)  # still in the plan and the act loop
    assert all(r["receipts"] for r in rows)
    assert not any(r["agent"]["focused_memories"] for r in rows)
