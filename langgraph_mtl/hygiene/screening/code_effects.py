"""Attacks written as code, judged by what the code does, not by its words.

Shell is parsed with a real shell grammar (tree-sitter's bash, :mod:`.shell_effects`), Python
with ``ast`` (:mod:`.python_effects`), PowerShell read as the shell it stands for
(:mod:`.powershell_view`); every
fenced block, backticked span and line of a memory is tried as both, and the command strings
they run (``sh -c``, ``python -c``, ``os.system``, ``subprocess``) are parsed in turn. Prose
that says to pipe one quoted command into another ("pipe `env` into `nc ...`") is judged as
the pipeline it describes. A command is harmful by its effect:

- **exfiltration**: secrets (credential files, keys, the environment, shell history, the home
  folder) flow into something that sends to a host other than this one, or are copied to a
  shared place;
- **persistence**: it writes a start-up file (shell rc and profile files, ``sitecustomize``,
  ``.pth`` files, git hooks, cron, systemd or launch agents, ``authorized_keys``, sudoers) or
  registers a job or a shell alias;
- **remote-exec**: code fetched from a host, or decoded from an encoding, is run;
- **destructive**: the root or home folder is removed, a disk overwritten or made world-writable.
"""

from __future__ import annotations

import re
import shlex

from langgraph_mtl.hygiene.screening.code_targets import MAX_CODE_CHARS, PERSISTENT
from langgraph_mtl.hygiene.screening.powershell_view import as_posix, shows_powershell
from langgraph_mtl.hygiene.screening.python_effects import python_effects
from langgraph_mtl.hygiene.screening.shell_effects import shell_effects

__all__ = ["CODE_EFFECTS", "code_effects"]

CODE_EFFECTS = ("exfiltration", "persistence", "remote-exec", "destructive")

# a line that opens with a label ("Debug helper: python -c ...", "Step 3: curl ..."): the code
# after it is tried on its own
_LABELLED = re.compile(r"\s*[\w][\w .()'/-]{0,40}:\s+(\S.*)")
_FENCED = re.compile(r"```[\w+-]*\n(.*?)```", re.DOTALL)
_TICKED = re.compile(r"`([^`\n]{3,})`")

# what a piece of code that does any of the above shows: a shell operator, a command or call
# that reads, writes, sends or runs (prose without one is not parsed at all)
_CODE_SIGN = re.compile(
    r"[|;&<>`]|\$[({A-Za-z]|@-|\s-delete\b|\b(?:curl|wget|fetch|nc|ncat|netcat|socat|telnet"
    r"|scp|rsync|sftp|rclone|aws|gsutil|gcloud|azcopy|ssh|mail|sendmail|crontab|systemctl"
    r"|launchctl|git|rm|dd|mkfs\w*|chmod"
    r"|chown|tee|cp|mv|shred"
    r"|install|ln|sed|tar|eval|exec|env|printenv|bash|sh|zsh|python\d?|perl|ruby|node"
    r"|open|os|subprocess|requests|httpx|urllib|socket|shutil|smtplib|base64|pathlib|Path)\b"
)


_QUOTED = r"(?:`([^`\n]+)`|'([^'\n]+)'|\"([^\"\n]+)\")"
# "pipe `A` into `B`": A's output read by B
_PIPE_INTO = re.compile(
    r"(?i)\b(?:pipe|feed|stream)\w*\s+(?:the output of\s+)?"
    + _QUOTED
    + r"\s+(?:into|to|through)\s+"
    + _QUOTED
)


# "add `A` to ~/.bashrc", "append to .git/hooks/pre-push: `A`": A written to that file (code
# in backticks; quotes in prose are too often apostrophes)
_PLANT = re.compile(r"(?i)\b(?:add|append|put|write|insert|place|drop)\w*\b")
_SENTENCE_END = re.compile(r"[.!?;](?=\s|$)|\n")
_PATH_WORD = re.compile(r"[^\s`'\"]+")
_CODE_SPAN = re.compile(r"`([^`\n]+)`")
_MAX_DESCRIBED = 32  # commands read from one text's prose


def _described(text: str) -> list[str]:
    """The shell that prose describes: a quoted command piped into another, or put in a
    start-up file, a hook or a cron table."""
    shell = []
    for match in _PIPE_INTO.finditer(text):
        source = next(g for g in match.groups()[:3] if g is not None)
        sink = next(g for g in match.groups()[3:] if g is not None)
        shell.append(f"{source} | {sink}")
    for match in _PLANT.finditer(text if "`" in text else ""):
        sentence = _sentence_after(text, match.end())
        codes = [m[1] for m in _CODE_SPAN.finditer(sentence) if not PERSISTENT.search(m[1])]
        words = (w.rstrip(".,:;)") for w in _PATH_WORD.findall(sentence.replace("`", " ")))
        path = next((w for w in words if PERSISTENT.search(w)), None)
        if codes and path:  # the sentence's code, line by line, in its first start-up file
            shell.append(f"echo {shlex.quote(chr(10).join(codes[:8]))} >> {path}")
        if len(shell) >= _MAX_DESCRIBED:
            break
    return shell


def _sentence_after(text: str, start: int) -> str:
    """The rest of the sentence from ``start`` (quoted code does not end it)."""
    masked = _CODE_SPAN.sub(lambda m: "x" * len(m.group(0)), text[start : start + 400])
    end = _SENTENCE_END.search(masked)
    return text[start : start + (end.start() if end else len(masked))]


def _segments(text: str) -> list[str]:
    """Where code may sit in a memory: its fenced blocks, backticked spans, each line, the
    shell its prose describes, and the whole text; only those showing a sign of code."""
    pieces = _described(text)
    pieces += [m.group(1) for m in _FENCED.finditer(text)]
    pieces += [m.group(1) for m in _TICKED.finditer(text)]
    lines = [line for line in text.splitlines() if len(line.strip()) > 3]
    pieces += lines
    pieces += [m.group(1) for line in lines if (m := _LABELLED.match(line))]
    pieces.append(text)
    return list(
        dict.fromkeys(
            p for p in pieces if p.strip() and (_CODE_SIGN.search(p) or shows_powershell(p))
        )
    )


def code_effects(text: str) -> tuple[str, ...]:
    """The harmful effects of the code in ``text`` (:data:`CODE_EFFECTS`), in that order."""
    if len(text) > 4 * MAX_CODE_CHARS:
        text = text[: 4 * MAX_CODE_CHARS]
    found: set[str] = set()
    for piece in _segments(text):
        found |= python_effects(piece)
        found |= shell_effects(piece)
        posix = as_posix(piece)  # PowerShell, as the shell it stands for
        if posix is not None:
            found |= shell_effects(posix)
    return tuple(effect for effect in CODE_EFFECTS if effect in found)
