"""The package's layers import only downwards: memory -> hygiene -> pool -> transfer -> nodes ->
agent -> cli; the experiment harness (its own distribution) sits on top and the library never
imports it. Every import counts, including those inside functions."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "langgraph_mtl"
HARNESS = ROOT / "experiments" / "langgraph_mtl_experiments"

# lowest first; a module may import its own layer and the layers below it
LAYERS = [
    {"_lazy", "_files", "_keywords", "environment", "home"},
    {"models", "model_calls", "model_errors", "local", "memory"},
    {"hygiene", "testing"},
    {"tracing", "tracing_client"},
    {"pool"},
    {"transfer"},
    {"nodes"},
    {"agent"},
    {"cli"},
    {"__init__"},
]
RANK = {part: rank for rank, parts in enumerate(LAYERS) for part in parts}


def _part(module: str) -> str:
    """The top-level part of ``langgraph_mtl.<part>...``."""
    return module.split(".")[1] if "." in module else "__init__"


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("langgraph_mtl")}
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("langgraph_mtl"):
            module = node.module or ""
            if module == "langgraph_mtl":  # from langgraph_mtl import x: the root or a part
                found |= {f"langgraph_mtl.{a.name}" for a in node.names}
            else:
                found.add(module)
    return found


def _layer_of(path: Path) -> str:
    relative = path.relative_to(PACKAGE)
    return relative.parts[0].removesuffix(".py")


def test_every_part_of_the_package_has_a_layer():
    parts = {_layer_of(p) for p in PACKAGE.rglob("*.py")}
    assert parts - set(RANK) == set()


def test_no_module_imports_a_layer_above_its_own():
    upward = []
    for path in sorted(PACKAGE.rglob("*.py")):
        own = _layer_of(path)
        for module in sorted(_imports(path)):
            target = _part(module)
            if target in RANK and RANK[target] > RANK[own]:
                upward.append(f"{path.relative_to(PACKAGE)} imports {module}")
    assert upward == []


def test_the_library_never_imports_the_experiment_harness():
    reaching = [
        f"{path.relative_to(PACKAGE)} imports {module}"
        for path in sorted(PACKAGE.rglob("*.py"))
        for module in _imports(path)
        if module.startswith("langgraph_mtl_experiments")
    ]
    assert reaching == []
    assert list(HARNESS.rglob("*.py"))  # the check looks at a harness that is there


@pytest.mark.slow
def test_the_core_wheel_holds_no_verifier_harness_or_cheat(tmp_path):
    """``pip wheel . --no-deps`` builds the library alone."""
    import subprocess
    import sys
    import zipfile

    command = [sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps"]
    command += ["--no-build-isolation", "-q", "-w", str(tmp_path)]  # the dev extra's backend
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    (wheel,) = tmp_path.glob("langgraph_mtl-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert any(n.startswith("langgraph_mtl/pool/") for n in names)
    assert not [
        n
        for n in names
        if re.search(r"experiments|(?:^|/)verifiers?(?:/|\.py$)|cheat|harness|usable_tasks", n)
    ]


def test_the_check_sees_an_upward_import(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("def f():\n    from langgraph_mtl.agent.graph import create_coding_agent\n")
    assert _imports(sample) == {"langgraph_mtl.agent.graph"}
    assert RANK[_part("langgraph_mtl.agent.graph")] > RANK["pool"]


@pytest.mark.slow
def test_importing_any_module_changes_no_environment_variable():
    """Even with a half-set-up tracing request (the case tracing set-up would switch off):
    that is decided where a run starts, never on import."""
    import os
    import subprocess
    import sys

    script = (
        "import os, pkgutil, importlib, langgraph_mtl\n"
        "before = dict(os.environ)\n"
        "names = [m.name for m in pkgutil.walk_packages(langgraph_mtl.__path__, 'langgraph_mtl.')]\n"
        "for name in names:\n"
        "    importlib.import_module(name)\n"
        "assert dict(os.environ) == before, set(os.environ.items()) ^ set(before.items())\n"
        "print(len(names))\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LANGSMITH_", "LANGCHAIN_"))}
    env["LANGSMITH_TRACING"] = "true"  # requested, but no key
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert int(done.stdout.strip()) > 80  # every module was imported


def test_importing_the_command_loads_no_plugin_and_a_plugin_imports_first():
    """Plugins (``langgraph_mtl.cli`` entry points) load when the app is first used, so a
    plugin that imports the core's CLI helpers can be imported on its own."""
    import subprocess
    import sys

    script = (
        "import sys\n"
        "import langgraph_mtl.cli\n"
        "assert 'langgraph_mtl_experiments' not in sys.modules\n"
        "from langgraph_mtl_experiments.cli import experiment_app\n"
        "from langgraph_mtl.cli import app\n"
        "print(sorted(g.name for g in app.registered_groups))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "experiment" in done.stdout and "pool" in done.stdout
