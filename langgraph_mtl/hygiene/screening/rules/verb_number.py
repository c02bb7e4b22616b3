"""A rule reads its words in either number: a verb it spells in the third person also matches
its plural ("the checker reads", "the graders read"), and a word that is only ever a noun, in
the singular, its plural ("grader", "graders"). Each such word of a rule's pattern becomes an
alternation of both when the rules are assembled, so no rule has to list them and the prefilter
sees both. A word that may also be a verb keeps its form ("run" may be an order, "runs" a
report), and look-arounds keep theirs (their width is fixed, or they carve out what a rule lets
through)."""

from __future__ import annotations

import functools
import re

__all__ = ["either_number"]

# a whole word of a pattern's source: after a word boundary, a group's start, an alternation
# bar or a space (not a group's name), and not followed by a letter or a quantifier that would
# then apply to the new group ("runs?" already says both)
_WORD = re.compile(r"(?:(?<=\\b)|(?<![\\\w<=]))([a-z]{3,})(?![\w?*+{])")


@functools.cache
def _plural(word: str) -> str | None:
    """``word`` in the other number: a verb's third person in the plural (``reads`` ->
    ``read``), a word that is only a noun in the plural (``grader`` -> ``graders``); ``None``
    for any other word."""
    from lemminflect import getAllInflections, getAllLemmas

    lemmas = getAllLemmas(word)
    if "NOUN" in lemmas and word not in lemmas["NOUN"]:
        return None  # a plural noun too ("tests", "hooks"): a subject or an object, keep it
    for lemma in lemmas.get("VERB", ()):
        forms = getAllInflections(lemma, upos="VERB")
        if word in forms.get("VBZ", ()):
            return forms.get("VBP", (lemma,))[0]
    if word in lemmas.get("NOUN", ()) and "VERB" not in lemmas:  # "run" may be an order
        plural = getAllInflections(word, upos="NOUN").get("NNS", ())
        return plural[0] if plural else None
    return None


def _lookarounds(source: str) -> list[tuple[int, int]]:
    """Where ``source`` has look-arounds, which keep their words as written: from each
    ``(?=``, ``(?!``, ``(?<=`` or ``(?<!`` to its closing parenthesis (escapes and character
    classes skipped)."""
    spans = []
    for start in (m.start() for m in re.finditer(r"\(\?<?[=!]", source)):
        depth, index, in_class = 0, start, False
        while index < len(source):
            char = source[index]
            if char == "\\":
                index += 2
                continue
            if in_class:
                in_class = char != "]"
            elif char == "[":
                in_class = True
            elif char == "(":
                depth += 1
            elif char == ")":
                depth -= 1
                if depth == 0:
                    break
            index += 1
        spans.append((start, index + 1))
    return spans


def either_number(pattern: re.Pattern[str]) -> re.Pattern[str]:
    """``pattern`` with each third-person verb and each noun it spells matching the other
    number too (outside look-arounds)."""
    kept = _lookarounds(pattern.pattern)

    def both(match: re.Match[str]) -> str:
        word = match.group(1)
        other = _plural(word)
        if not other or other == word or any(a <= match.start() < b for a, b in kept):
            return word
        return f"(?:{word}|{other})"

    source = _WORD.sub(both, pattern.pattern)
    return pattern if source == pattern.pattern else re.compile(source, pattern.flags)
