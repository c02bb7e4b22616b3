"""Function tasks checked call by call: the solution runs in its own sandboxed process and
answers calls; the task's tests run here, in the harness, and compare what comes back as plain
data. Exiting, patching the test code or returning an object that equals anything cannot pass:
the tests never run where the solution does, and only plain values come back."""

from __future__ import annotations

import builtins
import io
import os
import pickle
import select
import shlex
import signal
import struct
import subprocess
import sys
import time
from dataclasses import dataclass
from typing import Any

from langgraph_mtl.agent.sandbox import SandboxMode
from langgraph_mtl.agent.verdict import Verdict
from langgraph_mtl.experiments.verifiers.base import OneFileVerifier, failed
from langgraph_mtl.experiments.verifiers.scratch import scratch

__all__ = ["CallTests"]

MAX_REPLY = 16 << 20
_PLAIN = {("builtins", n) for n in ("complex", "set", "frozenset", "slice", "range", "bytearray")}


class _PlainData(pickle.Unpickler):
    """Only built-in data comes back: no class of the solution's, no callable."""

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) in _PLAIN:
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"the result is a {module}.{name}, not plain data")


class SolutionGone(Exception):
    """The solution's process ended, timed out or answered out of protocol."""


class _Calls:
    """The conversation with the solution's process."""

    def __init__(self, proc: subprocess.Popen[bytes], deadline: float) -> None:
        self.proc, self.deadline, self.count = proc, deadline, 0
        assert proc.stdout is not None
        self.poller = select.poll()
        self.poller.register(proc.stdout, select.POLLIN | select.POLLHUP)

    def _read(self, size: int) -> bytes:
        chunks = bytearray()
        assert self.proc.stdout is not None
        while len(chunks) < size:
            left = self.deadline - time.monotonic()
            if left <= 0 or not self.poller.poll(left * 1000):  # poll: any fd number works
                raise SolutionGone("the solution took too long")
            data = os.read(self.proc.stdout.fileno(), size - len(chunks))
            if not data:
                raise SolutionGone("the solution's process ended before answering")
            chunks += data
        return bytes(chunks)

    def receive(self) -> tuple[Any, ...]:
        size = struct.unpack(">Q", self._read(8))[0]
        if size > MAX_REPLY:
            raise SolutionGone("the solution's reply is too large")
        try:
            message = _PlainData(io.BytesIO(self._read(size))).load()
        except Exception as exc:
            raise SolutionGone(f"unusable reply: {exc}") from exc
        if not isinstance(message, tuple) or not message:
            raise SolutionGone("the reply is out of protocol")
        return message

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        assert self.proc.stdin is not None
        data = pickle.dumps((args, kwargs), protocol=4)
        try:
            self.proc.stdin.write(struct.pack(">Q", len(data)) + data)
            self.proc.stdin.flush()
        except OSError as exc:
            raise SolutionGone("the solution's process is gone") from exc
        self.count += 1
        reply = self.receive()
        if reply[0] == "ok" and len(reply) == 2:
            return reply[1]
        if reply[0] == "raise" and len(reply) == 3:
            kind = getattr(builtins, str(reply[1]), None)
            error = kind if isinstance(kind, type) and issubclass(kind, Exception) else RuntimeError
            raise error(str(reply[2]))
        raise SolutionGone(f"the solution could not answer: {reply[1:]}"[:300])


@dataclass(frozen=True)
class CallTests(OneFileVerifier):
    """HumanEval-style tasks: ``prompt`` (trusted helpers the tests may use), ``test`` (defines
    ``check(candidate)``) and the ``entry`` function's name, in ``solution_file``."""

    entry: str
    prompt: str
    test: str
    solution_file: str = "solution.py"
    timeout: float = 20.0

    def check_file(self, text: str, mode: SandboxMode) -> Verdict:
        with scratch(("serve_calls.py",)) as dirs:
            dirs.write({"solution.py": text})
            box = dirs.box(mode, timeout=self.timeout, read_only=(dirs.harness,))
            serve = f"exec {shlex.quote(sys.executable)} -I {dirs.harness / 'serve_calls.py'} {self.entry}"
            proc = box.start(serve)
            calls = _Calls(proc, time.monotonic() + self.timeout)
            try:
                return self._run(calls)
            finally:
                if proc.poll() is None:
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()

    def _run(self, calls: _Calls) -> Verdict:
        try:
            hello = calls.receive()
        except SolutionGone as exc:
            return failed(f"the solution did not start: {exc}")
        if hello[0] != "ready":
            return failed(f"the solution did not load: {hello[1:]}"[:400])
        namespace: dict[str, Any] = {"__name__": "mtl_check"}
        exec(compile(self.prompt, "prompt", "exec"), namespace)  # the task's own helpers
        exec(compile(self.test, "tests", "exec"), namespace)
        namespace[self.entry] = calls
        try:
            namespace["check"](calls)
        except SolutionGone as exc:
            return failed(f"failed after {calls.count} calls: {exc}")
        except AssertionError as exc:
            return failed(f"a check failed after {calls.count} calls {exc}".strip())
        except Exception as exc:
            return failed(f"the tests stopped after {calls.count} calls: {type(exc).__name__}")
        if calls.count == 0:
            return failed("the tests made no call")
        return Verdict(True, f"all checks passed ({calls.count} calls)")
