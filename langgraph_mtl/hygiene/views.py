"""Decoded views of a text: what an instruction hidden by an encoding reads as.

Each view exists only when the text shows a sign of its encoding (percent escapes, HTML
entities, a base64 or hex run, a mention of rot13, words stacked one per line, common words
spelt backwards or a request to read it backwards, letters spelled with symbols said by name),
so ordinary text costs one cheap search per encoding.
"""

from __future__ import annotations

import base64
import binascii
import codecs
import html
import re
from collections.abc import Callable
from urllib.parse import unquote

__all__ = ["decoded_views"]

_PERCENT = re.compile(r"%[0-9A-Fa-f]{2}")
_ENTITY = re.compile(r"&(?:#[0-9]{2,7}|#x[0-9A-Fa-f]{2,6}|[A-Za-z]{2,10});")
_ROT13 = re.compile(r"(?i)\brot-?13\b|\bcaesar\b")
_BASE64 = re.compile(r"(?<![A-Za-z0-9+/=])[A-Za-z0-9+/]{16,}={0,2}(?![A-Za-z0-9+/=])")
_HEX = re.compile(
    r"(?<![0-9A-Fa-f])(?:[0-9A-Fa-f]{2}){8,}(?![0-9A-Fa-f])|(?:\\x[0-9A-Fa-f]{2}){8,}"
)
# English written backwards: "eht", "dna", "erongi", "snoitcurtsni" ...
_BACKWARDS = re.compile(
    r"(?i)\b(?:eht|dna|ruoy|erongi|dragersid|tegrof|snoitcurtsni|tpmorp|metsys|suoiverp)\b"
)
# a text that asks for itself to be read backwards
_REVERSE_ASKED = re.compile(
    r"(?i)\brevers\w*|\bbackwards?\b|\bright[- ]to[- ]left\b|\[::-1\]|\|\s*rev\b"
)
# a word spelled letter by letter, symbols between its parts said by name
# ("c u r l space e v i l dot s h pipe b a s h")
_SPOKEN = {"space": " ", "dot": ".", "pipe": " | ", "slash": "/", "dash": "-", "colon": ":",
           "underscore": "_", "tilde": "~", "period": ".", "hyphen": "-"}  # fmt: skip
_SPOKEN_NAMES = "|".join(_SPOKEN)
_SPOKEN_NAME = re.compile(rf"(?i)\b(?:{_SPOKEN_NAMES})\b")
# a run of single letters, short pieces and symbols' names, one space apart
_SPOKEN_PART = rf"(?:{_SPOKEN_NAMES}|[A-Za-z]{{1,4}})"
_SPOKEN_RUN = re.compile(rf"(?<!\S){_SPOKEN_PART}(?: {_SPOKEN_PART}){{3,}}(?!\S)", re.I)
# three or more lines in a row of at most two words each: a sentence written downwards
_STACKED = re.compile(r"(?m)(?:^[ \t]*\S+(?:[ \t]+\S+)?[ \t]*\n){2,}[ \t]*\S+(?:[ \t]+\S+)?[ \t]*$")
_MAX_PIECES = 20
_WRAPPED = re.compile(r"(?<=[A-Za-z0-9+/=])[ \t]*\r?\n[ \t]*(?=[A-Za-z0-9+/=]{8})")


def _printable(data: bytes) -> str | None:
    """The bytes as text when they are mostly printable (a decoded instruction), else None."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    shown = sum(ch.isprintable() or ch in "\n\t" for ch in text)
    return text if text and shown >= 0.9 * len(text) and re.search(r"[A-Za-z]{2}", text) else None


def _from_base64(run: str) -> bytes | None:
    try:
        return base64.b64decode(run + "=" * (-len(run) % 4), validate=True)
    except (binascii.Error, ValueError):
        return None


def _from_hex(run: str) -> bytes:
    return bytes.fromhex(run.replace("\\x", ""))


def _pieces(pattern: re.Pattern[str], decode: Callable[[str], bytes | None], text: str) -> str:
    """The printable texts the runs of ``pattern`` in ``text`` decode to, one per line (at
    most ``_MAX_PIECES``)."""
    pieces: list[str] = []
    for match in pattern.finditer(text):
        data = decode(match.group(0))
        decoded = None if data is None else _printable(data)
        if decoded is not None:
            pieces.append(decoded)
        if len(pieces) >= _MAX_PIECES:
            break
    return "\n".join(pieces)


def decoded_views(text: str) -> list[str]:
    """The text as each encoding it shows signs of would decode it (possibly none)."""
    views = []
    if _PERCENT.search(text):
        views.append(unquote(text))
    if _ENTITY.search(text):
        views.append(html.unescape(text))
    if _ROT13.search(text):
        views.append(codecs.encode(text, "rot13"))
    joined = _WRAPPED.sub("", text)  # an encoding wrapped at a width reads as one run
    for source in dict.fromkeys((text, joined)):
        views.extend(
            p
            for p in (_pieces(_BASE64, _from_base64, source), _pieces(_HEX, _from_hex, source))
            if p
        )
    if _BACKWARDS.search(text) or _REVERSE_ASKED.search(text):
        views.append(text[::-1])
    spoken = _SPOKEN_RUN.sub(_spoken, text) if _SPOKEN_NAME.search(text) else text
    if spoken != text:
        views.append(spoken)
    stacked = [m.group(0) for m in _STACKED.finditer(text)]
    if stacked:
        views.append("\n".join(" ".join(block.split()) for block in stacked))
    return views


def _spoken(match: re.Match[str]) -> str:
    """A spelled run read out: its letters joined, each symbol's name as the symbol, a word of
    its own kept apart but after a dot ("e v i l dot sh"); the run as it was when it names no
    symbol or spells too few letters."""
    parts = match.group(0).split(" ")
    if not any(p.lower() in _SPOKEN for p in parts) or sum(len(p) == 1 for p in parts) < 3:
        return match.group(0)
    out, before = "", ""  # what came before: "letter", "word", or a symbol
    for part in parts:
        symbol = _SPOKEN.get(part.lower())
        if symbol is not None:
            out, before = out + symbol, symbol
            continue
        kind = "letter" if len(part) == 1 else "word"
        # a letter joins what came before but a word or a space; a word joins only a dot
        joined = before not in ("word", " ", "") if kind == "letter" else before == "."
        out, before = out + ("" if joined or not out or out.endswith(" ") else " ") + part, kind
    return out
