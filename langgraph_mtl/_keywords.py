"""Settings given as keywords: checked against the names a call takes, so a misspelt one is
named with the likely one instead of surfacing as a bare ``TypeError`` from deep inside, and
gathered into the settings object they are the fields of."""

from __future__ import annotations

import dataclasses
import difflib
from collections.abc import Iterable, Sequence
from typing import Any, TypeVar

C = TypeVar("C")


def check_keywords(given: Iterable[str], known: Sequence[str], what: str) -> None:
    """Raise a TypeError for the first of ``given`` that is not in ``known`` (``what`` names
    them: "a SearchConfig setting", "a pool filter"), with the closest name and the list."""
    for name in given:
        if name not in known:
            near = difflib.get_close_matches(name, known, n=1)
            hint = f"did you mean {near[0]!r}? " if near else ""
            raise TypeError(f"{name!r} is not {what}: {hint}they are {', '.join(known)}")


def check_settings(settings: Iterable[str], kind: type[Any]) -> None:
    """:func:`check_keywords` against the fields of the dataclass ``kind``."""
    if dataclasses.is_dataclass(kind):
        names = [field.name for field in dataclasses.fields(kind) if field.init]
        check_keywords(settings, names, f"a {kind.__name__} setting")


def one_config(config: C | None, settings: dict[str, Any], kind: type[C]) -> C:
    """A settings object: ``config``, or one built from its fields given as keywords (the flat
    form); both at once is an error."""
    if config is not None and settings:
        raise TypeError(
            f"give the settings as config= or as keywords, not both ({', '.join(settings)})"
        )
    if config is None:
        check_settings(settings, kind)
        return kind(**settings)
    if not isinstance(config, kind):
        raise TypeError(f"config: expected a {getattr(kind, '__name__', kind)}, got {config!r}")
    return config
