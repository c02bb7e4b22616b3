"""Would the fitted scanner have caught what the rules missed, on text it had never seen?
`python -m benchmarks.fitted` replays the fresh development rounds (``screening_dev16`` on) in
the order they were written: for each round, the scanner is fitted on the corpora committed
before it, and its verdicts are put beside the verdicts the screen of that day gave the round
on first reading it (``benchmarks/first_reads.json``, recorded by
``scripts/record_first_reads.py``), not today's rules, which were written from the rounds. The
test splits are not read."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from rich.console import Console
from rich.table import Table

from benchmarks.screening import CORPORA, FRESH, load
from langgraph_mtl.hygiene.screening.corpus_scanners import FittedScanner, LabelledTexts
from langgraph_mtl.pool.embeddings import MiniLMEmbeddings

FIRST_READS = Path(__file__).parent / "first_reads.json"


class _Remembering:
    """An embedder that embeds each text once over the whole replay."""

    def __init__(self) -> None:
        self.inner, self.seen = MiniLMEmbeddings(), {}

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        new = [t for t in dict.fromkeys(texts) if t not in self.seen]
        self.seen.update(zip(new, self.inner.embed_documents(new), strict=True))
        return [self.seen[t] for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]


def replay(false_alarms: float = 0.02) -> list[dict[str, int | str]]:
    """Per fresh round: injections and benign texts, and how many the rules' first read, the
    fitted scanner and either of them flagged."""
    first_reads = json.loads(FIRST_READS.read_text(encoding="utf-8"))
    embedder, out = _Remembering(), []
    for name in FRESH:
        before = [row for corpus in CORPORA[: CORPORA.index(name)] for row in load(corpus)]
        scanner = FittedScanner(LabelledTexts(embedder, rows=before), false_alarms)
        _, level = scanner.model()
        rows = load(name)
        fitted = [scanner.probability(row["text"]) >= level for row in rows]
        rules = first_reads[name]["flagged"]
        cell = {"round": name.removeprefix("screening_")}
        for label, is_attack in (("injections", True), ("benign", False)):
            mine = [i for i, row in enumerate(rows) if (row["label"] == "injection") == is_attack]
            cell[label] = len(mine)
            cell[f"{label}_rules"] = sum(rules[i] for i in mine)
            cell[f"{label}_fitted"] = sum(fitted[i] for i in mine)
            cell[f"{label}_either"] = sum(rules[i] or fitted[i] for i in mine)
        out.append(cell)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--false-alarms", type=float, default=0.02)
    args = parser.parse_args()
    rows = replay(args.false_alarms)
    total = {key: sum(int(r[key]) for r in rows) for key in rows[0] if key != "round"}
    table = Table(title=f"fresh rounds, first read (fitted at {args.false_alarms} false alarms)")
    for column in (
        "round",
        "caught: rules",
        "fitted",
        "either",
        "flagged: rules",
        "fitted",
        "either",
    ):
        table.add_column(column)
    for r in [*rows, {"round": "all", **total}]:
        table.add_row(
            str(r["round"]),
            *(
                f"{r[f'injections_{k}']} of {r['injections']}"
                for k in ("rules", "fitted", "either")
            ),
            *(f"{r[f'benign_{k}']} of {r['benign']}" for k in ("rules", "fitted", "either")),
        )
    Console().print(table)


if __name__ == "__main__":
    main()
