"""Function tasks checked call by call: the solution runs in its own sandboxed process and
answers calls; the task's tests run here, in the harness, and compare what comes back as plain
data. Exiting, patching the test code or returning an object that equals anything cannot pass:
the tests never run where the solution does, and only plain values come back."""

from __future__ import annotations

import builtins
import copy
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
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import Any

from langgraph_mtl.agent.sandbox import SandboxMode
from langgraph_mtl.agent.verdict import Verdict
from langgraph_mtl_experiments.verifiers.base import OneFileVerifier, failed
from langgraph_mtl_experiments.verifiers.probes import MIN_PROBES, Call, agrees, fitted, probe_calls
from langgraph_mtl_experiments.verifiers.scratch import scratch

__all__ = ["CallTests"]

MAX_REPLY = 16 << 20
PROBE_SECONDS = 10.0  # for the calls beyond the tests, each side
REFERENCE_CALL_SECONDS = 1.0  # longer, and the reference has no answer to that call
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
    ``check(candidate)``) and the ``entry`` function's name, in ``solution_file``.

    With a ``reference`` solution, a solution that passes the tests is then asked ``probes``
    calls near the tests' own (:mod:`.probes`) and compared with the reference's answers: one
    that disagrees on a third of them or more, or gives one answer to all of them where the
    reference's vary, answers the tests from memory, not the task, and fails."""

    entry: str
    prompt: str
    test: str
    solution_file: str = "solution.py"
    timeout: float = 20.0
    reference: str = ""
    probes: int = 24

    @contextmanager
    def _serving(self, text: str, mode: SandboxMode, seconds: float) -> Iterator[_Calls]:
        with scratch(("serve_calls.py",)) as dirs:
            dirs.write({"solution.py": text})
            box = dirs.box(mode, timeout=seconds, read_only=(dirs.harness,))
            serve = f"exec {shlex.quote(sys.executable)} -I {dirs.harness / 'serve_calls.py'} {self.entry}"
            proc = box.start(serve)
            try:
                yield _Calls(proc, time.monotonic() + seconds)
            finally:
                if proc.poll() is None:
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()

    def check_file(self, text: str, mode: SandboxMode) -> Verdict:
        seconds = self.timeout + (3 * PROBE_SECONDS if self.reference else 0.0)
        with self._serving(text, mode, seconds) as calls:
            calls.deadline = time.monotonic() + self.timeout
            verdict, made = self._run(calls)
            if not verdict.passed or not self.reference:
                return verdict
            return self._probe(calls, made, mode) or verdict

    def _run(self, calls: _Calls) -> tuple[Verdict, list[Call]]:
        made: list[Call] = []
        try:
            hello = calls.receive()
        except SolutionGone as exc:
            return failed(f"the solution did not start: {exc}"), made
        if hello[0] != "ready":
            return failed(f"the solution did not load: {hello[1:]}"[:400]), made
        namespace: dict[str, Any] = {"__name__": "mtl_check"}
        exec(compile(self.prompt, "prompt", "exec"), namespace)  # the task's own helpers
        exec(compile(self.test, "tests", "exec"), namespace)

        def candidate(*args: Any, **kwargs: Any) -> Any:
            with suppress(Exception):  # as asked, before anything changes them (or not probed)
                made.append(copy.deepcopy((args, kwargs)))
            return calls(*args, **kwargs)

        namespace[self.entry] = candidate
        try:
            namespace["check"](candidate)
        except SolutionGone as exc:
            return failed(f"failed after {calls.count} calls: {exc}"), made
        except AssertionError as exc:
            return failed(f"a check failed after {calls.count} calls {exc}".strip()), made
        except Exception as exc:
            return failed(
                f"the tests stopped after {calls.count} calls: {type(exc).__name__}"
            ), made
        if calls.count == 0:
            return failed("the tests made no call"), made
        return Verdict(True, f"all checks passed ({calls.count} calls)"), made

    def _answers(self, asked: list[Call], mode: SandboxMode) -> dict[int, Any]:
        """The reference's answers to ``asked``, by position: where it raised or took longer
        than :data:`REFERENCE_CALL_SECONDS` (then a fresh process takes the rest) there is
        none, and none after its budget of ``PROBE_SECONDS / 2`` is spent."""
        out: dict[int, Any] = {}
        budget_end = time.monotonic() + PROBE_SECONDS / 2
        position = 0
        while position < len(asked) and time.monotonic() < budget_end:
            with self._serving(self.reference, mode, PROBE_SECONDS / 2) as calls:
                try:
                    if calls.receive()[0] != "ready":
                        return out
                except SolutionGone:
                    return out
                while position < len(asked) and time.monotonic() < budget_end:
                    args, kwargs = asked[position]
                    position += 1
                    calls.deadline = min(budget_end, time.monotonic() + REFERENCE_CALL_SECONDS)
                    try:
                        out[position - 1] = calls(*copy.deepcopy(args), **copy.deepcopy(kwargs))
                    except SolutionGone:
                        break  # stuck or gone: a fresh process for the rest
                    except Exception:
                        continue
        return out

    def _probe(self, calls: _Calls, made: list[Call], mode: SandboxMode) -> Verdict | None:
        """A failing verdict when the solution disagrees with the reference on a third or more
        of the calls near the tests' own, or answers them all alike where the reference does not
        (judged on the calls the reference answers the same way twice, at least
        :data:`MIN_PROBES`); ``None`` otherwise."""
        asked = probe_calls(made, self.probes, seed=self.entry + "\n" + self.test)
        _signal(calls.proc, signal.SIGSTOP)  # the solution cannot slow the reference down
        try:
            first = self._answers(asked, mode)
            answered = sorted(first)
            second = self._answers([asked[i] for i in answered], mode)  # what the first answered
        finally:
            _signal(calls.proc, signal.SIGCONT)
        kept = [
            (asked[i], first[i])
            for n, i in enumerate(answered)
            if n in second and agrees(first[i], second[n])
        ]
        if len(kept) < MIN_PROBES:
            return None
        disagreed, example, given = 0, "", []
        calls.deadline = time.monotonic() + PROBE_SECONDS
        for done, ((args, kwargs), expected) in enumerate(kept):
            try:
                got: Any = calls(*copy.deepcopy(args), **copy.deepcopy(kwargs))
            except SolutionGone as exc:  # gone or stuck: every call left counts as a disagreement
                disagreed += len(kept) - done
                example = example or f"{_shown(args, kwargs)}: {exc}"
                break
            except Exception as exc:
                got = exc
            given.append(repr(got) if not isinstance(got, Exception) else type(got).__name__)
            if isinstance(got, Exception) or not agrees(got, expected):
                disagreed += 1
                said = f"raised {type(got).__name__}" if isinstance(got, Exception) else repr(got)
                example = example or (
                    f"{_shown(args, kwargs)} gave {said[:80]}, expected {repr(expected)[:80]}"
                )
        if not fitted(disagreed, given, [repr(e) for _, e in kept]):
            return None
        return failed(
            f"the tests pass, but {disagreed} of {len(kept)} calls near theirs get other answers "
            f"than the reference's (answers fitted to the tests?), e.g. {example}"[:400]
        )


def _signal(proc: subprocess.Popen[bytes], number: int) -> None:
    """Signal the solution's process group, if it is still there (a call to a process that is
    gone fails on its own)."""
    with suppress(ProcessLookupError):
        os.killpg(proc.pid, number)


def _shown(args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
    """A call as it reads in code, shortened."""
    parts = [repr(a) for a in args] + [f"{k}={v!r}" for k, v in kwargs.items()]
    return f"({', '.join(parts)})"[:120]
