"""When a run is stuck: the same action three times in a row; within the last six steps, with
no change applied between them, the same action three times with the same answer, or the same
change of the same place refused (or changing nothing) three times with the same answer however
its lines differ; or a round of actions done twice over with the same results (reading and
rewriting the same thing, say). Read from the typed history (:mod:`.history`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from langgraph_mtl.agent.history import StepFacts, place
from langgraph_mtl.agent.tuning import TUNING

__all__: list[str] = []  # used within the agent package only


def stuck(history: Sequence[StepFacts]) -> bool:
    """The same action three times in a row; the same action and answer three times in the last
    six steps with no change applied between, or the same place's change refused (or changing
    nothing) so; or a round of two to four different actions done twice over with the same
    results (view a, view b, view c; view a, ...)."""
    window = list(history[-2 * TUNING.longest_cycle :])
    last = [(f.get("action", ""), f.get("result", "")) for f in window]
    if len(last) >= 3 and len({a for a, _ in last[-3:]}) == 1:
        return True
    recent = window[-TUNING.recent :]
    if _thrice_unchanged(recent, lambda f: f.get("action", "")):
        return True
    # a change refused three times for the same reason: its place the same, whatever lines
    refused = bool(window) and window[-1].get("outcome") in ("refused", "unchanged")
    if refused and _thrice_unchanged(recent, place):
        return True
    for length in range(2, TUNING.longest_cycle + 1):
        first, again = last[-2 * length : -length], last[-length:]
        if len(last) >= 2 * length and first == again and len(set(first)) > 1:
            return True
    return False


def _thrice_unchanged(steps: Sequence[StepFacts], key: Callable[[StepFacts], Any]) -> bool:
    """The newest step's ``key`` and answer met three times, counting back to the last change
    applied."""
    if not steps:
        return False
    newest = (key(steps[-1]), steps[-1].get("result"))
    same = 0
    for facts in reversed(steps):
        if facts.get("outcome") == "applied":
            break
        same += (key(facts), facts.get("result")) == newest
    return same >= 3
