"""Runs a project's pytest suite and reports through a tagged line (standard library plus
pytest).

Run inside the verifier's sandbox as ``python -I run_pytest.py <tests> [pytest args]`` in the
project's folder, with the run's nonce as the first line of stdin. The report is
``MTL-RESULT <nonce> {json}``: tests passed, failed, errored and skipped as pytest's own hooks
saw them, and any patching of pytest's machinery by the code under test. An exit status
means nothing: without the tagged line the run fails.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from integrity import changed, snapshot

WATCH = ("builtins", "unittest", "_pytest", "pytest", "pluggy", "__main__", "integrity")


class Counter:
    """Counts test outcomes from pytest's report hooks."""

    def __init__(self) -> None:
        self.outcome: dict[str, Any] = {"passed": 0, "failed": 0, "errors": 0, "skipped": 0}

    def pytest_runtest_logreport(self, report: Any) -> None:
        if report.when == "call" and report.passed:
            self.outcome["passed"] += 1
        elif report.failed:
            self.outcome["failed" if report.when == "call" else "errors"] += 1
        elif report.skipped:
            self.outcome["skipped"] += 1

    def pytest_collectreport(self, report: Any) -> None:
        if report.failed:
            self.outcome["errors"] += 1


def main() -> None:
    nonce = sys.stdin.readline().strip()
    report = os.fdopen(os.dup(1), "w")
    sys.path.insert(0, os.getcwd())
    import pytest

    before = snapshot(WATCH)
    counter = Counter()
    args = ["-q", "-p", "no:cacheprovider", "--rootdir", os.getcwd(), *sys.argv[1:]]
    try:
        pytest.main(args, plugins=[counter])
    except BaseException as exc:
        counter.outcome["errors"] += 1
        counter.outcome["crash"] = f"{type(exc).__name__}: {exc}"[:300]
    counter.outcome["tampered"] = (
        [f"patched: {', '.join(p)}"] if (p := changed(before, WATCH)) else []
    )
    report.write(f"\nMTL-RESULT {nonce} {json.dumps(counter.outcome)}\n")
    report.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
