"""Transfer experiments on one's own tasks (task files), one's own domains (entry points) and
one's own agent (a graph factory)."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from helpers import run_cli
from langgraph_mtl_experiments.task_files import TaskFileDomain, read_task_file

from langgraph_mtl.agent import (
    AgentContext,
    RetrievalConfig,
    SandboxConfig,
    WriterConfig,
    create_coding_agent,
)
from langgraph_mtl.agent.sandbox import bubblewrap_available
from langgraph_mtl.testing import ScriptedChatModel

pytestmark = pytest.mark.slow  # seconds each: the full suite runs them, not test-unit

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "own_tasks"
GOOD = {"id": "t1", "instruction": "Write a.txt holding 1.", "solution_files": ["a.txt"]}


@pytest.fixture
def own_tasks(tmp_path):
    """The example task file and its data, copied outside the repository."""
    target = tmp_path / "elsewhere" / "my-tasks"
    shutil.copytree(EXAMPLE, target)
    return target / "tasks.jsonl"


def _write(path: Path, rows: list[object]) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows))
    return path


def test_a_malformed_task_file_gets_one_line_per_bad_line_and_its_good_tasks_still_load(tmp_path):
    path = _write(
        tmp_path / "mine.jsonl",
        [
            {**GOOD, "verify": "grep -qx 1 a.txt"},
            "{not json",
            {**GOOD, "id": "t2"},  # no verify
            {**GOOD, "id": "t3", "verify": "true", "split": "test"},
            {**GOOD, "verify": "true"},  # t1 again
            {**GOOD, "id": "t 4", "verify": "true"},
            {**GOOD, "id": "t5", "verify": "true", "colour": "red"},
        ],
    )
    name, specs, problems = read_task_file(path)
    assert name == "mine"
    assert [s.id for s in specs] == ["t1"]
    assert problems == [
        "mine.jsonl:2: not JSON (Expecting property name enclosed in double quotes)",
        "mine.jsonl:3: verify: Field required",
        "mine.jsonl:4: split: Input should be 'source' or 'eval'",
        "mine.jsonl:5: id: 't1' appears twice",
        "mine.jsonl:6: id: String should match pattern '^[A-Za-z0-9_.:/@+-]+$'",
        "mine.jsonl:7: colour: Extra inputs are not permitted",
    ]


@pytest.mark.parametrize(
    ("field", "value", "why"),
    [
        ("solution_files", ["../outside.py"], "leaves the workspace through '..'"),
        ("solution_files", ["/etc/passwd"], "is absolute"),
        ("protected", ["tests/../../x"], "leaves the workspace through '..'"),
        ("files", {"../../escape.txt": "x"}, "leaves the workspace through '..'"),
        ("reference_files", {"/tmp/x.py": "x"}, "is absolute"),
        ("solution_files", [""], "is not a file path"),
    ],
)
def test_a_task_naming_a_path_outside_its_workspace_is_refused(tmp_path, field, value, why):
    bad = {**GOOD, "id": "bad", "verify": "true", field: value}
    path = _write(tmp_path / "mine.jsonl", [bad, {**GOOD, "verify": "true"}])
    _, specs, problems = read_task_file(path)
    assert len(problems) == 1 and problems[0].startswith(f"mine.jsonl:1: {field}")
    assert why in problems[0] and "name a path inside the workspace" in problems[0]
    assert not (tmp_path.parent / "escape.txt").exists()
    assert [s.id for s in specs] == ["t1"]  # the good line still loads


def test_a_file_holding_no_task_is_an_error_naming_it_not_an_empty_domain(tmp_path, capsys):
    path = _write(tmp_path / "notes.jsonl", ["root:x:0:0:root:/root:/bin/bash", "{}"])
    with pytest.raises(ValueError, match="holds no task"):
        TaskFileDomain(path)
    result = run_cli(
        capsys, "experiment", "run", "--out", str(tmp_path / "out"), "--tasks", str(path)
    )
    assert result.code == 2
    assert f"--tasks: {path} holds no task: 2 malformed lines (first: notes.jsonl:1: not JSON" in (
        result.err
    )
    assert not (tmp_path / "out").exists()


def test_preparing_a_workspace_never_writes_outside_it(tmp_path):
    from langgraph_mtl_experiments.tasks import Task

    task = Task("d", "t", "i", {"../escape.txt": "x"}, verifier=None)  # type: ignore[arg-type]
    ws = tmp_path / "ws"
    ws.mkdir()
    with pytest.raises(ValueError, match="leaves the workspace"):
        task.prepare(ws)
    assert not (tmp_path / "escape.txt").exists()


def test_each_task_is_checked_when_first_used_and_dropped_with_the_reason(
    tmp_path, monkeypatch, caplog
):
    monkeypatch.setenv("MTL_HOME", str(tmp_path / "home"))
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "answer").write_text("42\n")
    path = _write(
        tmp_path / "checks.jsonl",
        [
            {"domain": "checked"},
            {**GOOD, "id": "ok", "verify": 'cmp a.txt "$TASK_DATA/data/answer"',
             "reference_files": {"a.txt": "42\n"}},
            {**GOOD, "id": "lenient", "verify": "true"},
            {**GOOD, "id": "broken-setup", "verify": "false", "setup": "exit 3"},
            {**GOOD, "id": "wrong-reference", "verify": "grep -qx 42 a.txt",
             "reference_files": {"a.txt": "41\n"}},
            {**GOOD, "id": "bad-patch", "verify": "grep -qx 42 a.txt", "reference": "garbage"},
        ],
    )  # fmt: skip
    domain = TaskFileDomain(path)
    assert domain.name == "checked"
    with caplog.at_level(logging.WARNING):
        usable = [t.task_id for t in domain.tasks("all")]
    assert usable == ["ok"]
    said = caplog.text
    assert "task lenient dropped: verify passes on the untouched workspace" in said
    assert "task broken-setup dropped: its setup fails" in said
    assert "task wrong-reference dropped: its reference does not pass verify" in said
    assert "task bad-patch dropped: its reference patch does not apply" in said


def test_the_example_tasks_check_out(own_tasks, tmp_path, monkeypatch):
    monkeypatch.setenv("MTL_HOME", str(tmp_path / "home"))
    domain = TaskFileDomain(own_tasks)
    assert domain.name == "own-examples"
    assert sorted(t.task_id for t in domain.all_tasks()) == [
        "calc-add",
        "config-port",
        "count-words",
        "slugify-lower",
        "sum-amounts",
    ]
    assert {t.task_id for t in domain.tasks("source")} == {"slugify-lower", "sum-amounts"}


def _scripted_chat(monkeypatch):
    import langgraph_mtl.cli.resources

    @contextlib.contextmanager
    def fake_model(spec, *, parallel=1, temperature=None):
        yield ScriptedChatModel(default="```bash\nsubmit\n```")

    monkeypatch.setattr(langgraph_mtl.cli.resources, "chat_model", fake_model)


def test_a_task_file_outside_the_repository_runs_through_mtl_with_a_pool_of_the_built_in_domains(
    own_tasks, tmp_path, monkeypatch, capsys
):
    monkeypatch.setenv("MTL_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    snapshot = ROOT / "experiments" / "results" / "4-domains-0.5b" / "pool-snapshot.jsonl"
    pool = tmp_path / "pool"  # what a run on four built-in domains remembered
    made = run_cli(
        capsys, "pool", "import", str(snapshot), "--pool", str(pool), "--collection", "experiment"
    )
    assert made.code == 0, made.err
    _scripted_chat(monkeypatch)
    out = tmp_path / "run"
    args = ["experiment", "run", "--out", str(out), "--tasks", str(own_tasks), "--domains", ""]
    args += ["--conditions", "zero-shot,mtl-insight", "--pool", str(pool), "--attempts", "1"]
    result = run_cli(capsys, *args, "--limit", "3", "--unsafe-no-sandbox")
    assert result.code == 0, result.err
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert {(r["condition"], r["domain"]) for r in rows} == {
        ("zero-shot", "own-examples"),
        ("mtl-insight", "own-examples"),
    }
    assert len(rows) == 6
    given = {r["domain"] for row in rows for r in row["receipts"]}
    assert given and given <= {"python", "rust", "verilog", "shell"}  # the built-in domains'
    report = (out / "report.md").read_text()
    assert "own-examples" in report and "mtl-insight" in report


def test_memories_given_from_a_file_need_no_memory_generation(
    own_tasks, tmp_path, monkeypatch, capsys
):
    import langgraph_mtl_experiments.runner

    def refuse(*args, **kwargs):
        raise AssertionError("phase 1 ran although no condition takes memories from the pool")

    monkeypatch.setattr(langgraph_mtl_experiments.runner, "generate_memories", refuse)
    monkeypatch.setenv("MTL_HOME", str(tmp_path / "home"))
    _scripted_chat(monkeypatch)
    given = tmp_path / "given.jsonl"
    memory = {"content": "Check the result before submitting.", "domain": "python"}
    given.write_text(json.dumps({"task_id": "calc-add", "memories": [memory]}) + "\n")
    out = tmp_path / "run"
    args = ["experiment", "run", "--out", str(out), "--tasks", str(own_tasks), "--domains", ""]
    args += ["--conditions", f"zero-shot,fixed:{given}", "--attempts", "1", "--limit", "3"]
    result = run_cli(capsys, *args, "--unsafe-no-sandbox")
    assert result.code == 0, result.err
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert {r["condition"] for r in rows} == {"zero-shot", "fixed-given"}
    assert {
        r["task_id"]: [m["domain"] for m in r["receipts"]]
        for r in rows
        if r["condition"] == "fixed-given"
    }["calc-add"] == ["python"]


@pytest.fixture
def outside_tmp():
    """A folder outside /tmp (which the sandbox replaces anyway), removed afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="mtl-hidden-", dir="/var/tmp"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.skipif(not bubblewrap_available(), reason="hiding needs bubblewrap")
@pytest.mark.parametrize("how", ["task files' folder", "--hide path"])
def test_the_agent_cannot_read_the_task_files_folder_or_a_hidden_path(how, outside_tmp, tmp_path):
    tasks = outside_tmp / "my-tasks"
    shutil.copytree(EXAMPLE, tasks)
    secret = tasks / "data" / "calc" / "calc.py"
    hidden = outside_tmp / "answers"
    hidden.mkdir()
    (hidden / "key.txt").write_text("the answer is 42\n")
    target = secret if how == "task files' folder" else hidden / "key.txt"
    command = f"cat {target}; ls {target.parent}; cat {target.parent.parent}/*"
    model = ScriptedChatModel(
        replies=["plan", f"```bash\n{command}\n```"], default="```bash\nsubmit\n```"
    )
    graph = create_coding_agent(
        model,
        pool=lambda: None,
        retrieval=RetrievalConfig(memory_types="insight", strategy="task"),
        writer=WriterConfig(memory_types="trajectory"),
        sandbox=SandboxConfig(mode="bwrap", hide=(str(tasks), str(hidden))),
        actions="text",
    ).compile()
    out = graph.invoke(
        {"task": "look around"},
        context=AgentContext(
            domain="d", task_id="t", workspace=str(tmp_path / "ws"), retrieve=False, write=False
        ),
    )
    seen = out["trajectory"][0]["observation"]
    assert "return a - b" not in seen and "the answer is 42" not in seen, seen
    assert "test_calc.py" not in seen, seen  # not even listed
    assert target.read_text()  # it is there, outside the sandbox


def test_an_installed_package_adds_a_domain_through_the_entry_point(tmp_path):
    """A distribution outside the repository (its metadata on the path, as pip installs it)."""
    site = tmp_path / "site"
    package = site / "extra_domains"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(
        "from langgraph_mtl_experiments import Domain\n\n"
        "class Katas(Domain):\n"
        '    """Code katas of our team: small refactorings."""\n\n'
        '    name = "katas"\n\n'
        "    def candidates(self):\n"
        "        return []\n"
    )
    info = site / "extra_domains-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: extra-domains\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[langgraph_mtl.domains]\nkatas = extra_domains:Katas\n")
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")]),
    }
    listing = (
        "from langgraph_mtl.cli import main; raise SystemExit(main(['experiment', 'domains']))"
    )
    done = subprocess.run(
        [sys.executable, "-c", listing], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "katas" in done.stdout and "extra-domains" in done.stdout
    assert "Code katas of our team" in done.stdout
    assert "python" in done.stdout  # the built-in ones register the same way
    loaded = (
        "from langgraph_mtl_experiments.domains import get_domain; print(get_domain('katas').name)"
    )
    done = subprocess.run(
        [sys.executable, "-c", loaded], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.stdout.strip() == "katas", done.stderr


def test_a_custom_graph_runs_through_two_conditions(tmp_path):
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "custom_agent.py")],
        env={**os.environ, "MTL_HOME": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 6  # two conditions x the three evaluation tasks
    assert sum("passed=True" in line for line in lines) == 4
    assert {line.split()[0] for line in lines} == {"zero-shot", "mtl-insight"}
