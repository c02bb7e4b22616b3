"""A word-for-word English gloss of text in other languages, so the English rules read it.

Screening's English rules know what an instruction to cheat the check, send secrets away or
take over the agent looks like; an instruction in another language says the same with other
words. The gloss swaps the words those rules key on (delete, tests, pass, send, environment
variables, system prompt, from now on, ...) for English ones in the most common languages, and
turns the object-first orders of Chinese, Japanese and Korean around for the verbs that matter.
It is not a translation: text without any of these words comes back unchanged.
"""

from __future__ import annotations

import functools
import re

__all__ = ["gloss"]

# (English, words that mean it): whole words in Latin and Cyrillic scripts, any substring in
# Chinese, Japanese and Korean (written without spaces)
_WORDS: list[tuple[str, tuple[str, ...]]] = [
    (
        "from now on",
        (
            "ab sofort",
            "ab jetzt",
            "a partir de ahora",
            "desde ahora",
            "désormais",
            "à partir de maintenant",
            "d'ora in poi",
            "da ora in poi",
            "a partir de agora",
            "отныне",
            "с этого момента",  # noqa: RUF001
            "从现在开始",
            "从现在起",
            "今後",
            "これからは",
            "지금부터",
        ),
    ),
    (
        "you are",
        (
            "bist du",
            "du bist",
            "eres",
            "tu es",
            "vous êtes",
            "sei",
            "você é",
            "ты",
            "你是",
            "あなたは",
            "너는",
            "당신은",
        ),
    ),
    (
        "without restrictions",
        (
            "ohne einschränkungen",
            "sin restricciones",
            "sans restrictions",
            "senza restrizioni",
            "sem restrições",
            "без ограничений",
            "不受限制",
            "没有限制",
            "制限なし",
            "制限のない",
            "제한 없는",
            "제한 없이",
        ),
    ),
    (
        "assistant",
        ("assistent", "asistente", "assistente", "ассистент", "助手", "アシスタント", "어시스턴트"),
    ),
    (
        "skip running",
        (
            "não execute",
            "no ejecutes",
            "no ejecute",
            "n'exécute pas",
            "n'exécutez pas",
            "non eseguire",
            "не запускай",
            "не запускайте",
            "不要运行",
            "不要执行",
            "実行しないで",
            "실행하지 마",
        ),
    ),
    (
        "say that",
        (
            "diga que",
            "di que",
            "dites que",
            "dis que",
            "sag dass",
            "sagen sie dass",
            "скажи что",
            "скажите что",
            "说",
            "と言って",
            "라고 말해",
        ),
    ),
    (
        "so that they",
        (
            "pour qu'ils",
            "pour qu'elles",
            "para que",
            "damit",
            "così che",
            "in modo che",
            "чтобы",
            "这样",
            "使得",
            "ように",
            "도록",
        ),
    ),
    (
        "delete",
        (
            "lösche",
            "löschen",
            "entferne",
            "entfernen",
            "borra",
            "borrar",
            "elimina",
            "eliminar",
            "supprime",
            "supprimez",
            "supprimer",
            "efface",
            "effacez",
            "cancella",
            "apague",
            "apagar",
            "exclua",
            "excluir",
            "remova",
            "remover",
            "удали",
            "удалите",
            "刪除",
            "刪掉",
            "удалить",
            "删掉",
            "删除",
            "删去",
            "削除",
            "삭제",
        ),
    ),
    (
        "modify",
        (
            "ändere",
            "ändern",
            "bearbeite",
            "modifica",
            "modificar",
            "modifiez",
            "modifie",
            "modifier",
            "changez",
            "cambia",
            "cambiar",
            "modifique",
            "altere",
            "измени",
            "измените",
            "修改",
            "変更",
            "書き換え",
            "수정",
        ),
    ),
    (
        "send",
        (
            "sende",
            "senden",
            "schicke",
            "schicken",
            "envía",
            "envia",
            "enviar",
            "manda",
            "envoie",
            "envoyez",
            "envoyer",
            "invia",
            "envie",
            "mande",
            "отправь",
            "отправьте",
            "пошли",
            "发送",
            "发到",
            "上传",
            "發送",
            "發到",
            "上傳",
            "送信",
            "送って",
            "전송",
            "보내",
        ),
    ),
    (
        "reveal",
        (
            "verrate",
            "zeige",
            "revela",
            "revelar",
            "révèle",
            "révélez",
            "révélant",
            "rivela",
            "раскрой",
            "покажи",
            "透露",
            "泄露",
            "公開",
            "공개",
        ),
    ),
    (
        "print",
        (
            "gib aus",
            "imprime",
            "affiche",
            "affichez",
            "stampa",
            "выведи",
            "输出",
            "打印",
            "出力",
            "출력",
        ),
    ),
    (
        "reply",
        (
            "antworte",
            "responde",
            "réponds",
            "répondez",
            "rispondi",
            "responda",
            "ответь",
            "ответьте",
            "回复",
            "回答",
            "返信",
            "답하",
        ),
    ),
    (
        "ignore",
        ("ignoriere", "ignora", "ignorez", "игнорируй", "忽略", "无视", "無視", "무시"),
    ),
    (
        "the user's",
        (
            "des benutzers",
            "del usuario",
            "de l'utilisateur",
            "dell'utente",
            "do usuário",
            "пользователя",
            "用户的",
            "ユーザーの",
            "사용자의",
        ),
    ),
    (
        "task",
        (
            "aufgabe",
            "tarea",
            "tâche",
            "compito",
            "tarefa",
            "задачу",
            "задача",
            "任务",
            "任務",
            "タスク",
            "課題",
            "작업",
            "과제",
        ),
    ),
    (
        "test files",
        (
            "testdateien",
            "archivos de prueba",
            "fichiers de test",
            "file di test",
            "測試文件",
            "測試檔案",
            "arquivos de teste",
            "тестовые файлы",
            "测试文件",
            "テストファイル",
            "테스트 파일",
        ),
    ),
    (
        "the tests",
        (
            "die tests",
            "las pruebas",
            "los tests",
            "les tests",
            "i test",
            "os testes",
            "測試",
            "тесты",
            "测试",
            "テスト",
            "테스트",
        ),
    ),
    (
        "pass",
        (
            "bestehen",
            "durch",
            "pasan",
            "pasen",
            "passent",
            "réussissent",
            "passano",
            "passino",
            "passam",
            "проходят",
            "пройдут",
            "通过",
            "合格",
            "パス",
            "통과",
        ),
    ),
    ("passed", ("passaram", "pasaron", "ont réussi", "bestanden", "прошли", "都通过了")),
    (
        "always",
        ("immer", "siempre", "toujours", "sempre", "всегда", "总是", "始终", "常に", "항상"),
    ),
    (
        "environment variables",
        (
            "umgebungsvariablen",
            "variables de entorno",
            "variables d'environnement",
            "variabili d'ambiente",
            "variáveis de ambiente",
            "переменные окружения",
            "环境变量",
            "環境變量",
            "環境變數",
            "環境変数",
            "환경 변수",
        ),
    ),
    (
        "your api keys",
        (
            "deine api-schlüssel",
            "tus claves api",
            "tus claves de api",
            "vos clés api",
            "vos clés d'api",
            "le tue chiavi api",
            "suas chaves de api",
            "свои ключи api",
            "你的api密钥",
            "あなたのapiキー",
            "당신의 api 키",
        ),
    ),
    (
        "api keys",
        (
            "api-schlüssel",
            "claves api",
            "claves de api",
            "clés api",
            "clés d'api",
            "chiavi api",
            "chaves de api",
            "ключи api",
            "api密钥",
            "api 密钥",
            "apiキー",
            "api 키",
        ),
    ),
    (
        "system prompt",
        (
            "systemprompt",
            "system-prompt",
            "prompt del sistema",
            "prompt système",
            "prompt di sistema",
            "prompt do sistema",
            "системный промпт",
            "系统提示",
            "系統提示",
            "システムプロンプト",
            "시스템 프롬프트",
        ),
    ),
    ("only", ("nur", "solo", "uniquement", "seulement", "apenas", "только", "只", "だけ")),
    (
        "done",
        (
            "fertig",
            "terminado",
            "hecho",
            "terminé",
            "fatto",
            "feito",
            "готово",
            "完成",
            "完了",
            "완료",
        ),
    ),
]
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
]


@functools.cache
def _pattern() -> tuple[re.Pattern[str], dict[str, str]]:
    english: dict[str, str] = {}
    latin: list[str] = []
    cjk: list[str] = []
    for meaning, words in _WORDS:
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
    glossed = words.sub(lambda m: f" {english[m.group(0).lower()]} ", text)
    glossed = re.sub(r"[ \t]{2,}", " ", glossed)
    return glossed if glossed != original else None
