"""Settings read from environment variables (the served graphs' configuration): a value that
cannot be used is an error naming its variable, not the setting it became."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

__all__ = ["from_environment"]


def from_environment(name: str, default: str, make: Callable[[str], T]) -> T:
    """``make`` applied to ``$name`` (``default`` when unset); its ValueError or TypeError
    comes back as a ValueError that names the variable and the value."""
    value = os.environ.get(name, default)
    try:
        return make(value)
    except (ValueError, TypeError) as error:
        raise ValueError(f"{name}={value!r}: {error}") from None
