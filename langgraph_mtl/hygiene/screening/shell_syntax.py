"""Shell read as commands: tree-sitter's bash grammar parses a script into pipelines of
:class:`Command` (its name, arguments, redirections, the text fed to it and the command
substitutions it holds), with wrappers such as ``sudo`` and ``nohup`` looked through."""

from __future__ import annotations

import functools
import shlex
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

__all__ = ["WRAPPERS", "Command", "detaches", "parse", "pipelines", "substitutions", "unquote"]

# commands that run the command after their own options: the judge reads that command
WRAPPERS = {
    "sudo", "doas", "nohup", "setsid", "env", "time", "nice", "ionice", "exec", "command",
    "builtin", "stdbuf", "timeout", "chronic", "caffeinate",
}  # fmt: skip
# wrappers that leave what they run going after the shell that started it has gone
_DETACHING = {"nohup", "setsid", "disown", "daemon", "daemonize", "at", "batch"}
# the options of a wrapper that take a value ("sudo -u ci make", "timeout 5 cmd")
_VALUED = {"-u", "-g", "-C", "-D", "-h", "-p", "-n", "-c", "-s", "-k", "-o", "-e", "-i"}


@dataclass
class Command:
    """One shell command: its name (the last part of the path it was run by), arguments
    (unquoted), the files it writes and reads through redirections, the text given on its
    input (a here-document or here-string), the wrappers it was run under and the command
    substitutions in its arguments."""

    name: str
    path: str = ""
    args: list[str] = field(default_factory=list)
    writes: list[str] = field(default_factory=list)
    reads: list[str] = field(default_factory=list)
    given: list[str] = field(default_factory=list)
    wrappers: list[str] = field(default_factory=list)
    inner: list[str] = field(default_factory=list)

    @property
    def words(self) -> list[str]:
        return [self.name, *self.args]


@functools.cache
def _parser() -> Any:
    from tree_sitter import Language, Parser
    from tree_sitter_bash import language

    return Parser(Language(language()))


def parse(source: bytes) -> Any:
    """The syntax tree of a script."""
    return _parser().parse(source)


def unquote(text: str) -> str:
    try:
        parts = shlex.split(text, posix=True)
    except ValueError:
        return text.strip("'\"")
    return " ".join(parts) if parts else text


def pipelines(node: Any, source: bytes) -> Iterator[list[Command]]:
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
        yield from pipelines(child, source)


def detaches(node: Any, commands: list[Command]) -> bool:
    """Whether a script leaves something running on its own: a command sent to the
    background (``&``) or run under a wrapper that detaches it."""
    background = any(n.type == "&" for n in _all_nodes(node))
    return background or any(
        c.name in _DETACHING
        or set(c.wrappers) & _DETACHING
        or (c.name == "screen" and any(a.startswith("-d") for a in c.args))
        or (c.name == "tmux" and "-d" in c.args)
        for c in commands
    )


def substitutions(node: Any, source: bytes) -> list[str]:
    """The code of every command substitution under ``node``, assignments' included."""
    kinds = ("command_substitution", "process_substitution")
    return [_text(n, source)[2:-1] for n in _all_nodes(node) if n.type in kinds]


def _all_nodes(node: Any) -> Iterator[Any]:
    for child in node.children:
        yield child
        yield from _all_nodes(child)


def _text(node: Any, source: bytes) -> str:
    return source[node.start_byte : node.end_byte].decode("utf-8", "replace")


def _stage(node: Any, source: bytes) -> list[Command]:
    """The commands of one pipeline stage (a subshell or group may hold several)."""
    if node.type == "redirected_statement":
        body = node.child_by_field_name("body")
        commands = _stage(body, source) if body is not None else []
        for redirect in node.children_by_field_name("redirect"):
            _redirect(redirect, source, commands)
        after = node.next_sibling
        if commands and _begins_here_document(after):
            commands[0].given.append("")  # a here-document begun on a line read alone
        return commands
    if node.type in ("command", "declaration_command"):
        return [_command(node, source)]
    return [c for pipeline in pipelines(node, source) for c in pipeline]


def _begins_here_document(node: Any) -> bool:
    return (
        node is not None
        and node.type == "ERROR"
        and any(c.type == "heredoc_start" for c in node.children)
    )


def _command(node: Any, source: bytes) -> Command:
    name_node = node.child_by_field_name("name")
    if node.type == "declaration_command":
        name = _text(node.children[0], source)
    else:
        name = unquote(_text(name_node, source)) if name_node is not None else ""
    command = Command(name=name.rsplit("/", 1)[-1], path=name)
    for child in node.children:
        if child is name_node or child.type in ("command_name",):
            continue
        if child.type in ("file_redirect", "heredoc_redirect"):
            _redirect(child, source, [command])
        elif child.type == "herestring_redirect":
            command.given += [unquote(_text(c, source)) for c in child.named_children]
            command.inner += substitutions(child, source)
        elif child.is_named and child.type != "variable_assignment":
            command.args.append(unquote(_text(child, source)))
            command.inner += [
                _text(sub, source)[2:-1]
                for sub in _descendants(child)
                if sub.type in ("command_substitution", "process_substitution")
            ]
    return _unwrapped(command)


def _unwrapped(command: Command) -> Command:
    """The command a wrapper runs (``sudo -u ci tee f`` is ``tee f`` run under ``sudo``)."""
    while command.name in WRAPPERS and command.args:
        args, wrapper = list(command.args), command.name
        while args and (args[0].startswith("-") or "=" in args[0] or args[0].isdigit()):
            option = args.pop(0)
            if option in _VALUED and args and wrapper not in ("env", "nohup", "setsid"):
                args.pop(0)
        if not args:
            break
        command.wrappers.append(wrapper)
        command.path, command.args = args[0], args[1:]
        command.name = command.path.rsplit("/", 1)[-1]
    return command


def _descendants(node: Any) -> Iterator[Any]:
    for child in node.named_children:
        yield child
        yield from _descendants(child)


def _redirect(node: Any, source: bytes, commands: list[Command]) -> None:
    if not commands:
        return
    if node.type == "heredoc_redirect":
        # a here-document's body; on a line read alone the body lies in the lines after it,
        # which are read with it in the whole text
        bodies = [_text(c, source) for c in node.children if c.type == "heredoc_body"]
        commands[0].given += bodies or [""]
        return
    text = _text(node, source)
    target = node.child_by_field_name("destination")
    where = unquote(_text(target, source)) if target is not None else ""
    if text.lstrip("0123456789&").startswith(("<", "<<<")) and not text.startswith("<<"):
        commands[0].reads.append(where)
    elif ">" in text:
        commands[-1].writes.append(where)
