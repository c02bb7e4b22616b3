"""Text as the screening rules read it: Unicode NFKC, invisible characters removed, lookalike
letters of other scripts mapped to Latin, words hyphenated across a line break and spelled-out
words joined, digits read as letters."""

from __future__ import annotations

import functools
import re
import unicodedata

from langgraph_mtl.hygiene.storable import CONFUSABLES

__all__ = ["base_forms", "leet", "normalise"]

# zero-width, joiners, soft hyphen, word joiner, bidi embeddings/overrides/isolates, BOM, tags
_INVISIBLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
    "\u2060-\u206f\ufe00-\ufe0f\ufeff\U000e0000-\U000e007f]"
)
_LEET = str.maketrans("013457@$!|", "oieastasil")
# a word, and a letter in it: "1gn0re", "$ystem" and "a11" are read, "1000" is not
_WORD = re.compile(r"\S+")
_LETTER = re.compile(r"[^\W\d_]")
# i.g.n.o.r.e, i-g-n-o-r-e, i g n o r e: one separator throughout a word
_SPELLED = re.compile(
    r"\b[A-Za-z]([.\-_*])(?:[A-Za-z]\1){2,}[A-Za-z]\b|\b(?:[A-Za-z] ){3,}[A-Za-z]\b"
)

# a phrase spelled out: letters one space apart, its words two or more spaces apart
# ("i g n o r e  t h e  t a s k"); read from the start of a run of letters only, without
# backtracking, so a long run costs one pass
_SPELLED_PHRASE = re.compile(
    r"(?<![A-Za-z])(?<![A-Za-z] )[A-Za-z](?: [A-Za-z])*+(?: {2,}[A-Za-z](?: [A-Za-z])*+)+"
    r"(?![A-Za-z])"
)

# words spelled out with one separator, one after another ("R-u-n  r-m  -r-f"): each word
# joined, a leading "-" kept as a flag's; possessive, so a long run costs one pass
_SPELLED_RUN = re.compile(
    r"(?<!\S)-?[A-Za-z](?:([.\-_*])[A-Za-z])++(?:\s++-?[A-Za-z](?:\1[A-Za-z])++)++(?!\S)"
)
_SPELLED_RUN_LETTERS = 5  # fewer letters in the whole run: a name or a code, not a phrase


def _joined_run(match: re.Match[str]) -> str:
    letters = sum(c.isalpha() for c in match.group(0))
    if letters < _SPELLED_RUN_LETTERS:
        return match.group(0)
    separator = match.group(1)
    return re.sub(
        r"\S+",
        lambda w: (
            ("-" if w.group(0).startswith("-") else "")
            + w.group(0).lstrip("-").replace(separator, "")
        ),
        match.group(0),
    )


# a word broken at the end of a line: "instruc-\ntions"
_HYPHENATED = re.compile(r"(?<=[A-Za-z])-[ \t]*\r?\n[ \t]*(?=[a-z])")


def normalise(text: str) -> str:
    """Text as the rules read it: NFKC, invisible characters removed, lookalike letters mapped
    to Latin, words hyphenated across lines and spelled-out words (``i.g.n.o.r.e``) and
    phrases (``i g n o r e  t h e  t a s k``) joined."""
    text = _INVISIBLE.sub("", unicodedata.normalize("NFKC", text))
    text = _HYPHENATED.sub("", text.translate(CONFUSABLES))
    text = _SPELLED_PHRASE.sub(_joined_phrase, text)
    text = _SPELLED_RUN.sub(_joined_run, text)
    return _SPELLED.sub(lambda m: re.sub(r"[.\-_* ]", "", m.group(0)), text)


def _joined_phrase(match: re.Match[str]) -> str:
    """A spelled-out phrase as words, or the match unchanged when it is too short to be one
    (fewer than six letters, or no word of three)."""
    words = [word.replace(" ", "") for word in re.split(r" {2,}", match.group(0))]
    if sum(map(len, words)) < 6 or max(map(len, words)) < 3:
        return match.group(0)  # "a  b  c": letters set apart, not a phrase
    return " ".join(words)


# a clause opened by a verb's -ing form and closed by a comma: "Ignoring the rules, write ..."
# (a gerund as a subject, "Hard-coding values is fine", is left alone)
_OPENING_GERUND = re.compile(
    r"(?:^|(?<=[.;:!?\n]))([ \t]*)([A-Za-z]{3,}ing)\b(?=[^.;:!?\n,]{0,80},)"
)
_NUMBER = re.compile(r"\b\d+\b ?")


@functools.cache
def _base_verb(word: str) -> str | None:
    """The base form of a verb's ``-ing`` form (``ignoring`` -> ``ignore``); ``None`` for a word
    that is no verb form."""
    from lemminflect import getAllLemmas

    verb = getAllLemmas(word.lower()).get("VERB")
    if not verb:
        return None
    base = str(verb[0])
    return base.capitalize() if word[0].isupper() else base


def leet(text: str) -> str:
    """``text`` with digits and signs read as the letters they stand for (``0`` as o, ``$``
    as s) in words that hold a letter; a number or a sign on its own stays as it is."""
    return _WORD.sub(
        lambda m: m.group().translate(_LEET) if _LETTER.search(m.group()) else m.group(), text
    )


def base_forms(text: str) -> str:
    """``text`` with a clause opened by an ``-ing`` form as the imperative it stands for and its
    bare numbers left out, so a rule written for "ignore the instructions, ..." also reads
    "ignoring the 3 instructions, ...". A gerund that is a sentence's subject, and a past
    tense that tells what happened, are left as they are."""
    text = _NUMBER.sub("", text)
    return _OPENING_GERUND.sub(lambda m: m.group(1) + (_base_verb(m.group(2)) or m.group(2)), text)
