"""The neighbours benchmark's rule and its corpora: development sets only."""

from __future__ import annotations

import numpy as np

from benchmarks.neighbours import FRESH, _flagged
from benchmarks.screening import CORPORA, TESTS


def test_a_text_is_flagged_only_near_an_attack_and_closer_to_it_than_to_benign_text():
    known = np.array([[1.0, 0.0], [0.0, 1.0]])
    attack = np.array([True, False])
    near_attack = np.array([0.96, 0.28])
    assert _flagged(known, attack, near_attack, 0.9, 0.0)
    assert not _flagged(known, attack, near_attack, 0.97, 0.0)  # not similar enough
    assert not _flagged(known, attack, np.array([0.8, 0.6]), 0.75, 0.3)  # benign too close


def test_the_benchmark_reads_no_test_split():
    assert set(FRESH) <= set(CORPORA)
    assert not set(TESTS) & set(CORPORA)
    assert "screening_dev16" in FRESH and "screening_dev15" not in FRESH
