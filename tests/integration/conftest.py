"""Real local servers for integration tests: the llama.cpp model server (started once)."""

from __future__ import annotations

import pytest

from langgraph_mtl.local.server import LocalModelServer


@pytest.fixture(scope="session")
def local_server(tmp_path_factory):
    log = tmp_path_factory.mktemp("llama") / "server.log"
    server = LocalModelServer(log_file=log, lanes=1).start()  # a slot per kind of call
    yield server
    server.stop()


@pytest.fixture(scope="session")
def local_model(local_server):
    return local_server.chat_model(max_tokens=768)
