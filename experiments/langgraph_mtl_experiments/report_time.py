"""Where an attempt's time goes: the report's section built from each row's record of its
model calls (:mod:`langgraph_mtl.model_calls`), and the code that made the rows."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from langgraph_mtl.model_calls import summarize_calls
from langgraph_mtl_experiments.code_identity import CODE_FILE

__all__ = ["code_lines", "time_lines"]


def code_lines(rows: Iterable[Mapping[str, Any]], folder: Path) -> list[str]:
    """Which code made the rows: the run's record, and each code name rows carry."""
    lines: list[str] = []
    path = folder / CODE_FILE
    if path.is_file():
        record = json.loads(path.read_text(encoding="utf-8"))
        commit = str(record.get("commit") or "")
        state = "uncommitted changes, not pinned" if record.get("dirty") or not commit else ""
        named = f"commit {commit[:12]}" if commit else "no git commit"
        lines.append(
            f"Code: {named}, source sha256 {str(record.get('source_sha256', ''))[:16]}"
            + (f" ({state})" if state else "")
            + "."
        )
    names = Counter(str(r["code"]) for r in rows if r.get("code"))
    if len(names) > 1:
        listed = ", ".join(f"{name} ({count} rows)" for name, count in sorted(names.items()))
        lines.append(f"Rows by code: {listed}.")
    return [*lines, ""] if lines else []


def time_lines(rows: Iterable[Mapping[str, Any]]) -> list[str]:
    """The section: per kind of model call, the calls, tokens (prompt, of them cached,
    completion) and seconds per attempt, and what the attempts spent outside the model."""
    measured = [r for r in rows if r.get("calls") and "reused_from" not in r]
    if not measured:
        return []
    attempts = len(measured)
    kinds = summarize_calls(call for r in measured for call in r["calls"])
    total = sum(float(r.get("seconds") or 0) for r in measured)
    in_model = sum(k["seconds"] for k in kinds.values())
    lines = [
        "## Where the time goes",
        "",
        f"{attempts} attempts with their model calls recorded: {total / attempts:.0f} s an "
        f"attempt, of which {in_model / attempts:.0f} s in the model (the server's own "
        "timings) and the rest in commands, checks and waiting for the server.",
        "",
        "| call | calls / attempt | prompt tokens | cached | completion tokens | s / attempt "
        "| cut off |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, kind in sorted(kinds.items(), key=lambda item: -item[1]["seconds"]):
        calls = kind["calls"] or 1
        cached = kind["cached_tokens"] / kind["prompt_tokens"] if kind["prompt_tokens"] else 0.0
        lines.append(
            f"| {name} | {kind['calls'] / attempts:.1f} | {kind['prompt_tokens'] / calls:.0f} "
            f"| {cached:.0%} | {kind['completion_tokens'] / calls:.0f} "
            f"| {kind['seconds'] / attempts:.1f} | {kind['cut']:.0f} |"
        )
    lines += [
        "",
        "Tokens are per call; `cached` is the share of prompt tokens the server took from its "
        "cache; `cut off` counts replies that reached their length limit.",
        "",
    ]
    return lines
