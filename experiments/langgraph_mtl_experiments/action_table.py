"""What the agent did in its attempts: actions taken per kind and the edits, writes and
commands refused (the counts each row keeps, from :func:`.attempts.action_counts`)."""

from __future__ import annotations

from collections import Counter
from typing import Any

__all__ = ["ACTION_KINDS", "REFUSAL_KINDS", "action_lines"]

ACTION_KINDS = ("view", "search", "edit", "write_file", "run", "submit", "invalid")
REFUSAL_KINDS = (
    "edit_not_found",
    "edit_not_unique",
    "edit_refused_other",
    "write_refused",
    "command_refused",
    "cut_off",
    "write_unchanged",
)


def action_lines(rows: list[dict[str, Any]]) -> list[str]:
    """Per domain and condition: attempts, actions per attempt by kind, and refusals in all."""
    totals: dict[tuple[str, str], Counter[str]] = {}
    attempts: Counter[tuple[str, str]] = Counter()
    for row in rows:
        counts = row.get("actions")
        if not isinstance(counts, dict):
            continue
        key = (str(row["domain"]), str(row["condition"]))
        attempts[key] += 1
        totals.setdefault(key, Counter()).update(
            {k: int(v) for k, v in counts.items() if isinstance(v, int | float)}
        )
    if not totals:
        return []
    kinds = [k for k in ACTION_KINDS if any(t[k] for t in totals.values())]
    refusals = [k for k in REFUSAL_KINDS if any(t[k] for t in totals.values())]
    lines = [
        "## What the agent did",
        "",
        "Actions per attempt by kind, then how often in all an edit found its search text "
        "missing or not unique, a write or a command was refused, a reply was cut off, or a "
        "write gave the file exactly what it held.",
        "",
        "| domain | condition | attempts | " + " | ".join([*kinds, *refusals]) + " |",
        "|---|---|---|" + "---|" * (len(kinds) + len(refusals)),
    ]
    for key, found in sorted(totals.items()):
        n = attempts[key]
        cells = [f"{found[k] / n:.1f}" for k in kinds] + [str(found[k]) for k in refusals]
        lines.append(f"| {key[0]} | {key[1]} | {n} | " + " | ".join(cells) + " |")
    return [*lines, ""]
