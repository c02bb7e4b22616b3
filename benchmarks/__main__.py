"""Speed benchmarks: `python -m benchmarks` (or `make bench`) prints the numbers and plots them.

1. the default embedder's throughput (sentences/s, 1 intra-op thread);
2. at each pool size (default 10k, 100k and 1M memories): the retrieval node against the index's
   own speed (embed + unfiltered query of the same index) in the same run, recall@3 against
   brute force, and the writer node's own cost (:mod:`benchmarks.scale`);
3. JSONL import with vectors against a raw ``collection.add`` (:mod:`benchmarks.imports`);
4. redaction and screening on hostile text: growth for 4x the length (:mod:`benchmarks.hostile`);
5. screening: a dot inside a word at every word position of every corpus text changes no
   verdict (:mod:`benchmarks.screening`; the tests try a ninth of the positions), and the
   rules' prefilter against every rule run on every text (same verdicts, the speed ratio).

Results go to ``benchmarks/results/latest.json`` and ``benchmarks/results/retrieval.png``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from rich.console import Console

from benchmarks import hostile, screening
from benchmarks.data import memory_texts
from benchmarks.imports import import_ratio
from benchmarks.scale import as_dicts, run_sizes
from langgraph_mtl.pool.embeddings import MiniLMEmbeddings

RESULTS = Path(__file__).parent / "results"
console = Console()


def bench_embedder() -> float:
    embedder = MiniLMEmbeddings()
    texts = memory_texts(2000, seed=1)
    embedder.embed_array(texts[:64])
    start = time.perf_counter()
    embedder.embed_array(texts)
    rate = len(texts) / (time.perf_counter() - start)
    console.print(f"default embedder (MiniLM int8, 1 thread): [bold]{rate:.0f} sentences/s[/]")
    return rate


def plot(sizes: list[dict[str, Any]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    x = [s["size"] for s in sizes]
    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    ax.plot(x, [s["node_p50_ms"] for s in sizes], "o-", label="retrieval node p50")
    ax.plot(x, [s["node_p95_ms"] for s in sizes], "o:", label="retrieval node p95")
    ax.plot(x, [s["limit_p50_ms"] for s in sizes], "s--", label="embed + unfiltered index query")
    ax.plot(x, [s["writer_p50_ms"] for s in sizes], "^-.", label="writer node p50 (no model)")
    ax.set_xscale("log")
    ax.set_xlabel("memories in the pool")
    ax.set_ylabel("milliseconds")
    ax.set_title("Leave-one-domain-out retrieval against the index's own speed")
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="10000,100000,1000000", help="pool sizes")
    parser.add_argument("--queries", type=int, default=200, help="queries per size")
    parser.add_argument("--import-records", type=int, default=20000, help="records imported")
    parser.add_argument("--out", type=Path, default=RESULTS, help="where results are written")
    args = parser.parse_args()
    rate = bench_embedder()
    sizes = run_sizes(
        [int(s) for s in args.sizes.split(",")], memory_texts(args.queries, seed=7), console
    )
    imported = import_ratio(args.import_records, console)
    hostile_text = hostile.report()
    rows = [row for name in screening.CORPORA for row in screening.load(name)]
    dots = screening.dots_that_change_a_verdict(rows)
    console.print(f"screening: a dot inside a word changed {len(dots)} verdicts (every position)")
    prefilter = screening.prefilter_speedup([row["text"] for row in rows])
    console.print(
        f"screening prefilter: {prefilter['speedup']}x the rules run on every text "
        f"(same verdicts: {prefilter['same_verdicts']})"
    )
    args.out.mkdir(parents=True, exist_ok=True)
    results: dict[str, Any] = {
        "embedder_sentences_per_s": round(rate),
        "sizes": as_dicts(sizes),
        "import": imported,
        "hostile_text": hostile_text,
        "dots_that_change_a_verdict": len(dots),
        "screening_prefilter": prefilter,
    }
    (args.out / "latest.json").write_text(json.dumps(results, indent=2) + "\n")
    plot(results["sizes"], args.out / "retrieval.png")
    console.print(f"results: {args.out / 'latest.json'}, plot: {args.out / 'retrieval.png'}")
    if not hostile_text["target_met"]:
        raise SystemExit("hostile text: redaction or screening grew faster than linearly")
    if dots:
        raise SystemExit(f"screening: a dot inside a word changed a verdict: {dots[0]!r}")
    if not prefilter["same_verdicts"]:
        raise SystemExit("screening prefilter: a verdict differs from running every rule")


if __name__ == "__main__":
    main()
