"""What every memory passes before it is stored or queued: secrets redacted in every field, and
injection attempts flagged for quarantine.

Redaction is idempotent (a placeholder is never redacted again), so a record may pass here
more than once; ``flags["redacted"]`` adds up what each pass found.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass

from langgraph_mtl.hygiene.redaction import redact, redact_value
from langgraph_mtl.hygiene.screening import Classifier, Screening, screen
from langgraph_mtl.memory.records import (
    MAX_CONTENT_CHARS,
    MAX_FLAG_CHARS,
    MAX_KEY_CHARS,
    MAX_LABEL_CHARS,
    MemoryRecord,
)

__all__ = ["Sanitized", "redact_identifier", "sanitize"]

log = logging.getLogger(__name__)

_PLACEHOLDER = re.compile(r"\[REDACTED:([a-z0-9-]+)\]")
_OWN_FLAGS = {"quarantined", "quarantine_reason", "redacted"}
_TEXT_FIELDS = (
    ("key", MAX_KEY_CHARS),
    ("content", MAX_CONTENT_CHARS),
    ("agent_model", MAX_LABEL_CHARS),
    ("abstraction_model", MAX_LABEL_CHARS),
)


@dataclass(frozen=True)
class Sanitized:
    """A cleaned record, how many secrets were removed, and what screening found."""

    record: MemoryRecord
    redacted: int
    screening: Screening


def redact_identifier(value: str) -> tuple[str, int]:
    """Redact an identifier (domain, task id) keeping its character set: ``REDACTED-<kind>``."""
    result = redact(value)
    return _PLACEHOLDER.sub(r"REDACTED-\1", result.text), result.count


def _strings(value: object) -> list[str]:
    """Every string inside a JSON-like value (keys of objects included)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for key, item in value.items() for text in (*_strings(key), *_strings(item))]
    if isinstance(value, list | tuple):
        return [text for item in value for text in _strings(item)]
    return []


def sanitize(record: MemoryRecord, *, classifier: Classifier | None = None) -> Sanitized:
    """Redact every string field of ``record`` and screen its text for injection attempts
    (``classifier`` decides texts the rules leave open, see :func:`screen`)."""
    found = 0
    update: dict[str, object] = {}
    for name, limit in _TEXT_FIELDS:
        text = redact(getattr(record, name))
        found += text.count
        update[name] = text.text[:limit]  # a placeholder can be longer than its secret
    payload, kinds = redact_value(record.payload)
    found += len(kinds)
    update["payload"] = payload
    for name in ("domain", "task_id"):
        identifier, count = redact_identifier(getattr(record, name))
        found += count
        update[name] = identifier
    flags: dict[str, str | int | float | bool] = {}
    for name, value in record.flags.items():
        if isinstance(value, str) and name not in _OWN_FLAGS:
            cleaned = redact(value)
            found += cleaned.count
            value = cleaned.text[:MAX_FLAG_CHARS]
        flags[name] = value
    if found:
        flags["redacted"] = int(flags.get("redacted", 0)) + found
    content = str(update["content"])
    # the payload is served too (the store's values): what of it the content does not repeat
    unseen = [text for text in _strings(payload) if text not in content]
    verdict = screen(str(update["key"]), content, *unseen, classifier=classifier)
    if verdict.flagged:
        flags["quarantined"] = True
        flags["quarantine_reason"] = ",".join(verdict.reasons)
        log.warning("memory %s quarantined (%s)", record.id, flags["quarantine_reason"])
    update["flags"] = flags
    clean = MemoryRecord.model_validate({**record.model_dump(), **update})  # stays readable
    return Sanitized(clean, found, verdict)
