"""Notices a solution that patched the test machinery (standard library only; run inside the
verifier's sandbox, next to the code under test).

``watch(prefixes)``, called before the solution is loaded, records the identity of every
function and class attribute of the loaded modules named by prefix (of a function also its
body and default arguments, which can be replaced or changed in place) and returns two functions:
one taking such a record now, one listing what differs from the first record (or from one
given, such as the record taken as the suite called the solution, so the suite's own mocks are
not taken for the solution's patches). ``hook_watch`` does the same for a pytest plugin
manager's hooks, ``files_watch`` for the sources on disk, ``cells_watch`` for what the
harness keeps in closures. ``equality_probe()``
returns a function telling a result forged to equal anything. They hold on to what they use (the ``sys.modules`` mapping, the builtins
they call), so patching this module, ``builtins`` or ``sys`` afterwards cannot blind them.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Callable, Iterable
from typing import Any

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


Snapshot = dict[str, int]


def identity_of() -> Callable[[Any], int]:
    """A function giving a value's identity: of a function also its body and default
    arguments (its keyword defaults item by item: a dict, changed in place as easily as
    replaced). It holds the builtins it calls, so patching them afterwards cannot blind it."""
    isinstance_, list_, id_, hash_, function_type = isinstance, list, id, hash, types.FunctionType

    def identity(value: Any) -> int:
        if not isinstance_(value, function_type):
            return id_(value)
        keywords = value.__kwdefaults__
        parts = (value, value.__code__, value.__defaults__, keywords)
        named = list_(keywords.items()) if keywords else []
        return hash_((*(id_(p) for p in parts), *((k, id_(v)) for k, v in named)))

    return identity


def watch(
    prefixes: Iterable[str],
) -> tuple[Callable[[], Snapshot], Callable[[Snapshot | None], list[str]]]:
    """Snapshot now; returns ``(snapshot, changed)``: ``changed(since)`` lists what was
    replaced or removed since ``since`` (default: now) (first five)."""
    wanted = tuple(prefixes)
    modules, module_type, kinds = sys.modules, types.ModuleType, CALLABLE
    isinstance_, vars_, list_, any_ = isinstance, vars, list, any
    identity = identity_of()

    def snapshot() -> Snapshot:
        seen: Snapshot = {}
        for name, module in list_(modules.items()):
            if not isinstance_(module, module_type) or not any_(
                name == p or name.startswith(p + ".") for p in wanted
            ):
                continue
            for attr, value in list_(vars_(module).items()):
                if not isinstance_(value, kinds):
                    continue
                seen[f"{name}.{attr}"] = identity(value)
                if isinstance_(value, type) and value.__module__ == name:
                    for key, member in list_(vars_(value).items()):
                        if isinstance_(member, kinds):
                            seen[f"{name}.{attr}.{key}"] = identity(member)
        return seen

    first = snapshot()

    def changed(since: Snapshot | None = None) -> list[str]:
        before, now = since or first, snapshot()
        return [key for key, ident in before.items() if now.get(key) != ident][:5]

    return snapshot, changed


def hook_watch(manager: Any, trusted: Iterable[str]) -> Callable[[], list[str]]:
    """Snapshot the hooks of a pytest plugin manager now; returns a function listing the hooks
    whose implementations differ from that snapshot (first five): a plugin registered by the
    code under test, an implementation's function replaced or given a new body, the executor
    swapped. The ``conftest.py`` modules of ``trusted`` (paths, those on disk before the run)
    are pytest's own to register, once each."""
    trusted_files = frozenset(trusted)
    vars_, list_, id_, getattr_, tuple_, isinstance_ = vars, list, id, getattr, tuple, isinstance
    module_type, sorted_, identity = types.ModuleType, sorted, identity_of()

    def snapshot() -> dict[str, Any]:
        seen: dict[str, Any] = {"(executor)": id_(getattr_(manager, "_inner_hookexec", None))}
        conftests: dict[str, set[int]] = {}
        for name, caller in list_(vars_(manager.hook).items()):
            impls = getattr_(caller, "get_hookimpls", None)
            if impls is None:
                continue
            own = []
            for impl in impls():
                plugin = impl.plugin
                where = (
                    getattr_(plugin, "__file__", None) if isinstance_(plugin, module_type) else None
                )
                if where in trusted_files:
                    conftests.setdefault(where, set()).add(id_(plugin))
                    continue
                own.append((id_(plugin), identity(impl.function), impl.hookwrapper, impl.wrapper))
            seen[name] = (id_(getattr_(caller, "_hookexec", None)), tuple_(own))
        for where, modules in conftests.items():
            seen[f"(conftest {where})"] = len(modules)
        return seen

    first = snapshot()

    def changed() -> list[str]:
        now = snapshot()
        keys = sorted_({*first, *now})
        return [key for key in keys if first.get(key, 1) != now.get(key, 1)][:5]

    return changed


def files_watch(
    root: str, suffixes: tuple[str, ...] = (".py", ".cfg", ".ini", ".toml")
) -> Callable[[], list[str]]:
    """Record the sources under ``root`` now (the project's code, tests and their settings);
    returns a function listing those changed, removed or added since (first five): tests
    rewritten on disk by the code under test before pytest imports them."""
    import os

    walk, join, open_, hash_, sorted_ = os.walk, os.path.join, open, hash, sorted

    def read() -> dict[str, int]:
        seen = {}
        for folder, _, names in walk(root):
            for name in names:
                if name.endswith(suffixes):
                    path = join(folder, name)
                    try:
                        with open_(path, "rb") as handle:
                            seen[path] = hash_(handle.read())
                    except OSError:
                        seen[path] = -1
        return seen

    first = read()

    def changed() -> list[str]:
        now = read()
        return sorted_(p for p in {*first, *now} if first.get(p) != now.get(p))[:5]

    return changed


def cells_watch(functions: Iterable[Any]) -> Callable[[], bool]:
    """Record what the closure cells of ``functions`` hold now; returns a function telling
    whether any of them has since been made to hold another object (state the harness keeps
    in closures, swapped by code that found the functions)."""
    held = [(cell, cell.cell_contents) for f in functions for cell in f.__closure__ or ()]
    any_ = any

    def swapped() -> bool:
        return any_(cell.cell_contents is not value for cell, value in held)

    return swapped


class Sentinel:
    """A value no real result equals."""


# pairs of plain values unequal to each other: nothing honest equals both of a pair (a type
# whose == is its base type's != does, and it does not care what the values are)
_UNEQUAL_PAIRS = (
    (-7919, 104729),
    (0.6180339887, -2.718281828),
    ("\x00mtl-probe-a", "\x00mtl-probe-b"),
    ([-7919], [104729]),
    ((-7919,), (104729,)),
    ({"\x00a": -7919}, {"\x00b": 104729}),
    (frozenset({-7919}), frozenset({104729})),
)


def equality_probe() -> Callable[[object], bool]:
    """A function telling whether a value (or an element of a list, tuple, set or dict it
    holds) claims to equal something it cannot equal: a result forged to pass any comparison,
    whether it equals an object it has never seen or both of two values unequal to each other."""
    sentinel, type_, list_, any_, bool_ = Sentinel, type, list, any, bool
    containers = (list, tuple, set, frozenset)
    pairs = _UNEQUAL_PAIRS

    def scalar_bool(outcome: object) -> bool | None:
        """A comparison's outcome as True or False when it is one (also numpy's), else None."""
        if outcome is True or outcome is False:
            return outcome
        if type_(outcome).__name__ == "bool_" and getattr(outcome, "shape", None) == ():
            return bool_(outcome)
        return None

    def claims_equal(value: object, other: object) -> bool:
        try:
            return scalar_bool(value == other) is True or scalar_bool(value != other) is False
        except Exception:  # element-wise types may refuse; they are not forgeries
            return False

    def forged_here(value: object) -> bool:
        return claims_equal(value, sentinel()) or any_(
            claims_equal(value, a) and claims_equal(value, b) for a, b in pairs
        )

    def always_equal(value: object, depth: int = 0) -> bool:
        if forged_here(value):
            return True
        if depth >= 2:
            return False
        items: Iterable[object] = ()
        if type_(value) in containers:
            items = list_(value)[:200]  # type: ignore[call-overload]
        elif type_(value) is dict:
            items = [*list_(value.values())[:200], *list_(value.keys())[:200]]  # type: ignore[attr-defined]
        return any_(always_equal(item, depth + 1) for item in items)

    return always_equal
