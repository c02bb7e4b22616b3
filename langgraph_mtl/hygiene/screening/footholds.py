"""Whether code put where it runs again (a shell start-up file, a git hook, a cron line) sets
a foothold: what it runs is judged, not the fact that it persists.

Code that runs at every login, commit or tick is a foothold when it reaches another host
(sends or fetches), leaves something running on its own (``&``, ``nohup``, ``setsid``), runs
hidden code (a program under a hidden folder, anything kept in a folder everyone can write),
decodes what it runs, loads a library into every process (``LD_PRELOAD``), puts a folder
everyone can write on a search path, or wraps a command run with privileges in an alias. An
ordinary command (``ruff check .``, ``source .venv/bin/activate``, ``eval "$(pyenv init
-)"``, ``cd ~/proj && make backup``) is none, and a start-up file given it is configuration.
The harmful effects of the code itself are judged by :mod:`.shell_effects`, which asks this
module about what a command persists."""

from __future__ import annotations

import re

from langgraph_mtl.hygiene.screening.code_targets import (
    LOCAL,
    MAX_CODE_CHARS,
    host_of,
    remote_host,
)
from langgraph_mtl.hygiene.screening.shell_syntax import (
    Command,
    detaches,
    parse,
    pipelines,
    substitutions,
    unquote,
)

__all__ = ["CRON", "SHELL_STARTUP", "cron_command", "sets_foothold"]

# start-up files whose content is shell (so it can be judged); other start-up files
# (sudoers, authorized_keys, ld.so.preload, .pth, systemd units, launch agents) are judged
# by the write alone
SHELL_STARTUP = re.compile(
    r"(?:^|/)(?:\.(?:bash(?:rc|_profile|_login|_logout)|profile|zshrc|zprofile|zshenv|zlogin"
    r"|kshrc)|\.config/fish/config\.fish|etc/(?:profile(?:\.d/\S*)?|bash\.bashrc|rc\.local)"
    r"|\.git/hooks/\S+|hooks/(?:pre|post)-\S+)$",
    re.IGNORECASE,
)
# a cron table: its lines are a schedule and a command
CRON = re.compile(r"(?:^|/)(?:etc/cron\S*|var/spool/cron\S*|crontab)$", re.IGNORECASE)
_FIELD = r"(?:[\d*/,\-]+|[A-Za-z]{3}(?:[-,][A-Za-z]{3})*)"
_SCHEDULE = re.compile(rf"^\s*(?:@\w+|{_FIELD}(?:\s+{_FIELD}){{4}})(?:\s+|$)")
_NETWORK = {
    "curl", "wget", "fetch", "aria2c", "http", "https", "httpie", "xh", "nc", "ncat",
    "netcat", "socat", "telnet", "ftp", "tftp", "mail", "mailx", "sendmail", "mutt", "msmtp",
    "scp", "rsync", "sftp", "rclone", "ssh",
}  # fmt: skip
_RUNNERS = {
    "sh", "bash", "zsh", "dash", "ksh", "fish", "python", "python2", "python3", "perl", "ruby",
    "node", "php", "pwsh", "powershell",
}  # fmt: skip
_SHARED = re.compile(r"^(?:/tmp|/var/tmp|/dev/shm)(?:/|$)")
_HIDDEN = re.compile(r"(?:^|/)\.[^/.]")
_LOADERS = re.compile(r"^\s*(?:export\s+)?(?:LD_PRELOAD|LD_AUDIT|DYLD_INSERT_LIBRARIES)=", re.M)
# a setting that puts a folder everyone can write on a search path (PATH=/tmp/bin:$PATH)
_SHARED_SETTING = re.compile(
    r"^\s*(?:export\s+)?[A-Za-z_]\w*=\S*?(?<=[:=\"'])(?:/tmp|/var/tmp|/dev/shm)\b", re.M
)
_CODE_VARIABLE = re.compile(
    r"^\s*(?:export\s+)?(?:PROMPT_COMMAND|BASH_ENV|ENV)=(.+)$|^\s*trap\s+(.+?)\s+\w+\s*$", re.M
)
_ALIAS = re.compile(r"^\s*alias\s+([\w.-]+)=(.+)$", re.M)
_PRIVILEGED = {"sudo", "su", "doas", "pkexec", "run0"}


def cron_command(line: str, system: bool = False) -> str:
    """The command of a cron line (its schedule taken off; in a system table, its user)."""
    rest = _SCHEDULE.sub("", line, count=1)
    if system and rest != line:
        rest = rest.split(None, 1)[1] if len(rest.split(None, 1)) > 1 else ""
    return rest


def sets_foothold(code: str, depth: int = 0) -> bool:
    """Whether ``code``, run again at every start, sets a foothold (see the module
    docstring)."""
    if depth > 3 or not code.strip():
        return False
    if _LOADERS.search(code) or _SHARED_SETTING.search(code):
        return True
    for match in _CODE_VARIABLE.finditer(code):
        if sets_foothold(unquote(match.group(1) or match.group(2)), depth + 1):
            return True
    for name, value in _ALIAS.findall(code):
        body = unquote(value)
        if name in _PRIVILEGED or sets_foothold(body, depth + 1) or _runs_a_path(body):
            return True
    source = code.encode("utf-8", "replace")[:MAX_CODE_CHARS]
    tree = parse(source)
    commands = [c for pipeline in pipelines(tree.root_node, source) for c in pipeline]
    if detaches(tree.root_node, commands):
        return True
    return any(_reaches_out(c) or _runs_hidden(c) or _decodes(c) for c in commands) or any(
        sets_foothold(inner, depth + 1) for inner in substitutions(tree.root_node, source)
    )


def _reaches_out(command: Command) -> bool:
    """Whether a command sends to or fetches from a host other than this one."""
    if any(w.startswith(("/dev/tcp/", "/dev/udp/")) for w in command.writes):
        return True
    hosts = [a for a in command.args if remote_host(a)]
    if command.name in _NETWORK:  # to a host it names, or to one it does not show
        return bool(hosts) or not any(LOCAL.match(host_of(a) or a) for a in command.args)
    return any("://" in a for a in hosts)


def _runs_hidden(command: Command) -> bool:
    """Whether a command runs code kept out of sight: a program (or an interpreter's script)
    that is hidden or under a hidden folder other than a ``bin`` folder's (``.venv/bin``,
    ``~/.local/bin`` hold installed tools), or anything run or read in from a folder everyone
    can write."""
    sourced = command.name in ("source", ".")
    path = command.path if command.name not in _RUNNERS else _script(command.args)
    if sourced:
        return any(_SHARED.match(a) for a in command.args[:1])
    return bool(path) and (_hidden(path) or bool(_SHARED.match(path)))


def _hidden(path: str) -> bool:
    parts = path.split("/")
    if parts[-1].startswith("."):
        return True
    folders = parts[:-1]
    hidden = any(_HIDDEN.match(f"/{p}") for p in folders)
    return hidden and (not folders or folders[-1] not in ("bin", "sbin", "shims"))


def _script(args: list[str]) -> str:
    words = [a for a in args if not a.startswith("-")]
    return "" if "-c" in args or not words else words[0]


def _runs_a_path(body: str) -> bool:
    """Whether an alias runs a path in place of a command (``alias ls='/tmp/ls'``)."""
    first = body.split()[:1]
    return bool(first) and "/" in first[0]


def _decodes(command: Command) -> bool:
    """Whether a command decodes text (what it gives is run unseen)."""
    flags = set(command.args)
    return (command.name in ("base64", "base32") and bool(flags & {"-d", "--decode", "-D"})) or (
        command.name == "xxd" and "-r" in flags
    )
