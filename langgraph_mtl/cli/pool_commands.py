"""``mtl pool ...``: inspect, move and tidy the shared memory pool."""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Annotated, Any

import typer
from rich.text import Text

from langgraph_mtl.cli import resources
from langgraph_mtl.cli.errors import CliError
from langgraph_mtl.cli.options import (
    DEFAULT_COLLECTION,
    CollectionOpt,
    EmbeddingsOpt,
    JsonOpt,
    KOpt,
    MemoryTypesOpt,
    PoolOpt,
    domain_name,
)
from langgraph_mtl.cli.output import err, out, print_json, print_text
from langgraph_mtl.cli.resources import check_model, open_for_read, open_for_write
from langgraph_mtl.home import mtl_home

__all__ = ["pool_app"]

pool_app = typer.Typer(help="Inspect and move the shared memory pool.", no_args_is_help=True)


YesOpt = Annotated[bool, typer.Option("--yes", "-y", help="Go ahead without asking.")]


def _write_atomically(target: Path, write: Callable[[IO[str]], int]) -> int:
    """Write through a temporary file renamed over ``target``: an existing file is replaced
    only when the write succeeded."""
    try:
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".part")
    except OSError as exc:  # reported for the file asked for, not the temporary one
        raise OSError(exc.errno, exc.strerror, str(target)) from exc
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            count = write(handle)
        os.replace(tmp, target)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
    return count


def _confirm(what: str, yes: bool) -> None:
    """Ask before a destructive change (``--yes`` skips; without a terminal it is required)."""
    if yes:
        return
    if not sys.stdin.isatty():
        raise CliError(f"{what}: pass --yes to go ahead (--dry-run lists them)", code=2)
    if not typer.confirm(f"{what}. Go ahead?", default=False):
        raise CliError("nothing changed", code=1)


class _Backup:
    """Exports the memories a command is about to delete, so ``mtl pool import`` undoes it."""

    def __init__(self, memories: Any, command: str) -> None:
        self.memories, self.command = memories, command
        self.path: Path | None = None

    def __call__(self, ids: list[str]) -> None:
        folder = mtl_home() / "backups"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{self.command}-{datetime.now(UTC):%Y%m%dT%H%M%S%fZ}.jsonl"
        _write_atomically(path, lambda handle: self.memories.export_ids(handle, ids))
        self.path = path

    def say(self) -> None:
        if self.path is not None:
            out.print(
                f"a copy of them is in {self.path}; `mtl pool import {self.path}` puts them back",
                markup=False,
                soft_wrap=True,
            )


def _record_json(record: Any, similarity: float | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": record.id,
        "domain": record.domain,
        "memory_type": record.memory_type.value,
        "outcome": record.outcome.value,
        "task_id": record.task_id,
        "key": record.key,
        "content": record.content,
        "flags": record.flags,
    }
    if similarity is not None:
        data["similarity"] = round(similarity, 4)
    return data


@pool_app.command("stats")
def pool_stats(
    pool: PoolOpt = None,
    collection: CollectionOpt = DEFAULT_COLLECTION,
    embeddings: EmbeddingsOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Counts by domain, type and outcome."""
    from rich.table import Table

    memories = open_for_read(pool, collection, embeddings)
    counts: dict[tuple[str, str, str], int] = {}
    for r in memories.list_records():
        key = (r.domain, r.memory_type.value, r.outcome.value)
        counts[key] = counts.get(key, 0) + 1
    total, identity = memories.count(), memories.identity
    if as_json:
        print_json(
            {
                "location": memories.location,
                "collection": collection,
                "memories": total,
                "embedder": {"name": identity.name, "dimension": identity.dimension},
                "counts": [
                    {"domain": d, "memory_type": t, "outcome": o, "count": n}
                    for (d, t, o), n in sorted(counts.items())
                ],
            }
        )
        return
    table = Table(title=f"{total} memories in {memories.location} / {collection}")
    for column in ("domain", "type", "outcome", "count"):
        table.add_column(column)
    for (domain, kind, outcome), n in sorted(counts.items()):
        table.add_row(domain, kind, outcome, str(n))
    out.print(table)
    out.print(f"embedder: {identity.name} ({identity.dimension} dims)", markup=False)


@pool_app.command("search")
def pool_search(
    query: str,
    domain: Annotated[
        str | None,
        typer.Option(callback=domain_name, help="Exclude this domain (leave-one-out)."),
    ] = None,
    memory_type: MemoryTypesOpt = None,
    k: KOpt = 5,
    pool: PoolOpt = None,
    collection: CollectionOpt = DEFAULT_COLLECTION,
    embeddings: EmbeddingsOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Search the pool like the retrieval node does."""
    if not query.strip():
        raise CliError("the query is empty: give the text to search for", code=2)
    memories = open_for_read(pool, collection, embeddings)
    types = [t.value for t in memory_type] if memory_type else None
    hits = memories.search(query, k=k, exclude_domains=domain, memory_types=types)
    if as_json:
        print_json([_record_json(h.record, h.similarity) for h in hits])
        return
    if not hits:
        out.print("no memories found")
    for hit in hits:
        r = hit.record
        out.rule(
            Text(
                f"{hit.similarity:.3f}  {r.domain} / {r.memory_type.value} / {r.outcome.value}  "
                f"{r.id[:8]}"
            ),
            characters="-",
        )
        print_text(r.content)


@pool_app.command("export")
def pool_export(
    path: Path,
    with_embeddings: Annotated[
        bool, typer.Option("--with-embeddings", help="Include the vectors.")
    ] = False,
    pool: PoolOpt = None,
    collection: CollectionOpt = DEFAULT_COLLECTION,
    embeddings: EmbeddingsOpt = None,
) -> None:
    """Write the pool to a JSONL file (the portable format). An existing file is replaced only
    when the export succeeded."""
    target = path.expanduser()
    if target.is_dir():
        raise CliError(f"{path} is a directory; give a file path", code=2)
    if not target.parent.is_dir():
        raise CliError(f"no such directory: {target.parent} (create it first)", code=2)
    memories = open_for_read(pool, collection, embeddings)
    n = _write_atomically(
        target, lambda h: memories.export_jsonl(h, with_embeddings=with_embeddings)
    )
    out.print(f"exported {n} memories to {path}", markup=False)


@pool_app.command("import")
def pool_import(
    path: Path,
    pool: PoolOpt = None,
    collection: CollectionOpt = DEFAULT_COLLECTION,
    embeddings: EmbeddingsOpt = None,
) -> None:
    """Import a JSONL file; bad lines are reported with their numbers, good ones kept."""
    if path.is_dir():
        raise CliError(f"{path} is a directory; give the JSONL file to import", code=2)
    if path.exists() and not path.is_file():
        raise CliError(f"{path} is not a regular file; save the lines to a file", code=2)
    if not path.is_file():
        raise CliError(f"no such file: {path}", code=2)
    from rich.progress import Progress

    memories = open_for_write(pool, collection, embeddings)
    with path.open("rb") as handle:
        total = sum(1 for _ in handle)
    # decoded line by line: a bad line never hides the others; what is stored already is
    # skipped, so an interrupted import is resumed by running it again
    with path.open("rb") as lines, Progress(console=err, transient=True) as bar:
        job = bar.add_task(f"importing {path.name}", total=total)
        report = memories.import_jsonl(lines, progress=lambda n: bar.update(job, completed=n))
    out.print(f"imported {report.imported} memories; {len(report.errors)} lines refused")
    for number, error in report.errors[:50]:
        out.print(f"  line {number}: {error}", markup=False)
    if report.errors:
        raise typer.Exit(1)


@pool_app.command("flush")
def pool_flush(
    model: Annotated[str | None, typer.Option(help="Model to re-abstract kept runs.")] = None,
    pool: PoolOpt = None,
    collection: CollectionOpt = DEFAULT_COLLECTION,
) -> None:
    """Deliver memories kept in the local outbox while the pool was unavailable."""
    from langgraph_mtl.nodes.outbox import Outbox

    if model:
        check_model(model)
    memories = open_for_write(pool, collection)
    with contextlib.ExitStack() as stack:
        chat = stack.enter_context(resources.chat_model(model)) if model else None
        report = Outbox().flush(memories, model=chat)
    out.print(f"delivered {report.delivered}; {report.remaining} still waiting")


@pool_app.command("consolidate")
def pool_consolidate(
    threshold: Annotated[
        float, typer.Option(min=0.5, max=1.0, help="Cosine at or above which memories merge.")
    ] = 0.97,
    dry_run: Annotated[bool, typer.Option(help="Only report what would merge.")] = False,
    yes: YesOpt = False,
    pool: PoolOpt = None,
    collection: CollectionOpt = DEFAULT_COLLECTION,
) -> None:
    """Fold near-duplicate memories (same type and domain) into one, keeping all provenance.
    Asks first (or --yes); the folded memories are exported to a backup file first."""
    from rich.progress import Progress

    from langgraph_mtl.pool.consolidation import consolidate

    def run(memories: Any, dry: bool, backup: _Backup | None = None) -> Any:
        with Progress(console=err) as bar:
            job = bar.add_task("consolidating", total=None)
            return consolidate(
                memories,
                threshold=threshold,
                dry_run=dry,
                before_delete=backup,
                progress=lambda done, total: bar.update(job, completed=done, total=total),
            )

    preview = run(open_for_read(pool, collection), True)
    if dry_run or not preview.removed:
        out.print(f"would fold {preview.removed} memories into {len(preview.merged)}")
        return
    _confirm(f"this folds {preview.removed} memories into {len(preview.merged)}", yes)
    memories = open_for_write(pool, collection)
    backup = _Backup(memories, "consolidate")
    report = run(memories, False, backup)
    out.print(
        f"folded {report.removed} memories into {len(report.merged)}; {memories.count()} remain"
    )
    backup.say()


@pool_app.command("prune")
def pool_prune(
    unused_days: Annotated[
        int | None,
        typer.Option(min=1, max=36500, help="Forget memories never retrieved in N days."),
    ] = None,
    hurt_margin: Annotated[
        int | None, typer.Option(min=1, max=1_000_000, help="Forget when hurt - helped >= N.")
    ] = None,
    dry_run: Annotated[bool, typer.Option(help="Only list what would go.")] = False,
    yes: YesOpt = False,
    pool: PoolOpt = None,
    collection: CollectionOpt = DEFAULT_COLLECTION,
) -> None:
    """Forget memories by rule (see the utility feedback in the README). Asks first (or
    --yes); the forgotten memories are exported to a backup file first."""
    from langgraph_mtl.pool.feedback import prune

    if unused_days is None and hurt_margin is None:
        raise CliError("give --unused-days and/or --hurt-margin", code=2)
    preview = prune(
        open_for_read(pool, collection),
        unused_days=unused_days,
        hurt_margin=hurt_margin,
        dry_run=True,
    )
    if dry_run or not preview:
        out.print(f"would forget {len(preview)} memories")
        for record_id in preview[:50]:
            out.print(f"  {record_id}", markup=False)
        return
    _confirm(f"this forgets {len(preview)} memories", yes)
    memories = open_for_write(pool, collection)
    backup = _Backup(memories, "prune")
    doomed = prune(memories, unused_days=unused_days, hurt_margin=hurt_margin, before_delete=backup)
    out.print(f"forgot {len(doomed)} memories")
    for record_id in doomed[:50]:
        out.print(f"  {record_id}", markup=False)
    backup.say()


@pool_app.command("quarantine")
def pool_quarantine(
    pool: PoolOpt = None,
    collection: CollectionOpt = DEFAULT_COLLECTION,
    embeddings: EmbeddingsOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """List quarantined memories (kept, never retrieved by default) and why."""
    memories = open_for_read(pool, collection, embeddings)
    flagged = memories.list_records(extra={"flag_quarantined": True})
    if as_json:
        print_json([_record_json(r) for r in flagged])
        return
    out.print(f"{len(flagged)} quarantined memories")
    for r in flagged:
        out.rule(
            Text(
                f"{r.id[:8]} {r.domain}/{r.memory_type.value}: {r.flags.get('quarantine_reason')}"
            ),
            characters="-",
        )
        print_text(r.content, limit=500)
