"""Printing for the ``mtl`` command: people get tables and clipped text on stdout, scripts get
one JSON document (``--json``); progress and status go to stderr."""

from __future__ import annotations

import json
import sys
from typing import Any

from rich.console import Console

__all__ = ["CLIP", "clip", "err", "out", "print_json", "print_text"]

CLIP = 1200  # characters of a memory shown; the rest is summarised as a count

out = Console(highlight=False)
err = Console(stderr=True, highlight=False)


def clip(text: str, limit: int = CLIP) -> str:
    """``text`` cut to ``limit`` characters, saying how much was cut."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]} [... {len(text) - limit} more characters]"


def print_text(text: str, *, limit: int = CLIP) -> None:
    """Print untrusted text as is: clipped, no markup, no wrapping work (a long unbroken token
    must not cost quadratic time)."""
    out.print(clip(text, limit), markup=False, highlight=False, soft_wrap=True)


def print_json(document: Any) -> None:
    """Print one JSON document on stdout."""
    sys.stdout.write(json.dumps(document, ensure_ascii=False, indent=2, default=str) + "\n")
    sys.stdout.flush()
