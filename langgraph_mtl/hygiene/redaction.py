"""Secret redaction before anything is embedded, stored or sent to an abstracting model.

``detect-secrets`` finds what it knows (cloud keys, tokens, private keys, basic-auth URLs,
high-entropy strings); project rules add what it misses (provider key formats, whole private-key
blocks, ``password=`` assignments, secret-looking environment variables, connection strings).
Each secret becomes ``[REDACTED:<kind>]``.
"""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from langgraph_mtl.hygiene.secret_rules import RULES

__all__ = ["Redaction", "redact", "redact_value"]

PLACEHOLDER = "[REDACTED:{kind}]"
_PLACEHOLDER = re.compile(r"\[REDACTED:[a-z0-9-]+\]")

_ENTROPY_KINDS = {"Base64 High Entropy String": (4.5, 20), "Hex High Entropy String": (3.0, 32)}
# left out of detect-secrets' plugins: the keyword detector is noisy on code (the password rules
# above cover it) and, like the npm detector (the npm-token and password rules cover .npmrc),
# takes time quadratic in a long line's length
_SKIP_PLUGINS = {"KeywordDetector", "NpmDetector"}


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
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
    from detect_secrets.core.scan import scan_line
    from detect_secrets.plugins.high_entropy_strings import Base64HighEntropyString
    from detect_secrets.settings import transient_settings

    mapping: dict[str, Any] = get_mapping_from_secret_type_to_class()
    names = [plugin.__name__ for plugin in mapping.values()]
    plugins = [{"name": name} for name in names if name not in _SKIP_PLUGINS]
    settings = functools.partial(transient_settings, {"plugins_used": plugins})
    return scan_line, Base64HighEntropyString(), settings


# detect-secrets keeps its settings in module globals that each scan swaps in and out, so two
# threads scanning at once break each other: scans take turns
_LIBRARY_LOCK = threading.Lock()
# every key, token or high-entropy string detect-secrets knows is at least this long unbroken
# (passwords, keywords, URLs and private keys are the project rules' job): other lines skip it
_CANDIDATE = re.compile(r"[A-Za-z0-9+/=_.~:-]{16,}")


# what is left of a token around the part detect-secrets found (the prefix of whsec_<hex>, a tail
# after a hex run) goes with it
_TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_~+-")


def _replace_whole_tokens(line: str, value: str, placeholder: str) -> str:
    """``line`` with every token holding ``value`` replaced by ``placeholder`` (linear time)."""
    out: list[str] = []
    done = 0
    found = line.find(value)
    while found >= 0:
        start, end = found, found + len(value)
        while start > done and line[start - 1] in _TOKEN_CHARS:
            start -= 1
        while end < len(line) and line[end] in _TOKEN_CHARS:
            end += 1
        out += [line[done:start], placeholder]
        done = end
        found = line.find(value, done)
    return "".join(out) + line[done:]


def _library_hits(lines: list[str]) -> list[list[tuple[str, str]]]:
    """What detect-secrets finds on each line (one settings swap for all of them)."""
    if not any(_CANDIDATE.search(line) for line in lines):
        return [[] for _ in lines]
    scan_line, entropy, settings = _detectors()
    with _LIBRARY_LOCK, settings():
        return [
            list(_scan(line, scan_line, entropy)) if _CANDIDATE.search(line) else []
            for line in lines
        ]


def _scan(line: str, scan_line: Any, entropy: Any) -> Iterator[tuple[str, str]]:
    for found in scan_line(line):
        value = found.secret_value or ""
        if not value or "REDACTED" in value:
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
    if len(text) <= _CACHED_CHARS:  # labels, ids and short texts repeat across records
        return _redact_cached(text)
    return _redact(text)


_CACHED_CHARS = 4096


@functools.lru_cache(maxsize=2048)
def _redact_cached(text: str) -> Redaction:
    return _redact(text)


@functools.cache
def _prefilter() -> Any:
    from langgraph_mtl.hygiene.screening.prefilter import Prefilter

    return Prefilter(pattern for _, pattern, _ in RULES)


def _candidates(text: str) -> set[int]:
    """The indexes of the rules that can match ``text`` as it is now."""
    return set(_prefilter().candidates(text, text.lower()))


def _redact(text: str) -> Redaction:
    kinds: list[str] = []
    # the rules that can match the text as it is now (asked again once a rule changed it)
    candidates = _candidates(text)
    for index, (kind, pattern, group) in enumerate(RULES):
        if index not in candidates:
            continue
        done = [m.span() for m in _PLACEHOLDER.finditer(text)]

        def swap(
            match: re.Match[str], kind: str = kind, group: int = group, done: Any = done
        ) -> str:
            if group < 0:
                group = match.lastindex or 0
            secret = match.group(group)
            start, end = match.span(group)
            if not secret or any(start < b and a < end for a, b in done):
                return match.group(0)  # a placeholder is never redacted again
            kinds.append(kind)
            whole = match.group(0)
            start = match.start(group) - match.start(0)
            return whole[:start] + PLACEHOLDER.format(kind=kind) + whole[start + len(secret) :]

        changed = pattern.sub(swap, text)
        if changed != text:
            text = changed
            candidates = _candidates(text)
    lines = text.split("\n")
    for index, (line, hits) in enumerate(zip(lines, _library_hits(lines), strict=True)):
        for kind, value in sorted(set(hits), key=lambda h: -len(h[1])):
            if value in line:
                line = _replace_whole_tokens(line, value, PLACEHOLDER.format(kind=kind))
                kinds.append(kind)
        lines[index] = line
    return Redaction(_broken_runs("\n".join(lines), kinds), tuple(kinds))


# a run of token characters broken across lines: a key or an encoded blob wrapped at a width
_BROKEN_RUN = re.compile(r"[A-Za-z0-9+/=_-]{8,}(?:[ \t]*\n[ \t]*[A-Za-z0-9+/=_-]{8,})+")


def _decoded(run: str) -> str:
    """What a base64 run decodes to, when it is text; else ``""``."""
    import base64
    import binascii

    try:
        data = base64.b64decode(run + "=" * (-len(run) % 4), validate=True)
        return data.decode("utf-8")
    except (binascii.Error, ValueError):
        return ""


def _broken_runs(text: str, kinds: list[str]) -> str:
    """``text`` with each run broken across lines that is, joined, a secret or an encoding of
    one, replaced whole (and its kind added to ``kinds``)."""

    def whole(match: re.Match[str]) -> str:
        joined = "".join(match.group(0).split())
        found = _redact(joined).kinds
        if not found and (decoded := _decoded(joined)):
            found = _redact(decoded).kinds
        if not found:
            return match.group(0)
        kinds.append(found[0])
        return PLACEHOLDER.format(kind=found[0])

    return _BROKEN_RUN.sub(whole, text) if "\n" in text else text


def redact_value(value: Any) -> tuple[Any, list[str]]:
    """Redact every string inside a JSON-like value, the keys of its objects too (a redacted key
    that meets another key gets a `` #2`` suffix, so no entry is lost); returns the value and
    the kinds found."""
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
        out: dict[Any, Any] = {}
        suffixes: dict[str, int] = {}  # the last suffix given to a name, so each is tried once
        for key, item in value.items():
            name = key
            if isinstance(key, str):
                cleaned = redact(key)
                name = _free_name(cleaned.text, out, suffixes)
                kinds += cleaned.kinds
            out[name], found = redact_value(item)
            kinds += found
        return out, kinds
    return value, []


def _free_name(name: str, taken: dict[Any, Any], suffixes: dict[str, int]) -> str:
    candidate, n = name, suffixes.get(name, 1)
    while candidate in taken:
        n += 1
        candidate = f"{name} #{n}"
    suffixes[name] = n
    return candidate
