"""A memory's fields from a model: structured output first, then text replies parsed and
repaired with the error fed back; the schema's docstring is the instruction."""

from __future__ import annotations

import inspect
import json
import logging
import re
from typing import Any, get_origin

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from pydantic import BaseModel, ValidationError

from langgraph_mtl.hygiene.redaction import redact
from langgraph_mtl.model_calls import CallKind, call_config
from langgraph_mtl.models import capped
from langgraph_mtl.tracing import untraced

__all__ = ["AbstractionError", "ask_structured", "first_prompt", "guidance"]

log = logging.getLogger(__name__)

REPLY_TOKENS = 700  # the longest valid memory (a summary) is well under this
JSON_ONLY = "Reply with ONE JSON object and nothing else, filling in this example:\n{example}"
REPAIR = "That reply was not valid ({problem}). Reply again with ONE corrected JSON object only."


class AbstractionError(RuntimeError):
    """The model did not produce a valid memory within the allowed attempts."""


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


def guidance(schema: type[BaseModel]) -> str:
    """What a memory type asks for (its schema's docstring): a grammar or a text-only model
    never shows the model the schema, so the instructions go into the system message."""
    return "What to write: " + inspect.cleandoc(schema.__doc__ or "")


def _describe(exc: Exception) -> str:
    """A one-line account of what is wrong with a reply."""
    if isinstance(exc, ValidationError):
        parts = [f"{'.'.join(map(str, e['loc'])) or 'reply'}: {e['msg']}" for e in exc.errors()]
        return "; ".join(parts)[:300]
    return (str(exc).splitlines() or [type(exc).__name__])[0][:300]


def first_prompt(schema: type[BaseModel], messages: list[Any], guidance: str = "") -> list[Any]:
    """The prompt of :func:`ask_structured`'s first call: ``guidance`` added to the system
    message, then the request for JSON. A follow-up that extends this very list keeps the
    prefix a local server has cached for it."""
    first, *rest = messages
    guided = [SystemMessage(f"{first.content}\n\n{guidance}"), *rest] if guidance else messages
    return [*guided, HumanMessage(JSON_ONLY.format(example=_example(schema)))]


def ask_structured(
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
    structured_calls = 2 if guidance else 1
    repair: list[Any] = []
    for attempt in range(attempts):
        prompt = first_prompt(schema, messages, guidance if attempt == 0 else "")
        raw = ""
        try:
            if structured is not None and attempt < structured_calls:
                with untraced():  # the run is traced by mtl.abstract_run, redacted
                    out = structured.invoke(prompt, config=call_config(CallKind.ABSTRACT))
                raw = str(getattr(out.get("raw"), "content", "") or "")
                if out.get("parsed") is None:
                    error = out.get("parsing_error")
                    raise error if isinstance(error, ValueError) else ValueError("no JSON object")
                return schema.model_validate(out["parsed"])
            with untraced():
                reply = model.invoke([*prompt, *repair], config=call_config(CallKind.ABSTRACT))
                raw = str(reply.content)
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
