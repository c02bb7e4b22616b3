"""Notices a solution that patched the test machinery (standard library only; run inside the
verifier's sandbox, next to the code under test).

``snapshot`` records the identity of every function and class attribute of the loaded modules
named by prefix, before the solution is imported; ``changed`` lists what differs afterwards.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Iterable

CALLABLE = (
    types.FunctionType,
    types.BuiltinFunctionType,
    types.MethodType,
    type,
    staticmethod,
    classmethod,
    property,
    types.WrapperDescriptorType,
    types.MethodDescriptorType,
    types.MethodWrapperType,
)


def _watched(prefixes: Iterable[str]) -> list[tuple[str, types.ModuleType]]:
    wanted = tuple(prefixes)
    return [
        (name, module)
        for name, module in list(sys.modules.items())
        if isinstance(module, types.ModuleType)
        and any(name == p or name.startswith(p + ".") for p in wanted)
    ]


def snapshot(prefixes: Iterable[str]) -> dict[str, int]:
    """``{"module.attr" or "module.Class.attr": id(value)}`` for callables and classes."""
    seen: dict[str, int] = {}
    for name, module in _watched(prefixes):
        for attr, value in list(vars(module).items()):
            if not isinstance(value, CALLABLE):
                continue
            seen[f"{name}.{attr}"] = id(value)
            if isinstance(value, type) and value.__module__ == name:
                for key, member in list(vars(value).items()):
                    if isinstance(member, CALLABLE):
                        seen[f"{name}.{attr}.{key}"] = id(member)
    return seen


def changed(before: dict[str, int], prefixes: Iterable[str]) -> list[str]:
    """What the snapshot recorded that is now replaced or gone (first five)."""
    now = snapshot(prefixes)
    return [key for key, ident in before.items() if now.get(key) != ident][:5]


class Sentinel:
    """A value no real result equals."""


def always_equal(value: object, depth: int = 0) -> bool:
    """True when ``value`` (or an element of a list, tuple, set or dict it holds) claims to
    equal something it cannot equal: a result forged to pass any comparison."""
    probe = Sentinel()
    try:
        if (value == probe) is True or (value != probe) is False:
            return True
    except Exception:  # element-wise types may refuse; they are not forgeries
        pass
    if depth >= 2:
        return False
    items: Iterable[object] = ()
    if type(value) in (list, tuple, set, frozenset):
        items = list(value)[:200]  # type: ignore[call-overload]
    elif type(value) is dict:
        items = [*list(value.values())[:200], *list(value.keys())[:200]]  # type: ignore[attr-defined]
    return any(always_equal(item, depth + 1) for item in items)
