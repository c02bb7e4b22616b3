"""What the agent did in its attempts: actions taken per kind, the edits, writes and commands
refused, and the policies that acted (the counts each row keeps, from
:func:`.attempts.action_counts` and :func:`.attempts.policy_counts`)."""

from __future__ import annotations

from collections import Counter
from typing import Any

__all__ = ["ACTION_KINDS", "REFUSAL_KINDS", "action_lines", "policy_lines"]

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


Cell = tuple[str, str]  # (domain, condition)


def _summed(
    rows: list[dict[str, Any]], field: str
) -> tuple[dict[Cell, Counter[str]], Counter[Cell]]:
    """The counts rows keep under ``field``, summed per domain and condition, and how many
    attempts kept them."""
    totals: dict[Cell, Counter[str]] = {}
    attempts: Counter[Cell] = Counter()
    for row in rows:
        counts = row.get(field)
        if not isinstance(counts, dict):
            continue
        key = (str(row["domain"]), str(row["condition"]))
        attempts[key] += 1
        totals.setdefault(key, Counter()).update(
            {k: int(v) for k, v in counts.items() if isinstance(v, int | float)}
        )
    return totals, attempts


def action_lines(rows: list[dict[str, Any]]) -> list[str]:
    """Per domain and condition: attempts, actions per attempt by kind, and refusals in all."""
    totals, attempts = _summed(rows, "actions")
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


def policy_lines(rows: list[dict[str, Any]]) -> list[str]:
    """Per domain and condition: the steps each policy acted on, per attempt."""
    totals, attempts = _summed(rows, "policies")
    names = sorted({name for found in totals.values() for name in found})
    if not names:
        return []
    lines = [
        "## Which policies acted",
        "",
        "Steps each of the agent's policies acted on, per attempt (`[policy:NAME]` in a trace).",
        "",
        "| domain | condition | attempts | " + " | ".join(names) + " |",
        "|---|---|---|" + "---|" * len(names),
    ]
    for key, found in sorted(totals.items()):
        n = attempts[key]
        cells = [f"{found[name] / n:.2f}" for name in names]
        lines.append(f"| {key[0]} | {key[1]} | {n} | " + " | ".join(cells) + " |")
    return [*lines, ""]
