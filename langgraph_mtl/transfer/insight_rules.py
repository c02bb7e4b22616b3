"""What makes an insight worth sharing, checked by rule: short (at most 60 words) and free of
the source task's own names and literals (an insight that retells one task's function, file
or values transfers to no other task).

The abstraction asks once more, showing what broke the rule, and drops an insight that still
does; the report measures the same on a pool (:func:`code_names`, :func:`word_count`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

__all__ = [
    "within_words",
    "MAX_INSIGHT_WORDS",
    "code_names",
    "insight_problems",
    "named_code",
    "unnamed",
    "word_count",
]

MAX_INSIGHT_WORDS = 60

_BACKTICKED = re.compile(r"`([^`\n]{1,80})`")
_QUOTED = re.compile(r"(?<![\w])(['\"])([^'\"\n]{2,60})\1")
_IDENTIFIER = re.compile(r"\b[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*\b")
# a name a definition introduces: after "def" or "fn" always; after a keyword that is also an
# English word ("function", "class", "let", "var"...) only with the definition's own syntax
# after it (a parameter list, a type, a value or a body), so "the function and" defines nothing
_CODE_KEYWORDS = "def|fn"
_WORD_KEYWORDS = "class|struct|module|function|func|let|const|var"
_DEFINED = re.compile(
    rf"\b(?:{_CODE_KEYWORDS})\s+([A-Za-z_][A-Za-z0-9_]*)"
    rf"|\b(?:{_WORD_KEYWORDS})\s+([A-Za-z_][A-Za-z0-9_]*)(?=\s*[(:={{<#;])"
)


def _looks_like_code(name: str) -> bool:
    """snake_case, camelCase, dotted names and names with digits: not an English word."""
    return (
        "_" in name.strip("_")
        or "." in name
        or bool(re.search(r"[a-z][A-Z]", name))
        or (bool(re.search(r"\d", name)) and bool(re.search(r"[A-Za-z]", name)))
    )


def code_names(text: str) -> set[str]:
    """The names and literals in ``text`` that read as code: backticked spans, identifiers
    that are not words (snake_case, camelCase, dotted, with digits) and names a definition
    introduces."""
    found = {m.group(1).strip() for m in _BACKTICKED.finditer(text)}
    found |= {m.group(1) or m.group(2) for m in _DEFINED.finditer(text)}
    found |= {m.group(0) for m in _IDENTIFIER.finditer(text) if _looks_like_code(m.group(0))}
    return {name for name in found if len(name) > 2}


def word_count(text: str) -> int:
    return len(text.split())


def _text(fields: Mapping[str, object]) -> str:
    return " ".join(str(fields.get(k, "")) for k in ("title", "description", "content"))


def named_code(fields: Mapping[str, object], sources: Iterable[str]) -> set[str]:
    """The source's own names and literals an insight names: what it backticks, the code
    names and the quoted values it shares with the run's texts (task, problem, files)."""
    text, source = _text(fields), "\n".join(sources)
    named = {m.group(1).strip() for m in _BACKTICKED.finditer(text)}
    named |= {name for name in code_names(text) if re.search(rf"\b{re.escape(name)}\b", source)}
    named |= {
        m.group(2)
        for m in _QUOTED.finditer(text)
        if m.group(2) in source and not m.group(2).isspace()
    }
    return named


def insight_problems(fields: Mapping[str, object], sources: Iterable[str]) -> list[str]:
    """Why an insight (its ``title``, ``description`` and ``content``) breaks the rules, given
    the texts of the run it came from (task, problem, files): too long, or naming the source's
    own names and literals. Empty when it keeps them."""
    problems = []
    words = word_count(_text(fields))
    if words > MAX_INSIGHT_WORDS:
        problems.append(f"it has {words} words; write at most {MAX_INSIGHT_WORDS}")
    named = named_code(fields, sources)
    if named:
        shown = ", ".join(sorted(named)[:6])
        problems.append(
            f"it names the task's own code or values ({shown}); say what applies to other "
            "tasks instead, without names, files or literals"
        )
    return problems


def _role(name: str) -> str:
    """What a name stands for, in words: a file, a piece of code, a value, a function."""
    if re.search(r"\.[A-Za-z]{1,5}$", name) and " " not in name:
        return "the file"
    if re.search(r"[\s(){}\[\]=]", name):
        return "the code"
    if not re.search(r"[A-Za-z]", name):
        return "the value"
    return "the function"


# a definition's keyword before a name is written into the role ("function add" -> "the
# function"), so the words put in never follow it ("def the function" would name "the")
_KEYWORD = rf"(?:\b(?:{_CODE_KEYWORDS}|{_WORD_KEYWORDS})\s+)?"
_DOUBLED = re.compile(r"\b(the|a|an)\s+the\b", re.IGNORECASE)


def unnamed(fields: Mapping[str, str], names: Iterable[str]) -> dict[str, str]:
    """``fields`` with each of ``names`` written as what it stands for ("the file", "the
    function"; "the value" where it was quoted), without the backticks or quotes around it or
    the definition's keyword before it: the lesson kept, the source task's code left out. The
    words put in are never quoted or defined, so a task whose own text says "the function"
    cannot make them a literal or a name of the task."""
    ordered = sorted(set(names), key=len, reverse=True)  # a longer name before its part
    out = {}
    for key, value in fields.items():
        text = str(value)
        for name in ordered:
            escaped = re.escape(name)
            found = re.compile(
                rf"{_KEYWORD}`?(?:(['\"])(?<![\w.]['\"]){escaped}\1|(?<![\w.]){escaped}(?![\w]))`?"
            )

            def role(match: re.Match[str], name: str = name) -> str:
                quoted = match.group(1) is not None and _role(name) == "the function"
                return "the value" if quoted else _role(name)

            text = found.sub(role, text)
        text = _DOUBLED.sub(lambda m: "The" if m.group(1)[0].isupper() else "the", text)
        out[key] = text.replace("`", "")
    return out


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=\S)")


def within_words(fields: Mapping[str, str], limit: int) -> dict[str, str]:
    """``fields`` with whole sentences left off the end of the content until the insight has at
    most ``limit`` words, never its first sentence (a single sentence too long stays as it is,
    for the rule to judge)."""
    out = dict(fields)
    sentences = _SENTENCE_END.split(out.get("content", "").strip())
    while len(sentences) > 1 and word_count(_text(out)) > limit:
        sentences.pop()
        out["content"] = " ".join(sentences)
    return out
