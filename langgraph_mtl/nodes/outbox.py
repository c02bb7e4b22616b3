"""A local outbox for memories the pool could not take: kept on disk, delivered later once.

Each line is a JSON object: ``{"kind": "record", "record": {...}}`` for an abstracted memory
the pool refused, or ``{"kind": "run", "run": {...}, "memory_type": ...}`` for a run whose
abstraction failed (delivered when a model is given to :meth:`Outbox.flush`). ``"pool"`` names
the pool it was meant for (:attr:`MemoryPool.address`), when that was known: a flush delivers it
to that pool only, never to another one that shares the outbox.
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from filelock import FileLock
from langchain_core.language_models import BaseChatModel

from langgraph_mtl._files import append_json_line
from langgraph_mtl.home import mtl_home
from langgraph_mtl.hygiene.redaction import redact
from langgraph_mtl.hygiene.sanitize import sanitize
from langgraph_mtl.memory.records import Judge, MemoryRecord, Outcome
from langgraph_mtl.pool.memory_pool import MemoryPool
from langgraph_mtl.transfer.abstraction import (
    AbstractionError,
    FinishedRun,
    abstract_run,
    redact_run,
)

__all__ = ["FlushReport", "Outbox", "default_outbox_path"]

log = logging.getLogger(__name__)


def default_outbox_path() -> Path:
    """``$MTL_OUTBOX`` if set, else ``$MTL_HOME/outbox.jsonl``, else ``./.mtl/outbox.jsonl``."""
    if os.environ.get("MTL_OUTBOX"):
        return Path(os.environ["MTL_OUTBOX"])
    return mtl_home() / "outbox.jsonl"


@dataclass
class FlushReport:
    """What a flush delivered and what is still waiting."""

    delivered: int = 0
    remaining: int = 0


class Outbox:
    """A JSONL file of undelivered memories, safe across processes (file lock, atomic rewrite)."""

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self.path = Path(path) if path else default_outbox_path()
        self._lock = FileLock(str(self.path) + ".lock")

    def add_record(self, record: MemoryRecord, reason: str, *, pool: str | None = None) -> None:
        """Keep a memory the pool (``pool``: its address, if known) could not store (redacted
        first: nothing raw is queued)."""
        clean = sanitize(record).record
        entry = {"kind": "record", "record": clean.model_dump(mode="json")}
        self._append({**entry, "reason": redact(reason).text}, pool)

    def add_run(
        self,
        run: FinishedRun,
        memory_type: str,
        reason: str,
        outcome: tuple[Outcome, Judge] | None = None,
        *,
        pool: str | None = None,
    ) -> None:
        """Keep a run whose abstraction failed, to abstract again later (redacted first), with
        the outcome already decided for it (a judge's verdict is not asked for twice), for the
        pool at address ``pool`` if known."""
        clean, _ = redact_run(run)
        entry: dict[str, Any] = {"kind": "run", "run": asdict(clean), "memory_type": memory_type}
        if outcome is not None:
            entry["outcome"] = [outcome[0].value, outcome[1].value]
        self._append({**entry, "reason": redact(reason).text}, pool)

    def _append(self, entry: dict[str, Any], pool: str | None) -> None:
        if pool is not None:
            entry["pool"] = pool
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._lock:
            append_json_line(self.path, entry)

    def entries(self) -> list[dict[str, Any]]:
        """Everything waiting, oldest first (unreadable lines are skipped with a warning)."""
        with self._lock:
            return self._read()

    def _read(self) -> list[dict[str, Any]]:
        if not self.path.exists():
            return []
        out = []
        for number, line in enumerate(self.path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError:
                log.warning("outbox %s line %d is not JSON; left out", self.path, number)
        return out

    def __len__(self) -> int:
        return len(self.entries())

    def flush(self, pool: MemoryPool, *, model: BaseChatModel | None = None) -> FlushReport:
        """Deliver what can be delivered to ``pool`` (what was meant for another pool stays);
        the rest stays, in order. Safe to call any time."""
        with self._lock:
            entries = self._read()
            if not entries:
                return FlushReport()
            keep: list[dict[str, Any]] = []
            delivered = 0
            address = pool.address
            for index, entry in enumerate(entries):
                if entry.get("pool", address) != address:
                    keep.append(entry)  # meant for another pool sharing this outbox
                    continue
                try:
                    if entry.get("kind") == "record":
                        pool.upsert(MemoryRecord.model_validate(entry["record"]))
                    elif entry.get("kind") == "run" and model is not None:
                        known = {f.name for f in fields(FinishedRun)}  # older files had more
                        run = FinishedRun(**{k: v for k, v in entry["run"].items() if k in known})
                        record = abstract_run(
                            run, entry["memory_type"], model=model, outcome=_decided(entry)
                        )
                        pool.upsert(record)
                    else:
                        keep.append(entry)
                        continue
                    delivered += 1
                except AbstractionError as exc:
                    entry["reason"] = str(exc)[:300]
                    keep.append(entry)
                except Exception as exc:  # pool still down: keep this and the rest, in order
                    log.info("outbox not delivered yet (%d waiting): %s", len(entries) - index, exc)
                    keep.extend(entries[index:])
                    break
            self._rewrite(keep)
            return FlushReport(delivered=delivered, remaining=len(keep))

    def _rewrite(self, entries: list[dict[str, Any]]) -> None:
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".outbox-", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            for entry in entries:
                handle.write(json.dumps(entry, ensure_ascii=False) + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, self.path)


def _decided(entry: dict[str, Any]) -> tuple[Outcome, Judge] | None:
    """The outcome kept with a run, or ``None`` (decided again) when absent or unreadable."""
    try:
        outcome, judge = entry["outcome"]
        return Outcome(outcome), Judge(judge)
    except (KeyError, TypeError, ValueError):
        return None
