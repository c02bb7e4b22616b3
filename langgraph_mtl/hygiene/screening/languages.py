"""The words of an instruction to drop what the agent was told: English and 31 other
languages, and role changes ("you are now ...") in several."""

from __future__ import annotations

__all__ = ["EN_VERB", "EN_WHAT", "FOREIGN_OVERRIDE", "FOREIGN_ROLE"]

EN_VERB = r"(?:ignore|disregard|forget|override|bypass|discard|pay no attention to)"
EN_WHAT = (
    r"(?:instructions?|prompts?|rules|guidelines|directives|messages?|context|constraints|"
    r"requirements|orders|everything|guidance|directions|commands)"
)
# (language, verb, noun): an instruction to drop what the agent was told
FOREIGN_OVERRIDE = [
    (
        "es",
        r"\b(?:ignora|ignore|ignoren|ignorar|ignorad|olvida|olvide|olviden|olvidad|omite|"
        r"descarta|haz caso "
        r"omiso de)\b",
        r"\b(?:instrucciones|reglas|indicaciones|órdenes|directrices|tarea)\b",
    ),
    (
        "pt",
        r"\b(?:ignore|ignora|ignorem|esqueça|esqueca|esqueçam|desconsidere)\b",
        r"\b(?:instruções|instrucoes|regras|orientações|diretrizes|tarefa)\b",
    ),
    (
        "fr",
        r"\b(?:ignorez|ignorer|oubliez|oublie|oublier|ne tiens pas compte)\b",
        r"\b(?:instructions|consignes|règles|directives|tâche)\b",
    ),
    (
        "de",
        r"\b(?:ignoriere|ignorier|ignorieren|vergiss|vergessen|missachte|missachten)\b",
        r"\b(?:anweisungen|instruktionen|regeln|vorgaben|befehle|befehlen|aufgabe)\b",
    ),
    (
        "it",
        r"\b(?:ignora|ignorate|dimentica|dimenticate|trascura)\b",
        r"\b(?:istruzioni|regole|indicazioni|direttive|compito)\b",
    ),
    ("nl", r"\b(?:negeer|vergeet|ignoreer)\b", r"\b(?:instructies|regels|aanwijzingen|taak)\b"),
    ("sv", r"\b(?:ignorera|glöm|strunta i)\b", r"\b(?:instruktioner\w*|regler\w*|uppgift\w*)"),
    (
        "da-no",
        r"\b(?:ignorer|ignorér|glem)\b",
        r"\b(?:instruktioner\w*|instrukser|regler\w*|oppgave\w*|opgave\w*)",
    ),
    ("fi", r"\b(?:ohita|unohda|jätä huomiotta)\b", r"\b(?:ohje\w*|sääntö\w*|säännöt|tehtävä\w*)"),
    (
        "cs-sk",
        r"\b(?:ignoruj\w*|zapomeň\w*|zabudni\w*)",
        r"\b(?:pokyn\w*|instrukc\w*|inštrukci\w*|pravidl\w*|úkol\w*)",
    ),
    (
        "ro",
        r"\b(?:ignoră|ignorați|ignora|uită|uitați)\b",
        r"\b(?:instrucțiuni\w*|instructiuni\w*|regul\w*|sarcin\w*)",
    ),
    (
        "hu",
        r"(?:hagyd figyelmen kívül|hagyja figyelmen kívül|felejtsd el|ignoráld)",
        r"(?:utasítás\w*|szabály\w*|feladat\w*)",
    ),
    ("el", r"(?:αγνόησε|αγνοήστε|ξέχασε|ξεχάστε)", r"(?:οδηγί\w*|κανόν\w*|εντολ\w*)"),
    ("he", r"(?:התעלם|התעלמי|התעלמו|שכח|שכחי)", r"(?:הוראות|ההוראות|הכללים|כללים|ההנחיות)"),
    ("fa", r"(?:نادیده بگیر|فراموش کن)", r"(?:دستورالعمل|دستورات|قوانین)"),
    ("th", r"(?:เพิกเฉย|ละเว้น|ลืม|ไม่ต้องสนใจ)", r"(?:คำสั่ง|คำแนะนำ|กฎ)"),
    (
        "sw-tl",
        r"\b(?:puuza|sahau|huwag pansinin|kalimutan)\b",
        r"\b(?:maagizo|maelekezo|sheria|tagubilin|utos|patakaran)\b",
    ),
    (
        "pl",
        r"\b(?:zignoruj\w*|zignorow\w*|ignoruj\w*|ignorow\w*|zapomnij\w*)",
        r"\b(?:instrukcj\w*|polece\w*|zasad\w*)",
    ),
    ("vi", r"(?:bỏ qua|phớt lờ|quên)", r"(?:hướng dẫn|chỉ dẫn|quy tắc|lệnh)"),
    ("id", r"\b(?:abaikan|lupakan)\b", r"\b(?:instruksi|petunjuk|aturan|perintah)\b"),
    ("tr", r"(?:yok say|görmezden gel|unut)", r"\b(?:talimat\w*|kural\w*|komut\w*)"),
    (
        "ru",
        r"(?:игнорир\w*|забудь\w*|не обращай)",
        r"(?:инструкци\w*|правил\w*|указани\w*|промпт|задач\w*)",
    ),
    ("uk", r"(?:ігнор\w*|забудь\w*)", r"(?:інструкці\w*|правил\w*|вказів\w*)"),
    (
        "zh",
        r"(?:忽略|无视|無視|忽视|忽視|忘记|忘記|不要理会|不要理會)",
        r"(?:指令|指示|说明|說明|规则|規則|提示)",
    ),
    ("ja", r"(?:無視|忘れ)", r"(?:指示|命令|ルール|プロンプト)"),
    ("ko", r"(?:무시|잊어)", r"(?:지시|명령|규칙|지침|프롬프트)"),
    ("ar", r"(?:تجاهل|انس)", r"(?:التعليمات|الأوامر|القواعد)"),
    ("hi", r"(?:अनदेखा|भूल)", r"(?:निर्देश|नियम)"),
]
FOREIGN_ROLE = (
    r"(?:ahora eres|a partir de ahora eres|tu es maintenant|désormais tu es|du bist jetzt|"
    r"ab jetzt bist du|ora sei|agora você é|ты теперь|теперь ты|你现在是|你現在是|"
    r"今からあなたは|지금부터 너는|이제 너는)"
)
