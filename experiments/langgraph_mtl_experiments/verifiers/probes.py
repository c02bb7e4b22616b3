"""Inputs beyond a task's tests: each is one of the calls the tests made, changed a little (a
number moved by one to five; a letter, word or element swapped, dropped or doubled; an argument
taken from another of the tests' calls), so a solution that only remembers the tests' answers is
asked something it has not seen. The changes keep each value's type, sign and alphabet, so the
input stays near what the task allows."""

from __future__ import annotations

import hashlib
import math
import random
from typing import Any

__all__ = ["MIN_PROBES", "Call", "agrees", "fitted", "probe_calls"]

Call = tuple[tuple[Any, ...], dict[str, Any]]
MIN_PROBES = 4  # fewer calls the reference answers the same way twice: no judgement


def _nudge_int(value: int, rng: random.Random) -> int:
    step = rng.choice((1, 1, 2, 3, 5))
    if value > 0:
        return value + step if value <= step or rng.random() < 0.5 else value - step
    if value < 0:
        return value - step if value >= -step or rng.random() < 0.5 else value + step
    return 1


def _nudge_float(value: float, rng: random.Random) -> float:
    if not math.isfinite(value):
        return value
    return value * rng.choice((0.5, 1.5, 2.0)) if value else 0.5


def _nudge_str(value: str, rng: random.Random) -> str:
    words = value.split(" ")
    if len(words) > 1 and rng.random() < 0.7:  # words, not letters: "three one five"
        return " ".join(_nudge_sequence(words, rng, inner=False))
    if len(value) < 2:
        return value + value if value else value
    chars = list(value)
    at = rng.randrange(len(chars) - 1)
    move = rng.choice(("swap", "double", "drop", "replace"))
    if move == "swap":
        chars[at], chars[at + 1] = chars[at + 1], chars[at]
    elif move == "double":
        chars.insert(at, chars[at])
    elif move == "drop" and len(chars) > 2:
        del chars[at]
    else:
        chars[at] = rng.choice(value)
    return "".join(chars)


def _nudge_sequence(value: list[Any], rng: random.Random, inner: bool = True) -> list[Any]:
    items = list(value)
    if not items:
        return items
    at = rng.randrange(len(items))
    moves = (
        ("element", "element", "double", "drop", "swap") if inner else ("double", "drop", "swap")
    )
    move = rng.choice(moves)
    if move == "element":
        items[at] = nudge(items[at], rng)
    elif move == "double":
        items.insert(at, items[at])
    elif move == "drop" and len(items) > 1:
        del items[at]
    elif len(items) > 1:
        other = rng.randrange(len(items))
        items[at], items[other] = items[other], items[at]
    return items


def nudge(value: Any, rng: random.Random) -> Any:
    """``value`` changed a little, of the same type (booleans and other types as they are)."""
    if isinstance(value, bool):
        return value
    if type(value) is int:
        return _nudge_int(value, rng)
    if type(value) is float:
        return _nudge_float(value, rng)
    if type(value) is str:
        return _nudge_str(value, rng)
    if type(value) is list:
        return _nudge_sequence(value, rng)
    if type(value) is tuple:
        return tuple(_nudge_sequence(list(value), rng))
    if type(value) is dict and value:
        key = rng.choice(list(value))
        return {**value, key: nudge(value[key], rng)}
    return value


def _key(call: Call) -> str:
    args, kwargs = call
    return repr((args, sorted(kwargs.items())))


def _mixed(args: list[Any], calls: list[Call], rng: random.Random) -> list[Any] | None:
    """``args`` with one argument taken from another of ``calls`` (of the same type), or two
    of its own of the same type swapped: every part is one the tests used."""
    if rng.random() < 0.7:
        donors = [c[0] for c in calls if len(c[0]) == len(args) > 1]
        donor = rng.choice(donors) if donors else ()
        spots = [i for i, a in enumerate(donor) if type(a) is type(args[i])]
        if spots:
            at = rng.choice(spots)
            return [*args[:at], donor[at], *args[at + 1 :]]
    pairs = [(i, j) for i in range(len(args)) for j in range(i) if type(args[i]) is type(args[j])]
    if not pairs:
        return None
    i, j = rng.choice(pairs)
    swapped = list(args)
    swapped[i], swapped[j] = args[j], args[i]
    return swapped


def probe_calls(calls: list[Call], count: int, seed: str) -> list[Call]:
    """Up to ``count`` new calls near ``calls``, none of them one of ``calls``: most change a
    value a little (:func:`nudge`), some mix the tests' own arguments (:func:`_mixed`); the same
    every time for the same calls and ``seed``."""
    rng = random.Random(hashlib.sha256(seed.encode()).digest())
    seen = {_key(call) for call in calls}
    out: list[Call] = []
    for _ in range(count * 8):
        if len(out) == count or not calls:
            break
        args, kwargs = rng.choice(calls)
        new_args, new_kwargs = list(args), dict(kwargs)
        names = [(False, i) for i in range(len(new_args))] + [(True, k) for k in new_kwargs]
        if not names:
            break
        if rng.random() < 0.3 and (mixed := _mixed(new_args, calls, rng)) is not None:
            new_args = mixed
        else:
            k = rng.choice((1, 1, 2)) if len(names) > 1 else 1
            for is_kw, where in rng.sample(names, k=k):
                if is_kw:
                    new_kwargs[where] = nudge(new_kwargs[where], rng)  # type: ignore[index]
                else:
                    new_args[where] = nudge(new_args[where], rng)  # type: ignore[index]
        call: Call = (tuple(new_args), new_kwargs)
        if (key := _key(call)) not in seen:
            seen.add(key)
            out.append(call)
    return out


def agrees(got: Any, expected: Any) -> bool:
    """Plain data equal; numbers by value, floats to a relative 1e-6 (a sum taken in another
    order)."""
    if isinstance(got, (int, float)) and isinstance(expected, (int, float)):
        if isinstance(got, float) or isinstance(expected, float):
            if math.isnan(expected) or math.isnan(got):
                return math.isnan(expected) and math.isnan(got)
            return math.isclose(got, expected, rel_tol=1e-6, abs_tol=1e-9)
        return bool(got == expected)
    if isinstance(expected, (list, tuple)):
        return (
            type(got) is type(expected)
            and len(got) == len(expected)
            and all(map(agrees, got, expected))
        )
    if isinstance(expected, dict):
        return (
            type(got) is dict
            and got.keys() == expected.keys()
            and all(agrees(got[k], expected[k]) for k in expected)
        )
    return bool(got == expected)


def fitted(disagreed: int, given: list[str], expected: list[str]) -> bool:
    """Whether answers to the probes show a solution fitted to the tests, not the task: it
    disagrees with the reference on a third of them or more, or gives one answer to all of
    them where the reference's vary (a remembered table's default) and misses at least two.
    ``given`` and ``expected`` are the answers shown as text; fewer than :data:`MIN_PROBES`
    expected answers are no ground for a judgement."""
    if len(expected) < MIN_PROBES:
        return False
    constant = len(set(given)) == 1 and len(set(expected)) > 1
    return 3 * disagreed >= len(expected) or (constant and disagreed >= 2)
