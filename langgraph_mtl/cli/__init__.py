"""The ``mtl`` command: solve tasks with memory transfer, inspect the pool, serve the local model;
installed packages add command groups through the ``langgraph_mtl.cli`` entry points (the
experiment harness adds ``mtl experiment``). Heavy modules load inside the commands, so
``mtl --help`` is quick."""

from __future__ import annotations

import logging
import os
import sys
from importlib.metadata import entry_points

import typer

from langgraph_mtl.cli.agent_commands import register
from langgraph_mtl.cli.errors import CliError, describe
from langgraph_mtl.cli.pool_commands import pool_app

__all__ = ["app", "build_app", "main"]

HARNESS_HINT = (
    "mtl experiment comes with the experiment harness, which is not installed: from a checkout "
    "of this repository, run `pip install -e . -e ./experiments` (or `make test`)"
)


def _add_plugins(target: typer.Typer) -> None:
    """Command groups of installed packages (entry point group ``langgraph_mtl.cli``)."""
    names = set()
    for entry in entry_points(group="langgraph_mtl.cli"):
        target.add_typer(entry.load(), name=entry.name)
        names.add(entry.name)
    if "experiment" not in names:

        @target.command(
            "experiment",
            context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
            help="Transfer experiments (needs the experiment harness).",
        )
        def experiment() -> None:
            raise CliError(HARNESS_HINT, code=2)


_APP: list[typer.Typer] = []


def build_app() -> typer.Typer:
    """The ``mtl`` application with the command groups of installed packages, made on first
    use (loading a plugin imports it, which importing this package must not do)."""
    if not _APP:
        made = typer.Typer(
            help="Memory Transfer Learning for coding agents. Add --debug to any command for a "
            "traceback.",
            no_args_is_help=True,
            pretty_exceptions_enable=False,
            rich_markup_mode="markdown",  # a help paragraph joins its lines
        )
        register(made)
        made.add_typer(pool_app, name="pool")
        _add_plugins(made)
        _APP.append(made)
    return _APP[0]


def __getattr__(name: str) -> typer.Typer:
    if name == "app":
        return build_app()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main(argv: list[str] | None = None) -> int:
    """Run ``mtl`` with ``argv`` (default: the process arguments); returns the exit status.

    A user error prints one or two lines and exits 2 (usage) or 1 (failure); ``--debug``, given
    anywhere, shows the traceback instead.
    """
    args = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in args
    args = [a for a in args if a != "--debug"]
    logging.basicConfig(level=os.environ.get("MTL_LOG_LEVEL", "WARNING"), stream=sys.stderr)
    logging.getLogger("httpx").setLevel(logging.WARNING)
    from langgraph_mtl.tracing import configure_tracing

    configure_tracing()
    try:
        status = build_app()(args=args, prog_name="mtl", standalone_mode=False)
    except typer.TyperException as exc:  # a usage error found while parsing the arguments
        if debug:
            raise
        ctx = getattr(exc, "ctx", None)
        where = f" (see `{ctx.command_path} --help`)" if ctx is not None else ""
        print(f"mtl: error: {exc.format_message()}{where}", file=sys.stderr)
        return int(getattr(exc, "exit_code", 2))
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except (KeyboardInterrupt, typer.Abort):
        print("mtl: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:
        if debug:
            raise
        message, code = describe(exc)
        print(f"mtl: error: {message}", file=sys.stderr)
        said = isinstance(exc, CliError) or message.startswith("no ") or "--debug" in message
        if code == 1 and not said:  # a message written for the user needs no traceback
            print("mtl: (run again with --debug for the traceback)", file=sys.stderr)
        return code
    return status if isinstance(status, int) else 0
