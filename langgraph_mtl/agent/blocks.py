"""The whole statement a range of lines cuts into: what a line edit is asked for again when
its lines did not fit with the ones around them (a ``try`` without its ``except``, an ``else``
without its body)."""

from __future__ import annotations

import ast

from langgraph_mtl.agent.tuning import TUNING

__all__: list[str] = []  # used within the agent package only


def enclosing_statement(
    text: str, start: int, end: int, *, limit: int = TUNING.max_statement_lines
) -> tuple[int, int] | None:
    """The lines of the smallest compound statement of the Python ``text`` (a function or
    class with its decorators, an ``if``, ``for``, ``while``, ``with`` or ``try``) that holds
    lines ``start``-``end``, when it has at most ``limit`` lines; None when none does or the
    text does not parse."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    spans = []
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt) and hasattr(node, "body"):
            decorators = getattr(node, "decorator_list", [])
            first = min([node.lineno, *(d.lineno for d in decorators)])
            spans.append((first, node.end_lineno or node.lineno))
    holding = [(a, b) for a, b in spans if a <= start and end <= b and b - a < limit]
    return min(holding, key=lambda span: span[1] - span[0], default=None)
