"""Whether a change would leave a Python file that compiled unable to compile (a syntax error,
or a ``break`` outside a loop): such a change is refused before it is written, with the
error and its line, so a slip of indentation or a half-copied block never breaks a module
that worked."""

from __future__ import annotations

import warnings

__all__: list[str] = []  # used within the agent package only


def _error(path: str, text: str) -> SyntaxError | None:
    with warnings.catch_warnings():  # invalid escapes and the like are not this check's
        warnings.simplefilter("ignore")
        try:
            compile(text, path, "exec", dont_inherit=True)  # the parser's and compiler's
        except SyntaxError as error:
            return error
        except (ValueError, RecursionError):  # null bytes, nesting too deep: not judged here
            return None
    return None


def uncompilable_after(path: str, before: str, after: str) -> str | None:
    """Why ``after`` does not parse, with the line it fails at, when ``path`` is a Python
    file whose text ``before`` did; None otherwise (other files, or already broken)."""
    if not path.endswith(".py") or _error(path, before) is not None:
        return None
    error = _error(path, after)
    if error is None:
        return None
    where = error.lineno or 0
    lines = after.splitlines()
    shown = f" (line {where}: `{lines[where - 1].strip()}`)" if 0 < where <= len(lines) else ""
    return f"{error.msg}{shown}"
