"""PowerShell and Windows commands read as the POSIX shell they stand for, so that
:mod:`.shell_effects` judges them by what they do: ``iex (iwr URL)`` runs what a host sent
(``curl URL | sh``), ``Invoke-WebRequest -Method POST -Body (Get-Content F)`` sends a file,
``schtasks /create ... /tr CMD`` and ``Register-ScheduledTask`` register a job (a cron line
running CMD), a value under the registry's ``...\\CurrentVersion\\Run`` key runs at every
login (a line in ``~/.profile``), ``powershell -EncodedCommand`` runs what it decodes.

Windows places become their POSIX counterparts: the user's folder ``$HOME``, the folders
everyone can write (``C:\\Users\\Public``, ``%TEMP%``, ``C:\\ProgramData``) ``/tmp``, the
hidden ``AppData`` a hidden folder, ``$env:NAME`` ``$NAME``, and ``\\`` a ``/``."""

from __future__ import annotations

import base64
import binascii
import re
import shlex

__all__ = ["as_posix", "shows_powershell"]

# PowerShell's approved verbs most commands start with ("Invoke-WebRequest", "Get-Content")
_VERBS = (
    "add|clear|compress|copy|disable|enable|expand|export|get|import|invoke|move|new|out|"
    "register|remove|rename|send|set|start|stop|write"
)
_SIGN = re.compile(
    rf"(?i)\b(?:{_VERBS})-[a-z]{{3,}}\b|\$env:|\b(?:iex|iwr|irm|schtasks|pwsh|powershell)\b"
    r"|\breg(?:\.exe)?\s+add\b|\bHK(?:CU|LM):|%(?:USERPROFILE|APPDATA|TEMP|TMP)%"
)
_NAMES = {
    "invoke-webrequest": "curl", "iwr": "curl", "invoke-restmethod": "curl", "irm": "curl",
    "get-content": "cat", "gc": "cat", "type": "cat",
    "copy-item": "cp", "cpi": "cp", "copy": "cp", "move-item": "mv", "mi": "mv",
    "remove-item": "rm", "ri": "rm", "del": "rm", "erase": "rm", "rd": "rm", "rmdir": "rm",
    "get-childitem": "ls", "gci": "ls", "dir": "ls",
    "write-output": "echo", "write-host": "echo", "echo": "echo",
    "send-mailmessage": "mail", "compress-archive": "zip",
    "invoke-expression": "iex", "iex": "iex", "start-process": "start", "saps": "start",
    "set-content": "set", "sc": "set", "add-content": "add", "ac": "add", "out-file": "set",
    "set-itemproperty": "registry", "sp": "registry", "new-itemproperty": "registry",
    "powershell": "powershell", "powershell.exe": "powershell", "pwsh": "powershell",
    "schtasks": "schtasks", "schtasks.exe": "schtasks", "register-scheduledtask": "job",
    "reg": "reg", "reg.exe": "reg",
}  # fmt: skip
# parameters taking a value, by what they become (None: dropped with their value)
_VALUED = {
    "-uri": "", "-path": "", "-literalpath": "", "-filepath": "", "-destination": "",
    "-method": "-X", "-body": "--data", "-infile": "-T", "-outfile": "-o", "-to": "",
    "-attachments": "-A", "-argumentlist": "", "-value": "", "-encoding": None,
    "-headers": None, "-contenttype": None, "-tail": None, "-name": None, "-from": None,
    "-subject": None, "-smtpserver": None, "-useragent": None, "-windowstyle": None,
    "-propertytype": None, "-type": None, "-destinationpath": "",
}  # fmt: skip
_SWITCHES = {"-recurse": "-r", "-force": "-f"}
_PLACES = (
    (re.compile(r"(?i)(?:\$env:|%)(?:temp|tmp)%?|c:\\(?:users\\public|programdata|windows\\temp)"), "/tmp"),
    (re.compile(r"(?i)(?:\$env:|%)(?:local)?appdata%?|(?<=\\)appdata(?=\\)"), "$HOME/.appdata"),
    (re.compile(r"(?i)\$env:(?:userprofile|homepath)|%userprofile%|\$home\b|c:\\users\\[^\\\s'\"]+"), "$HOME"),
    (re.compile(r"(?i)\$profile\b(?:\.\w+)?"), "$HOME/.profile"),  # PowerShell's start-up script
    (re.compile(r"(?i)\$env:(\w+)"), r"$\1"),
)  # fmt: skip
_TOKEN = re.compile(r"""\$?\((?:[^()]|\([^()]*\))*\)|'[^']*'|"(?:[^"`]|`.)*"|[|;]|[^\s|;]+""")
_RUN_KEY = re.compile(r"(?i)\\currentversion\\run(?:once)?\b")
_MAX_DEPTH = 3


def shows_powershell(text: str) -> bool:
    """Whether ``text`` shows a PowerShell command, a Windows scheduler or registry command,
    or a Windows environment variable."""
    return bool(_SIGN.search(text))


def _place(word: str) -> str:
    for pattern, posix in _PLACES:
        word = pattern.sub(posix, word)
    return word.replace("\\", "/")


def _word(token: str, depth: int) -> str:
    """One argument in POSIX form: a subexpression run for its output, a string unquoted
    with its places translated."""
    if token.startswith(("(", "$(")) and token.endswith(")"):
        inner = token[token.index("(") + 1 : -1]
        return f'"$({_script(inner, depth + 1)})"'
    place = _place(_unquoted(token))
    return f'"{place}"' if "$" in place else shlex.quote(place)


def _unquoted(token: str) -> str:
    return token[1:-1] if len(token) >= 2 and token[0] == token[-1] and token[0] in "'\"" else token


def _command(tokens: list[str], depth: int) -> str:
    """One PowerShell or Windows command as POSIX shell."""
    if tokens[0].startswith("(") and tokens[0].endswith(")") and len(tokens) == 1:
        return _script(tokens[0][1:-1], depth + 1)  # a statement that is a subexpression
    head = tokens[0].lower()
    name = _NAMES.get(head)
    rest = tokens[1:]
    if name == "powershell":
        return _powershell(rest, depth)
    if name == "schtasks":
        lowered = [t.lower() for t in rest]
        if "/create" in lowered and "/tr" in lowered[:-1]:
            action = _unquoted(rest[lowered.index("/tr") + 1])
            return f"echo {shlex.quote('@reboot ' + _script(action, depth + 1))} | crontab -"
        return "true"
    if name == "job":
        return _job(tokens, depth)
    if name in ("registry", "reg"):
        return _registry(rest, depth)
    if name == "iex" and rest:
        argument = rest[0]
        if argument.startswith(("(", "$(")):
            return f"{_script(argument[argument.index('(') + 1 : -1], depth + 1)} | sh"
        return _script(_unquoted(argument), depth + 1)
    if name == "iex":
        return "sh"
    if name == "ls" and any(t.lower().rstrip("*") == "env:" for t in rest):
        return "env"
    words, target = _arguments(rest, depth)
    if name in ("set", "add"):  # the path named, or the first word; then what is written
        target = target or (words[0] if words else "/dev/null")
        value = [w for w in words if w != target]
        if value and target.strip("\"'").endswith("/.profile"):  # PowerShell's own start-up script
            value = [shlex.quote(_script(_unquoted_words(value), depth + 1))]
        sink = f"{'>>' if name == 'add' else '>'} {target}"
        return f"echo {' '.join(value)} {sink}" if value else f"cat {sink}"
    if name == "start":
        return " ".join(words)
    return " ".join([name or _place(tokens[0]), *words])


def _unquoted_words(words: list[str]) -> str:
    """Words in POSIX quoting, joined without it (as written, when they do not parse)."""
    try:
        return " ".join(shlex.split(" ".join(words)))
    except ValueError:
        return " ".join(words)


def _arguments(tokens: list[str], depth: int) -> tuple[list[str], str | None]:
    """The arguments in POSIX form, and the path a ``-Path`` named (where a write goes)."""
    words: list[str] = []
    target = None
    index = 0
    while index < len(tokens):
        token, low = tokens[index], tokens[index].lower()
        if low in _SWITCHES:
            words.append(_SWITCHES[low])
        elif low in _VALUED and index + 1 < len(tokens):
            index += 1
            flag, value = _VALUED[low], _word(tokens[index], depth)
            if low in ("-path", "-filepath", "-literalpath") and target is None:
                target = value
            if flag is not None:
                words += [flag, value] if flag else [value]
        elif not (low.startswith("-") and low[1:].isalpha()):  # an unknown switch is dropped
            words.append(_word(token, depth))
        index += 1
    return words, target


def _powershell(tokens: list[str], depth: int) -> str:
    """``powershell [-switches] -Command CODE`` or ``-EncodedCommand BASE64``: what it runs."""
    lowered = [t.lower() for t in tokens]
    for index, low in enumerate(lowered[:-1]):
        if low in ("-e", "-ec", "-enc", "-encodedcommand"):
            try:
                code = base64.b64decode(tokens[index + 1], validate=True).decode("utf-16-le")
            except (binascii.Error, UnicodeDecodeError, ValueError):
                return "true"
            return _script(code, depth + 1)
        if low in ("-c", "-command"):
            return _script(" ".join(_unquoted(t) for t in tokens[index + 1 :]), depth + 1)
    return "true"


def _job(tokens: list[str], depth: int) -> str:
    """``Register-ScheduledTask`` with an action (``New-ScheduledTaskAction -Execute X
    -Argument Y``, written anywhere in the command): a cron line running ``X Y``."""
    flat = " ".join(tokens)
    execute = re.search(r"(?i)-execute\s+('[^']*'|\"[^\"]*\"|\S+)", flat)
    argument = re.search(r"(?i)-argument\s+('[^']*'|\"[^\"]*\"|[^\s)]+)", flat)
    action = " ".join(_unquoted(m.group(1)) for m in (execute, argument) if m)
    if not action:
        return "true"
    return f"echo {shlex.quote('@reboot ' + _script(action, depth + 1))} | crontab -"


def _registry(tokens: list[str], depth: int) -> str:
    """A value written under a ``Run`` key: its command is put where every login runs it."""
    flat = " ".join(tokens)
    if not _RUN_KEY.search(flat):
        return "true"
    found = re.search(r"(?i)(?:-value|/d)\s+('[^']*'|\"[^\"]*\"|\S+)", flat)
    if not found:
        return "true"
    command = _script(_unquoted(found.group(1)), depth + 1)
    return f"echo {shlex.quote(command)} >> ~/.profile"


# .NET's web client, fetching or sending: the cmdlet it stands for
_CLIENT = r"\(\s*New-Object\s+(?:System\.)?Net\.WebClient\s*\)\s*\."
_DOWNLOAD = re.compile(
    rf"(?i){_CLIENT}Download(?:String|Data|File)\(\s*(['\"]?)([^'\",)\s]+)\1[^)]*\)"
)
_UPLOAD = re.compile(
    rf"(?i){_CLIENT}Upload(File|String|Data)\(\s*(['\"]?)([^'\",)\s]+)\2\s*,"
    r"(?:\s*['\"](?:POST|PUT)['\"]\s*,)?\s*([^)]*)\)"
)


def _cmdlets(code: str) -> str:
    """.NET's web client calls written as the cmdlets they stand for."""
    code = _DOWNLOAD.sub(lambda m: f"(iwr {m[2]})", code)
    return _UPLOAD.sub(
        lambda m: (
            f"(iwr {m[3]} -Method POST {'-InFile' if m[1].lower() == 'file' else '-Body'} {m[4]})"
        ),
        code,
    )


def _script(code: str, depth: int = 0) -> str:
    """Statements and pipelines of PowerShell as POSIX shell."""
    if depth > _MAX_DEPTH:
        return "true"
    code = _cmdlets(code)
    statements: list[str] = []
    pipeline: list[str] = []
    command: list[str] = []
    for token in [*_TOKEN.findall(code), ";"]:
        if token in ("|", ";"):
            if command:
                if pipeline and _cmdlets(command[0]).lower() in ("iex", "invoke-expression"):
                    command = command[:1]  # it runs its input: what follows it is prose
                pipeline.append(_command(command, depth))
                command = []
            if token == ";" and pipeline:
                statements.append(" | ".join(pipeline))
                pipeline = []
        else:
            command.append(token)
    return "; ".join(statements)


_HEAD = re.compile(
    rf"(?i)(?:^|(?<=[\s:(`'\"]))(?:(?:{_VERBS})-[a-z]{{3,}}|"
    + "|".join(re.escape(name) for name in sorted(_NAMES, key=len, reverse=True))
    + r")(?=\s|$)"
)


def as_posix(text: str) -> str | None:
    """``text`` read as PowerShell, in POSIX shell, from its first command on (prose before
    it, "to keep it running, run: ...", is not read), or ``None`` when it shows none."""
    if not shows_powershell(text):
        return None
    text = _cmdlets(text)
    head = _HEAD.search(text)
    return _script(text[head.start() :] if head else text)
