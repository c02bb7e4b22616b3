"""What the ``mtl experiment`` commands share: the names they offer, the console and its
progress display, checks of the sandbox and the domain, and a results directory's records."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console

from langgraph_mtl.agent.edit_format import EDIT_FORMATS
from langgraph_mtl.cli.errors import CliError

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

__all__ = [
    "CONDITION_NAMES",
    "DOMAIN_NAMES",
    "MEMORY_RUNS",
    "SWEEP_NAMES",
    "EditsOpt",
    "RepoStepsOpt",
    "StepsOpt",
    "UnsafeOpt",
    "agent_settings",
    "task_file_domains",
    "commands_of",
    "console",
    "domain_named",
    "progress_bar",
    "record_command",
    "reporter",
    "require_isolation",
]

# named here for --help without importing the experiments; a test keeps them in step
DOMAIN_NAMES = ("python", "rust", "verilog", "shell", "data", "repo", "repo-heldout")
CONDITION_NAMES = (
    "zero-shot",
    "mtl-trajectory",
    "mtl-workflow",
    "mtl-summary",
    "mtl-insight",
    "in-domain-insight",
    "mtl-insight-gated",
    "mtl-trajectory-gated",
    "placebo-insight",
    "mtl-insight-content",
    "mtl-insight-content-no-writes",
    "mtl-insight-old",
)
SWEEP_NAMES = ("pool-size", "source-domains", "retrieval", "abstraction")

# a results directory: written by `run`, read back by `report`
POOL_FOLDER = "pool"
POOL_COLLECTION = "experiment"
POOL_SNAPSHOT = "pool-snapshot.jsonl"
MEMORY_RUNS = "memories.jsonl"  # phase 1's runs, a row each
TASK_LISTS = "tasks.json"

console = Console()


StepsOpt = Annotated[int, typer.Option(min=1, max=100, help="Agent step limit.")]
RepoStepsOpt = Annotated[
    int, typer.Option(min=1, max=100, help="Agent step limit on repository tasks.")
]
EditsOpt = Annotated[
    str, typer.Option(help="How the agent asks for an edit: line_range or search_replace.")
]
UnsafeOpt = Annotated[
    bool,
    typer.Option(
        "--unsafe-no-sandbox",
        help="Run generated code without bubblewrap: NOT isolated (it can read task answers "
        "and change your files).",
    ),
]


def require_isolation(unsafe: bool) -> None:
    """Experiments run generated code: refuse to without bubblewrap unless told to."""
    from langgraph_mtl.agent.sandbox import bubblewrap_available

    if not unsafe and not bubblewrap_available():
        raise CliError(
            "experiments run generated code and must isolate it, but bubblewrap (bwrap) is not "
            "installed or cannot run here: install it (apt install bubblewrap), or pass "
            "--unsafe-no-sandbox to run unisolated",
            code=2,
        )


def domain_named(name: str) -> Any:
    from langgraph_mtl_experiments.domains import get_domain

    try:
        return get_domain(name.strip())
    except ValueError as exc:
        raise CliError(str(exc), code=2) from None


_ESTIMATE_SECONDS = 3600  # attempts take minutes: estimate from the last hour


def progress_bar() -> Progress:
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("pass {task.fields[rate]:.2f}"),
        TimeRemainingColumn(),
        console=console,
        speed_estimate_period=_ESTIMATE_SECONDS,
    )


def reporter(bar: Progress) -> Callable[[str, int, int, float], None]:
    """A progress callback: one bar per label, or one line per finished run in a log file. The
    time left comes from the attempts finished under every label in the last hour (or since
    the run began, if later), since the labels share the workers: the time between two runs
    that two workers finished together says nothing about the pace."""
    jobs: dict[str, TaskID] = {}
    finished: list[float] = []  # when the attempts of the last hour finished
    began: list[float] = []  # when the first report came: the run's start

    def progress(label: str, done: int, total: int, rate: float) -> None:
        began[:] = began or [bar.get_time()]
        if label not in jobs:  # the first report says what was stored before: no speed sample
            jobs[label] = bar.add_task(label, total=total, completed=done, rate=rate)
            if not console.is_terminal and done:
                console.print(f"{label}: {done}/{total} stored, pass rate {rate:.2f}")
            return
        bar.update(jobs[label], completed=done, rate=rate)
        now = bar.get_time()
        finished[:] = [t for t in finished if t >= now - _ESTIMATE_SECONDS] + [now]
        if not console.is_terminal:
            left = ""
            since = max(began[0], now - _ESTIMATE_SECONDS)
            if now > since:
                per_attempt = (now - since) / len(finished)
                left = f", about {(total - done) * per_attempt / 60:.0f} min left"
            console.print(f"{label}: {done}/{total} done, pass rate {rate:.2f}{left}")

    return progress


COMMANDS_FILE = "commands.txt"


def agent_settings(
    steps: int,
    repo_steps: int,
    edits: str,
    *,
    hide: tuple[str, ...] = (),
    factory: str = "",
) -> Any:
    """The experiment's :class:`~langgraph_mtl_experiments.attempts.AgentSettings`, checked."""
    from langgraph_mtl_experiments.agents import load_factory
    from langgraph_mtl_experiments.attempts import AgentSettings

    if edits not in EDIT_FORMATS:
        raise CliError(f"--edits: expected line_range or search_replace, got {edits!r}", code=2)
    missing = [path for path in hide if not Path(path).exists()]
    if missing:
        raise CliError(f"--hide: {missing[0]} does not exist", code=2)
    if factory:
        try:
            load_factory(factory)
        except ValueError as exc:
            raise CliError(str(exc), code=2) from None
    return AgentSettings(
        steps=steps,
        repository_steps=repo_steps,
        edits=edits,  # type: ignore[arg-type]
        hide=tuple(str(Path(path).resolve()) for path in hide),
        factory=factory,
    )


def task_file_domains(tasks: str) -> list[Any]:
    """The domains of ``--tasks FILE[,FILE...]``, or a short error naming the file."""
    from langgraph_mtl_experiments.task_files import TaskFileDomain

    found = []
    for path in filter(None, (part.strip() for part in tasks.split(","))):
        try:
            found.append(TaskFileDomain(path))
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            said = str(exc)
            raise CliError(
                f"--tasks: {said if path in said else f'{path}: {said}'}", code=2
            ) from None
    return found


def record_command(out: Path, command: str) -> None:
    """Add a run's command to the directory's record (once: a resumed run repeats it)."""
    path = out / COMMANDS_FILE
    known = path.read_text(encoding="utf-8").splitlines() if path.is_file() else []
    if command not in known:
        with path.open("a", encoding="utf-8") as f:
            f.write(command + "\n")


def commands_of(out: Path) -> str:
    """The commands that made a results directory, in the order first run."""
    path = out / COMMANDS_FILE
    return path.read_text(encoding="utf-8").strip() if path.is_file() else ""
