"""Attacks written as code, judged by what the code does, not by its words.

Shell is parsed with a real shell grammar (tree-sitter's bash), Python with ``ast``; every
fenced block, backticked span and line of a memory is tried as both, and the command strings
they run (``sh -c``, ``python -c``, ``os.system``, ``subprocess``) are parsed in turn. A
command is harmful by its effect:

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

import ast
import functools
import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

__all__ = ["CODE_EFFECTS", "code_effects"]

CODE_EFFECTS = ("exfiltration", "persistence", "remote-exec", "destructive")

_FETCHERS = {"curl", "wget", "fetch", "aria2c", "http", "https", "httpie", "xh"}
_INTERPRETERS = {
    "sh", "bash", "zsh", "dash", "ksh", "fish", "python", "python2", "python3", "perl", "ruby",
    "node", "php", "pwsh", "powershell", "source", ".", "eval",
}  # fmt: skip
_SOCKETS = {"nc", "ncat", "netcat", "socat", "telnet", "ftp", "tftp"}
_MAILERS = {"mail", "mailx", "sendmail", "mutt", "msmtp"}
_COPIERS = {"scp", "rsync", "sftp", "rclone"}
_READERS = {
    "cat", "base64", "xxd", "od", "tar", "zip", "gzip", "bzip2", "xz", "head", "tail", "less",
    "more", "strings", "gpg", "openssl", "cp", "dd", "tac", "sort", "grep", "awk", "sed", "jq",
}  # fmt: skip
_ENV_DUMPS = {"env", "printenv", "export", "declare", "set", "compgen"}
_SCHEDULERS = {"update-rc.d", "chkconfig", "launchctl"}

_SENSITIVE = re.compile(
    r"(?:^|[/\s'\"=@:])(?:~|\$\{?HOME\}?|/root|/home/[^/\s]+)?/?"
    r"(?:\.ssh/(?:id_\w+|authorized_keys|known_hosts|config)|\.aws/(?:credentials|config)"
    r"|\.netrc|\.pgpass|\.git-credentials|\.docker/config\.json|\.kube/config|\.npmrc|\.pypirc"
    r"|\.config/gcloud\S*|\.bash_history|\.zsh_history|\.python_history|\.gnupg\S*"
    r"|\.vault-token|etc/(?:shadow|passwd|sudoers)|proc/\w+/environ"
    r"|\S*\.env(?:\.\w+)?|\S*id_(?:rsa|dsa|ecdsa|ed25519)\S*|\S*\.pem|\S*\.p12|\S*\.key)"
    r"(?=$|[\s'\")])",
    re.IGNORECASE,
)
_HOME = re.compile(r"^(?:~|~/|\$\{?HOME\}?/?|/root/?|/home/?(?:[^/\s]+/?)?|/)$")
_PERSISTENT = re.compile(
    r"(?:^|/)(?:\.(?:bash(?:rc|_profile|_login|_logout)|profile|zshrc|zprofile|zshenv|zlogin"
    r"|xinitrc|xprofile|kshrc|cshrc|tcshrc|inputrc)"
    r"|\.config/fish/config\.fish|\.config/autostart/\S+|\.config/systemd/\S+"
    r"|etc/(?:profile(?:\.d/\S*)?|bash\.bashrc|environment|rc\.local|cron\S*|systemd/\S+"
    r"|sudoers(?:\.d/\S*)?|init\.d/\S+|ld\.so\.preload)"
    r"|var/spool/cron\S*|Library/Launch(?:Agents|Daemons)/\S+"
    r"|\.ssh/(?:authorized_keys|rc)|\.git/hooks/\S+|hooks/(?:pre|post)-\S+"
    r"|\S*(?:site|user)customize\.py|\S+\.pth)$",
    re.IGNORECASE,
)
_SHARED = re.compile(
    r"^(?:/tmp|/var/tmp|/dev/shm|/var/www|/srv|/mnt|/media|/public|\S*public_html)"
)
_LOCAL = re.compile(r"^(?:localhost|127\.\d+\.\d+\.\d+|0\.0\.0\.0|\[?::1\]?)(?::\d+)?$", re.I)
_URL_HOST = re.compile(r"^[a-z][a-z0-9+.-]*://(?:[^@/\s]*@)?([^/:?#\s]+|\[[^\]]+\])", re.I)
_REMOTE_PATH = re.compile(r"^(?:[^@/\s:]+@)?([A-Za-z0-9.-]+|\[[^\]]+\]):(?!//)")
_DEVICE = re.compile(r"^/dev/(?:sd|hd|nvme|xvd|vd|disk|mmcblk)")
_FENCED = re.compile(r"```[\w+-]*\n(.*?)```", re.DOTALL)
_TICKED = re.compile(r"`([^`\n]{3,})`")
_MAX_CODE_CHARS = 20_000


def _remote_host(text: str) -> bool:
    """Whether ``text`` (a URL, ``user@host:path``, ``host:/path`` or a host with a dot)
    names a host other than this one (``name:value`` is no host)."""
    if found := _URL_HOST.match(text):
        host = found[1]
    elif found := _REMOTE_PATH.match(text):
        host = found[1]
        rest = text[found.end() :]
        if "@" not in text.split(":", 1)[0] and "." not in host and not rest.startswith(("/", "~")):
            return False
    else:
        host = text
        if "." not in host:
            return False
    return bool(host) and not _LOCAL.match(host) and not host.startswith(("-", "/", "."))


@dataclass
class _Command:
    """One shell command: its name, arguments (unquoted), and the files it writes and reads
    through redirections."""

    name: str
    args: list[str] = field(default_factory=list)
    writes: list[str] = field(default_factory=list)
    reads: list[str] = field(default_factory=list)
    inner: list[str] = field(default_factory=list)  # command substitutions in its arguments

    @property
    def words(self) -> list[str]:
        return [self.name, *self.args]


@functools.cache
def _parser() -> Any:
    from tree_sitter import Language, Parser
    from tree_sitter_bash import language

    return Parser(Language(language()))


def _unquote(text: str) -> str:
    try:
        parts = shlex.split(text, posix=True)
    except ValueError:
        return text.strip("'\"")
    return " ".join(parts) if parts else text


def _commands(node: Any, source: bytes) -> Iterator[list[_Command]]:
    """The pipelines under ``node`` (a lone command is a pipeline of one), in order."""
    kind = node.type
    if kind == "pipeline":
        stages = [c for child in node.named_children for c in _stage(child, source)]
        if stages:
            yield stages
        return
    if kind in ("command", "redirected_statement", "declaration_command"):
        stages = _stage(node, source)
        if stages:
            yield stages
        if kind != "redirected_statement":
            return
    for child in node.named_children:
        yield from _commands(child, source)


def _text(node: Any, source: bytes) -> str:
    return source[node.start_byte : node.end_byte].decode("utf-8", "replace")


def _stage(node: Any, source: bytes) -> list[_Command]:
    """The commands of one pipeline stage (a subshell or group may hold several)."""
    if node.type == "redirected_statement":
        body = node.child_by_field_name("body")
        commands = _stage(body, source) if body is not None else []
        for redirect in node.children_by_field_name("redirect"):
            _redirect(redirect, source, commands)
        return commands
    if node.type in ("command", "declaration_command"):
        name_node = node.child_by_field_name("name")
        if node.type == "declaration_command":
            name = _text(node.children[0], source)
        else:
            name = _unquote(_text(name_node, source)) if name_node is not None else ""
        command = _Command(name=name.rsplit("/", 1)[-1])
        for child in node.children:
            if child is name_node or child.type in ("command_name",):
                continue
            if child.type == "file_redirect":
                _redirect(child, source, [command])
            elif child.is_named and child.type != "variable_assignment":
                command.args.append(_unquote(_text(child, source)))
                command.inner += [
                    _text(sub, source)[2:-1]
                    for sub in _descendants(child)
                    if sub.type in ("command_substitution", "process_substitution")
                ]
        return [command]
    return [c for pipeline in _commands(node, source) for c in pipeline]


def _descendants(node: Any) -> Iterator[Any]:
    for child in node.named_children:
        yield child
        yield from _descendants(child)


def _redirect(node: Any, source: bytes, commands: list[_Command]) -> None:
    if not commands:
        return
    text = _text(node, source)
    target = node.child_by_field_name("destination")
    where = _unquote(_text(target, source)) if target is not None else ""
    if text.lstrip("0123456789&").startswith(("<", "<<<")) and not text.startswith("<<"):
        commands[0].reads.append(where)
    elif ">" in text:
        commands[-1].writes.append(where)


def _shell_effects(script: str, depth: int = 0) -> set[str]:
    """The harmful effects of a shell script (see the module docstring)."""
    if depth > 3 or not script.strip():
        return set()
    source = script.encode("utf-8", "replace")[:_MAX_CODE_CHARS]
    tree = _parser().parse(source)
    found: set[str] = set()
    fetched_files: set[str] = set()
    for pipeline in _commands(tree.root_node, source):
        found |= _pipeline_effects(pipeline, fetched_files, depth)
    return found


def _sends(command: _Command) -> bool:
    """Whether a command sends data to a host other than this one."""
    name, args = command.name, command.args
    if any(w.startswith("/dev/tcp/") or w.startswith("/dev/udp/") for w in command.writes):
        return True
    remote = any(_remote_host(a) for a in args)
    if name in _FETCHERS:
        data = any(
            a in ("-d", "-F", "-T", "--form", "--upload-file", "--post-data", "--post-file",
                  "--body-file", "--body-data", "--json", "--data-urlencode", "--data-binary",
                  "--data-raw", "--data")
            or a.startswith(("--data", "--post-", "--upload", "--form", "--json", "-d@", "-F"))
            or a.upper() in ("POST", "PUT", "PATCH", "--METHOD=POST", "--METHOD=PUT")
            for a in args
        )  # fmt: skip
        return remote and data
    if name == "openssl":
        return "s_client" in args and remote
    if name in _SOCKETS or name in _MAILERS:
        return (
            name in _MAILERS
            or remote
            or any(re.fullmatch(r"\d{1,3}(\.\d{1,3}){3}", a) for a in args)
        )
    if name in _COPIERS:
        return any(_remote_host(a) for a in args[1:] if ":" in a)
    if name == "ssh":
        return remote
    return False


def _touches_secret(words: list[str]) -> bool:
    return any(_SENSITIVE.search(f" {w} ") or _HOME.match(w) for w in words)


def _written(command: _Command) -> list[str]:
    """The files a command writes: its redirections, ``tee``'s, ``sed -i``'s and a copy's
    target."""
    name, args = command.name, command.args
    targets = list(command.writes)
    if name == "tee":
        targets += [a for a in args if not a.startswith("-")]
    if name == "sed" and any(a.startswith("-i") for a in args):
        targets += args[-1:]
    if name in ("cp", "mv", "install", "ln", "rsync") and len(args) >= 2:
        targets.append(args[-1])
    return targets


def _persists(command: _Command) -> bool:
    """Whether a command writes a start-up file or registers a job, a hook or an alias."""
    name, args = command.name, command.args
    joined = " ".join(args)
    return (
        any(_PERSISTENT.search(t) for t in _written(command))
        or (name == "crontab" and any(a == "-" or not a.startswith("-") for a in args))
        or name in _SCHEDULERS
        or (name == "systemctl" and "enable" in args)
        or (
            name == "git"
            and "config" in args
            and ("core.hookspath" in joined.lower() or bool(re.search(r"alias\.\S+\s+!", joined)))
        )
    )


def _destroys(command: _Command) -> bool:
    """Whether a command removes the root or home folder, overwrites a disk or opens the
    whole tree to everyone."""
    name, args = command.name, command.args
    recursive = any(a.startswith("-") and ("r" in a.lower() or a == "--recursive") for a in args)
    everything = any(_HOME.match(a) or a in ("/*", "~/*", "$HOME/*") for a in args)
    return (
        (name == "rm" and recursive and (everything or "--no-preserve-root" in args))
        or name.startswith("mkfs")
        or (name == "dd" and any(a.startswith("of=") and _DEVICE.match(a[3:]) for a in args))
        or any(_DEVICE.match(w) for w in command.writes)
        or (name in ("chmod", "chown") and "-R" in args and everything)
    )


def _stages_secret(command: _Command) -> bool:
    """Whether a command copies a secret to a shared place."""
    if command.name not in ("cp", "mv", "install", "ln", "rsync") or len(command.args) < 2:
        return False
    sources = [a for a in command.args[:-1] if not a.startswith("-")]
    return _touches_secret(sources) and bool(_SHARED.match(command.args[-1]))


def _runs_inner(command: _Command, depth: int) -> set[str]:
    """The effects of code a command carries: its command substitutions, ``sh -c`` and
    ``python -c`` strings, and what running fetched code inside them means."""
    found: set[str] = set()
    for inner in command.inner:
        found |= _shell_effects(inner, depth + 1)
        words = inner.split()
        if words and words[0] in _FETCHERS and command.name in _INTERPRETERS:
            found.add("remote-exec")  # bash <(curl ...), eval "$(curl ...)"
        secret = words and (words[0] in _ENV_DUMPS or _touches_secret(words))
        if secret and _sends(command):
            found.add("exfiltration")
    args = command.args
    code = args[args.index("-c") + 1] if "-c" in args[:-1] else ""
    if command.name in ("sh", "bash", "zsh", "dash"):
        found |= _shell_effects(code, depth + 1)
    if command.name.startswith("python"):
        found |= _python_effects(code, depth + 1)
    return found


def _reads_secret(command: _Command) -> bool:
    """Whether a command puts secrets on its output: the environment, or a secret file."""
    name, args = command.name, command.args
    if name in _ENV_DUMPS and not any(a.startswith(("-", "PATH=")) and a != "-p" for a in args):
        return True
    return (name in _READERS or bool(command.reads)) and _touches_secret(args + command.reads)


def _pipeline_effects(pipeline: list[_Command], fetched: set[str], depth: int) -> set[str]:
    found: set[str] = set()
    secret_flowing = False  # secrets read upstream flow down the pipeline
    for index, command in enumerate(pipeline):
        name, args = command.name, command.args
        found |= _runs_inner(command, depth)
        secret_flowing = secret_flowing or _reads_secret(command)
        if _sends(command) and (secret_flowing or _touches_secret(args)):
            found.add("exfiltration")
        if _stages_secret(command):
            found.add("exfiltration")
        upstream = pipeline[index - 1].name if index else ""
        if name in _INTERPRETERS and (upstream in _FETCHERS or upstream == "base64"):
            found.add("remote-exec")  # fetched or decoded code run
        if name in _FETCHERS:
            outputs = [args[args.index(f) + 1] for f in ("-o", "-O", "--output") if f in args[:-1]]
            fetched.update([*outputs, *command.writes])
        ran = args[0] if name in _INTERPRETERS and args else name
        if ran.lstrip("./") in {f.lstrip("./") for f in fetched}:
            found.add("remote-exec")
        if _persists(command):
            found.add("persistence")
        if _destroys(command):
            found.add("destructive")
    return found


# -- Python ----------------------------------------------------------------------------------

_PY_SENDERS = re.compile(
    r"(?:^|\.)(?:post|put|patch|urlopen|Request|request|sendall|send|sendto|sendmail|"
    r"send_message|upload\w*|storbinary|create_connection)$"
)
_PY_SHELL = re.compile(
    r"(?:^|\.)(?:system|popen|run|call|check_call|check_output|Popen|spawn\w*|exec[lv]p?e?)$"
)
_PY_DECODERS = re.compile(
    r"(?:b64decode|b32decode|b16decode|a2b_base64|unhexlify|fromhex|decompress|decode|urlopen|get|read|text|content|loads)"
)


def _name(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_name(node.value)}.{node.attr}"
    if isinstance(node, ast.Call):
        return _name(node.func)
    return ""


def _strings(node: ast.AST) -> list[str]:
    """Every string the expression holds, ``expanduser`` and ``Path.home()`` read as ``~``."""
    out = []
    for sub in ast.walk(node):
        if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            out.append(sub.value)
        elif isinstance(sub, ast.Call) and _name(sub).endswith(("Path.home", "home")):
            out.append("~")
    if isinstance(node, ast.BinOp | ast.JoinedStr | ast.Call):
        joined = "".join(s for s in out)
        if joined:
            out.append(joined)
            out.append(
                "~/" + "/".join(s.strip("/") for s in out if s not in ("~",))
                if "~" in out
                else joined
            )
    return out


def _secret_in(node: ast.AST) -> bool:
    for sub in ast.walk(node):
        name = _name(sub) if isinstance(sub, ast.Attribute | ast.Name | ast.Call) else ""
        if name.endswith(("os.environ", "environ")) or name in ("os.environ.copy", "environ.copy"):
            return True
        secret_name = any(re.search(r"(?i)key|token|secret|pass|cred", s) for s in _strings(sub))
        if isinstance(sub, ast.Call) and name.endswith(("getenv", "environ.get")) and secret_name:
            return True
    return _touches_secret(_strings(node))


_MAX_NESTING = 50


def _nesting(source: str) -> int:
    """How deep brackets nest in ``source`` (linear time)."""
    depth = deepest = 0
    for ch in source:
        if ch in "([{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in ")]}":
            depth = max(depth - 1, 0)
    return deepest


def _python_effects(source: str, depth: int = 0) -> set[str]:
    """The harmful effects of a Python snippet (see the module docstring)."""
    if depth > 3 or len(source) > _MAX_CODE_CHARS:
        return set()
    if _nesting(source) > _MAX_NESTING:
        return set()  # no code worth running nests this deep; the parser would not cope
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return set()
    found: set[str] = set()
    secret_vars: set[str] = set()
    for node in ast.walk(tree):  # names bound to secrets: data = open('.env').read()
        if isinstance(node, ast.Assign) and _secret_in(node.value):
            secret_vars |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = _name(node.func)
        everything = [*node.args, *(k.value for k in node.keywords)]
        strings = [s for arg in everything for s in _strings(arg)]
        carries_secret = any(_secret_in(a) for a in everything) or any(
            isinstance(sub, ast.Name) and sub.id in secret_vars
            for a in everything
            for sub in ast.walk(a)
        )
        if _PY_SHELL.search(name) and (
            name.startswith(("os.", "subprocess.", "pty.", "commands."))
            or name in ("system", "popen", "run", "Popen", "call", "check_output")
        ):
            for text in strings:
                found |= _shell_effects(text, depth + 1)
            if node.args and isinstance(node.args[0], ast.List | ast.Tuple):
                words = [s for e in node.args[0].elts for s in _strings(e)[:1]]
                found |= _shell_effects(shlex.join(words), depth + 1)
        if name in ("exec", "eval", "builtins.exec", "builtins.eval") and node.args:
            inner = node.args[0]
            calls = [_name(c) for c in ast.walk(inner) if isinstance(c, ast.Call)]
            if any(_PY_DECODERS.search(c) for c in calls) or isinstance(inner, ast.Attribute):
                found.add("remote-exec")
            for text in _strings(inner):
                found |= _python_effects(text, depth + 1)
        if _PY_SENDERS.search(name):
            remote = any(_remote_host(s) for s in strings) or not any("://" in s for s in strings)
            if carries_secret and remote and not any(_LOCAL.match(s) for s in strings):
                found.add("exfiltration")
        if (
            name.endswith(("copy", "copy2", "copyfile", "copytree", "move", "symlink", "link"))
            and len(node.args) >= 2
        ):
            source_strings, target_strings = _strings(node.args[0]), _strings(node.args[1])
            if _touches_secret(source_strings) and any(_SHARED.match(t) for t in target_strings):
                found.add("exfiltration")
            if any(_PERSISTENT.search(t) for t in target_strings):
                found.add("persistence")
        if name.endswith("write") or name.endswith(("write_text", "write_bytes")):
            target = node.func.value if isinstance(node.func, ast.Attribute) else None
            paths = _strings(target) if target is not None else []
            if any(_PERSISTENT.search(p) for p in paths):
                found.add("persistence")
        if name in ("open", "io.open", "builtins.open") and node.args:
            modes = [s for s in _strings(node.args[1])] if len(node.args) > 1 else []
            modes += [s for k in node.keywords if k.arg == "mode" for s in _strings(k.value)]
            if any(set(m) & {"w", "a", "x", "+"} for m in modes) and any(
                _PERSISTENT.search(p) for p in _strings(node.args[0])
            ):
                found.add("persistence")
        if name.endswith(("rmtree",)) and any(_HOME.match(s) for s in strings):
            found.add("destructive")
    return found


# what a piece of code that does any of the above shows: a shell operator, a command or call
# that reads, writes, sends or runs (prose without one is not parsed at all)
_CODE_SIGN = re.compile(
    r"[|;&<>`]|\$[({A-Za-z]|@-|\b(?:curl|wget|fetch|nc|ncat|netcat|socat|telnet|scp|rsync|sftp"
    r"|ssh|mail|sendmail|crontab|systemctl|launchctl|git|rm|dd|mkfs\w*|chmod|chown|tee|cp|mv"
    r"|install|ln|sed|tar|eval|exec|env|printenv|bash|sh|zsh|python\d?|perl|ruby|node"
    r"|open|os|subprocess|requests|httpx|urllib|socket|shutil|smtplib|base64|pathlib|Path)\b"
)


def _segments(text: str) -> list[str]:
    """Where code may sit in a memory: its fenced blocks, backticked spans, each line, and the
    whole text; only those showing a sign of code."""
    pieces = [m.group(1) for m in _FENCED.finditer(text)]
    pieces += [m.group(1) for m in _TICKED.finditer(text)]
    pieces += [line for line in text.splitlines() if len(line.strip()) > 3]
    pieces.append(text)
    return list(dict.fromkeys(p for p in pieces if p.strip() and _CODE_SIGN.search(p)))


def code_effects(text: str) -> tuple[str, ...]:
    """The harmful effects of the code in ``text`` (:data:`CODE_EFFECTS`), in that order."""
    if len(text) > 4 * _MAX_CODE_CHARS:
        text = text[: 4 * _MAX_CODE_CHARS]
    found: set[str] = set()
    for piece in _segments(text):
        found |= _python_effects(piece)
        found |= _shell_effects(piece)
    return tuple(effect for effect in CODE_EFFECTS if effect in found)
