"""What running attempts on Ray costs: the same attempts (a scripted model on a tiny domain, so
the agent's own work is all there is) with two threads in this process and on two Ray workers
of a local cluster, in one run; prints seconds per attempt for each and their ratio.

    python -m benchmarks.ray_overhead [--attempts 5]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def measure(attempts: int) -> dict[str, float]:
    """Seconds per attempt for each executor (two at once), from one run."""
    sys.path.insert(0, str(ROOT / "tests"))
    import ray
    from helpers import TinyDomain, make_record, scripted_solver
    from langgraph_mtl_experiments import CONDITIONS, ResultStore
    from langgraph_mtl_experiments.executors import LocalExecutor, RayExecutor, WorkerSetup
    from langgraph_mtl_experiments.runner import run_condition

    from langgraph_mtl import open_pool

    domain = TinyDomain("alpha")
    paths = [str(ROOT / "tests"), *sys.path]
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        runtime_env={"env_vars": {"PYTHONPATH": os.pathsep.join(paths)}},
    )
    out: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as home:
        pool = open_pool(f"{home}/pool", collection="bench", embeddings="hashing-256")
        pool.upsert(
            [make_record("beta", f"b{i}", f"write the number {i} to out.txt") for i in range(6)]
        )
        setup = WorkerSetup(
            model=scripted_solver,
            pool=f"{home}/pool",
            collection="bench",
            embeddings="hashing-256",
            domains={"alpha": domain},
            split="all",
        )
        ray_executor = RayExecutor(setup, workers=2)

        for name, executor, model in (
            ("local", LocalExecutor(2), scripted_solver()),
            ("ray", ray_executor, None),
        ):
            for warm in (True, False):
                store = ResultStore(f"{home}/{name}-{warm}.jsonl")
                started = time.perf_counter()
                run_condition(
                    CONDITIONS["mtl-insight"],
                    [domain],
                    model=model,
                    pool=pool,
                    store=store,
                    attempts=1 if warm else attempts,
                    split="all",
                    step_limit=4,
                    executor=executor,
                    model_name="scripted",
                )
                if not warm:
                    done = sum(1 for _ in store.rows())
                    out[name] = (time.perf_counter() - started) / done
        ray_executor.close()
    ray.shutdown()
    out["ratio"] = out["ray"] / out["local"]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--attempts", type=int, default=5, help="attempts per task (4 tasks)")
    args = parser.parse_args()
    found = measure(args.attempts)
    print(
        f"seconds per attempt, two at once: local {found['local']:.3f}, ray {found['ray']:.3f}; "
        f"ray / local {found['ratio']:.2f}x ({4 * args.attempts} attempts each, after a warm-up)"
    )


if __name__ == "__main__":
    main()
