"""The report's plots (PNG, drawn with matplotlib's Agg backend)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from langgraph_mtl_experiments.analysis import TypeAnalysis, TypeEmbeddings
from langgraph_mtl_experiments.paired import PairedComparison

__all__ = ["plot_abstraction", "plot_deltas", "plot_pass_rates", "plot_scaling", "plot_tsne"]


def plot_pass_rates(summary: dict[str, dict[str, Any]], k: int, path: Path) -> None:
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


def plot_abstraction(rows: list[TypeAnalysis], path: Path) -> None:
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


def plot_tsne(groups: dict[str, TypeEmbeddings], path: Path) -> bool:
    """One t-SNE panel per memory type, coloured by source domain (like the paper's figure)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from sklearn.manifold import TSNE

    groups = {t: g for t, g in groups.items() if len(g.domains) >= 5}
    if not groups:
        return False
    fig, axes = plt.subplots(1, len(groups), figsize=(3.2 * len(groups), 3.2), squeeze=False)
    for ax, (memory_type, group) in zip(axes[0], groups.items(), strict=True):
        data, labels = np.asarray(group.vectors, dtype=float), group.domains
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


def plot_scaling(points: dict[str, dict[float, list[float]]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    titles = {"pool": "share of the memory pool", "sources": "number of source domains"}
    fig, axes = plt.subplots(1, len(points), figsize=(4.2 * len(points), 3.2), squeeze=False)
    for ax, (name, series) in zip(axes[0], points.items(), strict=True):
        xs = list(series)
        means = [float(np.mean(v)) for v in series.values()]
        spread = [float(np.std(v)) for v in series.values()]
        ax.errorbar(xs, means, yerr=spread, marker="o", capsize=3)
        ax.set_xlabel(titles[name])
        ax.set_ylabel("pass@1 (domain average)")
        ax.set_ylim(0, 1)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def plot_deltas(comparisons: list[PairedComparison], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 1 + 0.5 * len(comparisons)))
    ys = np.arange(len(comparisons))
    deltas = [c.delta for c in comparisons]
    errors = [[c.delta - c.ci_low for c in comparisons], [c.ci_high - c.delta for c in comparisons]]
    ax.errorbar(deltas, ys, xerr=errors, fmt="o", capsize=4, color="#0984e3")
    ax.axvline(0, color="grey", linewidth=1)
    ax.set_yticks(ys)
    ax.set_yticklabels([c.condition for c in comparisons])
    ax.set_xlabel(f"pass@1 delta vs {comparisons[0].baseline} (95% CI)")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
