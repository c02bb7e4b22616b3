"""`mtl experiment ...`: fetch task data, check verifiers, run conditions, write the report
(added to ``mtl`` by the ``langgraph_mtl.cli`` entry point).

Heavy modules (the agent, the domains, plotting) load inside the commands.
"""

from __future__ import annotations

import typer

from langgraph_mtl_experiments.cli import data_commands, report_commands, run_command
from langgraph_mtl_experiments.cli.support import CONDITION_NAMES, DOMAIN_NAMES, SWEEP_NAMES

__all__ = ["CONDITION_NAMES", "DOMAIN_NAMES", "SWEEP_NAMES", "experiment_app"]

experiment_app = typer.Typer(
    help="Reproduce the MTL experiments on your own model.", no_args_is_help=True
)


experiment_app.command("fetch")(data_commands.fetch)
experiment_app.command("check")(data_commands.check)
experiment_app.command("domains")(data_commands.domains)
experiment_app.command("twins")(data_commands.twins)
experiment_app.command("answers")(data_commands.answers)
experiment_app.command("run")(run_command.run)
experiment_app.command("report")(report_commands.report)
experiment_app.command("compare")(report_commands.compare)
experiment_app.command("scaffold-tax")(report_commands.scaffold_tax)
