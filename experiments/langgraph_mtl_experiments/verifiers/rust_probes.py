"""Calls beyond a Rust task's tests, written as Rust: each is one of the tests' calls with a
literal changed (:func:`.probes.nudge`: a number moved, a letter or word of a string swapped,
dropped or doubled), an element of a list literal dropped or doubled, or an argument taken from
another of the tests' calls at the same place. The arguments go through the task's signature,
so every probe has the task's types; one that still does not build (it names a variable of the
test's, say) is left out."""

from __future__ import annotations

import hashlib
import math
import random
import re
from collections.abc import Iterator

from langgraph_mtl_experiments.verifiers.probes import nudge

__all__ = ["answers_agree", "call_arguments", "probe_arguments", "probe_program"]

# string and char literals first, so nothing inside them is taken for a number or a bracket
_TOKEN = re.compile(
    r"""(?P<string>(?<![\w#])"(?:[^"\\]|\\.)*")"""
    r"""|(?P<char>'(?:[^'\\]|\\.)')"""
    r"|(?P<float>(?<![\w.])\d+\.\d+(?:[eE][+-]?\d+)?(?P<fsuffix>f32|f64)?(?![\w.]))"
    r"|(?P<int>(?<![\w.])\d+(?P<isuffix>[iu](?:8|16|32|64|128|size))?(?![\w.]))"
    r"|(?P<open>[(\[{])|(?P<close>[)\]}])|(?P<comma>,)",
    re.DOTALL,
)
_NUMBER = re.compile(r"-?(?:\d+\.\d+(?:e[+-]?\d+)?|\d+e[+-]?\d+|inf|NaN)")


def _closing(text: str, opening: int) -> tuple[list[tuple[int, int]], int] | None:
    """The spans of the comma-separated parts inside the bracket at ``opening`` and the index
    of its closing bracket (``None`` when it does not close); literals are skipped whole."""
    depth, start, parts = 0, opening + 1, []
    for token in _TOKEN.finditer(text, opening):
        if token["open"]:
            depth += 1
        elif token["close"]:
            depth -= 1
            if depth == 0:
                parts.append((start, token.start()))
                return [(a, b) for a, b in parts if text[a:b].strip()], token.start()
        elif token["comma"] and depth == 1:
            parts.append((start, token.start()))
            start = token.end()
    return None


def call_arguments(tests: str, entry: str) -> list[str]:
    """The argument text of each call to ``entry`` in ``tests``, in order."""
    literals = [t.span() for t in _TOKEN.finditer(tests) if t["string"] or t["char"]]
    out = []
    for call in re.finditer(rf"(?<![\w.:]){re.escape(entry)}\s*\(", tests):
        if any(a < call.start() < b for a, b in literals):
            continue  # written inside a string
        found = _closing(tests, call.end() - 1)
        if found is not None:
            out.append(tests[call.end() : found[1]].strip())
    return out


def _literals(text: str) -> Iterator[re.Match[str]]:
    for token in _TOKEN.finditer(text):
        if token["float"] or token["int"] or (token["string"] and "\\" not in token["string"]):
            yield token  # strings with escapes are left as they are


def _nudged_literal(token: re.Match[str], rng: random.Random) -> str:
    if token["string"]:
        return '"' + nudge(token["string"][1:-1], rng) + '"'
    if token["float"]:
        suffix = token["fsuffix"] or ""
        value = nudge(float(token["float"].removesuffix(suffix)), rng)
        shown = repr(value)
        return (shown if "." in shown or "e" in shown else shown + ".0") + suffix
    suffix = token["isuffix"] or ""
    return str(nudge(int(token["int"].removesuffix(suffix)), rng)) + suffix


def _lists(text: str) -> list[list[tuple[int, int]]]:
    """The element spans of each non-empty ``[...]`` in ``text``."""
    out = []
    for token in _TOKEN.finditer(text):
        if token["open"] == "[" and (found := _closing(text, token.start())) and found[0]:
            out.append(found[0])
    return out


def _changed(arguments: str, donors: list[list[str]], rng: random.Random) -> str | None:
    """``arguments`` changed once: a literal, a list's element or (from ``donors``, the other
    calls' arguments) an argument in the same place."""
    parts = _closing(f"({arguments})", 0)
    spans = [(a - 1, b - 1) for a, b in parts[0]] if parts else []
    choice = rng.random()
    if choice < 0.25 and len(spans) > 1:
        at = rng.randrange(len(spans))
        options = [d[at] for d in donors if len(d) == len(spans) and d[at] != arguments]
        if options:
            a, b = spans[at]
            return arguments[:a] + rng.choice(options) + arguments[b:]
    lists = _lists(arguments)
    if choice < 0.45 and lists:
        elements = rng.choice(lists)
        k = rng.randrange(len(elements))
        a, b = elements[k]
        if rng.random() < 0.5 or len(elements) == 1:
            return arguments[:b] + ", " + arguments[a:b].strip() + arguments[b:]  # doubled
        if k + 1 < len(elements):  # dropped, with the comma after it
            return arguments[:a] + arguments[elements[k + 1][0] :]
        return arguments[: elements[k - 1][1]] + arguments[b:]  # the last, with the one before
    literals = list(_literals(arguments))
    if not literals:
        return None
    token = rng.choice(literals)
    return arguments[: token.start()] + _nudged_literal(token, rng) + arguments[token.end() :]


def probe_arguments(calls: list[str], count: int, seed: str) -> list[str]:
    """Up to ``count`` argument lists near ``calls`` (:func:`call_arguments`), none of them
    one of ``calls``; the same every time for the same calls and ``seed``."""
    rng = random.Random(hashlib.sha256(seed.encode()).digest())
    donors = []
    for call in calls:
        found = _closing(f"({call})", 0)
        donors.append([f"({call})"[a:b].strip() for a, b in found[0]] if found else [])
    seen, out = set(calls), list[str]()
    for _ in range(count * 8):
        if len(out) == count or not calls:
            break
        changed = _changed(rng.choice(calls + out), donors, rng)  # a probe may move further
        if changed is not None and changed not in seen:
            seen.add(changed)
            out.append(changed)
    return out


def probe_program(wrapper: str, uses: str, entry: str, probes: list[str], tag: str) -> str:
    """A program whose ``main`` takes a probe's number and prints ``tag``, the number and the
    ``{:?}`` of ``entry``'s answer on one line; ``wrapper`` is the task's signature calling the
    crate under test. Probe ``i``'s function starts on the line :func:`probe_lines` gives."""
    lines = [
        uses,
        wrapper,
        "fn main() {\n    let i: usize = std::env::args().nth(1).unwrap().parse().unwrap();",
    ]
    lines.append("    let answer = match i {")
    lines += [f"        {i} => probe_{i}()," for i in range(len(probes))]
    lines += ["        _ => return,", "    };", f'    println!("{tag} {{i}} {{answer}}");', "}"]
    for i, arguments in enumerate(probes):
        lines.append(f"#[allow(unused_parens)]\nfn probe_{i}() -> String {{")
        lines.append(f'    format!("{{:?}}", {entry}({arguments}))\n}}')
    return "\n".join(lines) + "\n"


def probe_lines(program: str) -> dict[int, int]:
    """Each line of ``program`` (1-based) that belongs to a probe's function, to its number."""
    out, current = {}, None
    for number, line in enumerate(program.splitlines(), start=1):
        if found := re.match(r"fn probe_(\d+)\(\)", line):
            current = int(found[1])
        if current is not None:
            out[number - 1] = current  # the allow attribute above it
            out[number] = current
        if line == "}":
            current = None
    return out


def answers_agree(got: str, expected: str) -> bool:
    """Two ``{:?}`` answers alike: the same text, numbers with a fraction or exponent equal to
    a relative 1e-5 (an ``f32`` sum taken in another order)."""
    if got == expected:
        return True
    got_parts, expected_parts = _NUMBER.split(got), _NUMBER.split(expected)
    if got_parts != expected_parts:
        return False
    for a, b in zip(_NUMBER.findall(got), _NUMBER.findall(expected), strict=True):
        x, y = float(a), float(b)
        if math.isnan(x) or math.isnan(y):
            if not (math.isnan(x) and math.isnan(y)):
                return False
        elif not math.isclose(x, y, rel_tol=1e-5, abs_tol=1e-7):
            return False
    return True
