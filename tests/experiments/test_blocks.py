"""Balanced blocks: the domains taken in turn, every task in exactly one block."""

from __future__ import annotations

import pytest
from helpers import TinyDomain
from langgraph_mtl_experiments.blocks import block_domains, interleaved, task_blocks


def test_the_domains_are_taken_in_turn_and_a_short_one_drops_out():
    lists = [("py", ["p1", "p2", "p3"]), ("sh", ["s1"]), ("rs", ["r1", "r2"])]
    assert interleaved(lists) == [
        ("py", "p1"), ("sh", "s1"), ("rs", "r1"), ("py", "p2"), ("rs", "r2"), ("py", "p3"),
    ]  # fmt: skip


def test_forty_five_tasks_of_four_domains_make_five_blocks_of_nine_each_task_once():
    sizes = {"python": 12, "rust": 14, "shell": 9, "data": 10}
    lists = [(name, [f"{name}/{i}" for i in range(n)]) for name, n in sizes.items()]
    blocks = task_blocks(lists, 9)
    assert [sum(len(ids) for ids in block.values()) for block in blocks] == [9] * 5
    seen = [task for block in blocks for ids in block.values() for task in ids]
    assert sorted(seen) == sorted(task for _, ids in lists for task in ids)
    assert blocks[0] == {
        "python": ["python/0", "python/1", "python/2"],
        "rust": ["rust/0", "rust/1"],
        "shell": ["shell/0", "shell/1"],
        "data": ["data/0", "data/1"],
    }
    assert blocks[-1] == {  # shell's nine ran out in block 4
        "python": ["python/9", "python/10", "python/11"],
        "rust": [f"rust/{i}" for i in range(9, 14)],
        "data": ["data/9"],
    }


def test_block_domains_hold_exactly_their_blocks_tasks():
    alpha, beta = TinyDomain("alpha"), TinyDomain("beta")
    evaluated = {d.name: [t.task_id for t in d.tasks("eval")] for d in (alpha, beta)}
    rounds = block_domains([alpha, beta], split="eval", limit=None, size=1)
    got = [(d.name, [t.task_id for t in d.tasks("eval", limit=99)]) for r in rounds for d in r]
    assert got == [(name, [task]) for name, task in interleaved(list(evaluated.items()))]
    assert len(got) == sum(len(ids) for ids in evaluated.values()) > 2
    assert rounds[0][0].tasks("source") == alpha.tasks("source")  # other splits are the domain's


def test_a_block_size_below_one_is_refused():
    with pytest.raises(ValueError, match="block size"):
        task_blocks([("a", ["x"])], 0)
