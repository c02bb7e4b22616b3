"""Runs a unittest suite against ``solution.py`` and reports through a tagged line (standard
library plus what the suite imports).

Run inside the verifier's sandbox as ``python -I run_unittests.py <tests.py> <stub.py>
<function>``, with the run's nonce as the first line of stdin (read before the solution is
imported). The tests run in their own namespace: the task's stub (its imports and constants)
plus the solution's function, so nothing else the solution defines (a ``len`` or ``isinstance``
of its own, say) reaches them. The report is ``MTL-RESULT <nonce> {json}``: how many tests ran
and passed, and any tampering seen (test machinery patched, a test class not from the suite, a
result forged to equal anything or of a type the solution defined). An exit status means
nothing: without the tagged line the run fails.
"""

from __future__ import annotations

import builtins
import functools
import json
import os
import sys
import unittest
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from integrity import always_equal, changed, snapshot

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
    "__main__",
    "integrity",
)
TESTS_FILE = "<mtl-tests>"
SOLUTION_FILE = "solution.py"


def _prepare() -> None:
    try:  # plots render off screen; the libraries the suites compare with load before the solution
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot
        import numpy.testing  # noqa: F401
        import pandas.testing  # noqa: F401
    except ImportError:
        pass


def _solution_made(kind: type) -> bool:
    """A class (or a base of it) whose methods the solution wrote."""
    for klass in kind.__mro__:
        for member in vars(klass).values():
            code = getattr(member, "__code__", None) or getattr(
                getattr(member, "__func__", None), "__code__", None
            )
            if code is not None and code.co_filename == SOLUTION_FILE:
                return True
    return False


def _guard(function: Any, forged: list[str]) -> Any:
    @functools.wraps(function)
    def checked(*args: Any, **kwargs: Any) -> Any:
        value = function(*args, **kwargs)
        if always_equal(value):
            forged.append(f"{type(value).__name__} result equals anything")
        elif _solution_made(type(value)):
            forged.append(f"{type(value).__name__} result is of a type the solution defined")
        return value

    return checked


def _from_suite(cls: type) -> bool:
    """The class and every base below TestCase come from the suite's own source."""
    for klass in cls.__mro__:
        if klass in (object, unittest.TestCase) or klass.__module__.startswith("unittest"):
            continue
        codes = [getattr(f, "__code__", None) for f in vars(klass).values()]
        if not any(c is not None and c.co_filename == TESTS_FILE for c in codes):
            return False
    return True


def main() -> None:
    nonce = sys.stdin.readline().strip()
    tests_path, stub_path, entry = sys.argv[1], sys.argv[2], sys.argv[3]
    report = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    _prepare()
    before = snapshot(WATCH)
    solution: dict[str, Any] = {"__name__": "solution", "__builtins__": builtins}
    outcome: dict[str, Any] = {"ran": 0, "passed": 0, "tampered": [], "errors": []}
    forged: list[str] = []
    try:
        with open(SOLUTION_FILE, encoding="utf-8") as handle:
            exec(compile(handle.read(), SOLUTION_FILE, "exec"), solution)
    except BaseException as exc:
        outcome["errors"].append(f"solution.py failed to load: {type(exc).__name__}: {exc}"[:300])
    namespace: dict[str, Any] = {"__name__": "suite", "__builtins__": builtins}
    with open(stub_path, encoding="utf-8") as handle:  # the task's own imports and constants
        stub = handle.read()
    try:
        code = compile(stub, "<mtl-stub>", "exec")
    except SyntaxError:  # a bare signature
        code = compile(stub + "    pass\n", "<mtl-stub>", "exec")
    exec(code, namespace)
    namespace[entry] = _guard(solution[entry], forged) if entry in solution else None
    with open(tests_path, encoding="utf-8") as handle:
        exec(compile(handle.read(), TESTS_FILE, "exec"), namespace)
    classes = [
        v
        for v in list(namespace.values())
        if isinstance(v, type) and issubclass(v, unittest.TestCase) and v is not unittest.TestCase
    ]
    loader = unittest.TestLoader()
    for cls in classes:
        if not _from_suite(cls):
            outcome["tampered"].append(f"test class {cls.__name__} is not the suite's")
            continue
        for test in loader.loadTestsFromTestCase(cls):
            result = unittest.TestResult()
            try:
                test.run(result)
            except BaseException as exc:
                outcome["errors"].append(f"{test}: {type(exc).__name__}")
                continue
            outcome["ran"] += 1
            problems = result.failures + result.errors + result.skipped
            if result.wasSuccessful() and not problems and result.testsRun == 1:
                outcome["passed"] += 1
            else:
                detail = "".join(str(p[1]) for p in problems)[-400:]
                outcome["errors"].append(f"{test}: {detail}")
            if patched := changed(before, WATCH):
                outcome["tampered"].append(f"patched: {', '.join(patched)}")
                break
    outcome["tampered"] += sorted(set(forged))
    report.write(f"\nMTL-RESULT {nonce} {json.dumps(outcome)}\n")
    report.flush()
    os._exit(0)  # exit hooks the solution registered never run


if __name__ == "__main__":
    main()
