"""Reading a sentence as words and spans: each word's forms (as written, its base forms, its
dotted parts), the text's sentences, a sentence's clauses and its quotations. Nothing here
knows any frame; :mod:`.frame_terms` matches the catalogue's terms against what this reads."""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "DETERMINERS",
    "JOINING",
    "NEGATION",
    "OBJECT_PRONOUNS",
    "POINTING_BACK",
    "SENTENCE_END",
    "WRITER",
    "Token",
    "around",
    "clause",
    "clauses",
    "joins_clauses",
    "opening_word",
    "opening_words",
    "quotes",
    "sentences",
    "spans",
    "tokens",
    "used_as_noun",
]

_TOKEN = re.compile(r"[^\s]+")
_EDGE = "\"'`,;:!?[]{}<>*\u201c\u201d\u2018\u2019"
SENTENCE_END = re.compile(r"[\n!?。]+|\.(?!\S)")
# code set in backticks on one line: a "!" or ". " inside it ends no sentence
_INLINE_CODE = re.compile(r"`[^`\n]+`")
# a word with code's punctuation (a call, a decorator, a path): its identifiers are forms too
_CODE_MARK = re.compile(r"[./()=@\[\]~]")
_IDENTIFIER = re.compile(r"[a-z_][a-z0-9_]*")
# a semicolon, or a comma before a word that opens another clause ("..., but ...")
_CLAUSE_JOIN = r";|,(?=\s*(?:then|so|now|and then|but|instead|also|just)\b)"
_CLAUSE_END = re.compile(
    r":(?=\s)|\s[-\u2013]+\s|\u2014|"  # a dash set off by spaces, an em dash
    + _CLAUSE_JOIN
)
_JOINED = re.compile(_CLAUSE_JOIN)
_MODIFIER_ENDS = frozenset({"style", "like", "based", "type", "related", "driven", "shaped"})
NEGATION = frozenset({"not", "no", "never", "isn't", "aren't", "don't", "doesn't", "nothing"})
# a quotation: in quotes that open after a space or a bracket and close before one or a mark
# (so "don't" and "user's" open none)
_QUOTED = re.compile(
    r"(?:^|(?<=[\s(\[:,]))(?:'([^'\n]{2,200}?)'|\"([^\"\n]{2,200}?)\"|\u201c([^\u201d\n]{2,200}?)\u201d"
    r"|\u2018([^\u2019\n]{2,200}?)\u2019)(?=[\s.,;:!?)\]-]|$)"
)


@dataclass(frozen=True)
class Token:
    """A word of a sentence: its forms (as written, base forms, the part after a dot) and
    where it starts and ends in the sentence."""

    surface: str
    forms: frozenset[str]
    start: int
    end: int


@functools.cache
def _forms(word: str) -> frozenset[str]:
    """``word`` as written, without a possessive or call's parentheses, its last hyphenated
    part, their base forms (a crude one for words the lexicon lacks: "relaunches" reads
    "relaunch" and "relaunche"), its dotted parts and,
    for a word written as code, its identifiers."""
    from lemminflect import getAllLemmas

    forms = {word}
    if word.endswith(("'s", "\u2019s")):
        forms.add(word[:-2])
    if word.endswith("()"):
        forms.add(word[:-2])
    if "-" in word.strip("-"):  # pre-approved, re-exports
        head, last = word.rsplit("-", 1)
        forms.add(last)
        if last in _MODIFIER_ENDS:  # phishing-style, injection-based
            forms.add(head)
    lemmas = set()
    for form in list(forms):
        found = {lemma for found in getAllLemmas(form).values() for lemma in found}
        if not found and form.isalpha():  # a word the lexicon lacks: deselects, xfailed
            found = {form[: -len(end)] for end in ("s", "es", "ed", "ing") if form.endswith(end)}
            if form.endswith("ed"):
                found.add(form[:-1])  # superseded -> supersede
        lemmas |= found
    for form in list(forms):
        if "." in form.strip("."):  # pytest.skip, conftest.py: the parts as written
            forms.update(part for part in form.split(".") if part)
    if _CODE_MARK.search(word):  # @pytest.mark.xfail(strict=false), ~/.cache/run.sh
        forms.update(_IDENTIFIER.findall(word))
    if word in _NUMBERS:  # "0 failed" reads "zero failed"
        forms.add(_NUMBERS[word])
    return frozenset(forms | lemmas)


_NUMBER_WORDS = "zero one two three four five six seven eight nine ten"
_NUMBERS = {str(n): word for n, word in enumerate(_NUMBER_WORDS.split(" "))}


# words that open a noun phrase ("the parser", "each test")
DETERMINERS = frozenset(
    {"the", "a", "an", "this", "that", "each", "every", "its", "our", "my", "their", "his", "her"}
)
# pronouns an act's object may be, pointing back to something named before ("drop it")
OBJECT_PRONOUNS = frozenset({"it", "them", "this", "that", "these", "those"})
# those after which a verb's base form is a noun ("the change", "your update"): not "that"
# ("memories that change the others") or "her" ("let her change it")
_BEFORE_A_NOUN = (DETERMINERS - {"that", "her"}) | {
    "these", "those", "your", "any", "no", "another"
}  # fmt: skip
# verbs whose object may do the next verb: "have the agent store the key"
_CAUSATIVES = frozenset({"have", "has", "had", "make", "makes", "made", "let", "lets", "help"})


@functools.cache
def _number(word: str) -> tuple[bool, bool]:
    """Whether ``word`` is a verb's or a noun's base form ("change", not "changed"), and
    whether it reads as a plural noun (crudely for a word the lexicon lacks: "apis", not
    "status")."""
    from lemminflect import getAllLemmas

    lemmas = getAllLemmas(word)
    if not lemmas:
        plural = word.endswith("s") and not word.endswith(("ss", "us", "is"))
        return not plural, plural
    verbs, nouns = lemmas.get("VERB", ()), lemmas.get("NOUN", ())
    return word in verbs or word in nouns, any(n != word for n in nouns)


def _bare(token: Token) -> bool:
    """Whether the word was written without punctuation or quotes around it."""
    return token.end - token.start == len(token.surface)


def used_as_noun(words: list[Token], at: int) -> bool:
    """Whether the word at ``at``, in its base form, is used as a noun where it stands: right
    after a determiner ("the change") or after a determiner and one word that is not plural
    ("the API change"; "the tests change" is a verb, and so is "have the agent store ...")."""
    if not _number(words[at].surface)[0] or at < 1 or not _bare(words[at - 1]):
        return False  # "when summarising the run, paste ...": punctuation ends the phrase
    if words[at - 1].surface in _BEFORE_A_NOUN:
        return True
    if at < 2 or words[at - 2].surface not in _BEFORE_A_NOUN or not _bare(words[at - 2]):
        return False
    between = words[at - 1].surface
    if between in _BEFORE_A_NOUN or _number(between)[1]:
        return False
    return not (at >= 3 and words[at - 3].surface in _CAUSATIVES)


def tokens(sentence: str) -> list[Token]:
    """The sentence's words, lower-cased and stripped of quotes and edge punctuation."""
    out = []
    for match in _TOKEN.finditer(sentence.lower()):
        word = match.group(0).strip(_EDGE).rstrip(".").strip(_EDGE)
        if word.startswith("(") and word.count("(") > word.count(")"):
            word = word[1:]
        if word.endswith(")") and word.count(")") > word.count("("):
            word = word[:-1]
        if word:
            out.append(Token(word, _forms(word), match.start(), match.end()))
    return out


def spans(
    pattern: re.Pattern[str], text: str, keep: Sequence[tuple[int, int]] = ()
) -> list[tuple[int, int]]:
    """``text`` cut at ``pattern``'s matches, but not at one inside a ``keep`` span."""
    bounds, start = [], 0
    for end in pattern.finditer(text):
        if any(a <= end.start() < b for a, b in keep):
            continue
        bounds.append((start, end.start()))
        start = end.end()
    bounds.append((start, len(text)))
    return [(a, b) for a, b in bounds if text[a:b].strip()]


@functools.lru_cache(maxsize=64)  # asked again for every rule match in one sentence
def quotes(sentence: str) -> tuple[tuple[int, int], ...]:
    """Where the sentence's quotations are."""
    return tuple(match.span() for match in _QUOTED.finditer(sentence))


@functools.lru_cache(maxsize=64)
def clauses(sentence: str) -> tuple[tuple[int, int], ...]:
    """The sentence's clauses: a separator inside a quotation ends none."""
    return tuple(spans(_CLAUSE_END, sentence, quotes(sentence)))


@functools.lru_cache(maxsize=64)
def sentences(text: str) -> tuple[tuple[int, int], ...]:
    """Where the text's sentences are: code in backticks on one line is never cut."""
    code = [match.span() for match in _INLINE_CODE.finditer(text)]
    return tuple(spans(SENTENCE_END, text, code))


def around(ordered: tuple[tuple[int, int], ...], position: int) -> tuple[int, int] | None:
    """The span holding ``position`` (the spans are in order and do not overlap)."""
    index = bisect.bisect_right(ordered, (position, float("inf"))) - 1
    if index >= 0 and ordered[index][0] <= position < ordered[index][1]:
        return ordered[index]
    return None


def clause(sentence: str, position: int) -> tuple[int, int]:
    """The clause around ``position``."""
    return around(clauses(sentence), position) or (0, len(sentence))


def joins_clauses(fragment: str) -> bool:
    """Whether ``fragment`` runs from one clause into the next across a semicolon or a
    conjunction ("md5 is fine for cache keys, but ... passwords"); a colon or a dash inside
    it may be syntax ("Access-Control-Allow-Origin: *")."""
    return _JOINED.search(fragment) is not None


# words a clause may open with before what it says ("so", "but" ...)
JOINING = frozenset({"so", "then", "and", "but", "now", "just", "also", "instead", "first"})
WRITER = frozenset({"we", "i"})  # the writer, telling what was done
# an object that points back to what came before, but not "that", which may open a clause
# ("report that the tests fail")
POINTING_BACK = OBJECT_PRONOUNS - {"that"}


def opening_words(clause_text: str, skipped: frozenset[str] = JOINING) -> list[str]:
    """A clause's words, lower-cased and unquoted, from the first that is not ``skipped``
    (a joining word: "so", "but" ...)."""
    words = [w for w in (w.strip("\"'`*_(,") for w in clause_text.lower().split()) if w]
    while words and words[0] in skipped:
        words.pop(0)
    return words


def opening_word(clause_text: str) -> str:
    """A clause's first word after any joining word; empty when it has none."""
    words = opening_words(clause_text)
    return words[0] if words else ""
