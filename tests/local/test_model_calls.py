"""Every model call is named by its kind and recorded with its tokens and seconds, and a
llama.cpp server gets each kind of call in a request slot of its own (a fake OpenAI-protocol
server records what is sent; the real server is in tests/local/test_llama_server.py)."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import ClassVar

import pytest
from helpers import solve_tiny
from langchain_core.messages import HumanMessage
from pydantic import Field

from langgraph_mtl.agent import AgentContext, create_coding_agent
from langgraph_mtl.agent.tuning import TUNING
from langgraph_mtl.local.llama_chat import SLOT_GROUPS, slot_of, slots_for
from langgraph_mtl.memory.trajectory import approx_tokens
from langgraph_mtl.model_calls import (
    LANE_KEY,
    CallKind,
    CallRecorder,
    call_config,
    call_kind,
    summarize_calls,
)
from langgraph_mtl.models import local_chat_model
from langgraph_mtl.testing import ScriptedChatModel


class _FakeLlama(BaseHTTPRequestHandler):
    """Answers chat completions as llama.cpp does, with its ``timings``; keeps each body."""

    bodies: ClassVar[list[dict]] = []

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).bodies.append(body)
        reply = {
            "id": "x",
            "object": "chat.completion",
            "created": 0,
            "model": "local",
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "length",
                    "message": {"role": "assistant", "content": "hello"},
                }
            ],
            "usage": {"prompt_tokens": 120, "completion_tokens": 7, "total_tokens": 127},
            "timings": {
                "cache_n": 100,
                "prompt_n": 20,
                "prompt_ms": 250.0,
                "predicted_n": 7,
                "predicted_ms": 1750.0,
            },
        }
        data = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def fake_llama():
    _FakeLlama.bodies = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _FakeLlama)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1", _FakeLlama.bodies
    server.shutdown()


def test_each_lane_and_kind_of_call_has_its_own_slot():
    lanes = 2
    slots = {
        slot_of({LANE_KEY: lane, "mtl_call": kind.value}, lanes)
        for lane in range(lanes)
        for kind in (CallKind.ACT, CallKind.WRITE, CallKind.PLAN)
    }
    assert slots == set(range(slots_for(lanes)))
    # the kinds made once a run share the third slot of their lane
    assert slot_of({"mtl_call": "abstract"}, 1) == slot_of({"mtl_call": "plan"}, 1)
    assert slot_of({"langgraph_node": "act"}, 1) == 0  # unnamed: known by its node
    assert slot_of({LANE_KEY: 5, "mtl_call": "act"}, 2) == slot_of(
        {LANE_KEY: 1, "mtl_call": "act"}, 2
    )
    assert len(SLOT_GROUPS) * 2 == slots_for(2)


def test_a_routed_model_sends_each_kind_to_its_slot_and_keeps_the_servers_timings(fake_llama):
    url, bodies = fake_llama
    chat = local_chat_model(url, lanes=2)
    recorder = CallRecorder()
    for lane, kind in ((0, CallKind.ACT), (0, CallKind.WRITE), (1, CallKind.ACT)):
        config = call_config(kind)
        config["metadata"][LANE_KEY] = lane
        reply = chat.invoke([HumanMessage("hi")], config={**config, "callbacks": [recorder]})
    assert [b["id_slot"] for b in bodies] == [0, 1, 3]
    assert all(b["cache_prompt"] is True for b in bodies)  # the server's own setting kept
    assert reply.response_metadata["timings"]["cache_n"] == 100
    first = recorder.rows()[0]
    assert first["kind"] == "act"
    assert (first["prompt_tokens"], first["cached_tokens"], first["completion_tokens"]) == (
        120,
        100,
        7,
    )
    assert first["seconds"] == pytest.approx(2.0)  # the server's time, not the wall clock's
    assert first["prompt_seconds"] == pytest.approx(0.25)
    assert first["finish_reason"] == "length"
    summary = summarize_calls(recorder.rows())
    assert summary["act"]["calls"] == 2 and summary["act"]["cut"] == 2


def test_without_lanes_the_server_chooses_the_slot(fake_llama):
    url, bodies = fake_llama
    local_chat_model(url).invoke([HumanMessage("hi")], config=call_config(CallKind.ACT))
    assert "id_slot" not in bodies[0]


def test_an_agent_run_records_its_plan_act_and_write_calls(scripted, tmp_path):
    """Kinds come from the call sites, so a trace shows which call cost what."""
    graph = create_coding_agent(scripted(default=solve_tiny), pool=lambda: None).compile()
    recorder = CallRecorder()
    graph.invoke(
        {"task": "Please write 7 to out.txt"},
        context=AgentContext(workspace=str(tmp_path), retrieve=False, write=False),
        config={"callbacks": [recorder]},
    )
    kinds = [row["kind"] for row in recorder.rows()]
    assert kinds[0] == "plan"
    assert {"act", "write"} <= set(kinds)
    assert "other" not in kinds


class _Budgeted(ScriptedChatModel):
    """A scripted model that notes the reply limit each call was made with."""

    max_tokens: int | None = None
    limits: list = Field(default_factory=list)

    def _generate(self, messages, stop=None, run_manager=None, **kwargs):
        kind = call_kind(getattr(run_manager, "metadata", None))
        self.limits.append((kind.value, self.max_tokens))
        return super()._generate(messages, stop=stop, run_manager=run_manager, **kwargs)


def test_a_rewrite_of_a_short_file_is_bounded_by_the_files_length(tmp_path):
    """A reply that rewrites a file cannot run on for minutes: its limit follows what it
    replaces; a plan has its own small limit and an action none beyond the server's."""
    (tmp_path / "out.txt").write_text("1\n2\n3\n")
    model = _Budgeted(default=solve_tiny)
    limits = model.limits
    graph = create_coding_agent(model, pool=lambda: None).compile()
    graph.invoke(
        {"task": "Please write 7 to out.txt"},
        context=AgentContext(workspace=str(tmp_path), retrieve=False, write=False),
    )
    assert ("plan", 256) in limits
    writes = [limit for kind, limit in limits if kind == "write"]
    assert writes == [TUNING.reply_room * approx_tokens("1\n2\n3\n") + TUNING.spare_tokens]
    assert all(limit is None for kind, limit in limits if kind == "act")
    assert (tmp_path / "out.txt").read_text().strip() == "7"
