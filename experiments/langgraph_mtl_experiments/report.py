"""The experiment report: the paper-style table in markdown and PNG plots."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import numpy as np

from langgraph_mtl.pool.memory_pool import MemoryPool
from langgraph_mtl_experiments.action_table import action_lines, policy_lines
from langgraph_mtl_experiments.analysis import (
    TypeAnalysis,
    TypeEmbeddings,
    analyse,
    embeddings_by_type,
)
from langgraph_mtl_experiments.failures import failure_lines
from langgraph_mtl_experiments.memory_yield import yield_lines
from langgraph_mtl_experiments.paired import (
    PairedComparison,
    compare,
    compare_means,
    first_attempts,
    flips,
)
from langgraph_mtl_experiments.passk import wilson_interval
from langgraph_mtl_experiments.pool_quality import quality_lines
from langgraph_mtl_experiments.report_plots import (
    plot_abstraction,
    plot_deltas,
    plot_pass_rates,
    plot_scaling,
    plot_tsne,
)
from langgraph_mtl_experiments.report_time import code_lines, time_lines
from langgraph_mtl_experiments.runner import ResultStore, summarize

__all__ = ["abstraction_table", "paired_lines", "scaling_points", "write_report"]


def abstraction_table(groups: dict[str, TypeEmbeddings]) -> list[TypeAnalysis]:
    """DBI / LISI / abstraction per memory type (types with >= 2 domains and >= 3 memories)."""
    return [
        analyse(memory_type, np.asarray(group.vectors, dtype=float), group.domains)
        for memory_type, group in groups.items()
        if len(set(group.domains)) >= 2 and len(group.domains) >= 3
    ]


def signed(value: float) -> str:
    """A difference to three places with its sign; a difference that rounds to zero reads +0.000."""
    return f"{round(value, 3) + 0.0:+.3f}"


def scaling_points(rows: list[dict[str, Any]], k: int) -> dict[str, dict[float, list[float]]]:
    """Pass@1 (domain average) per sweep setting: ``pool`` share of the pool kept, ``sources``
    number of source domains; one value per seed. Plain ``mtl-insight`` is the full-pool point."""
    settings: dict[str, dict[str, Any]] = {}
    for r in rows:
        if "settings" in r:
            settings[r["condition"]] = r["settings"]
    summary = summarize(rows, k=k)
    points: dict[str, dict[float, list[float]]] = {"pool": {}, "sources": {}}
    for condition, spec in settings.items():
        if spec["memory_types"] != ["insight"] or spec["scope"] != "cross" or spec["rerank"]:
            continue
        if spec["strategy"] != "auto" or spec["abstraction_weight"]:
            continue
        value = summary[condition]["avg (domains)"]["pass@1"]
        if spec["source_count"] is not None:
            points["sources"].setdefault(float(spec["source_count"]), []).append(value)
        else:
            points["pool"].setdefault(float(spec["pool_fraction"]), []).append(value)
    return {name: dict(sorted(p.items())) for name, p in points.items() if len(p) > 1}


def _cost_lines(rows: list[dict[str, Any]]) -> list[str]:
    per: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        per[r["condition"]].append(r)
    lines = [
        "## Cost per attempt",
        "",
        "| condition | attempts | mean seconds | mean steps | mean tokens |",
        "|---|---|---|---|---|",
    ]

    def mean(items: list[dict[str, Any]], key: str, digits: int) -> str:
        values = [r[key] for r in items if key in r]
        return f"{np.mean(values):.{digits}f}" if values else "-"

    for condition, items in per.items():
        lines.append(
            f"| {condition} | {len(items)} | {mean(items, 'seconds', 1)} | "
            f"{mean(items, 'steps', 1)} | {mean(items, 'tokens', 0)} |"
        )
    return [*lines, ""]


def paired_lines(
    rows: list[dict[str, Any]], baseline: str = "zero-shot"
) -> tuple[list[str], list[PairedComparison]]:
    """The paired-comparison table (pooled and per domain) and the flips, as markdown."""
    conditions = sorted({r["condition"] for r in rows} - {baseline})
    if not conditions or baseline not in {r["condition"] for r in rows}:
        return [], []
    domains = sorted({r["domain"] for r in rows})
    lines = [
        f"## Paired comparison with {baseline} (pass@1, first attempt, same tasks)",
        "",
        "Delta = condition - baseline; 95% CI by bootstrap over tasks (10,000 resamples); "
        "p by exact McNemar on the discordant tasks (gained = solved only with the condition, "
        "lost = solved only without it).",
        "",
        f"| condition | domain | tasks | {baseline} | condition | delta [95% CI] | gained / lost "
        "| McNemar p |",
        "|---|---|---|---|---|---|---|---|",
    ]
    pooled = []
    for condition in conditions:
        for domain in [None, *domains]:
            c = compare(rows, condition, baseline, domain=domain)
            if not c.tasks:
                continue
            if domain is None:
                pooled.append(c)
            lines.append(
                f"| {condition} | {c.domain} | {c.tasks} | {c.base_rate:.3f} | {c.rate:.3f} | "
                f"{signed(c.delta)} [{signed(c.ci_low)}, {signed(c.ci_high)}] | {c.gained} / {c.lost} | "
                f"{c.p_value:.3g} |"
            )
    lines += ["", "### Flips", ""]
    for condition in conditions:
        found = flips(rows, condition, baseline)
        gained = sum(f.direction == "gained" for f in found)
        lines.append(
            f"**{condition}**: {gained} gained, {len(found) - gained} lost"
            + (":" if found else ".")
        )
        for flip in found:
            given = "; ".join(
                f"{r.get('domain', '?')}/{r.get('memory_type', '?')} "
                f"{float(r.get('similarity', 0.0)):.2f}"
                for r in flip.receipts
            )
            lines.append(f"- {flip.direction}: {flip.domain}/{flip.task_id} <- {given or 'none'}")
        lines.append("")
    return lines + means_lines(rows, conditions, baseline) + gate_lines(
        rows, conditions, baseline
    ), pooled


def means_lines(rows: list[dict[str, Any]], conditions: list[str], baseline: str) -> list[str]:
    """Where tasks have several attempts: the paired delta of per-task mean pass rates."""
    found = [  # each with its 99.5% interval, an interim look's
        (c, compare_means(rows, condition, baseline, domain=domain, level=0.995))
        for condition in conditions
        for domain in [None, *sorted({r["domain"] for r in rows})]
        if (c := compare_means(rows, condition, baseline, domain=domain)).tasks
    ]
    if not found:
        return []
    lines = [
        f"### Over every attempt (mean pass rate per task, against {baseline})",
        "",
        "Each task's difference of its mean over the attempts both conditions ran; 95% and "
        "99.5% CIs (the latter for an interim look) by bootstrap over tasks (10,000 resamples, "
        "seed 0); rho = correlation across tasks of the differences at attempts 1 and 2 (how "
        "much a second attempt adds: none at 1).",
        "",
        "| condition | domain | tasks | attempts | delta [95% CI] | 99.5% CI | rho |",
        "|---|---|---|---|---|---|---|",
    ]
    for c, wide in found:
        rho = "-" if c.rho is None else f"{c.rho:.2f}"
        lines.append(
            f"| {c.condition} | {c.domain} | {c.tasks} | {c.attempts} | {signed(c.delta)} "
            f"[{signed(c.ci_low)}, {signed(c.ci_high)}] | [{signed(wide.ci_low)}, "
            f"{signed(wide.ci_high)}] | {rho} |"
        )
    return [*lines, ""]


def design_lines(
    rows: list[dict[str, Any]], baseline: str = "zero-shot", band: tuple[float, float] = (0.1, 0.9)
) -> list[str]:
    """Whether each domain can show an effect either way: the baseline's pass@1 (first
    attempts) with its Wilson 95% interval, and whether it lies inside ``band``."""
    per: dict[str, list[bool]] = {}
    for (domain, _), row in first_attempts(rows).get(baseline, {}).items():
        per.setdefault(domain, []).append(bool(row["passed"]))
    if not per:
        return []
    low, high = band
    lines = [
        "## Design check",
        "",
        f"A domain can show transfer either way only if {baseline} pass@1 lies in [{low}, {high}].",
        "",
        f"| domain | tasks | solved | {baseline} pass@1 | Wilson 95% CI | in [{low}, {high}] |",
        "|---|---|---|---|---|---|",
    ]
    for domain, outcomes in sorted(per.items()):
        solved, n = sum(outcomes), len(outcomes)
        ci_low, ci_high = wilson_interval(solved, n)
        inside = "yes" if low <= solved / n <= high else "no"
        lines.append(
            f"| {domain} | {n} | {solved} | {solved / n:.3f} | [{ci_low:.2f}, {ci_high:.2f}] "
            f"| {inside} |"
        )
    return [*lines, ""]


def gate_lines(rows: list[dict[str, Any]], conditions: list[str], baseline: str) -> list[str]:
    """For each gated condition (``<name>-gated``) next to its ungated one: which of the
    ungated condition's flips the relevance gate removed or kept."""
    pairs = [(c.removesuffix("-gated"), c) for c in conditions if c.endswith("-gated")]
    pairs = [(open_, gated) for open_, gated in pairs if open_ in conditions]
    if not pairs:
        return []
    lines = [
        "### Relevance gate",
        "",
        "Flips of each condition against the baseline, with and without the gate, on the tasks "
        "all three ran.",
        "",
        "| condition | tasks | lost without gate | of those, still lost with gate | gained "
        "without gate | of those, still gained with gate | new flips with gate (gained / lost) |",
        "|---|---|---|---|---|---|---|",
    ]
    firsts = first_attempts(rows)
    for open_, gated in pairs:
        shared = set.intersection(*(set(firsts.get(c, {})) for c in (baseline, open_, gated)))
        before = _flips_on(rows, open_, baseline, shared)
        after = _flips_on(rows, gated, baseline, shared)
        lost = [k for k, d in before.items() if d == "lost"]
        gained = [k for k, d in before.items() if d == "gained"]
        new = [d for k, d in after.items() if k not in before]
        lines.append(
            f"| {open_} | {len(shared)} | {len(lost)} | "
            f"{sum(after.get(k) == 'lost' for k in lost)} | "
            f"{len(gained)} | {sum(after.get(k) == 'gained' for k in gained)} | "
            f"{new.count('gained')} / {new.count('lost')} |"
        )
    lines.append("")
    for _, gated in pairs:
        reused = Counter(r.get("reused_from") for r in rows if r["condition"] == gated)
        total = sum(reused.values())
        if total > reused[None]:
            sources = sorted((c, n) for c, n in reused.items() if c is not None)
            taken = ", ".join(f"{n} from {c}" for c, n in sources)
            lines.append(
                f"{gated}: of {total} attempts, {total - reused[None]} were given exactly the "
                f"memories of an attempt already run on the task (temperature 0: same prompt, "
                f"same outcome, reused: {taken}); {reused[None]} ran."
            )
    return [*lines, ""]


def _flips_on(
    rows: list[dict[str, Any]], condition: str, baseline: str, tasks: set[Any]
) -> dict[Any, str]:
    """(domain, task id) -> "gained" or "lost", for the condition's flips among ``tasks``."""
    found = flips(rows, condition, baseline)
    return {(f.domain, f.task_id): f.direction for f in found if (f.domain, f.task_id) in tasks}


def _delta_on_shared_tasks(rows: list[dict[str, Any]], condition: str, k: int) -> float | None:
    """The condition's domain-averaged pass@k minus zero-shot's, both on the tasks both ran
    (a run still growing has conditions on fewer tasks than zero-shot)."""
    tasks = {
        name: {(r["domain"], r["task_id"]) for r in rows if r["condition"] == name}
        for name in ("zero-shot", condition)
    }
    shared = tasks["zero-shot"] & tasks[condition]
    if not shared:
        return None
    both = summarize(
        [
            r
            for r in rows
            if r["condition"] in ("zero-shot", condition) and (r["domain"], r["task_id"]) in shared
        ],
        k=k,
    )
    metric = f"pass@{k}"
    return float(
        both[condition]["avg (domains)"][metric] - both["zero-shot"]["avg (domains)"][metric]
    )


def write_report(
    results: str | Path,
    *,
    out_dir: str | Path,
    pool: MemoryPool | None = None,
    k: int = 3,
    command: str = "",
    pool_source: str = "",
) -> Path:
    """Write ``report.md`` and plots for a results file; returns the report's path.
    ``pool_source`` says where ``pool``'s memories come from when it is not the run's pool."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    rows = list(ResultStore(results).rows())
    summary = summarize(rows, k=k)
    if not summary:
        raise ValueError(f"results: no attempts in {results}")
    domains = [d for d in next(iter(summary.values())) if not d.startswith("avg")]
    lines = ["# Experiment report", ""]
    if command:
        title = "Commands, in the order first run:" if "\n" in command else "Command:"
        lines += [title, "", "```bash", command, "```", ""]
    lines += code_lines(rows, Path(results).parent)

    def rates(cell: dict[str, float]) -> str:
        """pass@1 and pass@k, or pass@1 alone when k is 1."""
        return f"{cell['pass@1']:.3f}" + (f" / {cell[f'pass@{k}']:.3f}" if k > 1 else "")

    metric = f"pass@1 / pass@{k}" if k > 1 else "pass@1"
    header = [
        "condition",
        *[f"{d} {metric}" for d in domains],
        "avg (domains)",
        "avg (tasks)",
        "delta vs zero-shot (same tasks)",
    ]
    lines += ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for condition, row in summary.items():
        cells = [condition]
        for d in domains:
            cell = row.get(d)
            cells.append(f"{rates(cell)} (n={cell['tasks']})" if cell else "-")
        avg_d, avg_t = row["avg (domains)"], row["avg (tasks)"]
        cells += [rates(avg_d), rates(avg_t)]
        delta = _delta_on_shared_tasks(rows, condition, k) if condition != "zero-shot" else None
        cells.append("-" if delta is None else signed(delta))
        lines.append("| " + " | ".join(cells) + " |")
    plot_pass_rates(summary, k, out / "pass_rates.png")
    lines += ["", "![pass rates](pass_rates.png)", "", *design_lines(rows)]
    placebos = {r["condition"] for r in rows if (r.get("settings") or {}).get("given") == "placebo"}
    for baseline in ["zero-shot", *sorted(placebos)]:  # every condition against each control
        paired, pooled = paired_lines(rows, baseline)
        if pooled:
            figure = "deltas.png" if baseline == "zero-shot" else f"deltas-vs-{baseline}.png"
            plot_deltas(pooled, out / figure)
            lines += [*paired, f"![paired deltas against {baseline}]({figure})", ""]
    lines += failure_lines(rows)
    lines += action_lines(rows)
    lines += policy_lines(rows)
    lines += time_lines(rows)
    lines += yield_lines(Path(results).parent)
    lines += quality_lines(rows, Path(results).parent)
    points = scaling_points(rows, k)
    if points:
        lines += [
            "## Scaling",
            "",
            "| sweep | setting | pass@1 (domain average) per seed |",
            "|---|---|---|",
        ]
        for name, series in points.items():
            lines += [
                f"| {name} | {x:g} | {', '.join(f'{v:.3f}' for v in values)} |"
                for x, values in series.items()
            ]
        plot_scaling(points, out / "scaling.png")
        lines += ["", "![scaling](scaling.png)", ""]
    lines += _cost_lines(rows)
    manifest = out / "snapshots" / "manifest.json"
    if manifest.exists():
        lines += ["## Pool snapshots", "", "| condition | memories | sha256 |", "|---|---|---|"]
        for name, entry in json.loads(manifest.read_text()).items():
            lines.append(f"| {name} | {entry['memories']} | `{entry['sha256'][:16]}` |")
        lines.append("")
    if pool is not None:
        groups = embeddings_by_type(pool)  # read once for the table and the figure
        analysed = abstraction_table(groups)
        if analysed:
            lines += ["## Abstraction analysis", ""]
            lines += [pool_source, ""] if pool_source else []
            lines += [
                "| type | memories | domains | DBI | LISI | abstraction score |",
                "|---|---|---|---|---|---|",
            ]
            lines += [
                f"| {r.memory_type} | {r.memories} | {r.domains} | {r.dbi:.2f} | {r.lisi:.2f} | {r.abstraction:.3f} |"
                for r in analysed
            ]
            plot_abstraction(analysed, out / "abstraction.png")
            lines += ["", "![abstraction](abstraction.png)", ""]
        if plot_tsne(groups, out / "tsne.png"):
            lines += ["![t-SNE of memory embeddings by source domain](tsne.png)", ""]
    path = out / "report.md"
    path.write_text("\n".join(lines) + "\n")
    return path
