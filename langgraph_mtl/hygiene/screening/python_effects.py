"""Python judged by what it does (see :mod:`.code_effects`): parsed with ``ast``; a call that
sends, copies or writes is judged by its arguments, and the strings it runs (``os.system``,
``subprocess``, ``exec``) are parsed as shell or Python in turn."""

from __future__ import annotations

import ast
import re
import shlex
import warnings

from langgraph_mtl.hygiene.screening.code_targets import (
    HOME,
    LOCAL,
    MAX_CODE_CHARS,
    PERSISTENT,
    SHARED,
    remote_host,
    touches_secret,
)
from langgraph_mtl.hygiene.screening.shell_effects import shell_effects, writes_foothold

__all__ = ["python_effects"]

_PY_SENDERS = re.compile(
    r"(?:^|\.)(?:post|put|patch|urlopen|Request|request|sendall|send|sendto|sendmail|"
    r"send_message|upload\w*|storbinary|create_connection)$"
)
# a GET sends too, what is put in its address or its parameters (a token in its headers is
# how the token's own service is asked)
_PY_GETTERS = re.compile(r"(?:^|\.)(?:requests|httpx|session|client|http)\.(?:get|head|options)$")
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
    return touches_secret(_strings(node))


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


def _shown_writes(tree: ast.AST) -> tuple[dict[int, str], set[int]]:
    """The writes whose text is a literal, on a file opened in the same expression
    (``open(p, "a").write("...")``, ``Path(p).write_text("...")``): each write's id with its
    text, and the ids of the calls that opened those files (judged at the write)."""
    texts: dict[int, str] = {}
    receivers: set[int] = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("write", "write_text")
            and isinstance(node.func.value, ast.Call)
            and len(node.args) == 1
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            texts[id(node)] = node.args[0].value
            receivers.add(id(node.func.value))
    return texts, receivers


def python_effects(source: str, depth: int = 0) -> set[str]:
    """The harmful effects of a Python snippet (see the module docstring)."""
    if depth > 3 or len(source) > MAX_CODE_CHARS:
        return set()
    if _nesting(source) > _MAX_NESTING:
        return set()  # no code worth running nests this deep; the parser would not cope
    try:
        with warnings.catch_warnings():  # a memory's odd literal ("1st") is not worth a line
            warnings.simplefilter("ignore", SyntaxWarning)
            tree = ast.parse(source)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return set()
    found: set[str] = set()
    secret_vars: set[str] = set()
    for node in ast.walk(tree):  # names bound to secrets: data = open('.env').read()
        if isinstance(node, ast.Assign) and _secret_in(node.value):
            secret_vars |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    shown, opened_for_shown = _shown_writes(tree)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = _name(node.func)
        everything = [*node.args, *(k.value for k in node.keywords)]
        strings = [s for arg in everything for s in _strings(arg)]
        getter = bool(_PY_GETTERS.search(name))
        sent = (
            [*node.args, *(k.value for k in node.keywords if k.arg in ("url", "params"))]
            if getter
            else everything
        )
        carries_secret = any(_secret_in(a) for a in sent) or any(
            isinstance(sub, ast.Name) and sub.id in secret_vars for a in sent for sub in ast.walk(a)
        )
        if _PY_SHELL.search(name) and (
            name.startswith(("os.", "subprocess.", "pty.", "commands."))
            or name in ("system", "popen", "run", "Popen", "call", "check_output")
        ):
            for text in strings:
                found |= shell_effects(text, depth + 1)
            if node.args and isinstance(node.args[0], ast.List | ast.Tuple):
                words = [s for e in node.args[0].elts for s in _strings(e)[:1]]
                found |= shell_effects(shlex.join(words), depth + 1)
        if name in ("exec", "eval", "builtins.exec", "builtins.eval") and node.args:
            inner = node.args[0]
            calls = [_name(c) for c in ast.walk(inner) if isinstance(c, ast.Call)]
            if any(_PY_DECODERS.search(c) for c in calls) or isinstance(inner, ast.Attribute):
                found.add("remote-exec")
            for text in _strings(inner):
                found |= python_effects(text, depth + 1)
        if getter or _PY_SENDERS.search(name):
            remote = any(remote_host(s) for s in strings) or not any("://" in s for s in strings)
            if carries_secret and remote and not any(LOCAL.match(s) for s in strings):
                found.add("exfiltration")
        if (
            name.endswith(("copy", "copy2", "copyfile", "copytree", "move", "symlink", "link"))
            and len(node.args) >= 2
        ):
            source_strings, target_strings = _strings(node.args[0]), _strings(node.args[1])
            if touches_secret(source_strings) and any(SHARED.match(t) for t in target_strings):
                found.add("exfiltration")
            if any(PERSISTENT.search(t) for t in target_strings):
                found.add("persistence")
        if name.endswith("write") or name.endswith(("write_text", "write_bytes")):
            target = node.func.value if isinstance(node.func, ast.Attribute) else None
            paths = _strings(target) if target is not None else []
            content = shown.get(id(node))
            if any(PERSISTENT.search(p) and writes_foothold(p, content, depth) for p in paths):
                found.add("persistence")
        if id(node) in opened_for_shown:
            continue  # an open whose write shows its text is judged at the write
        if name in ("open", "io.open", "builtins.open") and node.args:
            modes = [s for s in _strings(node.args[1])] if len(node.args) > 1 else []
            modes += [s for k in node.keywords if k.arg == "mode" for s in _strings(k.value)]
            if any(set(m) & {"w", "a", "x", "+"} for m in modes) and any(
                PERSISTENT.search(p) for p in _strings(node.args[0])
            ):
                found.add("persistence")
        if name.endswith(("rmtree",)) and any(HOME.match(s) for s in strings):
            found.add("destructive")
    return found
