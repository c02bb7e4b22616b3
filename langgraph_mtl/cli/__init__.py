"""The ``mtl`` command: solve tasks with memory transfer, inspect the pool, serve the local model,
run experiments. Heavy modules load inside the commands, so ``mtl --help`` is quick."""

from __future__ import annotations

import logging
import os
import sys

import typer

from langgraph_mtl.cli.agent_commands import register
from langgraph_mtl.cli.errors import describe
from langgraph_mtl.cli.experiment_commands import experiment_app
from langgraph_mtl.cli.pool_commands import pool_app

__all__ = ["app", "main"]

app = typer.Typer(
    help="Memory Transfer Learning for coding agents. Add --debug to any command for a traceback.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
register(app)
app.add_typer(pool_app, name="pool")
app.add_typer(experiment_app, name="experiment")


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
        status = app(args=args, prog_name="mtl", standalone_mode=False)
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
        if code == 1 and not message.startswith("no ") and "--debug" not in message:
            print("mtl: (run again with --debug for the traceback)", file=sys.stderr)
        return code
    return status if isinstance(status, int) else 0
