"""A scripted OpenAI-protocol server on loopback, for code that names a real model (the docs'
snippets): every reply is the smallest one the request allows. A tool call goes to `submit`
(else the first tool), a JSON-schema reply is the schema's first allowed value of each
required field, and a plain reply is a short fenced block."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

PLAIN = "Check the output first"


def _value(schema: dict[str, Any], defs: dict[str, Any]) -> Any:
    """The simplest value ``schema`` allows (``submit`` when an enum offers it)."""
    if "$ref" in schema:
        return _value(defs[schema["$ref"].rsplit("/", 1)[-1]], defs)
    for key in ("anyOf", "oneOf", "allOf"):
        if key in schema:
            return _value(schema[key][0], defs)
    if "enum" in schema:
        return "submit" if "submit" in schema["enum"] else schema["enum"][0]
    if "const" in schema:
        return schema["const"]
    kind = schema.get("type", "string")
    if kind == "object":
        props = schema.get("properties", {})
        return {name: _value(props[name], defs) for name in schema.get("required", props)}
    if kind == "array":
        return [_value(schema.get("items", {}), defs)]
    if kind == "boolean":
        return False
    if kind in ("integer", "number"):
        return schema.get("minimum", 1)
    return PLAIN


def reply_to(body: dict[str, Any]) -> dict[str, Any]:
    """The message answering a chat-completions request."""
    tools = body.get("tools") or []
    if tools:
        names = [t["function"]["name"] for t in tools]
        name = "submit" if "submit" in names else names[0]
        params = next(
            t["function"].get("parameters", {}) for t in tools if t["function"]["name"] == name
        )
        arguments = json.dumps(_value(params, params.get("$defs", {})))
        call = {
            "id": "call-1",
            "type": "function",
            "function": {"name": name, "arguments": arguments},
        }
        return {"role": "assistant", "content": None, "tool_calls": [call]}
    shape = (body.get("response_format") or {}).get("json_schema", {}).get("schema")
    if shape:
        return {"role": "assistant", "content": json.dumps(_value(shape, shape.get("$defs", {})))}
    return {"role": "assistant", "content": f"```\n{PLAIN}\n```"}


class _Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # the models it serves
        data = json.dumps({"object": "list", "data": [{"id": "scripted", "object": "model"}]})
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data.encode())

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        message = reply_to(body)
        finish = "tool_calls" if message.get("tool_calls") else "stop"
        data = json.dumps(
            {
                "id": "scripted",
                "object": "chat.completion",
                "created": 0,
                "model": body.get("model", "scripted"),
                "choices": [{"index": 0, "finish_reason": finish, "message": message}],
                "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
            }
        ).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        pass


@contextmanager
def scripted_openai() -> Iterator[str]:
    """A running server; yields its base URL (``http://127.0.0.1:PORT/v1``)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()
