"""Runs a project's pytest suite and reports through a tagged line (standard library plus
pytest).

Run inside the verifier's sandbox as ``python -I run_pytest.py <tests> [pytest args]`` in the
project's folder, with the run's nonce as the first line of stdin. The suite runs in a thread
of its own under ``confine`` (no frames, tracing, garbage-collector lists or raw memory for the
project's code, and no signal handlers), and the harness works only with what it took before
pytest started. The report is ``MTL-RESULT <nonce> {...}`` (a Python literal): tests passed,
failed, errored and skipped as pytest's own reports told them (each test's last report counts,
and only pytest's own report objects do), and any patching of pytest's machinery, change to
its hooks after collection began (a plugin registered, an implementation replaced), swap of the
harness's own counts, or request ``confine`` refused. An exit status means nothing: without the tagged line the run fails.
"""

from __future__ import annotations

import hashlib
import os
import sys
from collections.abc import Callable
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from confine import confine, run_apart
from integrity import cells_watch, files_watch, hook_watch, watch

HERE = os.path.dirname(os.path.abspath(__file__))
WATCH = (
    "builtins",
    "unittest",
    "_pytest",
    "pytest",
    "pluggy",
    "__main__",
    "integrity",
    "confine",
)


def reporter(
    report_type: type, hookimpl: Callable[..., Any], trusted: list[str]
) -> tuple[Any, Callable[[], tuple[dict[str, int], bool]], Callable[..., list[str]]]:
    """A pytest plugin keeping a journal of what pytest reports, the function that counts
    outcomes from it (and tells whether the journal is as written), and one listing the
    hooks changed since collection began (checked as each report is made, and at the end).

    Only pytest's own report objects for the tests it collected count, each test phase by its
    last report (so a report forged ahead of pytest's is overwritten), a collected test without
    a report is an error, and so is the plugin being unregistered. Each journal entry also goes
    into a running sha256 the code under test can add to but never rewind, so an entry changed
    in place afterwards (from a thread, say) no longer matches it."""
    journal: list[tuple[str, ...]] = []
    seal = hashlib.sha256()
    managers: list[Any] = []
    watching: list[Callable[[], list[str]]] = []
    changed_hooks: dict[str, None] = {}
    sources = files_watch(os.getcwd())
    type_, set_, list_, repr_, sha256_ = type, set, list, repr, hashlib.sha256

    def record(*entry: str) -> None:
        journal.append(entry)
        seal.update(repr_(entry).encode())

    def hooks_changed(*, imports: bool = False) -> list[str]:
        """What changed: pytest's hooks; with ``imports`` also the sources on disk (at the end
        of collection and of the run)."""
        for name in watching[0]() if watching else []:
            changed_hooks[name] = None
        for path in sources() if imports else []:
            changed_hooks[f"source file {path}"] = None
        return list_(changed_hooks)[:5]

    class Counter:
        def pytest_configure(self, config: Any) -> None:
            if not managers:  # pytest's own call comes before any code under test is imported
                managers.append(config.pluginmanager)

        @hookimpl(tryfirst=True)
        def pytest_collection(self, session: Any) -> None:
            if managers and not watching:  # before collection imports the code under test
                watching.append(hook_watch(managers[0], trusted))

        def pytest_collection_finish(self, session: Any) -> None:
            record("collected", *(str(item.nodeid) for item in session.items))
            hooks_changed(imports=True)  # the tests came from their files, through pytest

        @hookimpl(hookwrapper=True, tryfirst=True)
        def pytest_runtest_makereport(self, item: Any, call: Any) -> Any:
            hooks_changed()  # before any other implementation makes or changes the report
            yield

        def pytest_runtest_logreport(self, report: Any) -> None:
            if type_(report) is not report_type:
                record("error", "a report pytest did not make")
                return
            outcome = ""
            if report.when == "call" and report.passed:
                outcome = "passed"
            elif report.failed:
                outcome = "failed" if report.when == "call" else "errors"
            elif report.skipped:
                outcome = "skipped"
            record("report", str(report.nodeid), str(report.when), outcome)

        def pytest_collectreport(self, report: Any) -> None:
            if report.failed:
                record("error", "a collection error")

    plugin = Counter()

    def counts() -> tuple[dict[str, int], bool]:
        check = sha256_()
        for entry in journal:
            check.update(repr_(entry).encode())
        intact = check.digest() == seal.digest()
        out = {"passed": 0, "failed": 0, "errors": 0, "skipped": 0}
        known: set[str] = set_()
        last: dict[tuple[str, str], str] = {}
        for kind, *fields in journal:
            if kind == "collected":
                known = set_(fields)
            elif kind == "report":
                last[(fields[0], fields[1])] = fields[2]
            else:
                out["errors"] += 1
        for (nodeid, _), outcome in last.items():
            if outcome and nodeid in known:
                out[outcome] += 1
        reported = {nodeid for (nodeid, when), o in last.items() if when == "call" or o}
        out["errors"] += len(known - reported)
        if not managers or not managers[0].is_registered(plugin):
            out["errors"] += 1
        return out, intact

    return plugin, counts, hooks_changed


def main() -> None:
    nonce = sys.stdin.readline().strip()
    report = os.fdopen(os.dup(1), "w")
    sys.path.insert(0, os.getcwd())
    import pytest
    from _pytest.reports import TestReport

    _, changed = watch(WATCH)
    trusted = [
        os.path.join(d, "conftest.py") for d, _, f in os.walk(os.getcwd()) if "conftest.py" in f
    ]
    plugin, counts, hooks_changed = reporter(TestReport, pytest.hookimpl, trusted)
    methods = [f for f in vars(type(plugin)).values() if callable(f)]
    swapped = cells_watch([counts, hooks_changed, *methods])
    exit_now, repr_ = os._exit, repr
    args = ["-q", "-p", "no:cacheprovider", "--rootdir", os.getcwd(), *sys.argv[1:]]
    crash: list[str] = []

    def run() -> None:
        try:
            pytest.main(args, plugins=[plugin])
        except BaseException as exc:
            crash.append(f"{type(exc).__name__}: {exc}"[:300])

    refused = confine(HERE)
    run_apart(run)
    counted, intact = counts()
    outcome: dict[str, Any] = dict(counted)
    if crash:
        outcome["errors"] += 1
        outcome["crash"] = crash[0]
    tampered = [f"refused: {r}" for r in refused()]
    if patched := changed():
        tampered.append(f"patched: {', '.join(patched)}")
    if hooks := hooks_changed(imports=True):
        tampered.append(f"pytest hooks changed: {', '.join(hooks)}")
    if swapped():
        tampered.append("the harness's counts were replaced")
    if not intact:
        tampered.append("the harness's journal was changed")
    outcome["tampered"] = tampered
    report.write(f"\nMTL-RESULT {nonce} {repr_(outcome)}\n")
    report.flush()
    exit_now(0)


if __name__ == "__main__":
    main()
