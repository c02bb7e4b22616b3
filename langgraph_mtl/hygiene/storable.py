"""The text a memory is stored as: the text the screen reads, so nothing the screen cannot see
reaches a model.

A memory's text is stored in Unicode NFKC with every invisible and format character removed
(zero-width characters, joiners, bidi controls, variation selectors, the tag characters that
can spell ASCII unseen), control characters other than tab and newline dropped, and each word
made only of Latin letters and letters of other scripts that look like them written in Latin
(it reads the same; a word of another language keeps its letters). The screen reads that same
text (and its views). What the tag characters spelt is kept apart (:func:`hidden_text`), so
the screen can judge it too, though it is never stored.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["hidden_text", "storable", "storable_value"]

_TAGS = re.compile("[\U000e0000-\U000e007f]+")
_INVISIBLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
    "\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb\U0001d173-\U0001d17a"
    "\U000e0000-\U000e007f\U000e0100-\U000e01ef]"
)


def _shown(ch: str) -> str:
    """The character as stored: itself, ``?`` for a lone surrogate (no character at all),
    nothing for a control, format, private-use or unassigned one."""
    if ch in "\t\n":
        return ch
    kind = unicodedata.category(ch)
    if kind == "Cs":
        return "?"
    return "" if kind in ("Cf", "Cc", "Co", "Cn") else ch


_ASCII_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
# letters of other scripts that look like Latin ones (Cyrillic, Greek, Armenian, Cherokee ...)
LOOKALIKES = "АВЕЅІЈКМНОРСТХУаеѕіјорсхуһԁԛԝЁёӏΑΒΕΖΗΙΚΜΝΟΡΤΥΧαιοντυχκρϲԍɡⅰⅼ"
LATIN = "ABESIJKMHOPCTXYaesijopcxyhdqwEeIABEZHIKMNOPTYXaiovtuxkpcGgil"
CONFUSABLES = str.maketrans(LOOKALIKES, LATIN)
_LOOKALIKE_WORD = re.compile(rf"\b[A-Za-z{LOOKALIKES}]*[{LOOKALIKES}][A-Za-z{LOOKALIKES}]*\b")


def storable(text: str) -> str:
    """``text`` as it is stored and screened (see the module docstring); idempotent."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if text.isascii():
        return _ASCII_CONTROLS.sub("", text)
    text = _INVISIBLE.sub("", unicodedata.normalize("NFKC", text))
    text = "".join(map(_shown, text))
    return _LOOKALIKE_WORD.sub(lambda word: word[0].translate(CONFUSABLES), text)


def storable_value(value: object) -> object:
    """A JSON-like value with every string in it (object keys too) made :func:`storable`."""
    if isinstance(value, str):
        return storable(value)
    if isinstance(value, dict):
        return {storable_value(k): storable_value(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [storable_value(item) for item in value]
    return value


def hidden_text(text: str) -> str:
    """What tag characters in ``text`` spell (U+E0020-U+E007E stand for ASCII), one run a
    line; ``""`` when it holds none."""
    runs = []
    for run in _TAGS.findall(text):
        spelt = "".join(chr(ord(ch) - 0xE0000) for ch in run if 0xE0020 <= ord(ch) <= 0xE007E)
        if spelt.strip():
            runs.append(spelt)
    return "\n".join(runs)
