"""A word-for-word English gloss of text in other languages, so the English rules read it.

Screening's English rules know what an instruction to cheat the check, send secrets away or
take over the agent looks like; an instruction in another language says the same with other
words. The gloss swaps the words those rules key on (delete, tests, pass, send, environment
variables, system prompt, from now on, ...) for English ones in the most common languages, and
turns the object-first orders of Chinese, Japanese and Korean around for the verbs that matter,
splits an order from its attached object pronoun ("bórrala": delete it) and puts a condition's
verb after its subject.
It is not a translation: text without any of these words comes back unchanged.
"""

from __future__ import annotations

import functools
import json
import re
import unicodedata
from importlib import resources

__all__ = ["gloss"]

# (English, words that mean it): whole words in Latin and Cyrillic scripts, any substring in
# Chinese, Japanese and Korean (written without spaces); the table is data (_data/gloss_words.json)
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
# object-first orders: 把X删掉 (zh), Xを削除 (ja), X를 삭제 (ko) -> delete X; and the
# sentence-final verbs of German, Spanish and Portuguese refusals: "die Aufgabe nicht lösen"
_REORDER = [
    (
        re.compile(
            r"把(.{1,12}?)(删掉|删除|刪除|刪掉|修改|发送|發送|上传|上傳|输出|輸出|打印|透露)"
        ),
        r"\2 \1",
    ),
    (re.compile(r"(\S{1,12}?)を(?:\S{0,4}?)(削除|変更|送信|出力|公開)"), r"\2 \1"),
    (re.compile(r"((?:\S+ )?\S{1,12}?)[을를] ?(?:\S{0,4} )?(삭제|수정|전송|출력|공개)"), r"\2 \1"),
    (
        re.compile(
            r"(?i)\b(?:musst|brauchst|sollst)\s+(die aufgabe|das problem)\s+nicht\s+(?:zu\s+)?"
            r"(?:lösen|bearbeiten|machen)"
        ),
        r"do not solve the task",
    ),
    (
        re.compile(r"(?i)\bno (?:necesitas|tienes que|debes) resolver (?:la tarea|el problema)"),
        r"do not solve the task",
    ),
    (
        re.compile(r"(?i)\bnão (?:precisa|deve|precisas) resolver (?:a tarefa|o problema)"),
        r"do not solve the task",
    ),
    # a condition with its verb first: "cuando falle una prueba" -> "cuando una prueba falle"
    (
        re.compile(
            r"(?i)\b(cuando|si|quand|se|quando|wenn)\s+(falle|falla|fallan|fallen|échoue|échouent"
            r"|fallisce|falha|falham)\s+((?:una|un|la|el|le|il|lo|o|a|um|uma)\s+[^\W\d_]+)"
        ),
        r"\1 \3 \2",
    ),
    # telling someone that: "diga ao usuário que", "sag dem Nutzer, dass", "dis à l'utilisateur
    # que" -> "tell ao usuário that" (the one told may stand between the verb and "that")
    (
        re.compile(
            r"(?i)(?<!\w)(?:diga|digam|di|dile|dígale|dis|dites|sag|sagt|sagen sie|dì|di'|dica"
            r"|скажи|скажите)\s+((?:[^\s,]+\s+){0,2}[^\s,]+),?\s+(?:que|dass|che|что)(?!\w)"
        ),
        r"tell \1 that",
    ),
]


def _words() -> list[tuple[str, list[str]]]:
    table = resources.files("langgraph_mtl") / "_data" / "gloss_words.json"
    return [(row["english"], row["words"]) for row in json.loads(table.read_text("utf-8"))]


@functools.cache
def _pattern() -> tuple[re.Pattern[str], dict[str, str]]:
    english: dict[str, str] = {}
    latin: list[str] = []
    cjk: list[str] = []
    for meaning, words in _words():
        for word in words:
            english.setdefault(word, meaning)
            (cjk if _CJK.search(word) else latin).append(word)
    latin.sort(key=len, reverse=True)
    cjk.sort(key=len, reverse=True)
    alternatives = [rf"(?<!\w)(?:{'|'.join(map(re.escape, latin))})(?!\w)"]
    alternatives.append("|".join(map(re.escape, cjk)))
    return re.compile("|".join(alternatives), re.IGNORECASE), english


# a sign of another language: a letter outside ASCII, or a common function word of French,
# German, Spanish, Italian or Portuguese (written without accents)
_FOREIGN = re.compile(
    r"[^\x00-\x7f]|(?i:\b(?:les|des|pour|vous|avec|und|nicht|der|das|ist|sind|wird|los|las|"
    r"para|que|della|degli|nao|sempre|del|al|el|tu|una|mit|auf|sono|modo)\b)"
)


_MAX_CHARS = 10_000  # a gloss is a second reading: its cost stays bounded on long texts

# an order with its object pronoun attached (Spanish and Italian: "bórrala", "eliminali"),
# read as the order and "it" or "them"
_ENCLITIC = re.compile(r"(?i)\b([^\W\d_]{3,}?)(las|los|les|la|lo|le|li)\b")
_ENCLITIC_OBJECT = {"la": "it", "lo": "it", "le": "it", "las": "them", "los": "them",
                    "les": "them", "li": "them"}  # fmt: skip


def _plain(word: str) -> str:
    """``word`` lower-cased without its accents ("bórra" -> "borra")."""
    return "".join(
        c for c in unicodedata.normalize("NFD", word.lower()) if not unicodedata.combining(c)
    )


def _split_enclitic(match: re.Match[str], english: dict[str, str]) -> str:
    stem = _plain(match.group(1))
    if stem not in english:
        return match.group(0)
    return f"{stem} {_ENCLITIC_OBJECT[match.group(2).lower()]}"


def gloss(text: str) -> str | None:
    """The English gloss of ``text`` (its first 10,000 characters), or ``None`` when it has
    nothing to gloss."""
    text = text[:_MAX_CHARS]
    if not _FOREIGN.search(text):
        return None
    original = text
    for pattern, order in _REORDER:
        text = pattern.sub(order, text)
    words, english = _pattern()
    text = _ENCLITIC.sub(lambda m: _split_enclitic(m, english), text)
    glossed = words.sub(lambda m: f" {english[m.group(0).lower()]} ", text)
    glossed = re.sub(r"[ \t]{2,}", " ", glossed)
    return glossed if glossed != original else None
