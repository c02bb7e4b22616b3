"""What every memory passes before it is stored or queued: its text normalised as the screen
reads it (:mod:`.storable`), secrets redacted in every field, and injection attempts flagged
for quarantine.

Redaction is idempotent (a placeholder is never redacted again), so a record may pass here
more than once; ``flags["redacted"]`` adds up what each pass found.
"""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass

from langgraph_mtl.hygiene.redaction import redact, redact_value
from langgraph_mtl.hygiene.screening import Classifier, Screening, screen
from langgraph_mtl.hygiene.screening.scanners import Scanner
from langgraph_mtl.hygiene.storable import hidden_text, storable, storable_value
from langgraph_mtl.memory.records import (
    MAX_CONTENT_CHARS,
    MAX_FLAG_CHARS,
    MAX_FLAG_NAME_CHARS,
    MAX_KEY_CHARS,
    MAX_LABEL_CHARS,
    MemoryRecord,
    MemorySource,
)

__all__ = ["Sanitized", "redact_identifier", "sanitize", "secrets_in_id"]

log = logging.getLogger(__name__)

_PLACEHOLDER = re.compile(r"\[REDACTED:([a-z0-9-]+)\]")
_OWN_FLAGS = {"quarantined", "quarantine_reason", "redacted"}
_DIGEST = re.compile(r"[0-9a-fA-F-]*")  # memory ids are uuids, run digests hex
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


def secrets_in_id(value: str) -> tuple[str, ...]:
    """The kinds of secret an id holds (none for the ids ``memory_id`` makes or a hex digest,
    which are stored as they are)."""
    return () if _DIGEST.fullmatch(value) else redact(value).kinds


def _safe_id(value: str, content: str) -> tuple[str, int]:
    """A record id that holds no secret: an id with a secret in it is redacted and told apart
    again by a digest of what is left of it and of the (redacted) content, so importing the
    same line twice stores it once."""
    if not secrets_in_id(value):
        return value, 0
    readable, count = redact_identifier(value)
    readable = readable[:480]
    digest = hashlib.sha256(f"{readable}\n{content}".encode()).hexdigest()[:12]
    return f"{readable}-{digest}", count


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


def sanitize(
    record: MemoryRecord,
    *,
    classifier: Classifier | None = None,
    scanners: Sequence[Scanner] | None = None,
) -> Sanitized:
    """Redact every string field of ``record`` and screen its text for injection attempts
    (``scanners``: the screen's, by default the rules, the frames and the code scanner; ``classifier``
    decides texts they leave open, see :func:`screen`)."""
    found = 0
    update: dict[str, object] = {}
    # what tag characters spell is judged, though it is never stored
    hidden = [h for name, _ in _TEXT_FIELDS if (h := hidden_text(getattr(record, name)))]
    hidden += [h for text in _strings(record.payload) if (h := hidden_text(text))]
    for name, limit in _TEXT_FIELDS:
        # the text stored is the text screened: normalised first, then redacted and screened
        text = redact(storable(getattr(record, name)))
        found += text.count
        update[name] = text.text[:limit]  # a placeholder can be longer than its secret
    payload, kinds = redact_value(storable_value(record.payload))
    found += len(kinds)
    update["payload"] = payload
    for name in ("domain", "task_id"):
        identifier, count = redact_identifier(getattr(record, name))
        found += count
        update[name] = identifier
    update["id"], count = _safe_id(record.id, str(update["content"]))
    found += count
    digest = record.run_digest
    if not _DIGEST.fullmatch(digest):  # a digest is hex; anything else is text
        cleaned = redact(digest)
        found += cleaned.count
        update["run_digest"] = cleaned.text[:MAX_LABEL_CHARS]
    sources, kinds = redact_value(  # a copy made without validation may hold plain dicts
        [s.model_dump() if isinstance(s, MemorySource) else s for s in record.sources]
    )
    found += len(kinds)
    update["sources"] = sources
    others, kinds = redact_value({k: v for k, v in record.flags.items() if k not in _OWN_FLAGS})
    found += len(kinds)
    flags: dict[str, str | int | float | bool] = {
        name[:MAX_FLAG_NAME_CHARS]: value[:MAX_FLAG_CHARS] if isinstance(value, str) else value
        for name, value in others.items()
    }
    flags.update((k, v) for k, v in record.flags.items() if k in _OWN_FLAGS)
    if found:
        flags["redacted"] = int(flags.get("redacted", 0)) + found
    content = str(update["content"])
    # the payload is served too (the store's values): what of it the content does not repeat
    unseen = [text for text in _strings(payload) if text not in content]
    texts = (str(update["key"]), content, *unseen, *hidden)
    verdict = screen(*texts, classifier=classifier, scanners=scanners)
    if verdict.flagged:
        flags["quarantined"] = True
        flags["quarantine_reason"] = ",".join(verdict.reasons)
        log.warning("memory %s quarantined (%s)", update["id"], flags["quarantine_reason"])
    update["flags"] = flags
    clean = MemoryRecord.model_validate({**record.model_dump(), **update})  # stays readable
    return Sanitized(clean, found, verdict)
