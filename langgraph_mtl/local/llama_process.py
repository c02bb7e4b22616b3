"""Process entry point of the local model server: ``python -m langgraph_mtl.local.llama_process``.

Started by :class:`langgraph_mtl.local.server.LocalModelServer`; runs llama.cpp (``xllamacpp``)
on 127.0.0.1 until it gets SIGTERM or SIGINT.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading


def _stop_when_orphaned(stop: threading.Event, every: float = 2.0) -> None:
    """Stop when the process that started the server is gone (killed without a chance to stop
    it), so no server outlives its run."""
    parent = os.getppid()
    while not stop.wait(every):
        if os.getppid() != parent:
            stop.set()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m langgraph_mtl.local.llama_process")
    parser.add_argument("--model", required=True, help="GGUF file")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--ctx", type=int, default=8192)
    parser.add_argument("--max-tokens", type=int, default=2048)
    parser.add_argument("--parallel", type=int, default=1, help="concurrent request slots")
    args = parser.parse_args(argv)
    try:
        import xllamacpp
    except ImportError:
        print("xllamacpp is missing: pip install 'langgraph-mtl[local]'", file=sys.stderr)
        return 3
    params = xllamacpp.CommonParams()
    params.model.path = args.model
    params.hostnames = ["127.0.0.1"]
    params.port = args.port
    params.n_ctx = args.ctx * args.parallel  # every slot keeps the full window
    params.n_parallel = args.parallel
    params.n_predict = args.max_tokens  # a hard cap on every reply, whatever the client asks
    params.cpuparams.n_threads = args.threads
    params.cpuparams_batch.n_threads = args.threads
    params.use_jinja = True
    params.ui = False
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    threading.Thread(target=_stop_when_orphaned, args=(stop,), daemon=True).start()
    server = xllamacpp.Server(params)
    print(f"listening on {server.listening_address}", flush=True)
    stop.wait()
    os._exit(0)  # the server's own threads would keep the process alive


if __name__ == "__main__":
    sys.exit(main())
