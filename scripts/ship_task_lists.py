"""Write the usable-task lists shipped with the package (experiments/langgraph_mtl_experiments/usable_tasks.json)
from this machine's screening of every task: run `mtl experiment fetch --verify all` first.

    python scripts/ship_task_lists.py python rust verilog shell
"""

from __future__ import annotations

import sys

from langgraph_mtl_experiments.domains import get_domain
from langgraph_mtl_experiments.tasks import ship_lists

if __name__ == "__main__":
    names = sys.argv[1:] or ["python", "rust", "verilog", "shell"]
    for name, count in ship_lists([get_domain(n) for n in names]).items():
        print(f"{name}: {count} usable tasks shipped")
