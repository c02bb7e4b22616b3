"""Would the nearest-known-attacks scanner pay at a lower threshold? `python -m
benchmarks.neighbours` measures it alone, on the development corpora only (never the test
splits), at several cosine thresholds under the pool's default embedder:

- forward in time: each fresh round (``screening_dev16`` on) against the corpora committed
  before it, as the scanner would have met it: its injections caught and its benign texts
  flagged;
- leave one corpus out: every benign development text against all the other corpora.

A text is flagged by the scanner's own decision
(:meth:`~langgraph_mtl.hygiene.screening.scanners.NeighbourScanner.flags`): its nearest attack
at least the threshold similar and ``margin`` closer than its nearest benign text."""

from __future__ import annotations

import argparse

import numpy as np
from rich.console import Console
from rich.table import Table

from benchmarks.screening import CORPORA, FRESH, load
from langgraph_mtl.hygiene.screening.corpus_scanners import NeighbourScanner
from langgraph_mtl.pool.embeddings import MiniLMEmbeddings

THRESHOLDS = (0.7, 0.75, 0.8, 0.85, 0.92)


def _nearest(similarity: np.ndarray, attack: np.ndarray, known: np.ndarray) -> tuple[float, float]:
    """A text's cosine to its nearest known attack and nearest known benign text."""
    return float(similarity[known & attack].max()), float(similarity[known & ~attack].max())


def measure(margin: float = 0.0) -> list[dict[str, float | int]]:
    """Per threshold: fresh-round injections caught and benign texts flagged (forward in
    time), and benign development texts flagged (leave one corpus out)."""
    rows = [(index, row) for index, name in enumerate(CORPORA) for row in load(name)]
    vectors = np.asarray(MiniLMEmbeddings().embed_documents([r["text"] for _, r in rows]))
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    similarity = vectors @ vectors.T
    corpus = np.array([index for index, _ in rows])
    attack = np.array([row["label"] == "injection" for _, row in rows])
    fresh = {CORPORA.index(name) for name in FRESH}
    # each text's nearest neighbours, found once for every threshold: (is an attack, cosines)
    forward = [
        (bool(attack[i]), _nearest(similarity[i], attack, corpus < index))
        for i, (index, _) in enumerate(rows)
        if index in fresh
    ]
    held_out = [
        _nearest(similarity[i], attack, corpus != index)
        for i, (index, _) in enumerate(rows)
        if not attack[i]
    ]
    out = []
    for t in THRESHOLDS:
        scanner = NeighbourScanner(embeddings=None, threshold=t, margin=margin)
        out.append(
            {
                "threshold": t,
                "fresh_caught": sum(a and scanner.flags(*near) for a, near in forward),
                "fresh_injections": sum(a for a, _ in forward),
                "fresh_flagged": sum(not a and scanner.flags(*near) for a, near in forward),
                "fresh_benign": sum(not a for a, _ in forward),
                "benign_flagged": sum(scanner.flags(*near) for near in held_out),
                "benign": len(held_out),
            }
        )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--margin", type=float, default=0.0)
    args = parser.parse_args()
    table = Table(title=f"the neighbours scanner alone (margin {args.margin})")
    for column in ("cosine >=", "fresh rounds: caught", "fresh rounds: flagged", "all benign"):
        table.add_column(column)
    for r in measure(args.margin):
        table.add_row(
            f"{r['threshold']:.2f}",
            f"{r['fresh_caught']} of {r['fresh_injections']}",
            f"{r['fresh_flagged']} of {r['fresh_benign']}",
            f"{r['benign_flagged']} of {r['benign']}",
        )
    Console().print(table)


if __name__ == "__main__":
    main()
