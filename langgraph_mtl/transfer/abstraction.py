"""Turning a finished run into a memory of a chosen type, labelled success or failure."""

from __future__ import annotations

import inspect
import json
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, get_origin

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from pydantic import BaseModel, ValidationError

from langgraph_mtl.hygiene.redaction import redact
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
from langgraph_mtl.models import capped, model_label
from langgraph_mtl.tracing import traced, untraced

__all__ = [
    "DEFAULT_KEY_FIELDS",
    "FAILURE_INSTRUCTION",
    "JUDGE_PROMPT",
    "SUCCESS_INSTRUCTION",
    "AbstractionError",
    "FinishedRun",
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

REPLY_TOKENS = 700  # the longest valid memory (a summary) is well under this
JSON_ONLY = "Reply with ONE JSON object and nothing else, filling in this example:\n{example}"
REPAIR = "That reply was not valid ({problem}). Reply again with ONE corrected JSON object only."

#: Which field of each type is embedded as the retrieval key (REFERENCE: task/goal/summary/title).
DEFAULT_KEY_FIELDS: dict[MemoryType, str] = {
    MemoryType.TRAJECTORY: "task",
    MemoryType.WORKFLOW: "goal",
    MemoryType.SUMMARY: "task_summary",
    MemoryType.INSIGHT: "title",
}


class AbstractionError(RuntimeError):
    """The model did not produce a valid memory within the allowed attempts."""


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
                ]
            )
    except Exception as exc:  # the judge is advisory: never let it break a write
        log.warning("LLM judge failed: %s", exc)
        return Outcome.UNKNOWN
    words = re.findall(r"\b(PASS|FAIL)\b", str(reply.content).upper())
    if not words:
        return Outcome.UNKNOWN
    return Outcome.SUCCESS if words[0] == "PASS" else Outcome.FAILURE


def _extract_json(text: str) -> Any:
    """The first JSON object in a model's text reply (fenced or bare)."""
    fenced = re.search(r"```(?:json)?\s*(\{.*?\})\s*```", text, re.DOTALL)
    candidates = [fenced.group(1)] if fenced else []
    start = text.find("{")
    if start != -1:
        candidates.append(text[start : text.rfind("}") + 1])
    for candidate in candidates:
        try:
            return json.loads(candidate)
        except json.JSONDecodeError:
            repaired = re.sub(r",\s*([}\]])", r"\1", candidate)  # trailing commas
            try:
                return json.loads(repaired)
            except json.JSONDecodeError:
                continue
    raise ValueError("no JSON object in the reply")


def _example(schema: type[BaseModel]) -> str:
    """A JSON example of a schema, each value describing what goes there (for text-only models)."""
    example: dict[str, Any] = {}
    for name, info in schema.model_fields.items():
        hint = f"<{info.description or name}>"
        example[name] = [hint] if get_origin(info.annotation) is list else hint
    return json.dumps(example, indent=1)


def _guidance(schema: type[BaseModel]) -> str:
    """What a memory type asks for (its schema's docstring): a grammar or a text-only model
    never shows the model the schema, so the instructions go into the system message."""
    return "What to write: " + inspect.cleandoc(schema.__doc__ or "")


def _describe(exc: Exception) -> str:
    """A one-line account of what is wrong with a reply."""
    if isinstance(exc, ValidationError):
        parts = [f"{'.'.join(map(str, e['loc'])) or 'reply'}: {e['msg']}" for e in exc.errors()]
        return "; ".join(parts)[:300]
    return (str(exc).splitlines() or [type(exc).__name__])[0][:300]


def _ask_structured(
    model: BaseChatModel,
    schema: type[BaseModel],
    messages: list[Any],
    attempts: int,
    *,
    guidance: str = "",
) -> BaseModel:
    """Structured output first, then text replies parsed and repaired, with the error fed back.
    Every call shows the fields to fill in: a grammar keeps a local model's reply inside the
    schema but does not tell it what the fields mean. ``guidance`` (what the memory type asks
    for) is added to the system message of the first call only: a small model that cannot
    follow it within the reply budget gets the plain request next."""
    model = capped(model, REPLY_TOKENS)
    errors: list[str] = []
    structured: Any = None
    try:
        structured = model.with_structured_output(schema, method="json_schema", include_raw=True)
    except Exception as exc:  # models without structured output use the text path
        log.debug("structured output unavailable (%s); using text parsing", exc)
    ask_text = HumanMessage(JSON_ONLY.format(example=_example(schema)))
    first, *rest = messages
    guided = [SystemMessage(f"{first.content}\n\n{guidance}"), *rest] if guidance else messages
    structured_calls = 2 if guidance else 1
    repair: list[Any] = []
    for attempt in range(attempts):
        prompt = [*(guided if attempt == 0 else messages), ask_text]
        raw = ""
        try:
            if structured is not None and attempt < structured_calls:
                with untraced():  # the run is traced by mtl.abstract_run, redacted
                    out = structured.invoke(prompt)
                raw = str(getattr(out.get("raw"), "content", "") or "")
                if out.get("parsed") is None:
                    error = out.get("parsing_error")
                    raise error if isinstance(error, ValueError) else ValueError("no JSON object")
                return schema.model_validate(out["parsed"])
            with untraced():
                raw = str(model.invoke([*prompt, *repair]).content)
            return schema.model_validate(_extract_json(raw))
        except (ValidationError, ValueError, TypeError) as exc:
            problem = _describe(exc)
            errors.append(f"attempt {attempt + 1}: {problem}")
            if raw:  # show the model its own bad reply and what was wrong with it
                repair = [
                    AIMessage(redact(raw[:4000]).text),
                    HumanMessage(REPAIR.format(problem=problem)),
                ]
        except Exception as exc:  # e.g. a reply cut off at REPLY_TOKENS, a server error
            errors.append(f"attempt {attempt + 1}: {type(exc).__name__}: {str(exc)[:200]}")
    raise AbstractionError(
        f"no valid {schema.__name__} after {attempts} attempts; " + "; ".join(errors)
    )


def decide_outcome(run: FinishedRun, judge: BaseChatModel | None) -> tuple[Outcome, Judge]:
    if run.verified is not None:
        return (Outcome.SUCCESS if run.verified else Outcome.FAILURE), Judge.VERIFIER
    if judge is not None:
        verdict = judge_outcome(judge, run.task, run.steps)
        return verdict, (Judge.LLM_JUDGE if verdict is not Outcome.UNKNOWN else Judge.NONE)
    return Outcome.UNKNOWN, Judge.NONE


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
        transcript = render_steps(steps, with_thoughts=True)
        messages = [
            SystemMessage(instruction),
            HumanMessage(f"Task:\n{task}\n\nOutcome: {result.value}\n\nRun:\n{transcript}"),
        ]
        schema = schema_for(kind)
        payload_model = _ask_structured(
            model, schema, messages, attempts, guidance=_guidance(schema)
        )
        abstraction_model = model_label(model)

    payload = payload_model.model_dump(mode="json")
    key = clean_text(str(payload.get(DEFAULT_KEY_FIELDS[kind], ""))).strip()
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
