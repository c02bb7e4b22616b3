"""What the ``mtl`` command says when something goes wrong: one or two lines, never a traceback
(``--debug`` shows one), exit 2 for a usage or configuration error, 1 for a failure."""

from __future__ import annotations

import sqlite3

__all__ = ["CliError", "MissingExtraError", "describe", "require_extra"]

USAGE = 2
FAILURE = 1


class CliError(Exception):
    """An error the command reports as is; ``code`` is the exit status."""

    def __init__(self, message: str, *, code: int = FAILURE) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


class MissingExtraError(CliError):
    """An optional part of the package is not installed."""

    def __init__(self, extra: str, module: str) -> None:
        super().__init__(
            f"this command needs the '{extra}' extra ({module} is missing): "
            f"pip install 'langgraph-mtl[{extra}]'"
        )


def require_extra(extra: str, *modules: str) -> None:
    """Raise :class:`MissingExtraError` unless every module of ``extra`` can be imported."""
    import importlib.util

    for module in modules:
        if importlib.util.find_spec(module) is None:
            raise MissingExtraError(extra, module)


def describe(exc: BaseException) -> tuple[str, int]:
    """A short message and an exit status for an exception that reached the command."""
    from langgraph_mtl.models import ModelSpecError
    from langgraph_mtl.pool.embeddings import EmbedderSpecError
    from langgraph_mtl.pool.location import PoolLocationError, PoolUnavailableError
    from langgraph_mtl.pool.memory_pool import EmbedderMismatchError

    if isinstance(exc, CliError):
        return exc.message, exc.code
    if isinstance(exc, PoolLocationError | ModelSpecError | EmbedderSpecError):
        return str(exc), USAGE
    if isinstance(exc, PoolUnavailableError | EmbedderMismatchError):
        return str(exc), FAILURE
    if isinstance(exc, FileNotFoundError):
        return f"no such file or directory: {exc.filename}", FAILURE
    if isinstance(exc, IsADirectoryError):
        return f"{exc.filename} is a directory; give a file path", FAILURE
    if isinstance(exc, PermissionError):
        return f"permission denied: {exc.filename} (choose a writable location)", FAILURE
    if isinstance(exc, OSError) and exc.errno == 30:  # EROFS
        return f"read-only file system: {exc.filename} (choose a writable location)", FAILURE
    if isinstance(exc, sqlite3.OperationalError) or "readonly database" in str(exc):
        return f"the pool cannot be written here ({_first_line(exc)})", FAILURE
    if isinstance(exc, ImportError) and exc.name:
        return f"{exc.name} is not installed ({_first_line(exc)})", FAILURE
    return f"{type(exc).__name__}: {_first_line(exc)}", FAILURE


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return (text.splitlines()[0] if text else type(exc).__name__)[:300]
