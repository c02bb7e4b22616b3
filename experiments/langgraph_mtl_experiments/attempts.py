"""One attempt of the agent on a task, and where attempts are kept.

Every attempt is one JSON line in a results file, keyed by (condition, domain, task, attempt):
an interrupted run (Ctrl-C or kill -9) resumes where it stopped, without duplicating or losing
results (a torn last line is ignored and that attempt runs again).
"""

from __future__ import annotations

import functools
import json
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from langgraph_mtl._files import append_json_line
from langgraph_mtl.agent import AgentContext, Limits
from langgraph_mtl.agent.edit_format import DEFAULT_EDITS, EditFormat
from langgraph_mtl.agent.history import StepFacts
from langgraph_mtl.home import mtl_home
from langgraph_mtl.hygiene.redaction import redact
from langgraph_mtl.memory.trajectory import Step
from langgraph_mtl.model_calls import LANE_KEY, CallRecorder
from langgraph_mtl_experiments.domains import Domain, Task

__all__ = [
    "AgentSettings",
    "ResultStore",
    "ResultsFileError",
    "StandIn",
    "action_counts",
    "policy_counts",
    "attempt_task",
    "brief_trace",
    "portable",
]


@dataclass(frozen=True)
class AgentSettings:
    """How the prebuilt agent is run in an experiment: ``steps`` for function-level tasks,
    ``repository_steps`` (and a longer history) for repository tasks, how edits are asked for,
    and whether the memories also enter the calls that write a file or an edit."""

    steps: int = 8
    repository_steps: int = 20
    edits: EditFormat = DEFAULT_EDITS
    focused_memories: bool = True
    hide: tuple[str, ...] = ()  # more paths the agent's commands must not see
    # the user's own agent: "module:function", or the function (see langgraph_mtl_experiments.agents)
    factory: str | Callable[..., Any] = ""

    @property
    def limits(self) -> Limits:
        kinds = {"repository": {"steps": self.repository_steps}}
        return Limits(steps=self.steps, kinds=kinds)

    @property
    def most_steps(self) -> int:
        return max(self.steps, self.repository_steps)

    def record(self) -> dict[str, Any]:
        """The settings as a results row keeps them."""
        return {
            "steps": self.steps,
            "repository_steps": self.repository_steps,
            "edits": self.edits,
            "focused_memories": self.focused_memories,
            **({"agent": _named(self.factory)} if self.factory else {}),
        }


def _named(factory: str | Callable[..., Any]) -> str:
    if isinstance(factory, str):
        return factory
    return f"{getattr(factory, '__module__', '?')}:{getattr(factory, '__qualname__', '?')}"


_KINDS = {"write": "write_file", "command": "run"}  # the report's names for two kinds


def _inputs(task: Task) -> dict[str, str]:
    """The run's input: the task, and its problem's own text as what retrieval searches with."""
    return {"task": task.instruction, "memory_query": task.problem or task.instruction}


def brief_trace(
    trajectory: Sequence[Step], history: Sequence[Mapping[str, Any]] = (), chars: int = 240
) -> list[list[str]]:
    """Each step's action and observation, shortened and with secrets redacted: enough to
    read a run one by one (results rows are kept and shared). An action keeps its start (an
    edit's lines up to ``4 * chars``); an observation its start and its end, where a check
    says what failed, after the names of the policies that acted at that step (from the
    step's facts in ``history``: ``[policy:a,b]``)."""
    acted = [list(facts.get("policies", [])) for facts in history]
    return [
        [
            _shown(s.get("action", ""), 4 * chars),
            _acted_by(acted[i] if i < len(acted) else []) + _ends(s.get("observation", ""), chars),
        ]
        for i, s in enumerate(trajectory)
    ]


def _acted_by(names: Sequence[str]) -> str:
    return f"[policy:{','.join(names)}] " if names else ""


def _ends(text: object, chars: int) -> str:
    """The first ``chars`` and the last ``2 * chars`` characters of ``text``, redacted."""
    said = redact(str(text)).text
    if len(said) <= 3 * chars:
        return said
    return f"{said[:chars]}\n[...]\n{said[-2 * chars :]}"


def _shown(text: object, chars: int) -> str:
    """The start of a step's text, redacted before it is cut (a secret across the cut goes)."""
    return redact(str(text)[: chars * 4]).text[:chars]


def action_counts(history: Sequence[StepFacts]) -> dict[str, int]:
    """How often each kind of action was taken in a run, and how often an edit or a write was
    refused (search text not found, not unique, a whole rewrite of a long file, a command
    that would empty a file it reads, cut off), from the run's typed step history."""
    counts: Counter[str] = Counter()
    for facts in history:
        kind, outcome, reason = facts.get("kind", ""), facts.get("outcome"), facts.get("reason")
        counts[_KINDS.get(kind, kind)] += 1
        if outcome == "unchanged":
            counts["write_unchanged"] += 1
        elif outcome == "invalid" and reason == "cut_off":
            counts["cut_off"] += 1
        elif outcome == "refused" and kind == "edit":
            named = {"no_match": "edit_not_found", "not_unique": "edit_not_unique"}
            counts[named.get(str(reason), "edit_refused_other")] += 1
        elif outcome == "refused" and kind == "write":
            counts["write_refused"] += 1
        elif outcome == "refused" and kind == "command":
            counts["command_refused"] += 1
    return dict(sorted(counts.items()))


def policy_counts(history: Sequence[StepFacts]) -> dict[str, int]:
    """How many steps of a run each policy acted on."""
    return dict(sorted(Counter(name for f in history for name in f.get("policies", [])).items()))


class ResultsFileError(ValueError):
    """A results file holds a line that is JSON but not an attempt row."""


# what every attempt row carries, and its type
_ROW_FIELDS = {"condition": str, "domain": str, "task_id": str, "attempt": int, "passed": bool}


def _fits(value: Any, kind: type) -> bool:
    """``value`` is of ``kind`` exactly (a bool is no attempt number; 0 and 1 pass as bools)."""
    if kind is bool and type(value) is int:
        return value in (0, 1)
    return type(value) is kind


def _checked_row(row: Any, path: Path, number: int) -> dict[str, Any]:
    """``row`` if it is an attempt row, else a :class:`ResultsFileError` naming the line."""
    if not isinstance(row, dict):
        problem = f"a JSON {type(row).__name__}, not an object"
    else:
        missing = [name for name in _ROW_FIELDS if name not in row]
        wrong = [
            f"{name!r} is {type(row[name]).__name__}, not {kind.__name__}"
            for name, kind in _ROW_FIELDS.items()
            if name in row and not _fits(row[name], kind)
        ]
        if not missing and not wrong:
            return row
        problem = f"missing {', '.join(map(repr, missing))}" if missing else "; ".join(wrong)
    raise ResultsFileError(
        f"{path} line {number} is not an attempt row ({problem}): rows are written by "
        "`mtl experiment run`; remove that line or give another --out"
    )


class ResultStore:
    """Append-only JSONL of attempt results, safe to resume and to share between threads."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        self.path.parent.mkdir(parents=True, exist_ok=True)

    @staticmethod
    def key(condition: str, domain: str, task_id: str, attempt: int) -> str:
        return f"{condition}|{domain}|{task_id}|{attempt}"

    def rows(self) -> Iterator[dict[str, Any]]:
        if not self.path.exists():
            return
        with self.path.open(encoding="utf-8") as handle:
            for number, line in enumerate(handle, start=1):
                try:
                    row = json.loads(line)
                except json.JSONDecodeError:  # a torn line from a killed run
                    continue
                yield _checked_row(row, self.path, number)

    def by_key(self) -> dict[str, dict[str, Any]]:
        """Every stored attempt, by key."""
        return {
            self.key(r["condition"], r["domain"], r["task_id"], r["attempt"]): r
            for r in self.rows()
        }

    def add(self, row: dict[str, Any]) -> None:
        """Append one attempt; paths of this machine in it (a traceback's file names, say)
        are written as ``$MTL_HOME/...`` and ``~/...``, so results can be shared as they are."""
        with self._lock:
            append_json_line(self.path, portable(row))


def portable(row: dict[str, Any]) -> dict[str, Any]:
    """``row`` with this machine's state and home directories written as placeholders."""
    text = json.dumps(row, ensure_ascii=False)
    for path, placeholder in ((mtl_home().resolve(), "$MTL_HOME"), (Path.home(), "~")):
        text = text.replace(json.dumps(f"{path}/")[1:-1], f"{placeholder}/")
    return dict(json.loads(text))


StandIn = Callable[[list[dict[str, Any]]], "dict[str, Any] | None"]
"""Given the memories an attempt was handed, an attempt already run with the same prompt."""

_OUTCOME = (
    "passed",
    "steps",
    "tokens",
    "seconds",
    "verification",
    "tampered",
    "written",
    "actions",
)


def attempt_task(
    graph: Any,
    domain: Domain,
    task: Task,
    context: AgentContext,
    agent: AgentSettings,
    *,
    stand_in: StandIn | None = None,
    lane: int = 0,
) -> dict[str, Any]:
    """One agent run on a task in a fresh workspace: verdict, steps, tokens, seconds, receipts,
    and a record of every model call (``calls``: kind, tokens, seconds). ``lane`` says which
    of the runs at once this is (a local server keeps a request slot per lane and kind).
    The task's verifier checks the finished workspace (its allowlisted files, elsewhere); a
    run that changed protected or steering files is marked ``tampered`` and never passes.

    With ``stand_in`` (the graph compiled to stop after ``retrieve_memories``), the run pauses
    once its memories are chosen; if ``stand_in`` names an attempt already run with the same
    memories (so the same prompt), that attempt's outcome is returned, marked ``reused_from``.
    """
    with tempfile.TemporaryDirectory(prefix=f"mtl-{task.domain}-") as ws:
        task.prepare(ws)
        context.workspace = ws
        context.command_env = dict(task.env) or None
        context.verifier = functools.partial(task.verify_workspace, baseline=task.baseline(ws))
        context.task_kind = task.kind or domain.kind
        context.protected = task.protected
        context.check_command = task.check or None  # declared, never read from its wording
        started = time.monotonic()
        recorder = CallRecorder()
        config: dict[str, Any] = {
            "recursion_limit": agent.most_steps + 10,
            "callbacks": [recorder],
            "metadata": {LANE_KEY: lane},
        }
        if stand_in is None:
            state = graph.invoke(_inputs(task), context=context, config=config)
        else:
            thread = uuid.uuid4().hex
            config["configurable"] = {"thread_id": thread}
            try:
                state = graph.invoke(_inputs(task), context=context, config=config)
                earlier = stand_in(state.get("memory_receipts", []))
                if earlier is not None:
                    return {
                        **{key: earlier.get(key) for key in _OUTCOME},
                        "receipts": state.get("memory_receipts", []),
                        "memory_status": state.get("memory_status", ""),
                        "reused_from": earlier["condition"],
                        "calls": recorder.rows(),
                    }
                state = graph.invoke(None, context=context, config=config)  # go on from there
            finally:
                graph.checkpointer.delete_thread(thread)
        if "verified" not in state:  # a graph of one's own: the runner checks its work
            verdict = context.verifier(ws)
            state = {
                **state,
                "verified": verdict.passed,
                "verification": verdict.report,
                "tampered": list(verdict.tampered),
            }
        return {
            "passed": bool(state.get("verified")),
            "steps": state.get("steps_taken", 0),
            "tokens": int(state.get("tokens_used", 0)),  # plan and act calls, as reported
            "seconds": round(time.monotonic() - started, 2),
            "receipts": state.get("memory_receipts", []),
            "memory_status": state.get("memory_status", ""),
            "verification": redact(str(state.get("verification", ""))[-3000:]).text[-1500:],
            "tampered": list(state.get("tampered", [])),
            "written": state.get("memory_written", []),
            "write_status": str(state.get("memory_write_status", "")),
            "actions": action_counts(state.get("history", [])),
            "policies": policy_counts(state.get("history", [])),
            "trace": brief_trace(state.get("trajectory", []), state.get("history", [])),
            "calls": recorder.rows(),
        }
