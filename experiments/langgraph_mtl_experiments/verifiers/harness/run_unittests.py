"""Runs a unittest suite against ``solution.py`` and reports through a tagged line (standard
library plus what the suite imports).

Run inside the verifier's sandbox as ``python -I run_unittests.py <tests.py> <stub.py>
<function>``, with the run's nonce as the first line of stdin (read before the solution is
imported). The tests run in their own namespace: the task's stub (its imports and constants)
plus the solution's function, so nothing else the solution defines (a ``len`` or ``isinstance``
of its own, say) reaches them. The stub and the suite load first, so every module they compare
with is watched; then ``confine`` keeps the solution away from the harness's frames and memory,
and the harness works only with what it took before the solution loaded. The report is
``MTL-RESULT <nonce> {...}`` (a Python literal): how many tests ran and passed, and any
tampering seen (test machinery patched, a request ``confine`` refused, a test class not from
the suite, a result forged to equal anything or of a type the solution defined). An exit status
means nothing: without the tagged line the run fails.
"""

from __future__ import annotations

import ast
import builtins
import functools
import os
import sys
import threading
import unittest
from collections.abc import Callable
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from confine import confine, run_apart
from integrity import equality_probe, watch

HERE = os.path.dirname(os.path.abspath(__file__))
WATCH = (
    "builtins",
    "unittest",
    "pandas",
    "numpy",
    "math",
    "operator",
    "functools",
    "os",
    "sys",
    "json",
    "re",
    "collections",
    "__main__",
    "integrity",
    "confine",
)
TESTS_FILE = "<mtl-tests>"
SOLUTION_FILE = "solution.py"


def _prepare() -> None:
    try:  # plots render off screen; the libraries the suites compare with load before the solution
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot

        matplotlib.pyplot.switch_backend("Agg")  # bound now, not at the first plot
        import numpy.testing  # noqa: F401
        import pandas.testing  # noqa: F401
    except ImportError:
        pass


def _imported(*sources: str) -> tuple[str, ...]:
    """The top-level modules the sources import (the suite compares with them)."""
    names: set[str] = set()
    for source in sources:
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.add(node.module.split(".")[0])
    return tuple(sorted(names))


def _written_in(function: object, filename: str) -> bool:
    """Whether ``function``'s code was compiled from ``filename``."""
    code = getattr(function, "__code__", None)
    return code is not None and code.co_filename == filename


def _solution_made(kind: type) -> bool:
    """A class (or a base of it) whose methods the solution wrote."""
    return any(
        _written_in(member, SOLUTION_FILE)
        or _written_in(getattr(member, "__func__", None), SOLUTION_FILE)
        for klass in kind.__mro__
        for member in vars(klass).values()
    )


def _solution_threads(enumerate_threads: Callable[[], list[threading.Thread]]) -> Callable[[], int]:
    """How many live threads run code from the solution's file (a ``Thread`` subclass's
    ``run`` or a target the solution wrote)."""

    def count() -> int:
        running = 0
        for thread in enumerate_threads():
            target, run = getattr(thread, "_target", None), getattr(type(thread), "run", None)
            running += _written_in(target, SOLUTION_FILE) or _written_in(run, SOLUTION_FILE)
        return running

    return count


def _guard(
    function: Any,
    forged: list[str],
    always_equal: Callable[[object], bool],
    solution_made: Callable[[type], bool],
    watched: tuple[Callable[[], Any], Callable[[Any], list[str]]],
    threads: Callable[[], int],
) -> Any:
    """The solution's function as the suite calls it: each result is checked for forgery,
    and the machinery for patches made during the call (the suite's own mocks are in place
    before it) and for threads running the solution's own code after it returned (a library's
    worker or monitor thread is not one), before the suite sees it."""
    snapshot, changed = watched

    @functools.wraps(function)
    def checked(*args: Any, **kwargs: Any) -> Any:
        mark = snapshot()
        value = function(*args, **kwargs)
        if always_equal(value):
            forged.append(f"{type(value).__name__} result equals anything")
        elif solution_made(type(value)):
            forged.append(f"{type(value).__name__} result is of a type the solution defined")
        if patched := changed(mark):
            forged.append(f"patched: {', '.join(patched)}")
        if threads():
            forged.append("a thread running the solution's code runs on after it returned")
        if forged:
            raise RuntimeError("tampering: " + "; ".join(forged))
        return value

    return checked


def _from_suite(cls: type) -> bool:
    """The class and every base below TestCase come from the suite's own source."""
    for klass in cls.__mro__:
        if klass in (object, unittest.TestCase) or klass.__module__.startswith("unittest"):
            continue
        if not any(_written_in(f, TESTS_FILE) for f in vars(klass).values()):
            return False
    return True


def _load_stub(source: str, namespace: dict[str, Any]) -> None:
    """The task's starting file (its imports and constants), even if it is a bare signature."""
    try:
        code = compile(source, "<mtl-stub>", "exec")
    except SyntaxError:
        code = compile(source + "    pass\n", "<mtl-stub>", "exec")
    exec(code, namespace)


def _check(
    namespace: dict[str, Any],
    entry: str,
    classes: list[type],
    outcome: dict[str, Any],
    forged: list[str],
    taken: dict[str, Any],
) -> None:
    """Load the solution and run the suite (in a thread of its own: code the solution runs
    there can never install a signal handler, which would be handed the main thread's frame)."""
    changed = taken["watched"][1]
    module = taken["module_type"]("solution")
    module.__file__ = SOLUTION_FILE
    taken["modules"]["solution"] = module  # dataclasses and pickle look their module up
    try:
        with open(SOLUTION_FILE, encoding="utf-8") as handle:
            exec(compile(handle.read(), SOLUTION_FILE, "exec"), module.__dict__)
    except BaseException as exc:
        outcome["errors"].append(f"solution.py failed to load: {type(exc).__name__}: {exc}"[:300])
    if patched := changed():
        forged.append(f"patched: {', '.join(patched)}")
    function = module.__dict__.get(entry)
    namespace[entry] = (
        taken["guard"](
            function,
            forged,
            taken["always_equal"],
            taken["solution_made"],
            taken["watched"],
            taken["threads"],
        )
        if function is not None and not forged
        else None
    )
    names = list(namespace.items())  # what the suite's code sees by name, as it was set up

    def renamed() -> bool:
        return len(namespace) != len(names) or any(namespace.get(k) is not v for k, v in names)

    for cls in classes:
        if not taken["from_suite"](cls):
            outcome["tampered"].append(f"test class {cls.__name__} is not the suite's")
            continue
        for test in taken["loader"].loadTestsFromTestCase(cls):
            result = taken["result_type"]()
            if renamed():
                outcome["tampered"].append("the suite's names were changed")
                return
            try:
                taken["runs"][cls](test, result)
            except BaseException as exc:
                outcome["errors"].append(f"{test}: {type(exc).__name__}")
                continue
            if renamed():
                outcome["tampered"].append("the suite's names were changed")
                return
            outcome["ran"] += 1
            problems = result.failures + result.errors + result.skipped
            if taken["was_successful"](result) and not problems and result.testsRun == 1:
                outcome["passed"] += 1
            else:
                detail = "".join(str(p[1]) for p in problems)[-400:]
                outcome["errors"].append(f"{test}: {detail}")
            if patched := changed():
                outcome["tampered"].append(f"patched: {', '.join(patched)}")
                return


_SHAPES = {"ran": int, "passed": int, "tampered": list, "errors": list}
_CHANGED = {"ran": 0, "passed": 0, "errors": [], "tampered": ["the report was changed"]}


def plain(
    outcome: dict[str, Any],
    forged: list[str],
    refused: list[str],
    *,
    _type: type = type,  # the builtins as they were before any solution ran
    _str: type = str,
    _set: type = set,
    _any: Callable[..., bool] = any,
    _sorted: Callable[..., list[str]] = sorted,
) -> dict[str, Any]:
    """The report from what the suite run left: plain counts and texts, or, where code under
    test put anything else there (a number or list of its own type, a key added), tampering."""
    shapes = _SHAPES
    if _set(outcome) != _set(shapes) or _any(_type(outcome[k]) is not t for k, t in shapes.items()):
        return _CHANGED
    texts = [*outcome["tampered"], *outcome["errors"], *forged, *refused]
    if _any(_type(text) is not _str for text in texts):
        return _CHANGED
    tampered = [*outcome["tampered"], *forged, *(f"refused: {r}" for r in refused)]
    return {**outcome, "tampered": _sorted(_set(tampered))}


def main() -> None:
    nonce = sys.stdin.readline().strip()
    tests_path, stub_path, entry = sys.argv[1], sys.argv[2], sys.argv[3]
    report = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    _prepare()
    outcome: dict[str, Any] = {"ran": 0, "passed": 0, "tampered": [], "errors": []}
    forged: list[str] = []
    namespace: dict[str, Any] = {"__name__": "suite", "__builtins__": builtins}
    with open(tests_path, encoding="utf-8") as handle:
        tests = handle.read()
    with open(stub_path, encoding="utf-8") as handle:
        stub = handle.read()
    _load_stub(stub, namespace)
    exec(compile(tests, TESTS_FILE, "exec"), namespace)
    classes = [
        v
        for v in list(namespace.values())
        if isinstance(v, type) and issubclass(v, unittest.TestCase) and v is not unittest.TestCase
    ]
    # everything the harness uses from here on is taken before the solution can touch it
    taken: dict[str, Any] = {
        "watched": watch(WATCH + _imported(stub, tests)),
        "always_equal": equality_probe(),
        "loader": unittest.TestLoader(),
        "result_type": unittest.TestResult,
        "was_successful": unittest.TestResult.wasSuccessful,
        "runs": {cls: cls.run for cls in classes},
        "threads": _solution_threads(threading.enumerate),
        "guard": _guard,
        "from_suite": _from_suite,
        "solution_made": _solution_made,
        "modules": sys.modules,
        "module_type": type(sys),
    }
    exit_now, repr_ = os._exit, repr
    refused = confine(HERE)
    run_apart(_check, namespace, entry, classes, outcome, forged, taken)
    report.write(f"\nMTL-RESULT {nonce} {repr_(plain(outcome, forged, refused()))}\n")
    report.flush()
    exit_now(0)  # exit hooks the solution registered never run


if __name__ == "__main__":
    main()
