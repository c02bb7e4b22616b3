"""A run's tasks are recorded once and taken from the record on every later invocation; the
recorded domain is still the domain it wraps (its kind sets the agent's steps)."""

from __future__ import annotations

from itertools import count

import pytest
from big_repo import json_action
from helpers import TinyDomain
from langgraph_mtl_experiments import CONDITIONS, ResultStore
from langgraph_mtl_experiments.attempts import AgentSettings
from langgraph_mtl_experiments.runner import run_condition
from langgraph_mtl_experiments.task_lists import (
    PinnedDomain,
    read_task_lists,
    write_task_lists,
)
from langgraph_mtl_experiments.tasks import Task


class Shifting(TinyDomain):
    """Twelve tasks; ``verified`` says which count as usable here, as verification would."""

    def __init__(self, verified: set[int]) -> None:
        super().__init__("alpha")
        self.verified = verified
        self.asked: list[int | None] = []

    def candidates(self) -> list[Task]:
        one = super().candidates()[0]
        return [
            Task(domain="alpha", task_id=f"t{i}", instruction=f"task {i}", files={},
                 verifier=one.verifier)
            for i in range(12)
        ]  # fmt: skip

    def tasks(self, split="all", *, limit=None, seed=0):
        self.asked.append(limit)
        usable = [t for t in self.candidates() if int(t.task_id[1:]) in self.verified]
        half = {"source": usable[0::2], "eval": usable[1::2], "all": usable}[split]
        return half if limit is None else half[:limit]


def ids(tasks):
    return [t.task_id for t in tasks]


def test_a_split_is_recorded_then_taken_from_the_record_where_other_tasks_verify():
    lists: dict[str, list[str]] = {}
    here = PinnedDomain(Shifting(set(range(12))), lists)
    assert ids(here.tasks("source", limit=3)) == ["t0", "t2", "t4"]
    assert ids(here.tasks("eval", limit=3)) == ["t1", "t3", "t5"]
    assert lists == {"source": ["t0", "t2", "t4"], "eval": ["t1", "t3", "t5"]}
    elsewhere = PinnedDomain(Shifting(set(range(12)) - {2}), lists)  # t2 fails to verify there
    assert ids(elsewhere.tasks("source", limit=3)) == ["t0", "t2", "t4"]
    assert ids(elsewhere.tasks("eval", limit=2)) == ["t1", "t3"]
    unpinned = Shifting(set(range(12)) - {2})
    assert ids(unpinned.tasks("eval", limit=2)) == ["t1", "t4"]  # what it would have used


def test_a_larger_limit_appends_tasks_no_split_has_recorded():
    lists = {"source": ["t0", "t2"], "eval": ["t1", "t3"]}
    elsewhere = PinnedDomain(Shifting(set(range(12)) - {2}), lists)
    # there the source split is t0 t3 t5 t7 ...: t3 is recorded as eval, so it is skipped
    assert ids(elsewhere.tasks("source", limit=4)) == ["t0", "t2", "t5", "t7"]
    assert lists["source"] == ["t0", "t2", "t5", "t7"]
    assert ids(elsewhere.tasks("eval", limit=3)) == ["t1", "t3", "t4"]
    assert not set(lists["source"]) & set(lists["eval"])
    assert ids(elsewhere.tasks("eval", limit=None))[:3] == ["t1", "t3", "t4"]


def test_a_recorded_task_the_data_set_lacks_is_named():
    lists = {"eval": ["t1", "gone"]}
    with pytest.raises(ValueError, match="gone"):
        PinnedDomain(Shifting(set(range(12))), lists).tasks("eval", limit=2)


def test_other_splits_and_seeds_are_not_pinned():
    lists = {"eval": ["t11"]}
    domain = PinnedDomain(Shifting(set(range(12))), lists)
    assert ids(domain.tasks("eval", limit=1, seed=1)) == ["t1"]
    assert len(domain.tasks("all")) == 12


def test_task_lists_round_trip_and_a_bad_file_is_named(tmp_path):
    path = tmp_path / "tasks.json"
    assert read_task_lists(path) == {}
    write_task_lists(path, {"alpha": {"eval": ["t1"]}})
    assert read_task_lists(path) == {"alpha": {"eval": ["t1"]}}
    path.write_text('{"alpha": ["t1"]}')
    with pytest.raises(ValueError, match="expected"):
        read_task_lists(path)
    path.write_text("{")
    with pytest.raises(ValueError, match="not JSON"):
        read_task_lists(path)
    path.unlink()
    path.mkdir()
    with pytest.raises(ValueError, match="cannot be read"):
        read_task_lists(path)


class Repository(TinyDomain):
    kind = "repository"
    data = ("pinned-wheel",)  # type: ignore[assignment]


def test_a_pinned_domain_keeps_its_kind_and_data():
    pinned = PinnedDomain(Repository("alpha"), {})
    assert (pinned.kind, pinned.data) == ("repository", ("pinned-wheel",))


def test_a_run_of_pinned_repository_tasks_takes_the_repository_steps(pool, scripted, tmp_path):
    n = count()  # a model that never submits, never repeats itself
    model = scripted("plan", default=lambda _: json_action("run", command=f"echo {next(n)}"))
    store = ResultStore(tmp_path / "results.jsonl")
    domain = PinnedDomain(Repository("alpha"), {})  # as the command line runs every domain
    agent = AgentSettings(steps=2, repository_steps=5)
    run_condition(
        CONDITIONS["zero-shot"], [domain], model=model, pool=pool, store=store, attempts=1,
        split="eval", limit=1, agent=agent,
    )  # fmt: skip
    assert [row["steps"] for row in store.rows()] == [5]
