"""Secret redaction before anything is embedded, stored or sent to an abstracting model.

``detect-secrets`` finds what it knows (cloud keys, tokens, private keys, basic-auth URLs,
high-entropy strings); project rules add what it misses (provider key formats, whole private-key
blocks, ``password=`` assignments, secret-looking environment variables, connection strings).
Each secret becomes ``[REDACTED:<kind>]``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

__all__ = ["Redaction", "redact", "redact_value"]

PLACEHOLDER = "[REDACTED:{kind}]"

# (kind, pattern, group holding the secret; 0 = the whole match)
_RULES: list[tuple[str, re.Pattern[str], int]] = [
    ("private-key", re.compile(
        r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----.*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|\Z)",
        re.DOTALL), 0),
    ("url-credentials", re.compile(r"\b[a-zA-Z][a-zA-Z0-9+.-]*://[^/\s:@]*:([^@\s/]+)@"), 1),
    ("openai-key", re.compile(r"\bsk-(?:proj-|ant-api\d\d-|ant-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}"), 0),
    ("github-token", re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})"), 0),
    ("gitlab-token", re.compile(r"\bglpat-[A-Za-z0-9_-]{20,}"), 0),
    ("slack-token", re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}"), 0),
    ("google-api-key", re.compile(r"\bAIza[0-9A-Za-z_-]{35}"), 0),
    ("aws-access-key", re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"), 0),
    ("stripe-key", re.compile(r"\b(?:sk|rk|pk)_(?:live|test)_[0-9a-zA-Z]{16,}"), 0),
    ("huggingface-token", re.compile(r"\bhf_[A-Za-z0-9]{30,}"), 0),
    ("npm-token", re.compile(r"\bnpm_[A-Za-z0-9]{36}\b"), 0),
    ("jwt", re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"), 0),
    ("env-secret", re.compile(
        r"\b[A-Z][A-Z0-9_]*(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASS|PWD|CREDENTIALS?|AUTH)[A-Z0-9_]*"
        r"\s*[=:]\s*[\"']?([^\s\"',;]{4,})"), 1),
    ("password", re.compile(
        r"(?i)\b(?:password|passwd|pwd|secret|api[_-]?key|access[_-]?token|auth[_-]?token|token)"
        r"\b[\"']?\s*[=:]\s*[\"']?([^\s\"',;]{4,})"), 1),
    ("json-secret", re.compile(
        r"(?i)\"[a-z0-9_-]*(?:key|token|secret|password|passwd|credential)[a-z0-9_-]*\"\s*:\s*\"([^\"]{4,})\""), 1),
    ("connection-string", re.compile(r"(?i)\b(?:password|pwd)\s*=\s*([^;\s]+)"), 1),
]  # fmt: skip
_ENTROPY_KINDS = {"Base64 High Entropy String": (4.5, 20), "Hex High Entropy String": (3.0, 32)}
_SKIP_KINDS = {"Secret Keyword"}  # noisy on code; the password rule above covers it


@dataclass(frozen=True)
class Redaction:
    """A redacted text and how many secrets of which kinds were removed."""

    text: str
    kinds: tuple[str, ...] = ()

    @property
    def count(self) -> int:
        return len(self.kinds)


@functools.cache
def _detectors() -> Any:
    from detect_secrets.core.scan import scan_line
    from detect_secrets.plugins.high_entropy_strings import Base64HighEntropyString
    from detect_secrets.settings import default_settings

    return scan_line, Base64HighEntropyString(), default_settings


def _library_hits(line: str) -> Iterator[tuple[str, str]]:
    scan_line, entropy, default_settings = _detectors()
    with default_settings():
        for found in scan_line(line):
            value = found.secret_value or ""
            if found.type in _SKIP_KINDS or not value or "REDACTED" in value:
                continue
            limits = _ENTROPY_KINDS.get(found.type)
            if limits is not None:
                threshold, min_len = limits
                if len(value) < min_len or entropy.calculate_shannon_entropy(value) < threshold:
                    continue
            if len(value) >= 4:
                yield found.type.lower().replace(" ", "-"), value


def redact(text: str) -> Redaction:
    """Replace every secret found in ``text`` with a typed placeholder."""
    if not text:
        return Redaction(text)
    kinds: list[str] = []
    for kind, pattern, group in _RULES:

        def swap(match: re.Match[str], kind: str = kind, group: int = group) -> str:
            secret = match.group(group)
            if not secret or "REDACTED" in secret:
                return match.group(0)
            kinds.append(kind)
            whole = match.group(0)
            start = match.start(group) - match.start(0)
            return whole[:start] + PLACEHOLDER.format(kind=kind) + whole[start + len(secret) :]

        text = pattern.sub(swap, text)
    lines = text.split("\n")
    for index, line in enumerate(lines):
        for kind, value in sorted(set(_library_hits(line)), key=lambda h: -len(h[1])):
            if value in line:
                line = line.replace(value, PLACEHOLDER.format(kind=kind))
                kinds.append(kind)
        lines[index] = line
    return Redaction("\n".join(lines), tuple(kinds))


def redact_value(value: Any) -> tuple[Any, list[str]]:
    """Redact every string inside a JSON-like value; returns the value and the kinds found."""
    if isinstance(value, str):
        result = redact(value)
        return result.text, list(result.kinds)
    if isinstance(value, list | tuple):
        kinds: list[str] = []
        items = []
        for item in value:
            clean, found = redact_value(item)
            items.append(clean)
            kinds += found
        return (type(value)(items) if isinstance(value, tuple) else items), kinds
    if isinstance(value, dict):
        kinds = []
        out = {}
        for key, item in value.items():
            out[key], found = redact_value(item)
            kinds += found
        return out, kinds
    return value, []
