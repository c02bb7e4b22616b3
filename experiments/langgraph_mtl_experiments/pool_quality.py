"""How good the memories a run actually used were, by proxies the report can compute: for each
condition with a pool snapshot, the share of insights that name code (backticked spans,
identifiers that are not words: the source task's own names and literals, mostly), their
median length in words, the share of attempts given the most-used memory, and the source
domains of what was given."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from statistics import median
from typing import Any

from langgraph_mtl.memory.records import MemoryRecord, MemoryType
from langgraph_mtl.transfer.insight_rules import code_names, word_count

__all__ = ["PoolQuality", "pool_quality", "quality_lines"]


class PoolQuality:
    """The proxies of one condition's pool and its receipts."""

    def __init__(self, records: list[MemoryRecord], rows: list[dict[str, Any]]) -> None:
        insights = [r for r in records if r.memory_type is MemoryType.INSIGHT]
        self.memories = len(records)
        self.insights = len(insights)
        self.naming_code = sum(bool(code_names(r.content)) for r in insights)
        self.median_words = median(word_count(r.content) for r in insights) if insights else None
        self.attempts = len(rows)
        given = [{str(g.get("id")) for g in row.get("receipts") or []} for row in rows]
        uses = Counter(memory for ids in given for memory in ids)
        self.top_share = max(uses.values()) / len(rows) if uses and rows else 0.0
        self.injections = sum(len(row.get("receipts") or []) for row in rows)
        self.source_mix = Counter(
            str(g.get("domain")) for row in rows for g in row.get("receipts") or []
        )

    @property
    def naming_share(self) -> float | None:
        return self.naming_code / self.insights if self.insights else None


def _snapshot_records(path: Path) -> list[MemoryRecord]:
    records = []
    for line in path.read_text().splitlines():
        if line.strip():
            records.append(MemoryRecord.model_validate(json.loads(line)["record"]))
    return records


def pool_quality(rows: list[dict[str, Any]], results_dir: Path) -> dict[str, PoolQuality]:
    """condition -> its proxies, for each condition whose pool snapshot the run kept."""
    manifest = results_dir / "snapshots" / "manifest.json"
    if not manifest.exists():
        return {}
    out = {}
    for condition, entry in json.loads(manifest.read_text()).items():
        snapshot = results_dir / "snapshots" / entry["file"]
        if not snapshot.exists():
            continue
        mine = [r for r in rows if r["condition"] == condition]
        out[condition] = PoolQuality(_snapshot_records(snapshot), mine)
    return out


def quality_lines(rows: list[dict[str, Any]], results_dir: Path) -> list[str]:
    """The proxies as a markdown table (nothing when the run kept no snapshots)."""
    found = pool_quality(rows, results_dir)
    if not found:
        return []
    lines = [
        "## Quality of the memories used",
        "",
        "Per condition, on its pool snapshot: insights naming code (a proxy for the source "
        "task's own names and literals), their median length, the share of attempts given "
        "the most-used memory, and the source domains of everything given.",
        "",
        "| condition | memories | insights | naming code | median words | most-used memory "
        "| injections by source domain |",
        "|---|---|---|---|---|---|---|",
    ]
    for condition, q in sorted(found.items()):
        naming = "-" if q.naming_share is None else f"{q.naming_code} ({q.naming_share:.0%})"
        words = "-" if q.median_words is None else f"{q.median_words:g}"
        mix = ", ".join(
            f"{domain} {count / q.injections:.0%}" for domain, count in q.source_mix.most_common()
        )
        lines.append(
            f"| {condition} | {q.memories} | {q.insights} | {naming} | {words} | "
            f"{q.top_share:.0%} of {q.attempts} | {mix or '-'} |"
        )
    return [*lines, ""]
