"""Progress of a run (done and passed counts per label, safe across worker threads) and
the lanes its concurrent attempts hold."""

from __future__ import annotations

import contextlib
import queue
import threading
from collections.abc import Callable, Iterator, Mapping

__all__ = ["Lanes", "Progress", "Tally"]

Progress = Callable[[str, int, int, float], None]


class Tally:
    """Done/passed counts per progress label, safe to update from worker threads. Attempts
    already stored are counted first and announced once per label (``start``), so a progress
    display can tell them from runs finished now (a replay takes no time)."""

    def __init__(self, progress: Progress | None, totals: Mapping[str, int]) -> None:
        self.progress, self.totals = progress, totals
        self.counts = {label: [0, 0] for label in totals}
        self.lock = threading.Lock()

    def stored(self, label: str, passed: bool) -> None:
        """Count an attempt already stored, without reporting it."""
        self.counts[label][0] += 1
        self.counts[label][1] += passed

    def start(self) -> None:
        """Report every label once with what was already stored (often nothing)."""
        for label, (done, passed) in self.counts.items():
            if self.progress:
                self.progress(label, done, self.totals[label], passed / done if done else 0.0)

    def add(self, label: str, passed: bool) -> None:
        with self.lock:
            count = self.counts[label]
            count[0] += 1
            count[1] += passed
            if self.progress:
                self.progress(label, count[0], self.totals[label], count[1] / count[0])


class Lanes:
    """Which of ``count`` runs at once an attempt is: a lane is held while an attempt runs, so
    a model server with a request slot per lane and kind of call keeps each prefix warm."""

    def __init__(self, count: int) -> None:
        self._free: queue.SimpleQueue[int] = queue.SimpleQueue()
        for lane in range(max(count, 1)):
            self._free.put(lane)

    @contextlib.contextmanager
    def held(self) -> Iterator[int]:
        lane = self._free.get()
        try:
            yield lane
        finally:
            self._free.put(lane)
