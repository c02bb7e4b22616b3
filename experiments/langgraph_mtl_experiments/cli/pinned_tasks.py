"""The tasks a run uses, pinned in its results folder (``tasks.json``) on its first invocation
and named exactly by ``--task-list``: every invocation of a run, on any machine, uses the
same tasks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from langgraph_mtl.cli.errors import CliError
from langgraph_mtl_experiments.cli.support import console

__all__ = ["pinned_domains", "read_listed"]


def read_listed(path: Path, split: str) -> dict[str, list[str]]:
    """``--task-list``: each domain's tasks of ``split`` named in ``path``."""
    from langgraph_mtl_experiments.task_lists import read_task_lists

    if not path.is_file():
        raise CliError(f"--task-list {path}: no such file", code=2)
    try:
        lists = read_task_lists(path)
    except ValueError as exc:
        raise CliError(f"--task-list {exc}", code=2) from None
    named = {name: splits[split] for name, splits in lists.items() if splits.get(split)}
    if not named:
        raise CliError(f"--task-list {path}: it names no {split} tasks", code=2)
    return named


def pinned_domains(
    loaders: list[Any],
    path: Path,
    *,
    source_limit: int | None,
    limit: int | None,
    split: str = "eval",
    listed: dict[str, list[str]] | None = None,
) -> list[Any]:
    """The domains with their tasks taken from the run's ``tasks.json`` (recorded there on
    the first invocation and extended by a larger limit), so every invocation of a run, on
    any machine, uses the same tasks (see :mod:`langgraph_mtl_experiments.task_lists`).
    ``listed`` (``--task-list``) names each domain's tasks of ``split`` exactly; they are
    recorded too, and must be what the run recorded before."""
    from langgraph_mtl_experiments.task_lists import (
        ListedDomain,
        PinnedDomain,
        read_task_lists,
        write_task_lists,
    )

    try:
        lists = read_task_lists(path)
    except ValueError as exc:
        raise CliError(f"{exc}; restore it from git or delete it to choose tasks again") from None
    if listed is not None:
        unknown = sorted(set(listed) - {loader.name for loader in loaders})
        if unknown:
            raise CliError(
                f"--task-list names tasks of {', '.join(unknown)}: add to --domains or remove "
                "them from the list",
                code=2,
            )
    pinned = []
    for loader in loaders:  # data and repo tasks are verified on first use: say so while it runs
        splits = lists.setdefault(loader.name, {})
        domain = PinnedDomain(loader, splits)
        if listed is not None:
            ids = listed.get(loader.name)
            if not ids:
                raise CliError(f"--task-list names no {split} tasks of {loader.name}", code=2)
            if splits.get(split) and splits[split] != ids:
                raise CliError(
                    f"{path}: this run recorded other {split} tasks of {loader.name} than "
                    "--task-list names; give another --out for a new run",
                    code=2,
                )
            splits[split] = list(ids)
            domain = ListedDomain(domain, split, ids)
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
