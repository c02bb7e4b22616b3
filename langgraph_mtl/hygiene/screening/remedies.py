"""A remedy told after an act: what was done about what the clause before told of ("...;
switched to the app user", "...; the token was revoked"), which makes the act an account."""

from __future__ import annotations

from langgraph_mtl.hygiene.screening.sentence_reading import (
    JOINING,
    POINTING_BACK,
    WRITER,
    clause,
    clauses,
    opening_words,
)

__all__ = ["PASSIVE", "remedied_after", "remedied_in", "undone_after"]

# a remedy told in the past: what was done about what the clause before told of
_REMEDIES = frozenset(
    {"switched", "replaced", "fixed", "migrated", "reverted", "rotated", "patched", "upgraded",
     "removed", "pinned", "swapped", "revoked"}
)  # fmt: skip
# the same remedy told in the passive: "...; the token was revoked the same hour"
PASSIVE = frozenset({"was", "were", "got", "been"})
_SUBJECT_WORDS = 3  # words before the passive: "the token", "the leaked key", "it"
# a remedy told as a gerund that undoes what was told of, pointing back to it ("...; removing
# it exposed three real failures"); "deleting them made CI green" may be the attack itself
_UNDOING = frozenset({"removing", "reverting", "rotating", "revoking"})
# a correction after the act: "the correct one", "the right fix", "the proper way"
_RIGHT = frozenset({"correct", "right", "proper", "safe", "safer", "better"})
_REMEDY_NOUNS = frozenset({"one", "fix", "way", "approach", "solution", "answer", "setting"})
# a practice kept against what came before: "...; our compose files never do it"
_NEVER = frozenset({"never", "not", "don't", "doesn't"})
_DO = frozenset({"do", "does"})
_THAT = POINTING_BACK | {"that", "so"}


def undone_after(sentence: str, end: int) -> bool:
    """Whether the rest of the clause after ``end`` undoes the act, pointing back to it
    ("found verify=False in the client and removed it")."""
    rest = opening_words(sentence[end : clause(sentence, end)[1]], frozenset())
    return any(
        word == "and" and rest[i + 1] in _REMEDIES and rest[i + 2] in POINTING_BACK
        for i, word in enumerate(rest[:-2])
    )


def _never_done(words: list[str]) -> bool:
    """Whether a clause says that what came before is never done: "our files never do it"."""
    return any(
        word in _NEVER and words[i + 1] in _DO and words[i + 2] in _THAT
        for i, word in enumerate(words[:-2])
    )


def remedied_after(sentence: str, end: int) -> bool:
    """Whether a clause after ``end`` tells the remedy, in the past ("...; switched to the app
    user", "...; the fix switched to bcrypt"): it opens, after a joining word, "we", "I" or
    "the fix", with one of the remedies, with undoing what came before ("removing it"), or
    with the correction ("the correct one is ..."); or it tells a remedy in the passive ("the
    token was revoked"); or it says that the act is never done ("...; our compose files
    never do it")."""
    return any(remedied_in(sentence[a:b]) for a, b in clauses(sentence) if a >= end)


def remedied_in(told: str) -> bool:
    """Whether one clause, ``told``, tells a remedy (see :func:`remedied_after`)."""
    words = opening_words(told, JOINING | WRITER)
    if _never_done(words):
        return True
    if words[:2] == ["the", "fix"]:
        words = words[2:]
    if words[:1] == ["the"] and set(words[1:2]) & _RIGHT and set(words[2:3]) & _REMEDY_NOUNS:
        return True  # "...; the correct one is a group and 2775": the act told as wrong
    if len(words) > 1 and words[0] in _UNDOING and words[1] in POINTING_BACK:
        return True
    if words and words[0] in _REMEDIES:
        return True
    passive = next((i for i, w in enumerate(words[: _SUBJECT_WORDS + 2]) if w in PASSIVE), 0)
    # "the token was revoked", "the key has been rotated"
    return 0 < passive <= _SUBJECT_WORDS + 1 and bool(
        set(words[passive + 1 : passive + 3]) & _REMEDIES
    )
