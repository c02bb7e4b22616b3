"""LangSmith through the real SDK against a loopback server that records every byte (see
``tests/langsmith_server.py``): traces nest, no planted secret leaves the process, experiments
match the results and a resume adds to them, a dead endpoint costs seconds, no key sends
nothing. Each case runs in a process of its own (``tests/langsmith_cases.py``)."""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from langsmith_cases import SECRETS
from langsmith_server import serving

pytestmark = pytest.mark.slow  # seconds each: the full suite runs them, not test-unit

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = str(ROOT / "examples" / "drop_in_nodes.py")
CASES = ROOT / "tests" / "langsmith_cases.py"


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LANGSMITH_", "LANGCHAIN_"))}
    env.update(extra)
    return env


def test_keyless_tracing_request_is_silent():
    env = _env(LANGSMITH_TRACING="true")
    proc = subprocess.run(
        [sys.executable, EXAMPLE], env=env, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    assert "pool now holds 3 memories" in proc.stdout
    assert "langsmith" not in proc.stderr.lower()
    assert "api.smith" not in proc.stderr


def _case(case: str, out: Path, url: str | None, *, key: bool = True) -> tuple[dict, float]:
    """Run one case of ``tests/langsmith_cases.py`` in a process of its own; its result (with
    what it printed to stderr) and wall time."""
    env = _env(MTL_HOME=str(out / "home"))
    if url is not None:
        env.update(LANGSMITH_TRACING="true", LANGSMITH_ENDPOINT=url)
        if key:
            env["LANGSMITH_API_KEY"] = "lsv2_pt_test"
    started = time.monotonic()
    proc = subprocess.run(
        [sys.executable, str(CASES), case, str(out)],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    seconds = time.monotonic() - started
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "Traceback" not in proc.stderr, proc.stderr[-3000:]
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    return {**result, "stderr": proc.stderr}, seconds


@pytest.mark.integration  # a real LangSmith SDK against a loopback server
@pytest.mark.parametrize("case", ["drop-in", "agent", "experiment"])
def test_no_planted_secret_reaches_langsmith_in_any_byte(case, tmp_path):
    with serving("ok") as (url, server):
        _case(case, tmp_path, url)
    sent = "\n".join(r["path"] + "\n" + r["body"] for r in server.requests)
    assert any(r["path"].startswith("/runs/multipart") for r in server.requests)
    for secret in SECRETS:
        assert secret not in sent, f"{secret[:8]}... was sent"
    assert "[REDACTED:" in sent  # what held a secret was sent, redacted


@pytest.mark.integration  # a real LangSmith SDK against a loopback server
def test_runs_nest_under_one_root_per_graph_call(tmp_path):
    with serving("ok") as (url, server):
        _case("drop-in", tmp_path, url)
    runs = list(server.runs.values())
    roots = [r for r in runs if not r.get("parent_run_id")]
    assert [r.get("name") for r in roots] == ["LangGraph"]
    names = {r.get("name") for r in runs}
    assert {"retrieve_memories", "write_memory", "mtl.abstract_run"} <= names
    assert all(r.get("trace_id") == roots[0]["id"] for r in runs)


@pytest.mark.integration  # a real LangSmith SDK against a loopback server
def test_an_experiment_is_one_langsmith_experiment_per_condition_and_domain_and_a_resume_adds_to_it(
    tmp_path,
):
    with serving("ok") as (url, server):
        first, _ = _case("experiment", tmp_path, url)
        sessions = {s["name"] for s in server.sessions.values()}
        feedback = len(server.feedback)
        again, _ = _case("experiment", tmp_path, url)  # every attempt is stored: replayed
        assert {s["name"] for s in server.sessions.values()} == sessions  # no new experiment
        assert len(server.feedback) == feedback  # and nothing uploaded twice
    conditions = {s["extra"]["metadata"]["condition"] for s in server.sessions.values()}
    assert conditions == {"zero-shot", "mtl-insight"}
    assert {name.rsplit("-", 1)[0] for name in sessions} == {"zero-shot-alpha", "mtl-insight-alpha"}
    assert len(first["experiments"]) == 2 and again["experiments"] == first["experiments"]
    datasets = [d["name"] for d in server.datasets.values()]
    assert datasets == ["mtl-alpha"]
    assert len(server.examples) == 4  # one per task, made once
    rows = [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()]
    assert len(rows) == 8
    scores = sorted(int(f["score"]) for f in server.feedback if f.get("key") == "verified")
    assert scores == sorted(int(r["passed"]) for r in rows)
    targets = [r for r in server.runs.values() if r.get("name") == "Target"]
    assert len(targets) == 8 and all(r.get("reference_example_id") for r in targets)


def _closed_port() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{sock.getsockname()[1]}"  # nothing listens there now


@pytest.fixture(scope="module")
def offline_seconds(tmp_path_factory) -> tuple[float, float]:
    """How long the drop-in and the experiment case take with tracing off: measured once for
    every dead endpoint's comparison."""
    base = tmp_path_factory.mktemp("offline")
    return _case("drop-in", base / "drop-in", None)[1], _case("experiment", base / "x", None)[1]


@pytest.mark.integration  # a real LangSmith SDK against a loopback server
@pytest.mark.parametrize(
    ("mode", "says"),
    [
        ("refused", "is not answering (connection refused)"),
        ("500", "is not answering (HTTP 500)"),
        ("hang", "is not answering (no answer in 3 s)"),
        ("401", "refused the API key (HTTP 401): check LANGSMITH_API_KEY"),
        ("404", "takes no traces (HTTP 404 for "),
    ],
)
def test_a_dead_endpoint_costs_at_most_a_few_seconds_and_is_said_once(
    mode, says, tmp_path, offline_seconds
):
    offline, offline_experiment = offline_seconds
    with contextlib.ExitStack() as stack:
        if mode == "refused":
            url = _closed_port()
        else:
            url, _ = stack.enter_context(serving(mode))
        dropped, traced = _case("drop-in", tmp_path / "traced", url)
        result, traced_experiment = _case("experiment", tmp_path / "traced-x", url)
    # a few seconds more than the run without tracing (half as much again on a loaded
    # machine, where the run itself is slower); the SDK's own retries would take minutes
    assert traced - offline <= 5 + offline / 2, (traced, offline)
    assert traced_experiment - offline_experiment <= 10 + offline_experiment / 2, (
        traced_experiment,
        offline_experiment,
    )
    assert result["rows"] == 8  # the experiment went on locally
    for said in (dropped["stderr"], result["stderr"]):  # one line, and nothing else about it
        lines = [line for line in said.splitlines() if "langsmith" in line.lower()]
        assert len(lines) == 1 and "tracing is off for the rest of this run" in lines[0], said
        assert f"LangSmith at 127.0.0.1:{url.rsplit(':', 1)[1]} {says}" in lines[0], said


@pytest.mark.integration  # a real LangSmith SDK against a loopback server
def test_without_a_key_nothing_is_sent(tmp_path):
    with serving("ok") as (url, server):
        _case("drop-in", tmp_path / "a", url, key=False)
        _case("agent", tmp_path / "b", url, key=False)
        proc = subprocess.run(
            [sys.executable, str(ROOT / "examples" / "native_surfaces.py")],
            env=_env(LANGSMITH_TRACING="true", LANGSMITH_ENDPOINT=url, MTL_HOME=str(tmp_path)),
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert proc.returncode == 0, proc.stderr
    assert server.requests == []


@pytest.mark.parametrize(
    ("module", "name"),
    [
        ("langgraph_mtl.transfer.retrieval", "retrieve_memories"),
        ("langgraph_mtl.transfer.retrieval", "build_query"),
        ("langgraph_mtl.transfer.retrieval", "rerank"),
        ("langgraph_mtl.transfer.abstraction", "abstract_run"),
        ("langgraph_mtl.transfer.abstraction", "judge_outcome"),
    ],
)
def test_the_memory_layers_entry_points_are_the_traced_functions(module, name):
    function = getattr(importlib.import_module(module), name)
    assert function.__wrapped__.__name__ == name  # the decorator sits on this very function


@pytest.mark.integration  # a real LangSmith SDK against a loopback server, a Ray cluster
def test_attempts_on_ray_workers_fill_the_same_experiments_nested_and_redacted(tmp_path):
    pytest.importorskip("ray")
    with serving("ok") as (url, server):
        result, _ = _case("experiment-ray", tmp_path, url)
    assert result["rows"] == 8 and len(result["experiments"]) == 2
    sent = "\n".join(r["path"] + "\n" + r["body"] for r in server.requests)
    for secret in SECRETS:
        assert secret not in sent, f"{secret[:8]}... was sent"
    runs = server.runs
    targets = {i for i, r in runs.items() if r.get("name") == "Target"}
    assert len(targets) == 8
    graphs = [r for r in runs.values() if r.get("name") == "LangGraph"]
    assert len(graphs) == 8  # each attempt's run, traced in a worker,
    assert all(r.get("parent_run_id") in targets for r in graphs)  # under its example's
