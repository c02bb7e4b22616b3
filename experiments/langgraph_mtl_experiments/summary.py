"""pass@1 and pass@k per condition and domain, from stored attempts."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from langgraph_mtl_experiments.passk import pass_at_k

__all__ = ["summarize", "supported_k"]


def supported_k(rows: Iterable[dict[str, Any]], requested: int | None = None) -> int:
    """The k of pass@k these rows support: ``requested``, or the fewest attempts any task has
    (at most 3); a ``requested`` k above that fewest raises ``ValueError``."""
    per_task = Counter((r["condition"], r["domain"], r["task_id"]) for r in rows)
    fewest = min(per_task.values(), default=1)
    if requested is not None and requested > fewest:
        raise ValueError(
            f"pass@{requested} needs {requested} attempts of every task and some have {fewest}"
        )
    return requested or min(3, fewest)


def summarize(rows: Iterable[dict[str, Any]], *, k: int = 3) -> dict[str, dict[str, Any]]:
    """pass@1 and pass@k per condition and domain, and both averages (task-weighted, per-domain)."""
    per: dict[tuple[str, str, str], list[bool]] = {}
    for r in rows:
        per.setdefault((r["condition"], r["domain"], r["task_id"]), []).append(bool(r["passed"]))
    table: dict[str, dict[str, Any]] = {}
    for (condition, domain, _), outcomes in per.items():
        n, c = len(outcomes), sum(outcomes)
        cell = table.setdefault(condition, {}).setdefault(domain, {"p1": [], "pk": []})
        cell["p1"].append(pass_at_k(n, c, 1))
        cell["pk"].append(pass_at_k(n, c, min(k, n)))
    out: dict[str, dict[str, Any]] = {}
    for condition, domains in table.items():
        row: dict[str, Any] = {}
        all_p1: list[float] = []
        all_pk: list[float] = []
        for domain, cell in sorted(domains.items()):
            row[domain] = {
                "tasks": len(cell["p1"]),
                "pass@1": sum(cell["p1"]) / len(cell["p1"]),
                f"pass@{k}": sum(cell["pk"]) / len(cell["pk"]),
            }
            all_p1 += cell["p1"]
            all_pk += cell["pk"]
        row["avg (tasks)"] = {
            "pass@1": sum(all_p1) / len(all_p1),
            f"pass@{k}": sum(all_pk) / len(all_pk),
        }
        row["avg (domains)"] = {
            metric: sum(row[d][metric] for d in domains) / len(domains)
            for metric in ("pass@1", f"pass@{k}")
        }
        out[condition] = row
    return out
