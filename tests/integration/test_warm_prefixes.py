"""On the real llama.cpp server, each kind of call keeps its prompt prefix cached in a slot of
its own, and the server's timings come back with every reply."""

from __future__ import annotations

import pytest
from langchain_core.messages import HumanMessage, SystemMessage

from langgraph_mtl.model_calls import CallKind, CallRecorder, call_config


@pytest.mark.integration
def test_on_the_real_server_an_act_prefix_stays_cached_across_a_write_call(local_server):
    """The act calls of a run share a long prefix; a write call between two of them has
    another. On their own slots, the second act call finds its prefix in the cache."""
    chat = local_server.chat_model(max_tokens=4)
    recorder = CallRecorder()

    def call(messages, kind):
        chat.invoke(messages, config={**call_config(kind), "callbacks": [recorder]})

    rules = SystemMessage("You are a careful coding agent; work one action at a time. " * 40)
    call([rules, HumanMessage("Task: print 1. Next action?")], CallKind.ACT)
    call(
        [SystemMessage("Answer with code only. " * 40), HumanMessage("Write a.py")], CallKind.WRITE
    )
    call([rules, HumanMessage("Task: print 1. Next action? (step 2)")], CallKind.ACT)
    first, write, again = recorder.rows()
    assert first["prompt_tokens"] > 400 and first["seconds"] > 0
    assert again["cached_tokens"] >= 400  # the whole system message, kept warm
    assert write["cached_tokens"] < 50  # a prefix of its own, nothing shared with the act calls
