"""The package's layers import only downwards: memory -> hygiene -> pool -> transfer -> nodes ->
agent -> experiments -> cli. Every import counts, including those inside functions."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "langgraph_mtl"

# lowest first; a module may import its own layer and the layers below it
LAYERS = [
    {"_lazy", "_files", "home"},
    {"models", "local", "memory"},
    {"hygiene", "testing"},
    {"tracing"},
    {"pool"},
    {"transfer"},
    {"nodes"},
    {"agent"},
    {"experiments"},
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
            found |= {a.name for a in node.names if a.name.startswith("langgraph_mtl.")}
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


def test_the_check_sees_an_upward_import(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("def f():\n    from langgraph_mtl.agent.graph import create_coding_agent\n")
    assert _imports(sample) == {"langgraph_mtl.agent.graph"}
    assert RANK[_part("langgraph_mtl.agent.graph")] > RANK["pool"]
