"""A loopback server that speaks enough of the LangSmith API for the real SDK, and records every
byte it is sent: ``/info``; run ingestion (multipart, batch and single, compressed or not);
datasets, examples, sessions (projects and experiments) and feedback.

``mode`` "ok" answers; "500" answers every request with a server error; "401" refuses every
request's API key; "404" has no run ingestion (as a wrong address would); "hang" accepts and never
answers. Start it with :func:`serving` (a context manager giving the URL) or run this file
(``python tests/langsmith_server.py MODE RECORD_FILE``), which prints the URL and records each
request as a JSON line: method, path, query and the body as text (multipart and zstd decoded).
"""

from __future__ import annotations

import contextlib
import email.parser
import email.policy
import gzip
import json
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

__all__ = ["Recorder", "serving"]


def _now() -> str:
    return datetime.now(UTC).isoformat()


def _decoded(body: bytes, encoding: str) -> bytes:
    if encoding == "zstd":
        import zstandard

        return zstandard.ZstdDecompressor().decompressobj().decompress(body)
    if encoding == "gzip":
        return gzip.decompress(body)
    return body


def _parts(body: bytes, content_type: str) -> list[tuple[str, bytes]]:
    """The (name, payload) parts of a multipart body."""
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
        f"Content-Type: {content_type}\r\n\r\n".encode() + body
    )
    out = []
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition") or ""
        out.append((str(name), part.get_payload(decode=True) or b""))
    return out


class Recorder:
    """What the server was sent, and the little state the SDK reads back."""

    def __init__(self, mode: str = "ok", path: Path | None = None) -> None:
        self.mode = mode
        self.path = path
        self.requests: list[dict[str, Any]] = []
        self.datasets: dict[str, dict[str, Any]] = {}
        self.examples: dict[str, dict[str, Any]] = {}
        self.sessions: dict[str, dict[str, Any]] = {}
        self.runs: dict[str, dict[str, Any]] = {}
        self.feedback: list[dict[str, Any]] = []
        self.lock = threading.Lock()

    def record(self, method: str, url: str, body: bytes) -> None:
        entry = {"method": method, "path": url, "body": body.decode("utf-8", "replace")}
        with self.lock:
            self.requests.append(entry)
            if self.path is not None:
                with self.path.open("a", encoding="utf-8") as f:
                    f.write(json.dumps(entry) + "\n")

    # -- the API -------------------------------------------------------------------------------

    def answer(self, method: str, url: str, body: bytes, content_type: str) -> tuple[int, Any]:
        parsed = urlparse(url)
        path, query = parsed.path.rstrip("/"), parse_qs(parsed.query)
        path = path.removeprefix("/api/v1")
        data: Any = None
        if body and "json" in content_type:
            with contextlib.suppress(ValueError):
                data = json.loads(body)
        if path == "/info":
            return 200, {
                "version": "0.10.0",
                "batch_ingest_config": {
                    "use_multipart_endpoint": True,
                    "scale_up_qsize_trigger": 1000,
                    "scale_up_nthreads_limit": 1,
                    "scale_down_nempty_trigger": 4,
                    "size_limit": 100,
                    "size_limit_bytes": 20971520,
                },
                "instance_flags": {"zstd_compression_enabled": True},
            }
        if path == "/runs/multipart":
            self._ingest_multipart(body, content_type)
            return 202, {}
        if path == "/runs/batch" and isinstance(data, dict):
            for run in [*data.get("post", []), *data.get("patch", [])]:
                self._run(run)
            return 202, {}
        if path == "/runs" and method == "POST" and isinstance(data, dict):
            self._run(data)
            return 202, {}
        if path.startswith("/runs/") and method == "PATCH" and isinstance(data, dict):
            self._run({**data, "id": path.rsplit("/", 1)[1]})
            return 202, {}
        if path == "/datasets" and method == "GET":
            names = query.get("name", [])
            found = [d for d in self.datasets.values() if not names or d["name"] in names]
            return 200, found
        if path == "/datasets" and method == "POST" and isinstance(data, dict):
            dataset = {
                "id": str(uuid.uuid4()),
                "name": data.get("name"),
                "description": data.get("description"),
                "created_at": _now(),
                "modified_at": _now(),
                "tenant_id": str(uuid.UUID(int=0)),
                "data_type": data.get("data_type", "kv"),
                "example_count": 0,
            }
            self.datasets[dataset["id"]] = dataset
            return 200, dataset
        if path.startswith("/datasets/") and method == "GET":
            parts = path.split("/")
            dataset = self.datasets.get(parts[2])
            if dataset is None:
                return 404, {"detail": "not found"}
            if len(parts) == 3:
                return 200, dataset
            if parts[3] == "versions":
                return 200, []
            return 200, {}
        if path in ("/examples/bulk", "/examples") and method == "POST":
            rows = data if isinstance(data, list) else [data]
            return 200, [self._example(row) for row in rows if isinstance(row, dict)]
        if path.startswith("/v1/platform/datasets/") and path.endswith("/examples"):
            dataset_id = path.split("/")[4]
            made = self._multipart_examples(dataset_id, body, content_type)
            return 200, {"example_ids": made, "count": len(made)}
        if path == "/examples" and method == "GET":
            wanted = set(query.get("dataset", []))
            ids = set(query.get("id", []))
            found = [
                e
                for e in self.examples.values()
                if (not wanted or e["dataset_id"] in wanted) and (not ids or e["id"] in ids)
            ]
            offset = int(query.get("offset", ["0"])[0])
            limit = int(query.get("limit", ["100"])[0])
            return 200, found[offset : offset + limit]
        if path == "/sessions" and method == "POST" and isinstance(data, dict):
            session = {
                "id": str(data.get("id") or uuid.uuid4()),
                "name": data.get("name"),
                "reference_dataset_id": data.get("reference_dataset_id"),
                "extra": data.get("extra") or {},
                "start_time": _now(),
                "tenant_id": str(uuid.UUID(int=0)),
                "description": data.get("description"),
            }
            if any(s["name"] == session["name"] for s in self.sessions.values()):
                return 409, {"detail": "session already exists"}
            self.sessions[session["id"]] = session
            return 200, session
        if path == "/sessions" and method == "GET":
            names = query.get("name", [])
            ids = query.get("id", [])
            found = [
                s
                for s in self.sessions.values()
                if (not names or s["name"] in names) and (not ids or s["id"] in ids)
            ]
            return 200, found
        if path.startswith("/sessions/"):
            session = self.sessions.get(path.split("/")[2])
            if session is None:
                return 404, {"detail": "not found"}
            if method == "PATCH" and isinstance(data, dict):
                session.update({k: v for k, v in data.items() if v is not None})
            return 200, session
        if path == "/feedback" and method == "POST" and isinstance(data, dict):
            self.feedback.append(data)
            return 200, {**data, "id": str(data.get("id") or uuid.uuid4())}
        if path == "/feedback" and method == "GET":
            return 200, self.feedback
        if path.startswith("/runs/") and method == "GET":
            run = self.runs.get(path.split("/")[2])
            return (200, run) if run else (404, {"detail": "not found"})
        if path == "/runs/query":
            return 200, {"runs": list(self.runs.values()), "cursors": {}}
        return 200, {}

    def _run(self, run: dict[str, Any]) -> None:
        key = str(run.get("id"))
        with self.lock:
            self.runs.setdefault(key, {}).update(run)

    def _example(self, row: dict[str, Any]) -> dict[str, Any]:
        example = {
            "id": str(row.get("id") or uuid.uuid4()),
            "dataset_id": str(row.get("dataset_id")),
            "inputs": row.get("inputs") or {},
            "outputs": row.get("outputs"),
            "metadata": row.get("metadata"),
            "created_at": _now(),
            "modified_at": _now(),
        }
        self.examples[example["id"]] = example
        return example

    def _multipart_examples(self, dataset_id: str, body: bytes, content_type: str) -> list[str]:
        made: dict[str, dict[str, Any]] = {}
        for name, payload in _parts(body, content_type):
            example_id, _, field = name.partition(".")
            row = made.setdefault(example_id, {"id": example_id, "dataset_id": dataset_id})
            try:
                value = json.loads(payload or b"null")
            except ValueError:
                continue
            row[field or "main"] = value
            if not field and isinstance(value, dict):
                row.update(value)
        return [self._example(row)["id"] for row in made.values()]

    def _ingest_multipart(self, body: bytes, content_type: str) -> None:
        for name, payload in _parts(body, content_type):
            kind, _, rest = name.partition(".")
            run_id, _, field = rest.partition(".")
            try:
                value = json.loads(payload or b"null")
            except ValueError:
                continue
            if kind in ("post", "patch"):
                run = {"id": run_id}
                if field:
                    run[field] = value
                elif isinstance(value, dict):
                    run.update(value)
                self._run(run)
            elif kind == "feedback" and isinstance(value, dict):
                self.feedback.append(value)


def _handler(recorder: Recorder) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def _serve(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            body = _decoded(raw, self.headers.get("Content-Encoding", ""))
            recorder.record(self.command, self.path, body)
            if recorder.mode == "hang":
                time.sleep(3600)
                return
            if recorder.mode == "500":
                status, payload = 500, {"detail": "server error"}
            elif recorder.mode == "401":
                status, payload = 401, {"detail": "Invalid token"}
            elif recorder.mode == "404" and "/runs" in self.path:
                status, payload = 404, {"detail": "Not Found"}
            else:
                status, payload = recorder.answer(
                    self.command, self.path, body, self.headers.get("Content-Type", "")
                )
            out = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(out)))
            self.end_headers()
            self.wfile.write(out)

        do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = _serve

        def log_message(self, *args: object) -> None:
            pass

    return Handler


@contextlib.contextmanager
def serving(mode: str = "ok", path: Path | None = None) -> Iterator[tuple[str, Recorder]]:
    """A running server on a free loopback port: its URL and what it records."""
    recorder = Recorder(mode, path)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(recorder))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", recorder
    finally:
        server.shutdown()
        server.server_close()


if __name__ == "__main__":
    with serving(sys.argv[1], Path(sys.argv[2])) as (url, _):
        print(url, flush=True)
        threading.Event().wait()
