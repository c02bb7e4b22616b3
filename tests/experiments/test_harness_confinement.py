"""Suites that must run in the solution's own process: code under test cannot reach the
harness's frames, memory or report, and cannot hide a patch, while what honest code does with
frames through its libraries still works."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from langgraph_mtl_experiments.cheats_in_process import (
    HOOK_CHEATS,
    TESTS_REWRITTEN_CHEAT,
    THREAD_ARGS_CHEAT,
    UNGUARDED_CHEAT,
)
from langgraph_mtl_experiments.verifiers import UnittestSuite
from langgraph_mtl_experiments.verifiers.pytest_suite import PytestSuite
from langgraph_mtl_experiments.verifiers.scratch import read_result

pytestmark = pytest.mark.slow  # seconds each: the full suite runs them, not test-unit

HARNESS = (
    Path(__file__).resolve().parents[2] / "experiments/langgraph_mtl_experiments/verifiers/harness"
)
STUB = "def f(x):\n"
SUITE = (
    "import unittest\nclass T(unittest.TestCase):\n"
    "    def test_value(self):\n        self.assertEqual(f(2), 4)\n"
    "    def test_list(self):\n        self.assertEqual(f(3), 9)\n"
)
RIGHT = STUB + "    return x * x\n"
WRONG = STUB + "    return x + 1\n"

# finds the harness's frame holding the nonce and writes the tagged line claiming two passes
FORGE = (
    "import os as _o, json as _j\n"
    "def _forge(f):\n"
    "    while f is not None and 'nonce' not in f.f_locals:\n"
    "        f = f.f_back\n"
    "    w = f.f_locals['report']\n"
    "    w.write('\\nMTL-RESULT %s %s\\n' % (f.f_locals['nonce'], _j.dumps("
    "{'ran': 2, 'passed': 2, 'tampered': [], 'errors': []})))\n"
    "    w.flush()\n"
    "    _o._exit(0)\n"
)

CHEATS = {
    "frame": FORGE + "import sys\n_forge(sys._getframe())\n",
    "inspect": FORGE + "import inspect\n_forge(inspect.currentframe())\n",
    "traceback frame": FORGE + "try:\n    1/0\nexcept ZeroDivisionError as e:\n"
    "    _forge(e.__traceback__.tb_frame)\n",
    "traceback walk": FORGE + "import traceback\n_forge(next(traceback.walk_stack(None))[0])\n",
    "generator frame": FORGE + "def _g():\n    yield\n_forge(_g().gi_frame)\n",
    "string code": "exec('import sys\\nsys._getframe(1)')\n",
    "code named as a library's": "import inspect\nexec(compile('import sys\\nsys._getframe(1)', "
    "inspect.__file__, 'exec'))\n",
    "collector": "import gc\n[d for d in gc.get_objects() if isinstance(d, dict) and 'ran' in d]\n",
    "tracer": "import sys\nsys.settrace(lambda *a: None)\n",
    "debugger": "import pdb, io\npdb.Pdb(stdin=io.StringIO('c\\n'), stdout=io.StringIO()).set_trace()\n",
    "raw memory": "import ctypes\nctypes.string_at(id(object), 8)\n",
    "memory file": "open('/proc/self/mem', 'rb')\n",
    "signal handler": "import signal, os\n"
    "signal.signal(signal.SIGUSR1, lambda s, f: None)\nos.kill(os.getpid(), signal.SIGUSR1)\n",
    "report encoder patched": "import json\n_d = json.dumps\n"
    "json.dumps = lambda o, *a, **k: _d({'ran': 2, 'passed': 2, 'tampered': [], 'errors': []})\n",
    "integrity check patched": "import __main__, unittest\n__main__.changed = lambda *a: []\n"
    "unittest.TestCase.assertEqual = lambda *a, **k: None\n",
    "a body replaced in place": "import unittest\n"
    "unittest.TestCase.assertEqual.__code__ = (lambda self, *a, **k: None).__code__\n",
    "defaults replaced": "import unittest\n"
    "unittest.TestCase.assertAlmostEqual.__defaults__ = (None, None, 1e300)\n",
    "keyword defaults changed in place": "import json\njson.dumps.__kwdefaults__['indent'] = 1\n",
    "its own thread still running": "import threading, time\n"
    "def _wait():\n    time.sleep(3)\n"
    "threading.Thread(target=_wait, daemon=True).start()\n",
    "thread that patches later": "import threading, time, unittest\n"
    "_o = unittest.TestCase.assertEqual\n"
    "def _loop():\n    time.sleep(0.05)\n"
    "    unittest.TestCase.assertEqual = lambda *a, **k: None\n"
    "threading.Thread(target=_loop, daemon=True).start()\n",
}
SELF_RESTORING = (
    STUB + "    import unittest\n    original = unittest.TestCase.assertEqual\n"
    "    def quiet(*a, **k):\n        unittest.TestCase.assertEqual = original\n"
    "    unittest.TestCase.assertEqual = quiet\n    return x + 1\n"
)
HONEST = {
    "namedtuple": "import collections\nP = collections.namedtuple('P', 'a b')\n",
    "typing": "from typing import NamedTuple\nclass Q(NamedTuple):\n    a: int\n",
    "enum": "import enum\nE = enum.Enum('E', 'A B')\n",
    "dataclass": "from dataclasses import dataclass\n@dataclass\nclass D:\n    a: int = 1\n",
    "logging": "import logging\nlogging.getLogger('x').warning('hi')\n",
    "logged exception": "import logging\ntry:\n    1/0\nexcept ZeroDivisionError:\n"
    "    logging.getLogger('x').exception('boom')\n",
    "format_exc": "import traceback\ntry:\n    1/0\nexcept ZeroDivisionError:\n"
    "    _t = traceback.format_exc()\n",
    "warning": "import warnings\nwarnings.warn('careful', stacklevel=2)\n",
    "its own function's defaults": "def _g(a=1):\n    return a\n_g.__defaults__ = (2,)\n",
    "a library's signature": "import inspect, json\n_s = inspect.signature(json.dumps)\n",
    "a library's thread still running": "import threading, time\n"
    "threading.Thread(target=time.sleep, args=(3,), daemon=True).start()\n",
    "thread pool": "from concurrent.futures import ThreadPoolExecutor\n"
    "with ThreadPoolExecutor(2) as ex:\n    _r = list(ex.map(abs, [-1, 2]))\n",
}


@pytest.fixture(scope="module")
def suite() -> UnittestSuite:
    return UnittestSuite(tests=SUITE, entry="f", python=sys.executable, stub=STUB)


@pytest.mark.parametrize("name", sorted(CHEATS))
def test_a_cheat_in_the_solutions_process_fails_and_is_named_tampering(suite, name):
    verdict = suite.check({"solution.py": CHEATS[name] + WRONG}, "none")
    assert not verdict.passed
    assert verdict.tampered or "signal only works in main thread" in verdict.report, verdict.report


def test_a_patch_that_undoes_itself_when_used_is_seen_before_the_suite_uses_it():
    tests = SUITE.replace(
        "self.assertEqual(f(2), 4)", "got = f(2)\n        self.assertEqual(got, 4)"
    )
    tests = tests.replace(
        "self.assertEqual(f(3), 9)", "got = f(3)\n        self.assertEqual(got, 9)"
    )
    suite = UnittestSuite(tests=tests, entry="f", python=sys.executable, stub=STUB)
    assert suite.check({"solution.py": RIGHT}, "none").passed
    verdict = suite.check({"solution.py": SELF_RESTORING}, "none")
    assert not verdict.passed
    assert "patched: unittest.case.TestCase.assertEqual" in verdict.report


@pytest.mark.parametrize("name", sorted(HONEST))
def test_libraries_using_frames_for_honest_code_still_work(suite, name):
    verdict = suite.check({"solution.py": HONEST[name] + RIGHT}, "none")
    assert verdict.passed, verdict.report


def test_the_report_may_be_a_python_literal():
    assert read_result("MTL-RESULT n {'ran': 2, 'errors': ['x']}\n", "n") == {
        "ran": 2,
        "errors": ["x"],
    }
    assert read_result("MTL-RESULT n {'ran': __import__('os')}\n", "n") is None


PROJECT = {
    "mod.py": "def f():\n    return 1\n",
    "test_mod.py": "from mod import f\n\ndef test_one():\n    assert f() == 1\n\n"
    "def test_two():\n    assert f() + 1 == 2\n",
}
DRIVE = (
    "from _pytest.debugging import pytestPDB as _P\n"
    "from _pytest.reports import TestReport as _T\n"
    "_m = _P._config.pluginmanager if _P._config else None\n"
    "for _p in (_m.get_plugins() if _m else []):\n"
    "    if hasattr(_p, 'pytest_runtest_logreport') and type(_p).__name__ == 'Counter':\n"
    "        for _i in ('test_mod.py::test_one', 'test_mod.py::test_two'):\n"
    "            _p.pytest_runtest_logreport(_T(_i, ('x', 0, 't'), {}, 'passed', None, 'call'))\n"
    "        _m.unregister(_p)\n"
)


@pytest.mark.parametrize(
    ("name", "head"),
    [
        (
            "frame",
            FORGE.replace("'ran': 2, ", "'failed': 0, ") + "import sys\n_forge(sys._getframe())\n",
        ),
        ("counter driven", DRIVE),
        *HOOK_CHEATS.items(),
    ],
)
def test_a_project_module_cannot_forge_the_pytest_report(name, head):
    suite = PytestSuite(PROJECT, ("mod.py",), "test_mod.py", lambda: 2)
    assert suite.check({"mod.py": PROJECT["mod.py"]}, "none").passed
    wrong = "def f():\n    return 0\n"
    assert not suite.check({"mod.py": wrong}, "none").passed
    assert not suite.check({"mod.py": head + wrong}, "none").passed


def test_test_machinery_given_a_new_body_in_place_is_refused_by_name(suite):
    verdict = suite.check({"solution.py": CHEATS["a body replaced in place"] + WRONG}, "none")
    assert "refused: a new __code__ for TestCase.assertEqual" in verdict.report, verdict.report


def test_the_harness_state_is_out_of_reach_of_the_threads_the_solution_lists(suite):
    """The worker thread forgets its target and arguments as it starts: listing the threads
    finds no count to raise."""
    verdict = suite.check({"solution.py": THREAD_ARGS_CHEAT + WRONG}, "none")
    assert not verdict.passed and "0 of 2 tests passed" in verdict.report, verdict.report


def test_a_report_holding_anything_but_plain_counts_and_texts_is_tampering():
    saved = list(sys.path)
    sys.path.insert(0, str(HARNESS))
    try:
        from run_unittests import plain
    finally:
        sys.path[:] = saved

    class Quiet(list):
        def __repr__(self) -> str:
            return "[], 'passed': 2, 'ran': 2"

    clean = {"ran": 2, "passed": 1, "tampered": [], "errors": ["test_list: AssertionError"]}
    assert plain(dict(clean), ["patched: x"], ["sys._getframe"])["tampered"] == [
        "patched: x",
        "refused: sys._getframe",
    ]
    for changed in (
        {**clean, "errors": Quiet()},
        {**clean, "passed": True},
        {**clean, "extra": 1},
        {**clean, "errors": [type("S", (str,), {})("x")]},
    ):
        assert plain(changed, [], [])["tampered"] == ["the report was changed"]


def test_tests_rewritten_on_disk_before_pytest_imports_them_are_tampering():
    """Without a sandbox to keep the project read-only, the harness compares the sources."""
    project = {
        "mod.py": "def f():\n    return 1\n",
        "test_a.py": "from mod import f\n\ndef test_one():\n    assert f() == 1\n",
        "test_b.py": "from mod import f\n\ndef test_two():\n    assert f() == 1\n",
    }
    suite = PytestSuite(project, ("mod.py",), ".", lambda: 2)
    assert suite.check({"mod.py": project["mod.py"]}, "none").passed
    wrong = "def f():\n    return 0\n"
    verdict = suite.check({"mod.py": TESTS_REWRITTEN_CHEAT + wrong}, "none")
    assert not verdict.passed and "source file" in verdict.report, verdict.report


@pytest.mark.parametrize(
    ("trigger", "named"),
    [
        ("_s.addaudithook(lambda e, a: _unguard())\n", "refused: sys.addaudithook"),
        ("", "the suite's names were changed"),
    ],
)
def test_the_suites_name_for_the_solution_cannot_be_pointed_past_the_guard(suite, trigger, named):
    """From an audit hook of its own, or from inside its first call (once past the guard)."""
    body = "    _unguard()\n    return _A()\n" if not trigger else "    return _A()\n"
    verdict = suite.check({"solution.py": UNGUARDED_CHEAT + trigger + STUB + body}, "none")
    assert not verdict.passed and named in verdict.report, verdict.report
