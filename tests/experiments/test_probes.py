"""Calls beyond a task's tests: near the tests' own, never one of them, the same every time."""

from __future__ import annotations

import pytest
from langgraph_mtl_experiments.verifiers.probes import agrees, probe_calls

CALLS = [
    (([1, 2, 3], "abc", 4), {}),
    (([5, 6], "xyz", 7), {"flag": True}),
    (((1.5, 2.5), "three one five", -2), {}),
]


def test_probes_are_new_the_same_every_time_and_keep_types_and_signs():
    probes = probe_calls(CALLS, 24, seed="task")
    assert len(probes) == 24
    assert probes == probe_calls(CALLS, 24, seed="task")
    assert probes != probe_calls(CALLS, 24, seed="another task")
    originals = {repr(c) for c in CALLS}
    assert not any(repr(p) in originals for p in probes)
    for args, kwargs in probes:
        assert [type(a) for a in args] in (
            [list, str, int],
            [tuple, str, int],
        )
        assert kwargs in ({}, {"flag": True})  # a boolean stays as it is
        assert args[2] != 0  # signs kept (4, 7 and -2 move away from 0 or stay)
        assert all(type(x) is (float if type(args[0]) is tuple else int) for x in args[0])


def test_a_sentence_is_changed_word_by_word_mostly():
    calls = [(("three one five",), {})]
    words = {"three", "one", "five"}
    probes = probe_calls(calls, 12, seed="words")
    whole_words = [p for p in probes if set(p[0][0].split()) <= words]
    assert len(whole_words) >= len(probes) // 2


def test_some_probes_mix_the_tests_own_arguments():
    calls = [(("Earth", "Mars"), {}), (("Venus", "Jupiter"), {})]
    probes = {p[0] for p in probe_calls(calls, 24, seed="planets")}
    assert {("Mars", "Earth"), ("Earth", "Jupiter"), ("Venus", "Mars")} & probes


def test_no_calls_no_probes():
    assert probe_calls([], 10, seed="x") == []
    assert probe_calls([((), {})], 10, seed="x") == []


@pytest.mark.parametrize(
    ("got", "expected", "same"),
    [
        (0.1 + 0.2, 0.3, True),
        (1, 1.0, True),
        (True, 1, True),
        (float("nan"), float("nan"), True),
        (1.0, float("nan"), False),
        ([1, 2], (1, 2), False),
        ([1.0, [2.0000000001]], [1.0, [2.0]], True),
        ({"a": 1}, {"a": 2}, False),
        ("1", 1, False),
        (None, None, True),
        (0.31, 0.3, False),
    ],
)
def test_answers_agree_as_plain_data_with_float_tolerance(got, expected, same):
    assert agrees(got, expected) is same
