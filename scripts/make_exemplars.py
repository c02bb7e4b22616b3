"""Rewrite ``langgraph_mtl/hygiene/exemplars.jsonl`` (the labelled texts the neighbour and
fitted scanners read) from the development corpora: `python scripts/make_exemplars.py`. A test
fails while the file and the corpora differ."""

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from benchmarks.screening import exemplar_rows  # noqa: E402


def main() -> None:
    rows = exemplar_rows()
    target = ROOT / "langgraph_mtl" / "hygiene" / "exemplars.jsonl"
    target.write_text(
        "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8"
    )
    print(f"wrote {len(rows)} labelled texts to {target.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
