"""The served graphs on the real LangGraph API server (`langgraph dev`), driven by the SDK."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from langgraph_sdk import get_sync_client

from langgraph_mtl import MemoryRecord, MemoryType, open_pool
from langgraph_mtl.memory.records import memory_id

pytestmark = pytest.mark.integration
ROOT = Path(__file__).resolve().parents[2]
RUST_LESSON = "Compile and run the tests after writing each function"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def api_server(local_server, tmp_path):
    pool_dir = tmp_path / "pool"
    seed = open_pool(str(pool_dir), collection="served")
    seed.upsert(
        MemoryRecord(
            id=memory_id("insight", "rust", "r1", "x"),
            memory_type=MemoryType.INSIGHT,
            domain="rust",
            task_id="r1",
            key=RUST_LESSON,
            content=RUST_LESSON,
        )
    )
    del seed
    # a project of its own: the repository's langgraph.json with absolute paths, and a .env
    # holding the settings, so the served graphs only get them if "env" is honoured
    config = json.loads((ROOT / "langgraph.json").read_text())
    assert config["env"] == ".env"
    config["dependencies"] = [str(ROOT)]
    config["graphs"] = {
        name: str(ROOT / target.removeprefix("./")) for name, target in config["graphs"].items()
    }
    project = tmp_path / "project"
    project.mkdir()
    (project / "langgraph.json").write_text(json.dumps(config))
    settings = {
        "MTL_MODEL": f"local:{local_server.base_url}",
        "MTL_POOL": str(pool_dir),
        "MTL_COLLECTION": "served",
        "MTL_HOME": str(tmp_path / "home"),
        "MTL_STEP_LIMIT": "2",  # the surfaces are under test here, not solving
    }
    (project / ".env").write_text("".join(f"{k}={v}\n" for k, v in settings.items()))
    port = _free_port()
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("LANGSMITH_", "LANGCHAIN_", "MTL_"))
    }
    env.update(
        LANGGRAPH_CLI_NO_ANALYTICS="1", LANGGRAPH_NO_VERSION_CHECK="true", LANGSMITH_TRACING="false"
    )
    log = (tmp_path / "langgraph-dev.log").open("wb")
    cli = Path(sys.executable).with_name("langgraph")
    proc = subprocess.Popen(
        [str(cli), "dev", "--no-browser", "--no-reload", "--port", str(port)],
        cwd=project,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            assert proc.poll() is None, (tmp_path / "langgraph-dev.log").read_text()[-3000:]
            try:
                with urllib.request.urlopen(f"{url}/ok", timeout=2) as resp:
                    if resp.status == 200:
                        break
            except OSError:
                pass
            assert time.monotonic() < deadline, "langgraph dev did not answer /ok"
            time.sleep(0.5)
        yield url, tmp_path
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def test_coding_agent_graph_over_the_sdk(api_server):
    url, tmp_path = api_server
    client = get_sync_client(url=url)
    assert {a["graph_id"] for a in client.assistants.search()} >= {"coding_agent", "memory_writer"}
    thread = client.threads.create()
    workspace = tmp_path / "ws"
    final = client.runs.wait(
        thread["thread_id"],
        "coding_agent",
        input={"task": "Create hello.py that prints hello, then run it."},
        context={
            "domain": "python",
            "task_id": "hello",
            "workspace": str(workspace),
            "verify_command": "python3 hello.py | grep -q hello",
        },
        config={"recursion_limit": 20},
    )
    receipts = final["memory_receipts"]
    assert [r["domain"] for r in receipts] == ["rust"]
    assert receipts[0]["memory_type"] == "insight"
    assert RUST_LESSON in final["memory_prompt"]
    assert final["steps_taken"] >= 1
    assert final["trajectory"]
    # the small model's insight is written, dropped by the insight rules, or queued: never lost
    status = final["memory_write_status"]
    assert status == "ok" or status.startswith(("insight dropped by rule", "queued")), status
    state = client.threads.get_state(thread["thread_id"])
    assert state["values"]["memory_receipts"] == receipts


def test_memory_writer_graph_over_the_sdk(api_server):
    url, _ = api_server
    client = get_sync_client(url=url)
    final = client.runs.wait(
        None,
        "memory_writer",
        input={
            "task": "Sort a list of numbers in Go",
            "verified": False,
            "trajectory": [{"action": "go run main.go", "observation": "undefined: sort.Ints2"}],
        },
        context={"domain": "go", "task_id": "sort-1"},
    )
    assert final["memory_write_status"] == "ok", final
    assert len(final["memory_written"]) == 1
