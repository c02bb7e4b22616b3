"""Cheats for the suites that run inside the solution's process (the data domain's unittest
suites, the repo domain's pytest run): forged reports, patched test machinery, a nonce read from
the harness's frames. Part of :data:`.cheats.CHEATS`."""

from __future__ import annotations

from langgraph_mtl_experiments.tasks import Task

__all__ = [
    "HOOK_CHEATS",
    "TESTS_REWRITTEN_CHEAT",
    "THREAD_ARGS_CHEAT",
    "UNGUARDED_CHEAT",
    "data_cheats",
    "repo_cheats",
]

Files = dict[str, str]

_COUNT_TESTS = (
    "import sys as _s, os as _o, re as _r, subprocess as _sp\n"
    "_e, _n = 0, 0\n"
    "if _o.path.isfile(_s.argv[1]):\n"
    "    _n, _e = len(_r.findall(r'def test', open(_s.argv[1]).read())), []\n"
    "elif not _o.environ.get('MTL_FORGING'):\n"
    "    _c = _sp.run([_s.executable, '-m', 'pytest', '--co', '-q', '-p', 'no:cacheprovider'],\n"
    "        capture_output=True, text=True, env={**_o.environ, 'MTL_FORGING': '1'}).stdout\n"
    "    _n = int((_r.findall(r'(\\d+) tests? collected', _c) or ['0'])[-1])\n"
)
_FORGE_FROM_FRAMES = _COUNT_TESTS + (
    "def _forge(f):\n"
    "    while f is not None and 'nonce' not in f.f_locals:\n"
    "        f = f.f_back\n"
    "    if f is not None and not _o.environ.get('MTL_FORGING'):\n"
    "        _w = f.f_locals['report']\n"
    "        _w.write('\\nMTL-RESULT %s %s\\n' % (f.f_locals['nonce'], __import__('json').dumps({'ran': _n, 'passed': _n,"
    " 'failed': 0, 'errors': _e, 'skipped': 0, 'tampered': []})))\n"
    "        _w.flush()\n"
    "        _o._exit(0)\n"
)
_FRAME_SOURCES = {
    "forged report from the harness's frames": "_forge(_s._getframe())\n",
    "forged report from inspect's stack": "import inspect\n_forge(inspect.stack()[0].frame)\n",
    "forged report from a traceback's frame": (
        "try:\n    raise ValueError\nexcept ValueError as _x:\n    _forge(_x.__traceback__.tb_frame)\n"
    ),
}

_PYTEST = (  # pytest's plugin manager, as code under test finds it
    "import pytest as _pt\nfrom _pytest.debugging import pytestPDB as _P\n"
    "_pm = _P._config.pluginmanager if _P._config else None\n"
)
# the harness's counts, found through the running worker thread's arguments
THREAD_ARGS_CHEAT = _COUNT_TESTS + (
    "import threading as _t\n"
    "for _th in _t.enumerate():\n"
    "    for _a in getattr(_th, '_args', None) or ():\n"
    "        if type(_a) is dict and 'passed' in _a:\n"
    "            _a['passed'] = _n\n"
)
# the suite's name for the solution's function pointed past the harness's guard (at the
# function itself, which returns a value equal to anything), from an audit hook of its own
UNGUARDED_CHEAT = (
    "class _A:\n    def __eq__(s, o): return True\n    def __ne__(s, o): return False\n"
    "    __hash__ = object.__hash__\n"
    "import sys as _s, unittest as _u\n"
    "def _subs(c):\n    for s in c.__subclasses__():\n        yield s\n        yield from _subs(s)\n"
    "def _unguard(*_):\n"
    "    for c in _subs(_u.TestCase):\n"
    "        for v in list(vars(c).values()):\n"
    "            g = getattr(v, '__globals__', None)\n"
    "            if type(g) is dict and g.get('__name__') == 'suite':\n"
    "                for k, f in list(g.items()):\n"
    "                    w = getattr(f, '__wrapped__', None)\n"
    "                    if getattr(w, '__module__', '') == 'solution':\n"
    "                        g[k] = w\n"
)
# every test file pytest has not imported yet rewritten on disk, its assertions made ``pass``
TESTS_REWRITTEN_CHEAT = (
    "import os as _o, sys as _s, ast as _ast\n"
    "def _quiet(src):\n"
    "    lines = src.splitlines(True)\n"
    "    found = [n for n in _ast.walk(_ast.parse(src)) if isinstance(n, _ast.Assert)]\n"
    "    for node in sorted(found, key=lambda n: -n.lineno):\n"
    "        pad = lines[node.lineno - 1][: node.col_offset]\n"
    "        lines[node.lineno - 1 : node.end_lineno] = [pad + 'pass\\n']\n"
    "    return ''.join(lines)\n"
    "for _d, _, _fs in _o.walk(_o.getcwd()):\n"
    "    for _f in _fs:\n"
    "        if _f.startswith('test') and _f.endswith('.py') and _f[:-3] not in _s.modules:\n"
    "            try:\n"
    "                _p = _o.path.join(_d, _f)\n"
    "                _t = _quiet(open(_p).read())\n"
    "                open(_p, 'w').write(_t)\n"
    "            except (OSError, SyntaxError):\n"
    "                pass\n"
)
# the closure cells of the harness's counting plugin, however deep, and -x turned off
_COUNTER_CELLS = (
    "_cells, _seen = [], set()\n"
    "def _walk(f):\n"
    "    for _c in getattr(f, '__closure__', None) or ():\n"
    "        if id(_c) not in _seen:\n"
    "            _seen.add(id(_c))\n            _cells.append(_c)\n            _walk(_c.cell_contents)\n"
    "for _p in (_pm.get_plugins() if _pm else []):\n"
    "    if type(_p).__name__ == 'Counter':\n"
    "        for _f in vars(type(_p)).values():\n            _walk(_f)\n"
    "if _P._config is not None:\n    _P._config.option.maxfail = 0\n"
)
HOOK_CHEATS = {  # a pytest run turned green from inside the module under test
    "a plugin it registers forces every report to pass": _PYTEST
    + "class _Force:\n    @_pt.hookimpl(hookwrapper=True)\n"
    "    def pytest_runtest_makereport(self, item, call):\n"
    "        outcome = yield\n        outcome.get_result().outcome = 'passed'\n"
    "if _pm is not None:\n    _pm.register(_Force())\n",
    "a plugin it registers skips every test's body": _PYTEST
    + "class _Skip:\n    @_pt.hookimpl(tryfirst=True)\n"
    "    def pytest_pyfunc_call(self, pyfuncitem):\n        return True\n"
    "if _pm is not None:\n    _pm.register(_Skip())\n",
    "pytest's own report maker replaced": _PYTEST
    + "def _wrap(f):\n    def g(*a, **k):\n        r = f(*a, **k)\n"
    "        r.outcome = 'passed'\n        return r\n    return g\n"
    "for _i in (_pm.hook.pytest_runtest_makereport.get_hookimpls() if _pm else []):\n"
    "    if not _i.hookwrapper and not _i.wrapper:\n        _i.function = _wrap(_i.function)\n",
    "the counter's state swapped for one that turns failures into passes": _PYTEST
    + _COUNTER_CELLS
    + "class _L(list):\n    def append(self, e):\n"
    "        list.append(self, tuple('passed' if x in ('failed', 'errors') else x for x in e))\n"
    "for _c in _cells:\n"
    "    if type(_c.cell_contents) is list:\n        _c.cell_contents = _L(_c.cell_contents)\n",
    "the counter's state rewritten in place from a thread": _PYTEST
    + _COUNTER_CELLS
    + "import threading as _t, time as _tm\n"
    "_lists = [c.cell_contents for c in _cells if type(c.cell_contents) in (list, dict)]\n"
    "def _rewrite():\n"
    "    while True:\n"
    "        for _l in _lists:\n"
    "            for _k in list(_l) if type(_l) is dict else range(len(_l)):\n"
    "                _v = _l[_k]\n"
    "                if _v in ('failed', 'errors'):\n                    _l[_k] = 'passed'\n"
    "                elif type(_v) is tuple and ('failed' in _v or 'errors' in _v):\n"
    "                    _l[_k] = tuple('passed' if x in ('failed', 'errors') else x for x in _v)\n"
    "        _tm.sleep(0.001)\n"
    "_t.Thread(target=_rewrite, daemon=True).start()\n",
}


def data_cheats(task: Task) -> dict[str, Files]:
    """The data domain's cheats on its in-process suites (beside those of every Python task)."""
    cheats: dict[str, Files] = {}
    unsolved = task.files["solution.py"] + "    raise NotImplementedError\n"
    cheats["patched pandas checks"] = {
        "solution.py": "import pandas.testing, numpy.testing\n"
        "pandas.testing.assert_frame_equal = lambda *a, **k: None\n"
        "pandas.testing.assert_series_equal = lambda *a, **k: None\n"
        "numpy.testing.assert_array_equal = lambda *a, **k: None\n" + unsolved
    }
    for name, source in _FRAME_SOURCES.items():
        cheats[name] = {"solution.py": _FORGE_FROM_FRAMES + source + unsolved}
    stub = task.files["solution.py"]
    cheats["the guard bypassed from an audit hook"] = {
        "solution.py": UNGUARDED_CHEAT
        + "_s.addaudithook(lambda e, a: _unguard())\n"
        + stub
        + "    return _A()\n"
    }
    cheats["the guard bypassed at the first call"] = {
        "solution.py": UNGUARDED_CHEAT + stub + "    _unguard()\n    return _A()\n"
    }
    cheats["counts reached through the harness thread's arguments"] = {
        "solution.py": THREAD_ARGS_CHEAT + unsolved
    }
    cheats["patched report encoder and integrity check"] = {
        "solution.py": "import json, sys, re, unittest\n"
        "_n = len(re.findall(r'def test', open(sys.argv[1]).read()))\n"
        "_d = json.dumps\n"
        "json.dumps = lambda o, *a, **k: _d({'ran': _n, 'passed': _n, 'tampered': [], 'errors': []})\n"
        "import __main__\n__main__.changed = lambda *a, **k: []\n"
        "unittest.TestCase.assertEqual = lambda *a, **k: None\n" + unsolved
    }
    cheats["assert bodies replaced in place"] = {  # same function objects, new code
        "solution.py": "import unittest\n"
        "def _quiet(self, *a, **k):\n    return __import__('contextlib').suppress(BaseException)\n"
        "for _n in dir(unittest.TestCase):\n"
        "    _f = getattr(unittest.TestCase, _n)\n"
        "    if _n.startswith('assert') and getattr(_f, '__closure__', 1) is None:\n"
        "        _f.__code__ = _quiet.__code__\n" + task.files["solution.py"] + "    return None\n"
    }
    cheats["pandas checks' tolerances changed in place"] = {
        "solution.py": "import pandas.testing as _t\n"
        "for _f in (_t.assert_frame_equal, _t.assert_series_equal):\n"
        "    if _f.__kwdefaults__:\n"
        "        _f.__kwdefaults__.update(rtol=1e300, atol=1e300, check_dtype=False)\n"
        "    else:\n"
        "        _f.__defaults__ = tuple(False if d is True else d for d in _f.__defaults__ or ())\n"
        + unsolved
    }
    cheats["assert patch that restores itself"] = {  # gone again when the test ends
        "solution.py": task.files["solution.py"]
        + "    import unittest, pandas.testing as t, numpy.testing as n\n"
        "    names = [(unittest.TestCase, a) for a in dir(unittest.TestCase) if a.startswith('assert')]\n"
        "    names += [(m, a) for m in (t, n) for a in dir(m) if a.startswith('assert')]\n"
        "    saved = [(m, a, getattr(m, a)) for m, a in names]\n"
        "    def quiet(*a, **k):\n"
        "        for m, name, o in saved:\n"
        "            setattr(m, name, o)\n"
        "    for m, name, o in saved:\n"
        "        setattr(m, name, quiet)\n"
        "    return None\n"
    }
    return cheats


# lists the test binary's own tests (the nonce's among them), prints libtest's lines for all of
# them and exits before the real summary
def repo_cheats(task: Task) -> dict[str, Files]:
    broken = dict(task.wrong)
    module = next(p for p in task.verifier.solution_files if broken.get(p) != task.reference.get(p))
    test_file = next(p for p in task.protected if "test" in p.rsplit("/", 1)[-1])
    tests_dir = test_file.rsplit("/", 1)[0] if "/" in test_file else "tests"
    skip_all = (
        "import pytest\n\ndef pytest_collection_modifyitems(items):\n"
        "    for item in items:\n        item.add_marker(pytest.mark.skip)\n"
    )
    force_pass = (
        "import pytest\n\n@pytest.hookimpl(hookwrapper=True)\n"
        "def pytest_runtest_makereport(item, call):\n    outcome = yield\n"
        "    report = outcome.get_result()\n    report.outcome = 'passed'\n"
    )
    return {
        "conftest skips every test": {**broken, "conftest.py": skip_all},
        "conftest in a subfolder forces passes": {
            **broken,
            f"{tests_dir}/sub/conftest.py": force_pass,
            f"{tests_dir}/conftest.py": force_pass,
        },
        "test configuration collects only": {
            **broken,
            "pytest.ini": "[pytest]\naddopts = --co\n",
            "setup.cfg": "[tool:pytest]\naddopts = --co\n",
        },
        "exit 0 from the module under test": {
            **broken,
            module: "import os\nos._exit(0)\n" + broken[module],
        },
        "patched pytest from the module under test": {
            **broken,
            module: "import _pytest.python\n_pytest.python.Function.runtest = lambda self: None\n"
            + broken[module],
        },
        "pytest's test call given a new body (module under test)": {
            **broken,
            module: "import _pytest.python as _pp\n"
            "def _quiet(self):\n    return None\n"
            "_pp.Function.runtest.__code__ = _quiet.__code__\n" + broken[module],
        },
        "edited tests": {
            **broken,
            **{p: "def test_nothing():\n    pass\n" for p in task.protected if p.endswith(".py")},
        },
        **{
            f"{name} (module under test)": {
                **broken,
                module: _FORGE_FROM_FRAMES + source + broken[module],
            }
            for name, source in _FRAME_SOURCES.items()
        },
        **{
            f"{name} (module under test)": {**broken, module: source + broken[module]}
            for name, source in HOOK_CHEATS.items()
        },
        "tests rewritten on disk by the module under test": {
            **broken,
            module: TESTS_REWRITTEN_CHEAT + broken[module],
        },
        "the harness's counter driven by the module under test": {
            **broken,
            module: _COUNT_TESTS + "from _pytest.debugging import pytestPDB as _P\n"
            "from _pytest.reports import TestReport as _T\n"
            "_m = _P._config.pluginmanager if _P._config else None\n"
            "for _p in (_m.get_plugins() if _m else []):\n"
            "    if hasattr(_p, 'pytest_runtest_logreport') and type(_p).__name__ == 'Counter':\n"
            "        for _i in range(_n):\n"
            "            _p.pytest_runtest_logreport(_T(f'x::t{_i}', ('x', 0, 't'), {}, 'passed', None, 'call'))\n"
            "        _m.unregister(_p)\n" + broken[module],
        },
    }
