"""Record what the screen said about each fresh development round when it first met it:
`python scripts/record_first_reads.py` checks out, in a temporary worktree, the commit that
added each round (``screening_dev16`` on, each committed before it was first read) and screens
the round with the code of that commit. Writes ``benchmarks/first_reads.json``: per round, the
commit and one verdict per text. A scanner added later is judged against these verdicts
(`python -m benchmarks.fitted`), not against today's rules, which were written from the rounds.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from benchmarks.screening import FRESH  # noqa: E402

SCREEN = (
    "import json, sys\n"
    "from langgraph_mtl.hygiene.screening import screen\n"
    "rows = [json.loads(line) for line in open(sys.argv[1], encoding='utf-8') if line.strip()]\n"
    "print(json.dumps([bool(screen(row['text']).flagged) for row in rows]))\n"
)


def adding_commit(name: str) -> str:
    """The commit that added ``tests/data/<name>.jsonl``."""
    log = subprocess.run(
        ["git", "log", "--diff-filter=A", "--format=%H", "--", f"tests/data/{name}.jsonl"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    )  # fmt: skip
    return log.stdout.split()[-1]


def first_read(name: str, commit: str, worktree: Path) -> list[bool]:
    """The screen of ``commit`` on the round ``name``."""
    subprocess.run(["git", "checkout", "-q", "--detach", commit], cwd=worktree, check=True)
    done = subprocess.run(
        [sys.executable, "-c", SCREEN, f"tests/data/{name}.jsonl"],
        cwd=worktree, env={"PYTHONPATH": str(worktree), "PATH": "/usr/bin:/bin"},
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    return json.loads(done.stdout)


def main() -> None:
    out: dict[str, dict[str, object]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        worktree = Path(tmp) / "at"
        subprocess.run(
            ["git", "worktree", "add", "-q", "--detach", str(worktree)], cwd=ROOT, check=True
        )
        try:
            for name in FRESH:
                commit = adding_commit(name)
                out[name] = {"commit": commit, "flagged": first_read(name, commit, worktree)}
                print(name, commit[:7], sum(out[name]["flagged"]), "flagged", flush=True)  # type: ignore[arg-type]
        finally:
            subprocess.run(
                ["git", "worktree", "remove", "--force", str(worktree)], cwd=ROOT, check=True
            )
    target = ROOT / "benchmarks" / "first_reads.json"
    lines = (f"{json.dumps(name)}: {json.dumps(read)}" for name, read in out.items())
    target.write_text("{\n" + ",\n".join(lines) + "\n}\n", encoding="utf-8")
    print(f"wrote {target.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
