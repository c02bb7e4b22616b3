"""LangSmith: traces are sent when a key is set; a keyless request is a silent no-op."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = str(ROOT / "examples" / "drop_in_nodes.py")


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


def test_runs_are_posted_to_langsmith_when_a_key_is_set():
    bodies: list[bytes] = []

    class Fake(BaseHTTPRequestHandler):
        def _reply(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            bodies.append(self.path.encode() + b" " + self.rfile.read(length))
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(b"{}")

        do_GET = do_POST = do_PATCH = _reply

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Fake)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        env = _env(
            LANGSMITH_TRACING="true",
            LANGSMITH_API_KEY="test-key",
            LANGSMITH_ENDPOINT=f"http://127.0.0.1:{server.server_address[1]}",
        )
        proc = subprocess.run(
            [sys.executable, EXAMPLE], env=env, capture_output=True, text=True, timeout=120
        )
    finally:
        server.shutdown()
    assert proc.returncode == 0, proc.stderr
    posted = b"\n".join(b for b in bodies if b.startswith(b"/runs"))
    assert b"retrieve_memories" in posted
    assert b"write_memory" in posted
    assert b"mtl.abstract_run" in posted


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
