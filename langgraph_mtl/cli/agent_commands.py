"""``mtl solve``, ``mtl demo`` and ``mtl serve``: the coding agent and the local model."""

from __future__ import annotations

import contextlib
import shutil
import tempfile
import time
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.text import Text

from langgraph_mtl.cli import resources
from langgraph_mtl.cli.errors import CliError
from langgraph_mtl.cli.options import (
    DEFAULT_COLLECTION,
    CollectionOpt,
    JsonOpt,
    KOpt,
    MemoryTypesOpt,
    ModelOpt,
    PoolOpt,
    Variant,
    domain_name,
)
from langgraph_mtl.cli.output import clip, out, print_json
from langgraph_mtl.cli.resources import check_model, open_for_write
from langgraph_mtl.memory.enums import MemoryType

__all__ = ["DEMO_TASKS", "register"]


class Preset(StrEnum):
    """The agent's policy presets (see ``langgraph_mtl.agent.policy_set``)."""

    auto = "auto"
    bare = "bare"
    safe_edits = "safe-edits"
    small_model = "small-model"


def _print_receipts(receipts: list[dict[str, Any]], status: str) -> None:
    from rich.table import Table

    if not receipts:
        out.print(Text(f"memories retrieved: none ({status})", style="dim"))
        return
    table = Table(title="memories retrieved (own domain excluded)", title_justify="left")
    for column in ("similarity", "source domain", "type", "outcome", "source task", "id"):
        table.add_column(column)
    for r in receipts:
        table.add_row(
            f"{r['similarity']:.3f}",
            r["domain"],
            r["memory_type"],
            r["outcome"],
            r["task_id"],
            r["id"][:8],
        )
    out.print(table)


def _show(node: str, update: dict[str, Any], started: float) -> None:
    """Print one node's update for a person watching the run."""
    clock = f"[{time.monotonic() - started:6.1f}s]"
    if node == "retrieve_memories":
        _print_receipts(update.get("memory_receipts", []), update.get("memory_status", ""))
    elif node == "plan" and update.get("plan"):
        out.print(Text(f"{clock} plan\n{clip(update['plan'], 800)}"))
    elif node in ("act", "tools") and update.get("trajectory"):
        step = update["trajectory"][-1]
        out.print(
            Text(
                f"{clock} step {update.get('steps_taken', '?')} $ {clip(step['action'], 400)}",
                style="bold cyan",
            )
        )
        out.print(Text(clip(step["observation"], 600), style="dim"))
    elif node == "finish":
        out.print(Text(f"{clock} verification {clip(update.get('verification', ''), 600)}"))
    elif node == "write_memory":
        written = update.get("memory_written")
        out.print(Text(f"{clock} memory written {written} ({update.get('memory_write_status')})"))


def run_agent(
    graph: Any, task: str, context: Any, *, recursion_limit: int, quiet: bool = False
) -> dict[str, Any]:
    """Stream one run (printing each step unless ``quiet``) and return the final state."""
    state: dict[str, Any] = {}
    started = time.monotonic()
    for mode, chunk in graph.stream(
        {"task": task},
        context=context,
        config={"recursion_limit": recursion_limit},
        stream_mode=["updates", "values"],
    ):
        if mode == "values":
            state = chunk
        elif not quiet:
            for node, update in chunk.items():
                if isinstance(update, dict):
                    _show(node, update, started)
    return state


def _read_task(task: str) -> str:
    path = Path(task)
    if len(task) < 4096 and path.is_file():
        return path.read_text(encoding="utf-8")
    if not task.strip():
        raise CliError("the task is empty: give its text or a file holding it", code=2)
    return task


def solve(
    task: Annotated[str, typer.Argument(help="The task text, or a file holding it.")],
    domain: Annotated[
        str, typer.Option(callback=domain_name, help="The task's domain (excluded from retrieval).")
    ],
    task_id: Annotated[str | None, typer.Option(help="A stable id for the task.")] = None,
    workspace: Annotated[
        Path | None, typer.Option(help="Working directory (default: a new temp dir).")
    ] = None,
    verify: Annotated[
        str | None, typer.Option(help="Shell command whose exit 0 means success.")
    ] = None,
    check: Annotated[
        str | None,
        typer.Option(help="A command the agent may run to check its work (after each change)."),
    ] = None,
    policies: Annotated[
        Preset,
        typer.Option(help="The agent's steering: auto, bare, safe-edits or small-model."),
    ] = Preset.auto,
    protect: Annotated[
        list[str] | None,
        typer.Option(
            help="A workspace file or folder the agent must leave as it is, such as the tests "
            "--verify runs (repeatable)."
        ),
    ] = None,
    model: ModelOpt = "local",
    memory_type: MemoryTypesOpt = None,
    write_type: Annotated[
        list[MemoryType] | None, typer.Option("--write-type", help="Types to write (repeatable).")
    ] = None,
    k: KOpt = 3,
    steps: Annotated[int, typer.Option(min=1, max=200, help="Step limit.")] = 10,
    write: Annotated[bool, typer.Option(help="Write the run back as memory.")] = True,
    include_own_domain: Annotated[
        bool, typer.Option(help="Also retrieve own-domain memories.")
    ] = False,
    pool: PoolOpt = None,
    collection: CollectionOpt = DEFAULT_COLLECTION,
    as_json: JsonOpt = False,
) -> None:
    """Solve one task with the coding agent, memory retrieval on, and write the new memory.
    Exits 1 when the verify command fails."""
    from langgraph_mtl.agent import (
        AgentContext,
        Limits,
        RetrievalConfig,
        WriterConfig,
        create_coding_agent,
    )
    from langgraph_mtl.agent.workspace import outside_workspace
    from langgraph_mtl.memory.records import validate_domain, validate_task_id

    text = _read_task(task)
    try:
        domain = validate_domain(domain, "--domain")
        task_id = validate_task_id(task_id, "--task-id") if task_id is not None else None
    except ValueError as exc:
        raise CliError(str(exc), code=2) from None
    if workspace is not None and workspace.exists() and not workspace.is_dir():
        raise CliError(f"--workspace {workspace} is a file; give a directory", code=2)
    for name in protect or []:
        if why := outside_workspace(name):
            raise CliError(f"--protect {name!r} {why}; name a path inside the workspace", code=2)
        if workspace is None or not (workspace / name).exists():
            raise CliError(f"--protect {name!r}: no such file or folder in --workspace", code=2)
    check_model(model)
    memories = open_for_write(pool, collection)
    made = workspace is None
    ws = Path(tempfile.mkdtemp(prefix="mtl-ws-")) if made else workspace
    assert ws is not None
    state: dict[str, Any] = {}
    try:
        with resources.chat_model(model) as chat:
            graph = create_coding_agent(
                chat,
                pool=memories,
                retrieval=RetrievalConfig(memory_types=memory_type or [MemoryType.INSIGHT], k=k),
                writer=WriterConfig(
                    memory_types=write_type or [MemoryType.INSIGHT], judge=None if verify else chat
                ),
                limits=Limits(steps=steps),
                policies=policies.value,
            ).compile()
            context = AgentContext(
                domain=domain,
                task_id=task_id,
                workspace=str(ws),
                verify_command=verify,
                check_command=check,
                protected=tuple(protect or ()),
                write=write,
                include_own_domain=include_own_domain,
            )
            if not as_json:
                out.rule(Text(f"{domain} task in {ws}"))
            state = run_agent(graph, text, context, recursion_limit=4 * steps + 10, quiet=as_json)
    finally:
        if made and ws.is_dir() and not any(ws.iterdir()):
            shutil.rmtree(ws, ignore_errors=True)  # nothing was made: leave nothing behind
    verified = state.get("verified")
    if as_json:
        print_json(
            {
                "verified": verified,
                "steps": state.get("steps_taken", 0),
                "workspace": str(ws),
                "verification": state.get("verification", ""),
                "memory_status": state.get("memory_status"),
                "receipts": state.get("memory_receipts", []),
                "memory_written": state.get("memory_written", []),
                "memory_write_status": state.get("memory_write_status"),
                "pool_memories": memories.count(),
            }
        )
    else:
        verdict = "unverified" if verified is None else ("PASSED" if verified else "FAILED")
        out.print(
            f"result: {verdict} after {state.get('steps_taken', 0)} steps; "
            f"pool has {memories.count()} memories; workspace {ws}",
            markup=False,
        )
    if verified is False:
        raise typer.Exit(1)


DEMO_TASKS = [  # (domain, task id, task, verify command, starting files)
    (
        "shell",
        "demo-shell-count",
        "data.txt holds some lines of text. Write a shell script count.sh that prints the "
        "number of lines in data.txt, then run `bash count.sh` to check it.",
        "bash count.sh | grep -qw 3",
        {"data.txt": "apples\npears\nplums\n"},
    ),
    (
        "python",
        "demo-python-add",
        "Create add.py defining a Python function add(a, b) that returns a + b. Run "
        "python3 -c 'from add import add; print(add(2, 3))' and check it prints 5.",
        "python3 -c 'from add import add; assert add(2, 3) == 5'",
        {},
    ),
]


def demo(
    model: ModelOpt = "local",
    pool: PoolOpt = None,
    collection: CollectionOpt = "mtl_demo",
) -> None:
    """Two real tasks: a shell task writes a memory, a python task retrieves it across domains."""
    from langgraph_mtl.agent import (
        AgentContext,
        Limits,
        RetrievalConfig,
        WriterConfig,
        create_coding_agent,
    )

    check_model(model)
    memories = open_for_write(pool, collection)
    stale = [r.id for r in memories.list_records()]
    if stale:  # the demo starts from an empty collection of its own
        memories.delete(stale)
    results: list[bool | None] = []
    with resources.chat_model(model) as chat:
        graph = create_coding_agent(  # trajectory memories need no model call: always written
            chat,
            pool=memories,
            retrieval=RetrievalConfig(memory_types=("trajectory", "insight")),
            writer=WriterConfig(memory_types=("trajectory", "insight")),
            limits=Limits(steps=6),
        ).compile()
        for domain, task_id, task, verify, files in DEMO_TASKS:
            with tempfile.TemporaryDirectory(prefix=f"mtl-{domain}-") as ws:
                for name, text in files.items():
                    (Path(ws) / name).write_text(text)
                out.rule(Text(f"{domain} task {task_id}"))
                out.print(task, markup=False)
                context = AgentContext(  # the demo's checks are the agent's to run too
                    domain=domain,
                    task_id=task_id,
                    workspace=ws,
                    verify_command=verify,
                    check_command=verify,
                )
                state = run_agent(graph, task, context, recursion_limit=40)
            results.append(state.get("verified"))
            out.print(f"verified: {state.get('verified')}")
            kept = [memories.get(i) for i in state.get("memory_written", [])]
            kinds = sorted({r.memory_type.value for r in kept if r is not None})
            status = str(state.get("memory_write_status", ""))
            out.print(
                f"memories written: {', '.join(kinds) or 'none'}"
                + (f" ({status})" if status not in ("", "ok") else ""),
                markup=False,
            )
    crossed = [r for r in state.get("memory_receipts", []) if r["domain"] == "shell"]
    out.rule("memory transfer")
    solved = sum(bool(v) for v in results)
    out.print(f"tasks solved: {solved} of {len(results)}")
    if not crossed:
        raise CliError("the python task retrieved no shell memory: memory transfer did not happen")
    out.print(
        f"the python task retrieved {len(crossed)} memories written by the shell task "
        f"(best similarity {crossed[0]['similarity']:.3f})"
    )


def serve(
    variant: Annotated[Variant, typer.Option(help="Pinned weights.")] = Variant.small,
    model_path: Annotated[Path | None, typer.Option(help="Any GGUF file instead.")] = None,
    port: Annotated[
        int | None, typer.Option(min=1, max=65535, help="Port (default: a free one).")
    ] = None,
    threads: Annotated[int | None, typer.Option(min=1, help="CPU threads.")] = None,
) -> None:
    """Run the local model server (OpenAI protocol) until Ctrl-C."""
    from langgraph_mtl.cli.errors import require_extra
    from langgraph_mtl.local.server import LocalModelServer

    if model_path is not None and not model_path.is_file():
        raise CliError(f"--model-path: no GGUF file at {model_path}", code=2)
    require_extra("local", "xllamacpp")
    server = LocalModelServer(model_path, variant=variant.value, port=port, threads=threads)
    with out.status("starting the local model server"):
        try:
            server.start()
        except (RuntimeError, TimeoutError) as exc:
            raise CliError(str(exc).splitlines()[0]) from exc
    out.print(f"serving at {server.base_url}  (export MTL_LOCAL_BASE_URL={server.base_url})")
    with contextlib.suppress(KeyboardInterrupt):
        while server.healthy():
            time.sleep(1)
    server.stop()


def register(app: typer.Typer) -> None:
    """Add the agent commands to ``app``."""
    app.command()(solve)
    app.command()(demo)
    app.command()(serve)
