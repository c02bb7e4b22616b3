"""A run's pool across stretches of work: its folder is not kept with the rows, so a resumed
run refills it from the committed ``pool-snapshot.jsonl`` and from the records phase-1 rows
carry, and refuses to go on when rows say memories were written that nothing holds."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from langgraph_mtl.cli.errors import CliError
from langgraph_mtl_experiments.cli.support import MEMORY_RUNS, POOL_SNAPSHOT, console

if TYPE_CHECKING:
    from langgraph_mtl.pool.memory_pool import MemoryPool
    from langgraph_mtl_experiments.attempts import ResultStore

__all__ = ["refill_pool"]


def refill_pool(pool: MemoryPool, snapshot: Path, rows: ResultStore) -> None:
    """Refill ``pool`` from ``snapshot`` and from phase 1's ``rows``.

    Raises:
        CliError: a line of either is refused, or rows say memories were written that neither
            the pool, the snapshot nor any row holds (a resumed phase 1 skips their tasks, so
            the run would go on with part of its pool).
    """
    from langgraph_mtl_experiments.phase_one import restore_phase_one

    if restored := _restore_snapshot(pool, snapshot):
        console.print(f"pool: {restored} memories restored from {POOL_SNAPSHOT}")
    try:
        restored, missing = restore_phase_one(pool, rows)
    except ValueError as error:
        raise CliError(f"{error}; restore {MEMORY_RUNS} from git") from None
    if restored:
        console.print(f"pool: {restored} memories restored from {MEMORY_RUNS}")
    if missing:
        raise CliError(
            f"the run's pool lacks {len(missing)} "
            f"{'memory' if len(missing) == 1 else 'memories'} that phase-1 rows ({MEMORY_RUNS}) "
            "say were written, and no row or snapshot holds them (the pool's folder is not "
            "kept with the rows): going on would evaluate part of the pool. Start the run "
            "again with another --out"
        )


def _restore_snapshot(pool: MemoryPool, saved: Path) -> int:
    """Refill a run pool that holds fewer memories than the run's ``pool-snapshot.jsonl`` (an
    earlier restore may have been cut short) from it, so a run resumed from a fresh clone goes
    on with the memories its earlier rows used instead of making new ones. Returns how many
    memories were restored."""
    if not saved.is_file():
        return 0
    with saved.open(encoding="utf-8") as lines:
        saved_count = sum(1 for line in lines if line.strip())
    before = pool.count()
    if before >= saved_count:  # restored already, or grown past it
        return 0
    with saved.open(encoding="utf-8") as lines:  # what is stored already is skipped
        report = pool.import_jsonl(lines)
    if report.errors:
        line, why = report.errors[0]
        raise CliError(f"{saved}, line {line}: {why}; restore the file from git or delete it")
    return pool.count() - before
