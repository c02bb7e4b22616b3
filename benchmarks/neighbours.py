"""Would the nearest-known-attacks scanner pay at a lower threshold? `python -m
benchmarks.neighbours` measures it alone, on the development corpora only (never the test
splits), at several cosine thresholds under the pool's default embedder:

- forward in time: each fresh round (``screening_dev16`` on) against the corpora committed
  before it, as the scanner would have met it: its injections caught and its benign texts
  flagged;
- leave one corpus out: every benign development text against all the other corpora.

A text is flagged when its nearest attack is at least the threshold similar and ``margin``
closer than its nearest benign text (:class:`~langgraph_mtl.hygiene.screening.scanners.
NeighbourScanner`)."""

from __future__ import annotations

import argparse

import numpy as np
from rich.console import Console
from rich.table import Table

from benchmarks.screening import CORPORA, load
from langgraph_mtl.pool.embeddings import MiniLMEmbeddings

FRESH = tuple(
    name for name in CORPORA if name[len("screening_dev") :].isdigit() and int(name[13:]) >= 16
)
THRESHOLDS = (0.7, 0.75, 0.8, 0.85, 0.92)


def _flagged(
    vectors: np.ndarray, attack: np.ndarray, query: np.ndarray, t: float, m: float
) -> bool:
    similarity = vectors @ query
    nearest_attack, nearest_benign = similarity[attack].max(), similarity[~attack].max()
    return bool(nearest_attack >= t and nearest_attack - nearest_benign >= m)


def measure(margin: float = 0.0) -> list[dict[str, float | int]]:
    """Per threshold: fresh-round injections caught and benign texts flagged (forward in
    time), and benign development texts flagged (leave one corpus out)."""
    rows = [(index, row) for index, name in enumerate(CORPORA) for row in load(name)]
    vectors = np.asarray(MiniLMEmbeddings().embed_documents([r["text"] for _, r in rows]))
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    corpus = np.array([index for index, _ in rows])
    attack = np.array([row["label"] == "injection" for _, row in rows])
    fresh = {CORPORA.index(name) for name in FRESH}
    out = []
    for t in THRESHOLDS:
        caught = injections = fresh_flagged = fresh_benign = flagged = benign = 0
        for i, (index, _) in enumerate(rows):
            if index in fresh:
                before = corpus < index
                hit = _flagged(vectors[before], attack[before], vectors[i], t, margin)
                injections += bool(attack[i])
                caught += bool(attack[i]) and hit
                fresh_benign += not attack[i]
                fresh_flagged += (not attack[i]) and hit
            if not attack[i]:
                others = corpus != index
                benign += 1
                flagged += _flagged(vectors[others], attack[others], vectors[i], t, margin)
        out.append(
            {
                "threshold": t,
                "fresh_caught": caught,
                "fresh_injections": injections,
                "fresh_flagged": fresh_flagged,
                "fresh_benign": fresh_benign,
                "benign_flagged": flagged,
                "benign": benign,
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
