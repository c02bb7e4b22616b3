"""The ``mtl`` command: solve tasks with memory transfer, inspect the pool, serve the local model."""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn
from rich.table import Table

from langgraph_mtl.agent import AgentContext, create_coding_agent
from langgraph_mtl.consolidation import consolidate
from langgraph_mtl.experiments.cli import experiment_app
from langgraph_mtl.feedback import prune
from langgraph_mtl.local_model import LocalModelServer
from langgraph_mtl.outbox import Outbox
from langgraph_mtl.pool import DEFAULT_COLLECTION, MemoryPool, open_pool
from langgraph_mtl.tracing import configure_tracing

__all__ = ["app", "main"]

app = typer.Typer(help="Memory Transfer Learning for coding agents.", no_args_is_help=True)
pool_app = typer.Typer(help="Inspect and move the shared memory pool.", no_args_is_help=True)
app.add_typer(pool_app, name="pool")
app.add_typer(experiment_app, name="experiment")
console = Console()

PoolOpt = Annotated[
    str | None, typer.Option("--pool", help="Pool dir or http(s)://host:port (MTL_POOL).")
]
CollectionOpt = Annotated[str, typer.Option("--collection", help="Chroma collection name.")]
EmbeddingsOpt = Annotated[
    str | None, typer.Option("--embeddings", help="'minilm' (offline default) or 'openai:<model>'.")
]
ModelOpt = Annotated[
    str,
    typer.Option(
        "--model", envvar="MTL_MODEL", help="'local', 'local:1.5b', 'openai:gpt-5-mini', ..."
    ),
]


def _open(pool: str | None, collection: str, embeddings: str | None = None) -> MemoryPool:
    with console.status("opening the memory pool (embedder warm-up)"):
        return open_pool(pool, collection=collection, embeddings=embeddings)


@contextlib.contextmanager
def _chat_model(spec: str, *, parallel: int = 1, temperature: float | None = None) -> Iterator[Any]:
    """A chat model for the command; 'local[:variant]' starts the local server for its duration
    (with ``parallel`` request slots). ``temperature`` overrides the model's default."""
    settings = {} if temperature is None else {"temperature": temperature}
    if not (spec == "local" or spec.startswith("local:")) or spec.startswith("local:http"):
        from langgraph_mtl.models import resolve_chat_model

        chat = resolve_chat_model(spec)
        yield chat.model_copy(update=settings) if settings else chat
        return
    variant = spec.split(":", 1)[1] if ":" in spec else "0.5b"
    server = LocalModelServer(variant=variant, parallel=parallel)
    with Progress(
        TextColumn("{task.description}"), BarColumn(), DownloadColumn(), console=console
    ) as bar:
        job = bar.add_task(f"preparing {variant} weights", total=None)
        started = time.monotonic()
        server.start(progress=lambda done, total: bar.update(job, completed=done, total=total))
        bar.update(job, description=f"local model ready ({time.monotonic() - started:.1f}s)")
    try:
        yield server.chat_model(**settings)
    finally:
        server.stop()


def _print_receipts(receipts: list[dict[str, Any]], status: str) -> None:
    if not receipts:
        console.print(f"[dim]memories retrieved: none ({status})[/]")
        return
    table = Table(title="memories retrieved (own domain excluded)", title_justify="left")
    for column in ("similarity", "source domain", "type", "outcome", "source task", "id"):
        table.add_column(column)
    for r in receipts:
        table.add_row(f"{r['similarity']:.3f}", r["domain"], r["memory_type"], r["outcome"],
                      r["task_id"], r["id"][:8])  # fmt: skip
    console.print(table)


def _solve(graph: Any, task: str, context: AgentContext, *, recursion_limit: int) -> dict[str, Any]:
    """Stream one run, printing each step, and return the final state."""
    state: dict[str, Any] = {}
    config = {"recursion_limit": recursion_limit}
    for mode, chunk in graph.stream({"task": task}, context=context, config=config,
                                    stream_mode=["updates", "values"]):  # fmt: skip
        if mode == "values":
            state = chunk
            continue
        for node, update in chunk.items():
            if node == "retrieve_memories":
                _print_receipts(update.get("memory_receipts", []), update.get("memory_status", ""))
            elif node == "plan" and update.get("plan"):
                console.print(f"[bold]plan[/]\n{update['plan'][:800]}")
            elif node == "act":
                step = update["trajectory"][-1]
                console.print(
                    f"[bold cyan]step {update['steps_taken']}[/] $ {step['action'][:400]}"
                )
                console.print(f"[dim]{step['observation'][:600]}[/]")
            elif node == "finish":
                console.print(f"[bold]verification[/] {update.get('verification', '')[:600]}")
            elif node == "write_memory":
                console.print(f"[bold]memory written[/] {update.get('memory_written')} "
                              f"({update.get('memory_write_status')})")  # fmt: skip
    return state


def _read_task(task: str) -> str:
    path = Path(task)
    if len(task) < 4096 and path.is_file():
        return path.read_text(encoding="utf-8")
    return task


@app.command()
def solve(
    task: Annotated[str, typer.Argument(help="The task text, or a file holding it.")],
    domain: Annotated[str, typer.Option(help="The task's domain (excluded from retrieval).")],
    task_id: Annotated[str | None, typer.Option(help="A stable id for the task.")] = None,
    workspace: Annotated[
        Path | None, typer.Option(help="Working directory (default: a new temp dir).")
    ] = None,
    verify: Annotated[
        str | None, typer.Option(help="Shell command whose exit 0 means success.")
    ] = None,
    model: ModelOpt = "local",
    memory_type: Annotated[
        list[str] | None, typer.Option(help="Types to retrieve (repeatable).")
    ] = None,
    write_type: Annotated[
        list[str] | None, typer.Option(help="Types to write (repeatable).")
    ] = None,
    k: Annotated[int, typer.Option(help="Memories to retrieve.")] = 3,
    steps: Annotated[int, typer.Option(help="Step limit.")] = 10,
    write: Annotated[bool, typer.Option(help="Write the run back as memory.")] = True,
    include_own_domain: Annotated[
        bool, typer.Option(help="Also retrieve own-domain memories.")
    ] = False,
    pool: PoolOpt = None,
    collection: CollectionOpt = DEFAULT_COLLECTION,
) -> None:
    """Solve one task with the coding agent, memory retrieval on, and write the new memory."""
    text = _read_task(task)
    memories = _open(pool, collection)
    ws = str(workspace or tempfile.mkdtemp(prefix="mtl-ws-"))
    with _chat_model(model) as chat:
        graph = create_coding_agent(
            chat,
            pool=memories,
            memory_types=memory_type or ("insight",),
            write_memory_types=write_type or ("insight",),
            judge=None if verify else chat,
            k=k,
            step_limit=steps,
        ).compile()
        context = AgentContext(domain=domain, task_id=task_id, workspace=ws, verify_command=verify,
                               write=write, include_own_domain=include_own_domain)  # fmt: skip
        console.rule(f"[bold]{domain}[/] task in {ws}")
        state = _solve(graph, text, context, recursion_limit=steps + 10)
    verified = state.get("verified")
    verdict = (
        "unverified" if verified is None else ("[green]PASSED[/]" if verified else "[red]FAILED[/]")
    )
    console.print(
        f"result: {verdict} after {state.get('steps_taken', 0)} steps; pool has {memories.count()} memories"
    )


DEMO_TASKS = [
    (
        "shell",
        "demo-shell-count",
        "Write a shell script count.sh that prints the number of lines in the file data.txt. "
        "Create data.txt with three lines first, run the script and check it prints 3.",
        "test \"$(bash count.sh | tr -d ' ')\" = 3",
    ),
    (
        "python",
        "demo-python-add",
        "Create add.py defining a Python function add(a, b) that returns a + b. Run "
        "python3 -c 'from add import add; print(add(2, 3))' and check it prints 5.",
        "python3 -c 'from add import add; assert add(2, 3) == 5'",
    ),
]


@app.command()
def demo(
    model: ModelOpt = "local",
    pool: PoolOpt = None,
    collection: CollectionOpt = "mtl_demo",
) -> None:
    """Two real tasks: a shell task writes a memory, a python task retrieves it across domains."""
    memories = _open(pool, collection)
    stale = [r.id for r in memories.list_records()]
    if stale:  # the demo starts from an empty collection of its own
        memories.delete(stale)
    with _chat_model(model) as chat:
        graph = create_coding_agent(  # trajectory memories need no model call: always written
            chat, pool=memories, step_limit=5, memory_types=("trajectory", "insight"),
            write_memory_types=("trajectory", "insight"),
        ).compile()  # fmt: skip
        for domain, task_id, task, verify in DEMO_TASKS:
            ws = tempfile.mkdtemp(prefix=f"mtl-{domain}-")
            console.rule(f"[bold]{domain}[/] task {task_id}")
            console.print(task)
            state = _solve(graph, task, AgentContext(domain=domain, task_id=task_id, workspace=ws,
                                                     verify_command=verify), recursion_limit=20)  # fmt: skip
            console.print(f"verified: {state.get('verified')}")
    last = state.get("memory_receipts", [])
    crossed = [r for r in last if r["domain"] == "shell"]
    console.rule("[bold]memory transfer")
    if crossed:
        console.print(f"the python task retrieved {len(crossed)} memory written by the shell task "
                      f"(similarity {crossed[0]['similarity']:.3f})")  # fmt: skip
    else:
        console.print("[yellow]the python task retrieved no shell memory[/]")
        raise typer.Exit(1)


@pool_app.command("stats")
def pool_stats(pool: PoolOpt = None, collection: CollectionOpt = DEFAULT_COLLECTION) -> None:
    """Counts by domain, type and outcome."""
    memories = _open(pool, collection)
    counts: dict[tuple[str, str, str], int] = {}
    for r in memories.list_records():
        key = (r.domain, r.memory_type.value, r.outcome.value)
        counts[key] = counts.get(key, 0) + 1
    table = Table(title=f"{memories.count()} memories in {memories.location}/{collection}")
    for column in ("domain", "type", "outcome", "count"):
        table.add_column(column)
    for (domain, kind, outcome), n in sorted(counts.items()):
        table.add_row(domain, kind, outcome, str(n))
    console.print(table)
    console.print(f"embedder: {memories.identity.name} ({memories.identity.dimension} dims)")


@pool_app.command("search")
def pool_search(
    query: str,
    domain: Annotated[str | None, typer.Option(help="Exclude this domain (leave-one-out).")] = None,
    memory_type: Annotated[list[str] | None, typer.Option(help="Restrict to types.")] = None,
    k: int = 5,
    pool: PoolOpt = None,
    collection: CollectionOpt = DEFAULT_COLLECTION,
) -> None:
    """Search the pool like the retrieval node does."""
    memories = _open(pool, collection)
    for hit in memories.search(query, k=k, exclude_domains=domain, memory_types=memory_type):
        r = hit.record
        console.rule(
            f"{hit.similarity:.3f}  {r.domain} / {r.memory_type.value} / {r.outcome.value}  {r.id[:8]}"
        )
        console.print(r.content)


@pool_app.command("export")
def pool_export(
    path: Path,
    embeddings: Annotated[bool, typer.Option("--with-embeddings", help="Include vectors.")] = False,
    pool: PoolOpt = None,
    collection: CollectionOpt = DEFAULT_COLLECTION,
) -> None:
    """Write the pool to a JSONL file (the portable format)."""
    memories = _open(pool, collection)
    with path.open("w", encoding="utf-8") as out:
        n = memories.export_jsonl(out, with_embeddings=embeddings)
    console.print(f"exported {n} memories to {path}")


@pool_app.command("import")
def pool_import(
    path: Path,
    pool: PoolOpt = None,
    collection: CollectionOpt = DEFAULT_COLLECTION,
    embeddings: EmbeddingsOpt = None,
) -> None:
    """Import a JSONL file; bad lines are reported with their numbers, good ones kept."""
    memories = _open(pool, collection, embeddings)
    with path.open(encoding="utf-8", errors="replace") as lines:
        report = memories.import_jsonl(lines)
    console.print(f"imported {report.imported} memories; {len(report.errors)} lines refused")
    for number, error in report.errors[:50]:
        console.print(f"  line {number}: {error}")
    if report.errors:
        raise typer.Exit(2)


@pool_app.command("flush")
def pool_flush(
    model: Annotated[str | None, typer.Option(help="Model to re-abstract kept runs.")] = None,
    pool: PoolOpt = None,
    collection: CollectionOpt = DEFAULT_COLLECTION,
) -> None:
    """Deliver memories kept in the local outbox while the pool was unavailable."""
    memories = _open(pool, collection)
    with contextlib.ExitStack() as stack:
        chat = stack.enter_context(_chat_model(model)) if model else None
        report = Outbox().flush(memories, model=chat)
    console.print(f"delivered {report.delivered}; {report.remaining} still waiting")


@pool_app.command("consolidate")
def pool_consolidate(
    threshold: Annotated[
        float, typer.Option(help="Cosine at or above which memories merge.")
    ] = 0.97,
    dry_run: Annotated[bool, typer.Option(help="Only report what would merge.")] = False,
    pool: PoolOpt = None,
    collection: CollectionOpt = DEFAULT_COLLECTION,
) -> None:
    """Fold near-duplicate memories (same type and domain) into one, keeping all provenance."""
    memories = _open(pool, collection)
    with Progress(console=console) as bar:
        job = bar.add_task("consolidating", total=None)
        report = consolidate(memories, threshold=threshold, dry_run=dry_run,
                             progress=lambda done, total: bar.update(job, completed=done, total=total))  # fmt: skip
    verb = "would fold" if dry_run else "folded"
    console.print(
        f"{verb} {report.removed} memories into {len(report.merged)}; {memories.count()} remain"
    )


@pool_app.command("prune")
def pool_prune(
    unused_days: Annotated[
        int | None, typer.Option(help="Forget memories never retrieved in N days.")
    ] = None,
    hurt_margin: Annotated[int | None, typer.Option(help="Forget when hurt - helped >= N.")] = None,
    dry_run: Annotated[bool, typer.Option(help="Only list what would go.")] = False,
    pool: PoolOpt = None,
    collection: CollectionOpt = DEFAULT_COLLECTION,
) -> None:
    """Forget memories by rule (see the utility feedback in the README)."""
    if unused_days is None and hurt_margin is None:
        raise typer.BadParameter("give --unused-days and/or --hurt-margin")
    memories = _open(pool, collection)
    doomed = prune(memories, unused_days=unused_days, hurt_margin=hurt_margin, dry_run=dry_run)
    console.print(f"{'would forget' if dry_run else 'forgot'} {len(doomed)} memories")
    for record_id in doomed[:50]:
        console.print(f"  {record_id}")


@pool_app.command("quarantine")
def pool_quarantine(pool: PoolOpt = None, collection: CollectionOpt = DEFAULT_COLLECTION) -> None:
    """List quarantined memories (kept, never retrieved by default) and why."""
    memories = _open(pool, collection)
    flagged = memories.list_records(extra={"flag_quarantined": True})
    console.print(f"{len(flagged)} quarantined memories")
    for r in flagged:
        console.rule(
            f"{r.id[:8]} {r.domain}/{r.memory_type.value}: {r.flags.get('quarantine_reason')}"
        )
        console.print(r.content[:500])


@app.command()
def serve(
    variant: Annotated[str, typer.Option(help="Pinned weights: 0.5b or 1.5b.")] = "0.5b",
    model_path: Annotated[Path | None, typer.Option(help="Any GGUF file instead.")] = None,
    port: Annotated[int | None, typer.Option(help="Port (default: a free one).")] = None,
    threads: Annotated[int | None, typer.Option(help="CPU threads.")] = None,
) -> None:
    """Run the local model server (OpenAI protocol) until Ctrl-C."""
    server = LocalModelServer(model_path, variant=variant, port=port, threads=threads)
    with console.status("starting the local model server"):
        server.start()
    console.print(f"serving at {server.base_url}  (export MTL_LOCAL_BASE_URL={server.base_url})")
    try:
        while server.healthy():
            time.sleep(1)
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()


def main() -> None:
    """Console entry point."""
    configure_tracing()
    logging.basicConfig(level=os.environ.get("MTL_LOG_LEVEL", "WARNING"), stream=sys.stderr)
    logging.getLogger("httpx").setLevel(logging.WARNING)
    app()


if __name__ == "__main__":
    main()
