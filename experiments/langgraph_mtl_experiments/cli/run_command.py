"""`mtl experiment run`: phase 1 (memories from the source split), then each condition on the
evaluation split; resumable, with its tasks pinned in the results directory."""

from __future__ import annotations

import contextlib
import shlex
from pathlib import Path
from typing import Annotated, Any

import typer

from langgraph_mtl.agent.edit_format import DEFAULT_EDITS
from langgraph_mtl.cli.errors import CliError
from langgraph_mtl_experiments.cli.pinned_tasks import pinned_domains, read_listed
from langgraph_mtl_experiments.cli.support import (
    CONDITION_NAMES,
    DOMAIN_NAMES,
    MEMORY_RUNS,
    POOL_COLLECTION,
    POOL_FOLDER,
    POOL_SNAPSHOT,
    SWEEP_NAMES,
    TASK_LISTS,
    EditsOpt,
    RepoStepsOpt,
    StepsOpt,
    UnsafeOpt,
    agent_settings,
    commands_of,
    console,
    domain_named,
    progress_bar,
    record_command,
    reporter,
    require_isolation,
    task_file_domains,
)


def run(
    out: Annotated[Path, typer.Option(help="Results directory (resumable).")],
    domains: Annotated[
        str,
        typer.Option(
            help=f"Comma-separated domains: {', '.join(DOMAIN_NAMES)} or any installed package's "
            "(mtl experiment domains lists them); empty with --tasks."
        ),
    ] = "python,rust",
    tasks: Annotated[
        str,
        typer.Option(
            help="Task files of your own, comma-separated: each a domain (JSON lines; see the "
            "README). Their folders are hidden from the agent."
        ),
    ] = "",
    hide: Annotated[
        list[str] | None,
        typer.Option(help="A folder or file the agent's commands must not see (repeatable)."),
    ] = None,
    agent_factory: Annotated[
        str,
        typer.Option(
            "--agent",
            help="module:function building your own agent graph for each condition (see the "
            "README); the prebuilt coding agent when not given.",
        ),
    ] = "",
    conditions: Annotated[
        str, typer.Option(help=f"Comma-separated conditions: {', '.join(CONDITION_NAMES)}.")
    ] = "zero-shot,mtl-trajectory,mtl-insight",
    sweep: Annotated[
        str, typer.Option(help=f"Add a sweep's conditions: {', '.join(SWEEP_NAMES)}.")
    ] = "",
    limit: Annotated[int, typer.Option(min=1, help="Evaluation tasks per domain.")] = 10,
    listed: Annotated[
        Path | None,
        typer.Option(
            "--task-list",
            help="Evaluate exactly the tasks this file names, in its order (the shape of a "
            'run\'s tasks.json: {domain: {"eval": [task ids]}}), e.g. a pre-registered list; '
            "--limit does not apply.",
        ),
    ] = None,
    block_size: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="Evaluate in balanced blocks of this many tasks (the domains taken in turn): "
            "every condition and attempt of a block before the next block starts.",
        ),
    ] = None,
    blocks: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="With --block-size: stop once this many blocks are complete (an interim "
            "look, or a stretch of work); every block when not given.",
        ),
    ] = None,
    split: Annotated[
        str,
        typer.Option(
            help="Where conditions are evaluated: eval (the evaluation split) or source (for "
            "development runs, which must not touch the evaluation tasks; no memories are made)."
        ),
    ] = "eval",
    source_limit: Annotated[
        int, typer.Option(min=1, help="Memory-generation tasks per domain.")
    ] = 10,
    attempts: Annotated[int, typer.Option(min=1, help="Attempts per task (k of pass@k).")] = 3,
    steps: StepsOpt = 8,
    repo_steps: RepoStepsOpt = 20,
    edits: EditsOpt = DEFAULT_EDITS,
    concurrency: Annotated[
        int, typer.Option(min=1, help="Agent runs at once (and local model request slots).")
    ] = 1,
    model: Annotated[str, typer.Option(envvar="MTL_MODEL", help="The evaluated model.")] = "local",
    temperature: Annotated[
        float | None,
        typer.Option(
            min=0.0,
            max=2.0,
            help="Sampling temperature (default: 0.7 for local models, so the attempts "
            "of pass@k differ; the provider's default otherwise).",
        ),
    ] = None,
    memory_model: Annotated[
        str, typer.Option(help="Model that makes the memories (cross-model; default: --model).")
    ] = "",
    pool_dir: Annotated[
        Path | None, typer.Option("--pool", help="Use this pool (e.g. another run's) as is.")
    ] = None,
    rerun_same_prompt: Annotated[
        bool,
        typer.Option(
            help="At temperature 0, an attempt given exactly the memories of an attempt already "
            "run on its task (none: zero-shot's) reuses that attempt's outcome; this runs it again."
        ),
    ] = False,
    memories_only: Annotated[
        bool,
        typer.Option(
            help="Make phase 1's memories (and the pool snapshot) and stop: no condition is "
            "evaluated yet (a pool to develop on before the run itself)."
        ),
    ] = False,
    unsafe: UnsafeOpt = False,
    executor: Annotated[
        str,
        typer.Option(
            help="Where attempts run: local (threads in this process) or ray (workers on a Ray "
            "cluster, each with its own model; --concurrency of them)."
        ),
    ] = "local",
    address: Annotated[
        str | None,
        typer.Option(
            help="The Ray cluster to join (ray://host:10001 or auto); a new local one "
            "when not given."
        ),
    ] = None,
) -> None:
    """Phase 1 (memories from each domain's source split, unless the pool has some), then each
    condition on the eval split; writes results.jsonl, pool snapshots and report.md."""
    from langgraph_mtl.cli.resources import check_model
    from langgraph_mtl.home import mtl_home
    from langgraph_mtl.models import parse_model_spec
    from langgraph_mtl.pool.opening import open_pool
    from langgraph_mtl_experiments.attempts import ResultsFileError
    from langgraph_mtl_experiments.cli.run_pool import refill_pool
    from langgraph_mtl_experiments.cli.workers import EXECUTORS, Workers
    from langgraph_mtl_experiments.code_identity import CodeChanged, check_code
    from langgraph_mtl_experiments.conditions import resolve_conditions
    from langgraph_mtl_experiments.pools import write_snapshot
    from langgraph_mtl_experiments.report import write_report
    from langgraph_mtl_experiments.runner import (
        ResultStore,
        generate_memories,
        pending_sources,
        run_condition,
        supported_k,
    )

    require_isolation(unsafe)
    if executor not in EXECUTORS:
        raise CliError(f"--executor: expected local or ray, got {executor!r}", code=2)
    if address and executor != "ray":
        raise CliError("--address names a Ray cluster: give it with --executor ray", code=2)
    own = task_file_domains(tasks)
    hidden = (*(hide or ()), *(str(d.folder) for d in own))  # task files' folders: always
    agent = agent_settings(steps, repo_steps, edits, hide=hidden, factory=agent_factory)
    if split not in ("eval", "source"):
        raise CliError(f"--split: expected eval or source, got {split!r}", code=2)
    if blocks is not None and block_size is None:
        raise CliError("--blocks counts blocks: give --block-size too", code=2)
    if memories_only and (split != "eval" or pool_dir is not None):
        raise CliError(
            "--memories-only makes a run's own pool: use it without --pool and --split source",
            code=2,
        )

    def sampling(spec: str) -> float | None:
        if temperature is not None:
            return temperature
        return 0.7 if parse_model_spec(spec).is_local else None

    evaluated_at = sampling(model)

    try:
        chosen = resolve_conditions(conditions, sweep)
    except ValueError as exc:
        raise CliError(str(exc), code=2) from None
    loaders = [domain_named(d) for d in domains.split(",") if d.strip()] + own
    if not loaders:
        raise CliError("no domains: give --domains, --tasks or both", code=2)
    check_model(model)
    if memory_model:
        check_model(memory_model)
    if out.exists() and not out.is_dir():
        raise CliError(f"--out {out} is a file; give a directory", code=2)
    store = ResultStore(out / "results.jsonl")
    try:  # rows another program wrote are named before any work, not hours into it
        stored = store.by_key()
    except ResultsFileError as exc:
        raise CliError(str(exc), code=2) from None
    out.mkdir(parents=True, exist_ok=True)
    try:  # every row of a run comes from the same code
        made = (out / MEMORY_RUNS).is_file() and (out / MEMORY_RUNS).stat().st_size > 0
        code = check_code(out, has_rows=bool(stored) or made)
    except CodeChanged as exc:
        raise CliError(str(exc), code=2) from None
    console.print(f"code: {code.name}" + ("" if code.pinned else " (not pinned: not a commit)"))
    given = {
        "out": out,
        "domains": domains,
        "tasks": tasks,
        "hide": ",".join(hide or ()),
        "agent": agent_factory,
        "conditions": conditions,
        "sweep": sweep,
        "limit": limit,
        "task-list": listed,
        "block-size": block_size,
        "blocks": blocks,
        "split": split,
        "source-limit": source_limit,
        "attempts": attempts,
        "steps": steps,
        "repo-steps": repo_steps,
        "edits": edits,
        "concurrency": concurrency,
        "model": model,
        "temperature": evaluated_at,
        "memory-model": memory_model,
        "pool": pool_dir,
        "rerun-same-prompt": rerun_same_prompt,
        "memories-only": memories_only,
        "executor": executor,
        "address": address,
    }
    command = "mtl experiment run " + " ".join(
        f"--{name}" if value is True else f"--{name} {shlex.quote(str(value))}"
        for name, value in given.items()
        if value is not False and value not in ("", None)  # 0.0 == False: compared by identity
    )  # every setting, defaults included, so the run can be repeated exactly
    record_command(out, command)
    pool = open_pool(str(pool_dir or out / POOL_FOLDER), collection=POOL_COLLECTION)
    if pool_dir is None:
        refill_pool(pool, out / POOL_SNAPSHOT, ResultStore(out / MEMORY_RUNS))
    loaders = pinned_domains(
        loaders,
        out / TASK_LISTS,
        source_limit=source_limit,
        limit=limit,
        split=split,
        listed=read_listed(listed, split) if listed else None,
    )
    # phase 1: only what is missing, and only the memory types the conditions take from the
    # pool (a file's memories need none)
    needed = sorted({t for c in chosen if c.given != "file" for t in c.memory_types})
    making = split == "eval" and pool_dir is None and needed
    setup: dict[str, Any] = {
        "pool": str(pool_dir or out / POOL_FOLDER),
        "collection": POOL_COLLECTION,
        "domains": {loader.name: loader for loader in loaders},
        "agent": agent,
        "memory_types": tuple(needed),
        "split": split,
        "limit": limit,
        "source_limit": source_limit,
        "env": {"MTL_HOME": str(mtl_home().resolve())},  # weights, task data, caches
    }
    engines = Workers(executor=executor, concurrency=concurrency, out=out, address=address, **setup)
    experiments: list[str] = []
    with progress_bar() as bar, contextlib.closing(engines):
        progress = reporter(bar)
        made_here = ResultStore(out / MEMORY_RUNS)
        if making and pending_sources(loaders, pool, limit=source_limit, store=made_here):
            maker_spec = memory_model or model
            maker, runs_on = engines.get(maker_spec, sampling(maker_spec))
            generate_memories(
                loaders,
                model=maker,
                pool=pool,
                limit=source_limit,
                agent=agent,
                memory_types=needed,
                progress=progress,
                store=made_here,
                executor=runs_on,
                model_name=maker_spec,
            )
        whole = write_snapshot(pool, out / POOL_SNAPSHOT)
        console.print(f"pool: {whole['memories']} memories, snapshot sha256 {whole['sha256']}")
        if memories_only:
            from langgraph_mtl_experiments.memory_yield import yield_lines

            kept = yield_lines(out)
            (out / "memories.md").write_text("\n".join(kept) + "\n", encoding="utf-8")
            console.print("\n".join(kept[4:-1]), markup=False)
            console.print(
                "--memories-only: no condition evaluated (memories.md says what was kept)"
            )
            return
        reuse = evaluated_at == 0 and not rerun_same_prompt  # same prompt, same reply
        rounds = [loaders]
        if block_size is not None:
            from langgraph_mtl_experiments.blocks import block_domains

            rounds = block_domains(loaders, split=split, limit=limit, size=block_size)
        ending = len(rounds) if blocks is None else min(blocks, len(rounds))
        chat, runs_on = engines.get(model, evaluated_at)  # phase 1's, when the same
        for number, block in enumerate(rounds[:ending], 1):
            for condition in chosen:
                run_condition(
                    condition,
                    block,
                    model=chat,
                    pool=pool,
                    store=store,
                    attempts=attempts,
                    limit=limit,
                    split=split,
                    agent=agent,
                    snapshot_dir=out / "snapshots",
                    progress=progress,
                    reuse_same_prompt=reuse,
                    experiments=experiments,
                    executor=runs_on,
                    model_name=model,
                )
            if block_size is not None:
                console.print(f"block {number} of {len(rounds)} complete")
    k = supported_k(store.rows())
    path = write_report(store.path, out_dir=out, pool=pool, k=k, command=commands_of(out))
    console.print(f"report: {path}")
    if experiments:
        more = f" ({len(experiments)} experiments; the last)" if len(experiments) > 1 else ""
        console.print(f"LangSmith{more}: {experiments[-1]}", markup=False)
