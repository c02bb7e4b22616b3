"""The neighbours benchmark's rule and its corpora: development sets only."""

from __future__ import annotations

import numpy as np

from benchmarks.neighbours import _nearest
from benchmarks.screening import CORPORA, FRESH, TESTS
from langgraph_mtl.hygiene.screening.corpus_scanners import NeighbourScanner


def test_a_text_is_flagged_only_near_an_attack_and_closer_to_it_than_to_benign_text():
    scanner = NeighbourScanner(embeddings=None, threshold=0.9, margin=0.0)
    assert scanner.flags(0.96, 0.28)
    assert not NeighbourScanner(None, threshold=0.97, margin=0.0).flags(0.96, 0.28)  # not close
    assert not NeighbourScanner(None, threshold=0.75, margin=0.3).flags(0.8, 0.6)  # benign near


def test_the_nearest_texts_are_taken_from_the_known_ones_only():
    similarity = np.array([0.9, 0.5, 0.99, 0.7])
    attack = np.array([True, False, True, False])
    known = np.array([True, True, False, True])
    assert _nearest(similarity, attack, known) == (0.9, 0.7)


def test_the_benchmark_reads_no_test_split():
    assert set(FRESH) <= set(CORPORA)
    assert not set(TESTS) & set(CORPORA)
    assert "screening_dev16" in FRESH and "screening_dev15" not in FRESH
