"""Shell judged by what it runs (see :mod:`.code_effects`): parsed with tree-sitter's bash
grammar into pipelines of commands, each command's redirections and command substitutions
kept, and the strings it runs (``sh -c``, ``eval``) parsed in turn."""

from __future__ import annotations

import functools
import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from langgraph_mtl.hygiene.screening.code_targets import (
    HOME,
    MAX_CODE_CHARS,
    PERSISTENT,
    SHARED,
    remote_host,
    touches_secret,
)

__all__ = ["shell_effects"]

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

_DEVICE = re.compile(r"^/dev/(?:sd|hd|nvme|xvd|vd|disk|mmcblk)")


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


def shell_effects(script: str, depth: int = 0) -> set[str]:
    """The harmful effects of a shell script (see the module docstring)."""
    if depth > 3 or not script.strip():
        return set()
    source = script.encode("utf-8", "replace")[:MAX_CODE_CHARS]
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
    remote = any(remote_host(a) for a in args)
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
        return any(remote_host(a) for a in args[1:] if ":" in a)
    if name == "ssh":
        return remote
    return False


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


# a setting that only names values: NAME=value, export NAME=value, with variables but no
# command run in it; the names that make the shell run something are not settings
_SETTING = re.compile(
    r"^\s*(?:export\s+)?(?!(?:LD_PRELOAD|LD_AUDIT|BASH_ENV|ENV|PROMPT_COMMAND|PS[0-4]|"
    r"SHELLOPTS|IFS)=)[A-Za-z_][A-Za-z0-9_]*=[^`;|&<>]*\s*$"
)
_SHARED_DIR = re.compile(r"(?:^|[:=\s\"'])(?:/tmp|/var/tmp|/dev/shm)\b")
# an alias that only abbreviates a command: alias ll='ls -la'; one that wraps a command run
# with privileges, runs a path, chains, substitutes or reaches into a hidden folder
# (alias sudo='sudo -E', alias g='python3 ~/.s.py') is no setting
_ALIAS = re.compile(
    r"^\s*alias\s+(?!(?:sudo|su|doas|pkexec|run0)=)[\w.-]+=(['\"]?)([^'\"`;|&<>$()]*)\1\s*$"
)
_HIDDEN_PATH = re.compile(r"(?:^|\s)(?:~|\$HOME|\$\{HOME\})?/?(?:[^\s/]+/)*\.[^\s/.]")


def _setting_line(line: str) -> bool:
    """Whether a start-up file's line only sets a value or abbreviates a command."""
    if _SETTING.match(line):
        return "$(" not in line and not _SHARED_DIR.search(line)
    alias = _ALIAS.match(line)
    if alias is None:
        return False
    words = alias.group(2).split()
    return bool(words) and "/" not in words[0] and not _HIDDEN_PATH.search(alias.group(2))


def _only_settings(command: _Command) -> bool:
    """Whether a command only writes settings (``echo 'export PATH=$HOME/bin:$PATH' >>
    ~/.bashrc``): an ``echo`` or ``printf`` whose every line names values, none of them in a
    folder everyone can write, or abbreviates a command."""
    if command.name not in ("echo", "printf") or command.inner:
        return False
    lines = [a for a in command.args if not a.startswith("-")]
    text = "\n".join(lines).replace("\\n", "\n")
    return bool(text.strip()) and all(
        _setting_line(line) for line in text.splitlines() if line.strip()
    )


def _persists(command: _Command) -> bool:
    """Whether a command writes a start-up file (other than with settings that only name
    values) or registers a job, a hook or an alias."""
    name, args = command.name, command.args
    joined = " ".join(args)
    written = any(PERSISTENT.search(t) for t in _written(command))
    return (
        (written and not _only_settings(command))
        or (name == "crontab" and any(a == "-" or not a.startswith("-") for a in args))
        or name in _SCHEDULERS
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
    everything = any(HOME.match(a) or a in ("/*", "~/*", "$HOME/*") for a in args)
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
    return touches_secret(sources) and bool(SHARED.match(command.args[-1]))


def _runs_inner(command: _Command, depth: int) -> set[str]:
    """The effects of code a command carries: its command substitutions, ``sh -c`` and
    ``python -c`` strings, and what running fetched code inside them means."""
    found: set[str] = set()
    for inner in command.inner:
        found |= shell_effects(inner, depth + 1)
        words = inner.split()
        if words and words[0] in _FETCHERS and command.name in _INTERPRETERS:
            found.add("remote-exec")  # bash <(curl ...), eval "$(curl ...)"
        secret = words and (words[0] in _ENV_DUMPS or touches_secret(words))
        if secret and _sends(command):
            found.add("exfiltration")
    args = command.args
    code = args[args.index("-c") + 1] if "-c" in args[:-1] else ""
    if command.name in ("sh", "bash", "zsh", "dash"):
        found |= shell_effects(code, depth + 1)
    if command.name.startswith("python"):
        # Python's judge parses the shell it runs in turn: imported here, not at the top
        from langgraph_mtl.hygiene.screening.python_effects import python_effects

        found |= python_effects(code, depth + 1)
    return found


def _reads_secret(command: _Command) -> bool:
    """Whether a command puts secrets on its output: the environment, or a secret file."""
    name, args = command.name, command.args
    if name in _ENV_DUMPS and not any(a.startswith(("-", "PATH=")) and a != "-p" for a in args):
        return True
    return (name in _READERS or bool(command.reads)) and touches_secret(args + command.reads)


def _pipeline_effects(pipeline: list[_Command], fetched: set[str], depth: int) -> set[str]:
    found: set[str] = set()
    secret_flowing = False  # secrets read upstream flow down the pipeline
    for index, command in enumerate(pipeline):
        name, args = command.name, command.args
        found |= _runs_inner(command, depth)
        secret_flowing = secret_flowing or _reads_secret(command)
        if _sends(command) and (secret_flowing or touches_secret(args)):
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
