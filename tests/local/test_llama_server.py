"""The local model server never outlives the process that started it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

pytestmark = pytest.mark.slow  # seconds each: the full suite runs them, not test-unit

CHILD = (
    "import threading, sys\n"
    "from langgraph_mtl.local.llama_process import _stop_when_orphaned\n"
    "stop = threading.Event()\n"
    "threading.Thread(target=_stop_when_orphaned, args=(stop, 0.1), daemon=True).start()\n"
    "print('ready', flush=True)\n"
    "stop.wait(30)\n"
    "sys.exit(0 if stop.is_set() else 1)\n"
)
PARENT = (
    "import subprocess, sys, time\n"
    f"child = subprocess.Popen([sys.executable, '-c', {CHILD!r}])\n"
    "print(child.pid, flush=True)\n"
    "time.sleep(60)\n"
)


def test_the_server_stops_when_its_parent_is_killed():
    parent = subprocess.Popen([sys.executable, "-c", PARENT], stdout=subprocess.PIPE, text=True)
    child = int(parent.stdout.readline())
    time.sleep(1.0)
    parent.send_signal(signal.SIGKILL)
    parent.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)
    os.kill(child, signal.SIGKILL)
    raise AssertionError("the orphaned server kept running")
