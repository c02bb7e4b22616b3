"""Balanced blocks: a run's evaluation tasks, the domains taken in turn, cut into blocks of a
fixed size. Every condition and attempt of a block's tasks runs before the next block starts,
so a run stopped between blocks (an interim look, the end of a stretch of work) holds complete
pairs, and drift over time (a warmer cache, a busier machine) falls on every arm alike."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import zip_longest

from langgraph_mtl_experiments.task_lists import ListedDomain
from langgraph_mtl_experiments.tasks import Domain

__all__ = ["Block", "block_domains", "interleaved", "task_blocks"]

Block = dict[str, list[str]]  # domain -> its task ids in the block, in order

_GAP = object()


def interleaved(lists: Sequence[tuple[str, Sequence[str]]]) -> list[tuple[str, str]]:
    """``(domain, task id)`` taking one task of each domain in turn, in the given order of
    domains; a domain whose tasks run out drops out of the turn."""
    rounds = zip_longest(*([(name, i) for i in ids] for name, ids in lists), fillvalue=_GAP)
    return [pair for turn in rounds for pair in turn if pair is not _GAP]  # type: ignore[misc]


def task_blocks(lists: Sequence[tuple[str, Sequence[str]]], size: int) -> list[Block]:
    """The interleaved tasks in blocks of ``size`` (the last may be smaller).

    Raises:
        ValueError: ``size`` is below 1.
    """
    if size < 1:
        raise ValueError(f"block size: expected 1 or more tasks, got {size}")
    order = interleaved(lists)
    blocks: list[Block] = []
    for start in range(0, len(order), size):
        block: Block = {}
        for name, task_id in order[start : start + size]:
            block.setdefault(name, []).append(task_id)
        blocks.append(block)
    return blocks


def block_domains(
    domains: Sequence[Domain], *, split: str, limit: int | None, size: int
) -> list[list[Domain]]:
    """Per block, the domains that have tasks in it, each holding exactly its tasks of the
    block (``limit`` tasks of ``split`` per domain, as a run without blocks takes them)."""
    lists = [(d.name, [t.task_id for t in d.tasks(split, limit=limit)]) for d in domains]
    by_name = {d.name: d for d in domains}
    return [
        [ListedDomain(by_name[name], split, ids) for name, ids in block.items()]
        for block in task_blocks(lists, size)
    ]
