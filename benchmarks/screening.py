"""Injection screening against the labelled corpora in ``tests/data``:
`python -m benchmarks.screening` prints recall per injection category and false positives per
benign category, on the development corpora (the rules and scanners were written from them)
and, separately, on the test split (``screening_test.jsonl``, written before the scanners that
serve it and never used to write or carve a rule), with each part's size; and checks at every
word position of every development text that a file name with a dot ("(see notes.md)")
changes no verdict (the test suite checks a ninth of the positions)."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

from langgraph_mtl.hygiene.screening import screen

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"
# the corpora the rules were written from, then the development sets the scanners were written
# from (screening_dev2: the weak categories again, each with look-alikes, committed before the
# sentence-frame scanner; screening_dev3: a third round over every category, committed before
# the frames were changed for it; screening_dev4: persistence, paraphrase, memory system, the
# check, ordinary commands and security notes again, the same way; screening_dev5: ordinary
# commands and security notes only; screening_dev6: every weak category again; screening_dev7:
# benign look-alikes that quote or name an attack, ordinary commands, and injections;
# screening_dev8: every category again, each injection with a benign look-alike;
# screening_dev9: persistence written as code, and ordinary commands put in start-up files;
# screening_dev10: persistence said in prose, with look-alikes that talk about start-up files;
# screening_dev11: ordinary commands and security notes only, benign;
# screening_dev12: the check, override paraphrases and the memory system, with look-alikes;
# screening_dev13: authority, role spoofing, exfiltration and insecure advice, with look-alikes;
# screening_dev14: ordinary memories that name secrets, channels and approvals, benign;
# screening_dev15: ordinary sentences in the new frames' words, benign;
# screening_dev16: a fresh round in eight categories with look-alikes, first read at 32 of 43
# injections and 5 of 35 benign texts flagged;
# screening_dev17: security notes that tell of an attack to warn of it, ordinary memories in
# their words, and attacks dressed as security notes; first read at 9 of 10 and 14 of 26;
# screening_dev18: ordinary commands in backticks, benign only; first read at 6 of 40;
# screening_dev19: the check bent in new words, with testing advice as look-alikes; first read
# at 3 of 12 and 0 of 12; screening_dev20: a fresh round over override paraphrases,
# persistence, the check, authority, the memory system, exfiltration, insecure advice and role
# spoofing, with look-alikes in each; committed before it was first read; screening_dev21: a
# round over every category in memory styles (trajectories, insights, workflows), with
# look-alikes in each, committed before it was first read; screening_dev22: every category in
# new shapes (code-shaped persistence and exfiltration, split and spaced encodings, five
# languages) with look-alikes, committed before it was first read; screening_dev23: persistence
# in prose, the check, override paraphrases and insecure advice, with look-alikes weighted to
# security notes and ordinary commands, committed before it was first read; screening_dev24:
# persistence, the check, override paraphrases, the memory system and insecure advice again,
# with look-alikes weighted to security notes and ordinary commands, committed before it was
# first read; screening_dev25: memories written as trajectories, workflows and insights, with
# look-alikes in the same forms, committed before it was first read; screening_dev26: every
# category again in terse notes, numbered steps and code, with look-alikes weighted to security
# notes and ordinary commands, committed before it was first read; screening_dev27:
# persistence through many start-up points, the check and override paraphrases, with
# look-alikes in the same words, committed before it was first read; screening_dev28: every
# category as bullets, code comments, commit messages and JSON, with look-alikes in the same
# forms, committed before it was first read; screening_dev29: ordinary memories of agent runs
# in security words (trajectories, insights, security notes, commands), with ten injections,
# committed before it was first read; screening_dev30: ordinary memories of runs in six task
# kinds (data, web, hardware, Rust, operations, shell), with eight injections, committed
# before it was first read; screening_dev31: every category in Go, Java, Kubernetes, Terraform
# and front-end words, with look-alikes and ordinary memories, committed before it was first
# read; screening_dev32: weighted to the memory system, persistence, authority and insecure
# advice, with look-alikes, ordinary commands and memories, committed before it was first read;
# screening_dev33: every category in PowerShell, systemd, CI workflow, SQL, Kotlin, Swift,
# Android and front-end words, with look-alikes and ordinary memories in the same words,
# committed before it was first read; screening_dev34: every category written into
# Dockerfiles, package.json, pre-commit and Actions YAML, Makefiles, setup.py, HTML comments,
# tables, tool-call JSON and one-liners, with look-alikes in the same forms, committed before it
# was first read; screening_dev35: attacks told as trajectories, workflows, questions, hedged
# suggestions and claimed agreements, with benign memories in the same styles, committed before
# it was first read; screening_dev36: every category, weighted to benign memories, commands,
# security notes and settings advice in the same words, committed before it was first read;
# screening_dev37: check subversion, override paraphrases and memory-system steering, with
# security notes and testing advice that name what they warn against, committed before it was
# first read; screening_dev38: authority, role spoofing, persistence and exfiltration written as
# code, obfuscated and non-English attacks, with commands, role words and security notes in the
# same words, committed before it was first read; screening_dev39: sandbox escape, prompt
# leaks, covering tracks, the memory system, destructive and remote code, with settings named
# to avoid them, talk of exfiltration, security notes and commands on local files and servers,
# committed before it was first read; screening_dev40: every category written as the pool's own
# formats (JSON insights, YAML workflows, tables, code fences, comments, checklists,
# trajectories), with benign memories in the same formats, committed before it was first read;
# screening_dev41: the check, override paraphrases, persistence and exfiltration told in prose,
# the memory system, with testing advice, talk of persistence and exfiltration and security
# notes in the same words, committed before it was first read)
RULE_CORPORA = ("screening_corpus", "screening_holdout", "screening_fresh", "screening_probes")
CORPORA = (
    *RULE_CORPORA,
    "screening_dev",
    "screening_dev2",
    "screening_dev3",
    "screening_dev4",
    "screening_dev5",
    "screening_dev6",
    "screening_dev7",
    "screening_dev8",
    "screening_dev9",
    "screening_dev10",
    "screening_dev11",
    "screening_dev12",
    "screening_dev13",
    "screening_dev14",
    "screening_dev15",
    "screening_dev16",
    "screening_dev17",
    "screening_dev18",
    "screening_dev19",
    "screening_dev20",
    "screening_dev21",
    "screening_dev22",
    "screening_dev23",
    "screening_dev24",
    "screening_dev25",
    "screening_dev26",
    "screening_dev27",
    "screening_dev28",
    "screening_dev29",
    "screening_dev30",
    "screening_dev31",
    "screening_dev32",
    "screening_dev33",
    "screening_dev34",
    "screening_dev35",
    "screening_dev36",
    "screening_dev37",
    "screening_dev38",
    "screening_dev39",
    "screening_dev40",
    "screening_dev41",
)
# the fresh rounds, each committed before it was first read (their first reads are in
# benchmarks/first_reads.json)
FRESH = tuple(
    name
    for name in CORPORA
    if (number := name.removeprefix("screening_dev")).isdigit() and int(number) >= 16
)
# the test splits: written before the change they measure, never used to write or carve a rule
# (screening_test before the scanners; screening_test2 at c6b0ea8, after the rules)
TESTS = ("screening_test", "screening_test2")


def load(name: str) -> list[dict[str, str]]:
    """One corpus: rows of text, label (injection or benign) and category."""
    lines = (DATA / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def exemplar_rows() -> list[dict[str, str]]:
    """The fitted and neighbour scanners' labelled texts (``langgraph_mtl/hygiene/exemplars.jsonl``,
    written by ``scripts/make_exemplars.py``): every development text once, none of a test
    split."""
    held_out = {row["text"] for name in TESTS for row in load(name)}
    rows = {row["text"]: row for name in CORPORA for row in load(name)}
    return [
        {key: row[key] for key in ("text", "label", "category")}
        for text, row in rows.items()
        if text not in held_out
    ]


def score(rows: list[dict[str, str]]) -> dict[tuple[str, str], tuple[int, int]]:
    """(label, category) -> (flagged, total)."""
    out: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    for row in rows:
        cell = out[(row["label"], row["category"])]
        cell[0] += screen(row["text"]).flagged
        cell[1] += 1
    return {key: (flagged, total) for key, (flagged, total) in sorted(out.items())}


def dots_that_change_a_verdict(rows: list[dict[str, str]]) -> list[str]:
    """The texts whose verdict changes when "(see notes.md)" rather than "(see notes_md)" is
    put after one of their words, outside backticked code (should be none: a dot inside a
    word ends no sentence)."""
    changed = []
    for row in rows:
        words = row["text"].split(" ")
        for i in range(1, len(words)):
            if " ".join(words[:i]).count("`") % 2:
                continue  # inside a backticked command: the words would change the command
            with_dot, without = (
                " ".join([*words[:i], f"(see {name})", *words[i:]])
                for name in ("notes.md", "notes_md")
            )
            if screen(with_dot).flagged != screen(without).flagged:
                changed.append(with_dot)
    return changed


def prefilter_speedup(texts: list[str]) -> dict[str, float]:
    """The rules over ``texts`` with the prefilter and with every rule run on every text, in
    the same run: seconds each, their ratio, and whether the verdicts are the same."""
    import time

    from langgraph_mtl.hygiene.screening.rule_matching import rule_reasons

    rule_reasons("warm the rules")
    start = time.perf_counter()
    gated = [rule_reasons(text) for text in texts]
    with_prefilter = time.perf_counter() - start
    start = time.perf_counter()
    every = [rule_reasons(text, prefiltered=False) for text in texts]
    without = time.perf_counter() - start
    return {
        "texts": len(texts),
        "seconds_with_prefilter": round(with_prefilter, 3),
        "seconds_every_rule": round(without, 3),
        "speedup": round(without / with_prefilter, 2),
        "same_verdicts": gated == every,
    }


def _table(title: str, rows: list[dict[str, str]]) -> tuple[int, int, int, int]:
    """Print one part's table; returns (injections flagged, injections, benign flagged,
    benign)."""
    cells = score(rows)
    print(f"## {title}\n\n| label | category | flagged / total |\n|---|---|---|")
    for (label, category), (flagged, total) in cells.items():
        print(f"| {label} | {category} | {flagged} / {total} |")
    tp = sum(f for (label, _), (f, _) in cells.items() if label == "injection")
    fp = sum(f for (label, _), (f, _) in cells.items() if label == "benign")
    positives = sum(n for (label, _), (_, n) in cells.items() if label == "injection")
    negatives = sum(n for (label, _), (_, n) in cells.items() if label == "benign")
    print(
        f"\n{title}: {tp} of {positives} injections flagged ({tp / positives:.3f}), "
        f"{fp} of {negatives} benign texts flagged ({fp / negatives:.3f})\n"
    )
    return tp, positives, fp, negatives


def main() -> None:
    rows = [row for name in CORPORA for row in load(name)]
    _table("development corpora (in-sample)", rows)
    for name in TESTS:
        _table(f"test split {name} (out of sample)", load(name))
    speed = prefilter_speedup([row["text"] for row in rows])
    print(f"prefilter: {speed['speedup']}x faster, same verdicts: {speed['same_verdicts']}")
    changed = dots_that_change_a_verdict(rows)
    print(f"a dot inside a word changed {len(changed)} verdicts at every word position")
    if changed:
        raise SystemExit(f"first: {changed[0]!r}")


if __name__ == "__main__":
    main()
