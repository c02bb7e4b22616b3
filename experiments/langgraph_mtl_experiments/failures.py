"""Why attempts fail, read from the verifier's report: the mechanism endpoints of a run.

A memory can act on a step pass@1 does not see (an attempt that now compiles but still fails a
test), so the report counts, per domain and condition, each failure class the verifiers name.
The classes are decided by rule, in order, the first match winning.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from langgraph_mtl_experiments.paired import first_attempts

__all__ = ["FAILURE_CLASSES", "failure_class", "failure_lines"]

_RULES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("tampering", re.compile(r"^tampering:", re.MULTILINE)),
    ("missing", re.compile(r"\bis missing\b|was not written|no such file", re.IGNORECASE)),
    ("timeout", re.compile(r"timed out|TimeoutExpired|\btimeout\b", re.IGNORECASE)),
    (
        "type error",
        re.compile(
            r"error\[E0(?:308|277|369|599|282|061|614)\]|\bTypeError\b|expected `[^`]+`, found"
        ),
    ),
    (
        "does not load",
        re.compile(
            r"does not build|do not build|did not load|\bSyntaxError\b|\bIndentationError\b|"
            r"\bModuleNotFoundError\b|\bImportError\b|error\[E\d{4}\]|syntax error|\.s?v:\d+: error:|"
            r"^0 of \d+ tests passed, 0 failed, [1-9]",
            re.MULTILINE,
        ),
    ),
    (
        "narration",
        re.compile(
            r"\b(?:here is|here's|this script|the following (?:code|script|command)|"
            r"explanation:|you can use)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "runtime error",
        re.compile(
            r"tests stopped after|\b(?:ValueError|IndexError|KeyError|NameError|AttributeError|"
            r"ZeroDivisionError|RecursionError|OverflowError|RuntimeError|UnboundLocalError)\b|"
            r"with overflow|index out of bounds|called `(?:Option|Result)::unwrap\(\)`"
        ),
    ),
    (
        "wrong output",
        re.compile(
            r"AssertionError|assertion|does not do what was asked|mismatch|check failed|"
            r"tests? passed|FAILED|expected output",
            re.IGNORECASE,
        ),
    ),
)
FAILURE_CLASSES = ("passed", *(name for name, _ in _RULES), "other")


def failure_class(verification: str, passed: bool) -> str:
    """The class of one attempt's outcome: ``passed`` or the first failure class whose rule
    the verifier's report matches (``other`` when none does)."""
    if passed:
        return "passed"
    for name, rule in _RULES:
        if rule.search(verification or ""):
            return name
    return "other"


def failure_lines(rows: list[dict[str, Any]]) -> list[str]:
    """The mechanism endpoints as markdown: first attempts per domain and condition, counted
    by failure class."""
    firsts = first_attempts(rows)
    counts: dict[tuple[str, str], Counter[str]] = {}
    for condition, attempts in firsts.items():
        for (domain, _), row in attempts.items():
            key = (domain, condition)
            counts.setdefault(key, Counter())[
                failure_class(str(row.get("verification", "")), bool(row.get("passed")))
            ] += 1
    if not counts:
        return []
    shown = [c for c in FAILURE_CLASSES if any(n[c] for n in counts.values())]
    lines = [
        "## Where attempts fail",
        "",
        "First attempts by the class the verifier's report shows (decided by rule, see "
        "`failures.py`): a memory that turns a build failure into a wrong answer shows here "
        "even when pass@1 does not move.",
        "",
        "| domain | condition | attempts | " + " | ".join(shown) + " |",
        "|---|---|---|" + "---|" * len(shown),
    ]
    for (domain, condition), found in sorted(counts.items()):
        cells = " | ".join(str(found[c]) for c in shown)
        lines.append(f"| {domain} | {condition} | {sum(found.values())} | {cells} |")
    return [*lines, ""]
