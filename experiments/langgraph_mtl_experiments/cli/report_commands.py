"""`mtl experiment report`, `compare` and `scaffold-tax`: the report of a results directory,
arms of any runs compared task by task, and the agent against the model's single reply."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from langgraph_mtl.agent.edit_format import DEFAULT_EDITS
from langgraph_mtl.cli.errors import USAGE, CliError
from langgraph_mtl.cli.options import JsonOpt
from langgraph_mtl_experiments.cli.support import (
    POOL_COLLECTION,
    POOL_FOLDER,
    POOL_SNAPSHOT,
    EditsOpt,
    RepoStepsOpt,
    StepsOpt,
    UnsafeOpt,
    agent_settings,
    commands_of,
    console,
    domain_named,
    progress_bar,
    reporter,
    require_isolation,
)

if TYPE_CHECKING:
    from langgraph_mtl.pool.memory_pool import MemoryPool


def _report_pool(out: Path) -> tuple[MemoryPool | None, str]:
    """The pool a report analyses: the run's own, else its committed ``pool-snapshot.jsonl``
    embedded again (a fresh clone has no pool folder), else none; and a note of which."""
    from langgraph_mtl.pool.location import SQLITE_FILE
    from langgraph_mtl.pool.opening import open_pool
    from langgraph_mtl_experiments.pools import pool_from_snapshot

    if (out / POOL_FOLDER / SQLITE_FILE).exists():
        return open_pool(str(out / POOL_FOLDER), collection=POOL_COLLECTION, create=False), ""
    saved = out / POOL_SNAPSHOT
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
    from langgraph_mtl_experiments.attempts import ResultsFileError
    from langgraph_mtl_experiments.report import write_report
    from langgraph_mtl_experiments.runner import ResultStore, summarize, supported_k

    results = out / "results.jsonl"
    if not results.is_file():
        raise CliError(f"no results at {results}: give a directory made by `mtl experiment run`")
    try:
        rows = list(ResultStore(results).rows())
    except ResultsFileError as exc:
        raise CliError(str(exc)) from None
    try:
        k = supported_k(rows, attempts)
    except ValueError as exc:
        raise CliError(
            f"--attempts {attempts}: {exc}; give a smaller --attempts or run more attempts",
            code=USAGE,
        ) from None
    pool, source = _report_pool(out)
    path = write_report(
        results, out_dir=out, pool=pool, k=k, command=commands_of(out), pool_source=source
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


def scaffold_tax(
    out: Annotated[Path, typer.Option(help="Results directory (resumable).")],
    domains: Annotated[str, typer.Option(help="Comma-separated domains.")] = "python",
    limit: Annotated[int, typer.Option(min=1, help="Evaluation tasks per domain.")] = 40,
    steps: StepsOpt = 8,
    repo_steps: RepoStepsOpt = 20,
    edits: EditsOpt = DEFAULT_EDITS,
    model: Annotated[str, typer.Option(envvar="MTL_MODEL", help="The model.")] = "local",
    temperature: Annotated[
        float, typer.Option(min=0.0, max=2.0, help="Sampling temperature.")
    ] = 0.0,
    unsafe: UnsafeOpt = False,
    approaches: Annotated[
        str,
        typer.Option(
            help="Comma-separated: single-reply, agent, agent:bare, agent:safe-edits, "
            "agent:small-model."
        ),
    ] = "single-reply,agent",
) -> None:
    """The agent against the same model's single reply, on the same tasks and server:
    pass@1, seconds and tokens per attempt (scaffold.jsonl, scaffold.md). The tasks are
    recorded in the folder's tasks.json (or taken from it), and a resumed run refuses to go
    on under other code."""
    from langgraph_mtl.cli.resources import chat_model, check_model
    from langgraph_mtl_experiments.cli.pinned_tasks import pinned_domains
    from langgraph_mtl_experiments.cli.support import TASK_LISTS
    from langgraph_mtl_experiments.code_identity import CodeChanged, check_code
    from langgraph_mtl_experiments.runner import ResultStore
    from langgraph_mtl_experiments.scaffold import (
        check_approaches,
        run_scaffold_tax,
        scaffold_table,
        write_scaffold_report,
    )

    require_isolation(unsafe)
    try:
        chosen = check_approaches(approaches.split(","))
    except ValueError as exc:
        raise CliError(f"--approaches: {exc}", code=2) from None
    loaders = [domain_named(d) for d in domains.split(",")]
    check_model(model)
    if out.exists() and not out.is_dir():
        raise CliError(f"--out {out} is a file; give a directory", code=2)
    out.mkdir(parents=True, exist_ok=True)
    store = ResultStore(out / "scaffold.jsonl")
    try:  # every row of a run comes from the same code
        code = check_code(out, has_rows=bool(store.by_key()))
    except CodeChanged as exc:
        raise CliError(str(exc), code=2) from None
    console.print(f"code: {code.name}" + ("" if code.pinned else " (not pinned: not a commit)"))
    loaders = pinned_domains(loaders, out / TASK_LISTS, source_limit=0, limit=limit)
    with progress_bar() as bar:
        progress = reporter(bar)

        with chat_model(model, temperature=temperature) as chat:
            rows = run_scaffold_tax(
                chat,
                loaders,
                store=store,
                limit=limit,
                agent=agent_settings(steps, repo_steps, edits),
                progress=progress,
                approaches=chosen,
            )
    command = (
        f"mtl experiment scaffold-tax --out {shlex.quote(str(out))} --domains {domains} "
        f"--limit {limit} --steps {steps} --repo-steps {repo_steps} --edits {edits} "
        f"--model {model} --temperature {temperature} --approaches {','.join(chosen)}"
    )
    path = write_scaffold_report(rows, out / "scaffold.md", command)
    console.print(scaffold_table(rows), markup=False)
    console.print(f"report: {path}")


def compare(
    rows: Annotated[
        list[str],
        typer.Argument(
            help="Results files (results.jsonl, scaffold.jsonl), each as PATH or NAME=PATH "
            "(its conditions then read as NAME/condition)."
        ),
    ],
    pair: Annotated[
        list[str],
        typer.Option(help="Two arms to compare, FIRST,SECOND (repeat for more pairs)."),
    ],
    as_json: JsonOpt = False,
) -> None:
    """Compare arms task by task: passes, the difference with Newcombe's 95% interval for
    paired data, and the exact McNemar p."""
    from dataclasses import asdict

    from langgraph_mtl_experiments.paired_proportions import (
        compare_arms,
        comparison_table,
        labelled_rows,
    )

    loaded = []
    for spec in rows:
        try:
            loaded += labelled_rows(spec)
        except (OSError, ValueError, KeyError) as exc:
            raise CliError(f"cannot read {spec}: {exc}; give a results file", code=USAGE) from None
    comparisons = []
    for arms in pair:
        first, _, second = arms.partition(",")
        if not first or not second:
            raise CliError(f"--pair {arms}: give two arms as FIRST,SECOND", code=USAGE)
        try:
            comparisons.append(compare_arms(loaded, first.strip(), second.strip()))
        except ValueError as exc:
            raise CliError(f"--pair {arms}: {exc}", code=USAGE) from None
    if as_json:
        from langgraph_mtl.cli.output import print_json

        print_json([asdict(c) for c in comparisons])
        return
    typer.echo(comparison_table(comparisons), nl=False)  # a markdown table, never wrapped
