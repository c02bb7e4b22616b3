"""Verifiers the solution cannot game: each runs the task's hidden checks on the solution's
allowlisted files in a fresh sandboxed folder, and only a complete, passing run counts.

One module per kind of check: ``python_calls`` (function tasks answered call by call),
``unittest_suite`` (suites run next to the solution), ``pytest_suite`` (a project's own
tests), ``rust``, ``verilog``, ``shell``, ``command`` (exit status, for small custom domains); ``probes`` and ``rust_probes`` make the calls
beyond a task's tests, ``scratch`` holds the shared folders and report channel, ``tamper``
notices changed test machinery in a workspace.
"""

from langgraph_mtl_experiments.verifiers.base import Verifier
from langgraph_mtl_experiments.verifiers.command import CommandCheck
from langgraph_mtl_experiments.verifiers.pytest_suite import PytestSuite
from langgraph_mtl_experiments.verifiers.python_calls import CallTests
from langgraph_mtl_experiments.verifiers.rust import RustTests
from langgraph_mtl_experiments.verifiers.shell import ShellOutcome
from langgraph_mtl_experiments.verifiers.tamper import fingerprint, tampering
from langgraph_mtl_experiments.verifiers.unittest_suite import UnittestSuite
from langgraph_mtl_experiments.verifiers.verilog import VerilogTestbench

__all__ = [
    "CallTests",
    "CommandCheck",
    "PytestSuite",
    "RustTests",
    "ShellOutcome",
    "UnittestSuite",
    "Verifier",
    "VerilogTestbench",
    "fingerprint",
    "tampering",
]
