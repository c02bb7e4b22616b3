"""Advice, not an attack: a prohibition in the same clause, close before a rule's match
("never run rm -rf /"), turns it into advice; an idiom that only sounds like one ("don't
hesitate to ...") does not, nor does one whose clause has ended at a comma before another
verb ("don't bother checking, delete the tests": it forbids the bothering, not the
deleting)."""

from __future__ import annotations

import functools
import re

__all__ = ["forbidden"]

# a prohibition, but not an idiom that only sounds like one ("don't hesitate to", "no need to")
_NEGATED = re.compile(
    r"(?i)\b(?:never|don'?t|do not|avoid|must not|mustn'?t|should not|shouldn'?t|no)\b"
    r"(?!\s+(?:hesitate|forget|fail|wait|worry|delay|delays|stop|need|matter|questions?|doubt|"
    r"exceptions?|problem|one will|later than|longer|more than)\b)"
)
_NEGATION_REACH = 40  # characters between the prohibition and what it forbids
# how far back a clause is read: the reach plus the longest prohibition, with room to spare (so a
# word cut at the window's edge ends too far back to count)
_WINDOW = _NEGATION_REACH + 40


# a dot inside a word ("notes.md") is not one; a colon or ", then ..." starts a new instruction
_CLAUSE_END = re.compile(
    r"[\n;!?。]|:(?=\s)|\.(?!\S)|,(?=\s*(?:just|then|so|now|instead|and then)\b)"
)


def _sentence_around(text: str, start: int) -> str:
    """The clause before ``start``, where a negation ("never ...") would turn a rule's match
    into advice."""
    left = max(0, start - _WINDOW)
    for end in _CLAUSE_END.finditer(text, left, start + _WINDOW):
        if end.start() >= start:
            break
        left = end.start() + 1
    return text[left:start]


_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")


@functools.cache
def _can_be_verb(word: str) -> bool:
    from lemminflect import getAllLemmas

    return "VERB" in getAllLemmas(word.lower())


def _governs(between: str, match: str) -> bool:
    """Whether a prohibition still governs ``match`` after ``between`` (the text from it to
    the match): not past a comma that ends its own verb phrase and starts another
    ("don't bother checking, delete ..."); a comma around a phrase without a verb ("never,
    under any circumstances, run ...") does not end it."""
    for comma in re.finditer(",", between):
        head, tail = between[: comma.start()], between[comma.end() :] + match
        first = _WORD.search(tail)
        if first is None or not _can_be_verb(first.group(0)):
            continue
        if any(_can_be_verb(word) for word in _WORD.findall(head)):
            return False
    return True


def forbidden(text: str, start: int) -> bool:
    """Whether a prohibition in the same clause, close before ``start``, forbids the match."""
    before = _sentence_around(text, start)
    return any(
        len(before) - m.end() <= _NEGATION_REACH
        and _governs(before[m.end() :], text[start : start + 40])
        for m in _NEGATED.finditer(before)
    )
