"""The experiment report: the paper-style table in markdown and PNG plots."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

from langgraph_mtl.experiments.analysis import TypeAnalysis, analyse
from langgraph_mtl.experiments.runner import ResultStore, summarize
from langgraph_mtl.pool import MemoryPool

__all__ = ["abstraction_table", "write_report"]


def _embeddings_by_type(pool: MemoryPool) -> dict[str, tuple[list[Any], list[str]]]:
    by_type: dict[str, tuple[list[Any], list[str]]] = defaultdict(lambda: ([], []))
    for record, vector in pool._iter(None, with_embeddings=True):
        vectors, labels = by_type[record.memory_type.value]
        vectors.append(vector)
        labels.append(record.domain)
    return dict(sorted(by_type.items()))


def abstraction_table(pool: MemoryPool) -> list[TypeAnalysis]:
    """DBI / LISI / abstraction per memory type over the pool's embeddings."""
    out = []
    for memory_type, (vectors, labels) in _embeddings_by_type(pool).items():
        if len(set(labels)) >= 2 and len(labels) >= 3:
            out.append(analyse(memory_type, np.asarray(vectors, dtype=float), labels))
    return out


def _plot_pass_rates(summary: dict[str, dict[str, Any]], k: int, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    conditions = list(summary)
    domains = [d for d in next(iter(summary.values())) if not d.startswith("avg")]
    width = 0.8 / max(len(conditions), 1)
    fig, ax = plt.subplots(figsize=(1.8 + 1.6 * len(domains), 4))
    for i, condition in enumerate(conditions):
        values = [
            summary[condition].get(d, {}).get(f"pass@{k}", 0.0) for d in [*domains, "avg (domains)"]
        ]
        ax.bar(np.arange(len(values)) + i * width, values, width, label=condition)
    ax.set_xticks(np.arange(len(domains) + 1) + width * (len(conditions) - 1) / 2)
    ax.set_xticklabels([*domains, "average"])
    ax.set_ylabel(f"pass@{k}")
    ax.set_ylim(0, 1)
    ax.legend(fontsize=8)
    ax.set_title("pass rate by condition")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def _plot_abstraction(rows: list[TypeAnalysis], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(8, 3.2))
    names = [r.memory_type for r in rows]
    axes[0].bar(names, [r.dbi for r in rows], color="#6c5ce7")
    axes[0].set_title("Davies-Bouldin index (higher = more mixed)")
    axes[1].bar(names, [r.lisi for r in rows], color="#00b894")
    axes[1].set_title("LISI (higher = more mixed)")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def _plot_tsne(pool: MemoryPool, path: Path) -> bool:
    """One t-SNE panel per memory type, coloured by source domain (like the paper's figure)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from sklearn.manifold import TSNE

    groups = {t: g for t, g in _embeddings_by_type(pool).items() if len(g[1]) >= 5}
    if not groups:
        return False
    fig, axes = plt.subplots(1, len(groups), figsize=(3.2 * len(groups), 3.2), squeeze=False)
    for ax, (memory_type, (vectors, labels)) in zip(axes[0], groups.items(), strict=True):
        data = np.asarray(vectors, dtype=float)
        points = TSNE(perplexity=min(30, len(data) - 1), random_state=0, init="pca").fit_transform(
            data
        )
        for domain in sorted(set(labels)):
            mask = np.asarray(labels) == domain
            ax.scatter(points[mask, 0], points[mask, 1], s=10, label=domain)
        ax.set_title(memory_type)
        ax.set_xticks([])
        ax.set_yticks([])
    axes[0][0].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return True


def write_report(
    results: str | Path, *, out_dir: str | Path, pool: MemoryPool | None = None, k: int = 3,
    command: str = "",
) -> Path:  # fmt: skip
    """Write ``report.md`` and plots for a results file; returns the report's path."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    summary = summarize(ResultStore(results).rows(), k=k)
    if not summary:
        raise ValueError(f"results: no attempts in {results}")
    domains = [d for d in next(iter(summary.values())) if not d.startswith("avg")]
    base = summary.get("zero-shot", {}).get("avg (domains)", {}).get(f"pass@{k}")
    lines = ["# Experiment report", ""]
    if command:
        lines += ["Command:", "", "```bash", command, "```", ""]
    header = [
        "condition",
        *[f"{d} pass@1 / pass@{k}" for d in domains],
        "avg (domains)",
        "avg (tasks)",
        "delta vs zero-shot",
    ]
    lines += ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for condition, row in summary.items():
        cells = [condition]
        for d in domains:
            cell = row.get(d)
            cells.append(
                f"{cell['pass@1']:.3f} / {cell[f'pass@{k}']:.3f} (n={cell['tasks']})"
                if cell
                else "-"
            )
        avg_d, avg_t = row["avg (domains)"], row["avg (tasks)"]
        cells += [
            f"{avg_d['pass@1']:.3f} / {avg_d[f'pass@{k}']:.3f}",
            f"{avg_t['pass@1']:.3f} / {avg_t[f'pass@{k}']:.3f}",
        ]
        delta = avg_d[f"pass@{k}"] - base if base is not None else None
        cells.append("-" if delta is None or condition == "zero-shot" else f"{delta:+.3f}")
        lines.append("| " + " | ".join(cells) + " |")
    _plot_pass_rates(summary, k, out / "pass_rates.png")
    lines += ["", "![pass rates](pass_rates.png)", ""]
    if pool is not None:
        rows = abstraction_table(pool)
        if rows:
            lines += [
                "## Abstraction analysis",
                "",
                "| type | memories | domains | DBI | LISI | abstraction score |",
                "|---|---|---|---|---|---|",
            ]
            lines += [
                f"| {r.memory_type} | {r.memories} | {r.domains} | {r.dbi:.2f} | {r.lisi:.2f} | {r.abstraction:.3f} |"
                for r in rows
            ]
            _plot_abstraction(rows, out / "abstraction.png")
            lines += ["", "![abstraction](abstraction.png)", ""]
        if _plot_tsne(pool, out / "tsne.png"):
            lines += ["![t-SNE of memory embeddings by source domain](tsne.png)", ""]
    path = out / "report.md"
    path.write_text("\n".join(lines) + "\n")
    return path
