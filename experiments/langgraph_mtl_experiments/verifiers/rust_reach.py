"""What a Rust solution may name: nothing that reaches outside the computation it is asked for.

The tests run in the solution's process, so a solution that could read its own binary, list its
own tests or stop the process could print libtest's lines itself. Those reaches all go through
a few names (the ``fs``, ``process``, ``env``, ``os`` and ``net`` modules, ``unsafe``, foreign
code, files included at build time); a macro cannot make an identifier it is not given, so a
solution without those names in its code (comments and literals aside) cannot forge a pass.
"""

from __future__ import annotations

import re

__all__ = ["FORBIDDEN", "forbidden_names"]

FORBIDDEN = (
    "fs",
    "process",
    "env",
    "os",
    "net",
    "unsafe",
    "extern",
    "asm",
    "global_asm",
    "include",
    "include_str",
    "include_bytes",
    "option_env",
    "no_mangle",
    "export_name",
    "link_section",
)
_NAME = re.compile(r"(?<![\w#])(?:r#)?(" + "|".join(FORBIDDEN) + r")(?!\w)")
_CHAR = re.compile(r"""b?'(?:[^'\\\n]|\\(?:[nrt0\\'"]|x[0-9a-fA-F]{2}|u\{[0-9a-fA-F]{1,6}\}))'""")
_RAW = re.compile(r'(?:b|c)?r(#*)"')


def _inside_word(text: str, i: int) -> bool:
    """Whether position ``i`` continues an identifier (``br"`` in ``abr"`` is no literal)."""
    return i > 0 and (text[i - 1].isalnum() or text[i - 1] == "_")


def _code(text: str) -> str | None:
    """``text`` with comments and string and character literals blanked, or ``None`` when it
    does not lex (an unterminated comment or literal)."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        if text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif text.startswith("/*", i):
            depth, i = 1, i + 2
            while depth and i < n:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    i += 1
            if depth:
                return None
        elif (raw := _RAW.match(text, i)) and not _inside_word(text, i):
            close = '"' + raw.group(1)
            end = text.find(close, raw.end())
            if end < 0:
                return None
            i = end + len(close)
        elif text[i] == '"' or (text[i] in "bc" and text.startswith('"', i + 1)):
            i = text.index('"', i) + 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
            if i >= n:
                return None
            i += 1
        elif (char := _CHAR.match(text, i)) and not _inside_word(text, i):
            i = char.end()
        else:
            out.append(text[i])
            i += 1
            continue
        out.append(" ")
    return "".join(out)


def forbidden_names(text: str) -> list[str]:
    """The forbidden names the solution's code uses (all of them when it does not lex)."""
    code = _code(text)
    if code is None:
        return ["an unterminated comment or literal"]
    return sorted({match.group(1) for match in _NAME.finditer(code)})
