"""What runs a command's attempts: the model in this process with threads, or Ray workers that
bring their own model (``--executor ray``)."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from langgraph_mtl.cli.errors import CliError

__all__ = ["EXECUTORS", "INFRASTRUCTURE", "Workers", "workers"]

EXECUTORS = ("local", "ray")
INFRASTRUCTURE = "infrastructure.jsonl"  # attempts lost to the infrastructure, not the agent


@contextlib.contextmanager
def workers(
    spec: str,
    *,
    executor: str,
    concurrency: int,
    temperature: float | None,
    out: Path,
    address: str | None = None,
    **setup: Any,
) -> Iterator[tuple[Any, Any]]:
    """``(model, executor)``: for ``local`` the chat model (a local server started for the
    duration) and threads; for ``ray`` no model here and ``concurrency`` Ray workers, each
    with its own (``setup``: the :class:`~langgraph_mtl_experiments.executors.WorkerSetup`
    fields but the model)."""
    from langgraph_mtl_experiments.executors import LocalExecutor

    if executor == "local":
        from langgraph_mtl.cli.resources import chat_model

        with chat_model(spec, parallel=concurrency, temperature=temperature) as chat:
            yield chat, LocalExecutor(concurrency)
        return
    if executor != "ray":
        raise CliError(f"--executor: expected local or ray, got {executor!r}", code=2)
    from langgraph_mtl_experiments.executors import RayExecutor, WorkerSetup

    failures = out / INFRASTRUCTURE

    def lost(job: Any, why: str) -> None:
        entry = {"key": list(job.key), "error": why}
        with failures.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(entry) + "\n")

    try:
        ray_executor = RayExecutor(
            WorkerSetup(model=spec, temperature=temperature, **setup),
            address=address,
            workers=concurrency,
            on_failure=lost,
        )
    except RuntimeError as exc:
        raise CliError(str(exc), code=2) from None
    try:
        yield None, ray_executor
    finally:
        ray_executor.close()


class Workers:
    """The workers of one model at a time (:func:`workers`), kept open while the next phase
    asks for the same model and temperature (phase 1 and the conditions, usually), so a run
    starts its model servers or Ray workers once; asked for another, the open ones close
    first. Close it when the run is done."""

    def __init__(self, **options: Any) -> None:
        self.options = options
        self._key: tuple[str, float | None] | None = None
        self._stack = contextlib.ExitStack()
        self._open: tuple[Any, Any] = (None, None)

    def get(self, spec: str, temperature: float | None) -> tuple[Any, Any]:
        """``(model, executor)`` for ``spec`` at ``temperature``."""
        if (spec, temperature) != self._key:
            self.close()
            self._open = self._stack.enter_context(
                workers(spec, temperature=temperature, **self.options)
            )
            self._key = (spec, temperature)
        return self._open

    def close(self) -> None:
        self._stack.close()
        self._key, self._open = None, (None, None)
