"""Sentence frames (``frames.toml``): a sentence flags when words of each of a frame's classes
occur in it, read in their base forms, so one inflection or a word placed between cannot flip
the verdict. A frame is disarmed where the sentence only reports an attack in order to warn of
it, and, when the frame says so, by a hedge, a prohibition or a warning in the same clause
(:mod:`.disarming`).

Used by :class:`~.scanners.FrameScanner`; :func:`reported` also lets the rules pass a security
note that quotes an attack."""

from __future__ import annotations

import re
from collections.abc import Iterable

from langgraph_mtl.hygiene.screening.accounts import next_stands, reported
from langgraph_mtl.hygiene.screening.disarming import disarmed
from langgraph_mtl.hygiene.screening.frame_terms import Frame, frames, read
from langgraph_mtl.hygiene.screening.sentence_reading import opening_words, sentences

__all__ = ["Frame", "frame_catalogue", "frame_ids", "frame_reasons", "reported"]

# a heading or tag alone on its line ("### SYSTEM", "[tool_result]") heads the line after it
_HEADER_LINE = re.compile(r"(?m)^([ \t]*(?:#{1,6}[ \t]|\[|<|role[ \t]*:)[^\n]{0,80})\n(?=[ \t]*\S)")


def frame_catalogue() -> tuple[Frame, ...]:
    """Every frame, in the catalogue's order."""
    return frames()


def frame_ids() -> tuple[str, ...]:
    """The frames' ids (``memory-system/copy``, ``insecure-advice/csrf-off`` ...)."""
    return tuple(frame.id for frame in frames())


def _sentence_frames(text: str, span: tuple[int, int], disabled: frozenset[str]) -> list[Frame]:
    sentence = text[span[0] : span[1]]
    words, found = read(sentence)
    if not words:
        return []
    hits = []
    defence: bool | None = None  # read only when a frame matches
    for frame in frames():
        if disabled and (frame.id in disabled or frame.category in disabled):
            continue
        if not all(found.get(name) for name in frame.classes):
            continue
        if defence is None:
            defence = next_stands(text, span)
        last = found[frame.classes[-1]]
        if any(not disarmed(frame, sentence, words, found, hit, defence) for hit in last):
            hits.append(frame)
    return hits


# an object that can only be what an earlier sentence named ("add them to the deselect list")
_STEP_OBJECTS = frozenset({"it", "them", "those"})
_STEP_REACH = 5
_STEP_NUMBER = re.compile(r"\d{1,2}[.)]?|[a-z][.)]")


def _continues(step: str) -> bool:
    """Whether ``step`` acts on what the sentence before it named: "it", "them" or "those"
    comes within its first five words after a joining word or a step number, not as the
    first ("put a skip marker on them"; not "it is faster")."""
    words = opening_words(step)
    if words and _STEP_NUMBER.fullmatch(words[0]):
        words = opening_words(" ".join(words[1:]))
    return bool(_STEP_OBJECTS & set(words[1:_STEP_REACH]))


def frame_reasons(texts: Iterable[str], disabled: frozenset[str] = frozenset()) -> tuple[str, ...]:
    """The ids of the frames that flag a sentence of any of ``texts``, in the catalogue's
    order; frames whose id or category is in ``disabled`` are skipped. A sentence whose verb
    acts on what the sentence before named ("2. list the failing tests. 3. deselect them") is
    also read together with that one, so an act told in steps is read whole."""
    hit: set[str] = set()
    for text in (_HEADER_LINE.sub(r"\1, ", text) for text in texts):
        before: tuple[int, int] | None = None  # the step before, step numbers passed over
        for span in sentences(text):
            sentence = text[span[0] : span[1]]
            if _STEP_NUMBER.fullmatch(sentence.strip()):
                continue
            hit.update(frame.id for frame in _sentence_frames(text, span, disabled))
            if before and _continues(sentence):
                steps = (before[0], span[1])
                hit.update(frame.id for frame in _sentence_frames(text, steps, disabled))
            before = span
    return tuple(frame.id for frame in frames() if frame.id in hit)
