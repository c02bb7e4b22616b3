"""What phase 1 kept: of the source runs (``memories.jsonl``, a row each), how many left a
memory of each type in the pool (``pool-snapshot.jsonl``), and why the others did not (the
writer's status: dropped by rule, abstraction failed)."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from langgraph_mtl_experiments.passk import wilson_interval

__all__ = ["memory_yield", "yield_lines"]

_DROPPED = re.compile(r"(\w+) dropped by rule: ([^;]+)")
_NAMES = re.compile(r"\s*\([^()]*\)\s*$")  # "(name, other)" after the rule: counted apart
_FAILED = re.compile(r"(\w+) abstraction failed")


def memory_yield(
    runs: Iterable[Mapping[str, Any]], records: Iterable[Mapping[str, Any]]
) -> dict[str, dict[str, Any]]:
    """Per memory type the runs were to leave: ``runs``, ``kept`` (runs that wrote a memory of
    that type, stored or merged into a near-duplicate the pool holds) and ``lost`` (why the
    others did not, counted; a memory written but missing from the pool says so)."""
    kinds = {str(r.get("id")): r.get("memory_type") for r in records}
    out: dict[str, dict[str, Any]] = {}
    for run in runs:
        status = str(run.get("write_status", ""))
        ids = [str(i) for i in run.get("written") or ()]
        written = {kinds.get(i) for i in ids}
        vanished = any(i not in kinds for i in ids)  # written, then lost with the pool
        for kind in run.get("memory_types") or ():
            entry = out.setdefault(kind, {"runs": 0, "kept": 0, "lost": Counter()})
            entry["runs"] += 1
            if kind in written:
                entry["kept"] += 1
                continue
            dropped = [why for named, why in _DROPPED.findall(status) if named == kind]
            failed = [named for named in _FAILED.findall(status) if named == kind]
            rule = _NAMES.sub("", dropped[0]).strip() if dropped else ""  # the names it used
            why = f"dropped by rule: {rule}" if rule else ""
            if not why and vanished:
                why = "written, not in the pool"
            entry["lost"][why or ("abstraction failed" if failed else "not written")] += 1
    return out


def _lines_of(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        return []
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError:  # a torn last line of a killed run
            continue
    return rows


def yield_lines(folder: Path) -> list[str]:
    """The report's section on phase 1, or none when the folder has no phase-1 rows."""
    runs = _lines_of(folder / "memories.jsonl")
    if not runs:
        return []
    records = [row.get("record", row) for row in _lines_of(folder / "pool-snapshot.jsonl")]
    found = memory_yield(runs, records)
    models = sorted({str(r.get("model", "?")) for r in runs})
    lines = [
        "## Phase 1: the memories the source runs left",
        "",
        f"{len(runs)} source runs ({', '.join(models)}), "
        f"{sum(bool(r.get('passed')) for r in runs)} passed.",
        "",
        "| memory type | runs | kept | share [95% CI] | not kept |",
        "|---|---|---|---|---|",
    ]
    for kind, entry in sorted(found.items()):
        low, high = wilson_interval(entry["kept"], entry["runs"])
        lost = ", ".join(f"{why} {n}" for why, n in entry["lost"].most_common()) or "-"
        lines.append(
            f"| {kind} | {entry['runs']} | {entry['kept']} | "
            f"{entry['kept'] / entry['runs']:.2f} [{low:.2f}, {high:.2f}] | {lost} |"
        )
    return [*lines, ""]
