"""Turning a finished run into a memory of a chosen type, labelled success or failure."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from pydantic import BaseModel

from langgraph_mtl.hygiene.redaction import redact, redact_value
from langgraph_mtl.hygiene.sanitize import redact_identifier
from langgraph_mtl.memory.records import (
    Judge,
    MemoryRecord,
    MemoryType,
    Outcome,
    TrajectoryMemory,
    memory_id,
    schema_for,
)
from langgraph_mtl.memory.trajectory import (
    Step,
    clean_text,
    map_step,
    render_steps,
    run_digest,
    truncate_steps,
)
from langgraph_mtl.model_calls import CallKind, call_config
from langgraph_mtl.models import model_label
from langgraph_mtl.tracing import traced, untraced
from langgraph_mtl.transfer.insight_rules import (
    MAX_INSIGHT_WORDS,
    insight_problems,
    named_code,
    unnamed,
    within_words,
)
from langgraph_mtl.transfer.structured import (
    AbstractionError,
    ask_structured,
    first_prompt,
    guidance,
)

__all__ = [
    "DEFAULT_KEY_FIELDS",
    "FAILURE_INSTRUCTION",
    "JUDGE_PROMPT",
    "SUCCESS_INSTRUCTION",
    "AbstractionError",
    "FinishedRun",
    "MemoryRejected",
    "abstract_run",
    "decide_outcome",
    "judge_outcome",
    "render_memory",
]

log = logging.getLogger(__name__)

SUCCESS_INSTRUCTION = (
    "You are building a shared memory for coding agents that work in many different domains. "
    "The run below SUCCEEDED. Explain why it worked, in a form that helps a different agent on "
    "a different task. Answer only with the requested JSON object."
)
FAILURE_INSTRUCTION = (
    "You are building a shared memory for coding agents that work in many different domains. "
    "The run below FAILED. Extract the lesson that would prevent this failure, in a form that "
    "helps a different agent on a different task. Answer only with the requested JSON object."
)
UNKNOWN_INSTRUCTION = (
    "You are building a shared memory for coding agents that work in many different domains. "
    "The outcome of the run below is unknown: record what was done and what can be learnt, "
    "without claiming that it worked. Answer only with the requested JSON object."
)
JUDGE_PROMPT = (
    "You are a strict judge of a coding agent's run. Decide whether the agent fully solved the "
    "task. Answer with exactly one word: PASS or FAIL. Default to FAIL when in doubt."
)


#: Which field of each type is embedded as the retrieval key (REFERENCE: task/goal/summary/title).
DEFAULT_KEY_FIELDS: dict[MemoryType, str] = {
    MemoryType.TRAJECTORY: "task",
    MemoryType.WORKFLOW: "goal",
    MemoryType.SUMMARY: "task_summary",
    MemoryType.INSIGHT: "title",
}


class MemoryRejected(AbstractionError):
    """The model's memory broke a rule (an insight too long, or naming the task's own code)
    even when asked again: it is dropped, not kept for a retry."""


REWRITE = "That insight breaks the rules: {problems}. Reply with the corrected JSON object only."


@dataclass
class FinishedRun:
    """A finished agent run, as the writer needs it."""

    task: str
    steps: list[Step]
    domain: str
    task_id: str
    verified: bool | None = None
    agent_model: str = "unknown"
    report: str = ""  # the verifier's report: which check failed, what it printed
    files: dict[str, str] = field(default_factory=dict)  # the changed files as they ended
    key_text: str = ""  # the problem's own text: a trajectory memory's key (else the task)

    @property
    def digest(self) -> str:
        return run_digest(self.task, self.steps)


@dataclass
class RedactedRun(FinishedRun):
    """A run as :func:`redact_run` returns it: redacting it again finds nothing, so it is not
    redacted again (the writer cleans a run once, then abstracts it into several types)."""


_RUN_TASK_CHARS = 20_000
_RUN_TOKENS = 12_000  # twice the abstraction budget: bounded before the (linear) redaction
_RUN_REPORT_CHARS = 4_000  # the end of a verifier's report says what failed
_RUN_FILE_CHARS = 6_000


def redact_run(run: FinishedRun) -> tuple[FinishedRun, int]:
    """The run as the memory layer may keep it: size-bounded, control characters dropped, and
    every secret in its task, steps and provenance replaced; plus how many there were.
    Idempotent, so a run may pass more than once; a :class:`RedactedRun` passes unchanged."""
    if type(run) is RedactedRun:
        return run, 0
    found = 0

    def clean(text: str) -> str:
        nonlocal found
        result = redact(clean_text(text))
        found += result.count
        return result.text

    task = clean(run.task[:_RUN_TASK_CHARS])
    steps = [map_step(s, clean) for s in truncate_steps(run.steps, max_tokens=_RUN_TOKENS)]
    agent_model = clean(run.agent_model)
    domain, in_domain = redact_identifier(run.domain)
    task_id, in_task_id = redact_identifier(run.task_id)
    found += in_domain + in_task_id
    cleaned = RedactedRun(
        task=task,
        steps=steps,
        domain=domain,
        task_id=task_id,
        verified=run.verified,
        agent_model=agent_model,
        report=clean(run.report[-_RUN_REPORT_CHARS:]),
        files={clean(k): clean(v[:_RUN_FILE_CHARS]) for k, v in list(run.files.items())[:5]},
        key_text=clean(run.key_text[:_RUN_TASK_CHARS]),
    )
    return cleaned, found


def _field_text(value: Any) -> str:
    if isinstance(value, list):
        return "\n".join(f"{i}. {v}" for i, v in enumerate(value, start=1))
    return str(value)


def render_memory(memory_type: MemoryType, payload: dict[str, Any]) -> str:
    """The text a reading agent sees for a memory payload."""
    if memory_type is MemoryType.TRAJECTORY:
        steps = [{"action": a, "observation": o} for a, o in payload.get("steps", [])]
        return f"Task: {payload.get('task', '')}\n{render_steps(steps)}"  # type: ignore[arg-type]
    if memory_type is MemoryType.WORKFLOW:
        return f"Goal: {payload['goal']}\nKey steps:\n{_field_text(payload['steps'])}"
    if memory_type is MemoryType.SUMMARY:
        return f"Task: {payload['task_summary']}\nExperience: {payload['experience_summary']}"
    return f"{payload['title']}\n{payload['description']}\n{payload['content']}"


@traced("mtl.judge_outcome")
def judge_outcome(model: BaseChatModel, task: str, steps: Sequence[Step]) -> Outcome:
    """Ask a model for a strict PASS/FAIL verdict; anything unclear is UNKNOWN, errors too.
    The model sees the task and steps redacted."""
    task = redact(task).text
    steps = [map_step(s, lambda text: redact(text).text) for s in steps]
    transcript = render_steps(truncate_steps(steps, max_tokens=4000))
    try:
        with untraced():  # traced by mtl.judge_outcome, redacted
            reply = model.invoke(
                [
                    SystemMessage(JUDGE_PROMPT),
                    HumanMessage(f"Task:\n{task}\n\nRun:\n{transcript}\n\nVerdict (PASS or FAIL):"),
                ],
                config=call_config(CallKind.JUDGE),
            )
    except Exception as exc:  # the judge is advisory: never let it break a write
        log.warning("LLM judge failed: %s", exc)
        return Outcome.UNKNOWN
    words = re.findall(r"\b(PASS|FAIL)\b", str(reply.content).upper())
    if not words:
        return Outcome.UNKNOWN
    return Outcome.SUCCESS if words[0] == "PASS" else Outcome.FAILURE


def decide_outcome(run: FinishedRun, judge: BaseChatModel | None) -> tuple[Outcome, Judge]:
    if run.verified is not None:
        return (Outcome.SUCCESS if run.verified else Outcome.FAILURE), Judge.VERIFIER
    if judge is not None:
        verdict = judge_outcome(judge, run.task, run.steps)
        return verdict, (Judge.LLM_JUDGE if verdict is not Outcome.UNKNOWN else Judge.NONE)
    return Outcome.UNKNOWN, Judge.NONE


def _evidence(run: FinishedRun, task: str, steps: Sequence[Step], result: Outcome) -> str:
    """What the abstracting model is shown: the task, the outcome with the verifier's report
    (which check failed, what it printed), the changed files as they ended, and the run."""
    parts = [f"Task:\n{task}", f"Outcome: {result.value}"]
    if run.report.strip():
        parts.append(f"The verifier's report (its end):\n{run.report.strip()[-1500:]}")
    for name, text in list(run.files.items())[:3]:
        parts.append(f"`{name}` as the run left it:\n{text[-2000:]}")
    parts.append(f"Run:\n{render_steps(steps, with_thoughts=True)}")
    return "\n\n".join(parts)


def _kept_to_the_rules(
    model: BaseChatModel,
    schema: type[BaseModel],
    messages: list[Any],
    payload: BaseModel,
    run: FinishedRun,
) -> BaseModel:
    """The insight, asked for once more when it breaks a rule (:mod:`.insight_rules`); in the
    second one, the task's own code is written as what it stands for ("the function", "the
    file") and sentences past the word limit are left off the end of its content;
    :class:`MemoryRejected` when it still breaks a rule."""
    sources = [run.task, run.key_text, *run.files.values()]
    problems = insight_problems(payload.model_dump(), sources)
    if not problems:
        return payload
    shown = json.dumps(redact_value(payload.model_dump(mode="json"))[0])  # the model's, raw
    retry = [  # the first call's prompt as it was sent: its prefix stays cached on the server
        *first_prompt(schema, messages, guidance(schema)),
        AIMessage(shown),
        HumanMessage(redact(REWRITE.format(problems="; ".join(problems))).text),
    ]
    again = ask_structured(model, schema, retry, 1)
    fields = {k: str(v) for k, v in again.model_dump().items()}
    if named := named_code(fields, sources):
        # the lesson kept, the task's own names written as what they stand for
        fields = unnamed(fields, named)
    again = schema.model_validate(within_words(fields, MAX_INSIGHT_WORDS))
    still = insight_problems(again.model_dump(), sources)
    if still:  # said without the insight's words (they may hold what redaction cannot see),
        # but with the task's own names it still used, redacted, so the cause can be found
        kinds = ["too long" if "words" in p else "names the task's own code" for p in still]
        used = sorted(named_code(again.model_dump(), sources))
        shown = ", ".join(redact(name[:24]).text for name in used[:4])
        raise MemoryRejected(
            f"insight dropped by rule: {', '.join(kinds)}" + (f" ({shown})" if shown else "")
        )
    return again


@traced("mtl.abstract_run")
def abstract_run(
    run: FinishedRun,
    memory_type: MemoryType | str,
    *,
    model: BaseChatModel | None = None,
    judge: BaseChatModel | None = None,
    outcome: tuple[Outcome, Judge] | None = None,
    max_tokens: int = 6000,
    attempts: int = 3,
) -> MemoryRecord:
    """Abstract a finished run into one memory record.

    The outcome comes from ``run.verified`` when set, else from ``judge`` (strict PASS/FAIL),
    else it is unknown; pass ``outcome`` to reuse a verdict already made. Trajectory memories
    need no model; the other types call ``model`` with structured output and a parse-and-repair
    fallback, ``attempts`` times at most.

    Raises:
        AbstractionError: the model gave no valid memory; nothing is produced.
        ValueError: bad input (empty task, unknown type, no model for an abstract type).
    """
    kind = MemoryType(memory_type)
    run, found = redact_run(run)  # secrets never reach a judge or the abstracting model
    task = run.task.strip()
    if not task:
        raise ValueError("run.task is empty: a memory needs the task it came from")
    steps = truncate_steps(run.steps, max_tokens=max_tokens)
    result, judged_by = outcome if outcome is not None else decide_outcome(run, judge)

    if kind is MemoryType.TRAJECTORY:
        payload_model: BaseModel = TrajectoryMemory(
            task=task, steps=[(s.get("action", ""), s.get("observation", "")) for s in steps]
        )
        abstraction_model = "none"
    else:
        if model is None:
            raise ValueError(f"model: a {kind.value} memory needs a model to abstract the run")
        instruction = {
            Outcome.SUCCESS: SUCCESS_INSTRUCTION,
            Outcome.FAILURE: FAILURE_INSTRUCTION,
        }.get(result, UNKNOWN_INSTRUCTION)
        messages = [SystemMessage(instruction), HumanMessage(_evidence(run, task, steps, result))]
        schema = schema_for(kind)
        payload_model = ask_structured(model, schema, messages, attempts, guidance=guidance(schema))
        if kind is MemoryType.INSIGHT:
            payload_model = _kept_to_the_rules(model, schema, messages, payload_model, run)
        abstraction_model = model_label(model)

    payload = payload_model.model_dump(mode="json")
    key = clean_text(str(payload.get(DEFAULT_KEY_FIELDS[kind], ""))).strip()
    if kind is MemoryType.TRAJECTORY and run.key_text.strip():  # the problem, not its template
        key = clean_text(run.key_text).strip()
    content = clean_text(render_memory(kind, payload)).strip()
    if not key or not content:
        raise AbstractionError(f"{kind.value} memory has an empty key or content")
    return MemoryRecord(
        id=memory_id(kind, run.domain, run.task_id, run.digest),
        memory_type=kind,
        domain=run.domain,
        task_id=run.task_id,
        outcome=result,
        judged_by=judged_by,
        agent_model=run.agent_model,
        abstraction_model=abstraction_model,
        key=key,
        content=content,
        payload=payload,
        run_digest=run.digest,
        flags={"redacted": found} if found else {},
    )
