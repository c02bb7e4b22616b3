"""Propose the map of twin tasks: each HumanEval-Rust task and the HumanEval problem(s) it
translates. Run once per data-set version; the proposal is read by a person and committed as
``experiments/langgraph_mtl_experiments/twin_map.json``, which experiments read (they never
match twins themselves).

Signals per (rust task, python task) pair: the share of literals their tests have in common,
the cosine of their problem words, and whether their function names agree. A rust task's
twins are the pair best on all three, plus the pair best on words alone and the pair best on
tests alone when either is strong: a translation may take its words from one problem and its
tests and signature from another, and then both are its twins.

    .venv/bin/python scripts/derive_twin_map.py > /tmp/proposal.json
"""

from __future__ import annotations

import json
import math
import re
import sys
from collections import Counter

from langgraph_mtl_experiments.domains import get_domain

STRONG_TESTS = 0.5  # Jaccard of the tests' literals
SHARED_LITERALS = 6  # and at least this many in common (small tests all share 1, 2 and 3)
STRONG_WORDS = 0.8  # cosine of the problems' words


_STOP = set(
    [
        "the",
        "a",
        "an",
        "of",
        "to",
        "and",
        "or",
        "in",
        "is",
        "it",
        "be",
        "for",
        "that",
        "this",
        "with",
        "as",
        "are",
        "on",
        "by",
        "if",
        "else",
        "return",
        "returns",
        "given",
        "fn",
        "def",
        "let",
        "mut",
        "pub",
        "str",
        "string",
        "int",
        "float",
        "bool",
        "vec",
        "usize",
        "isize",
        "i32",
        "i64",
        "f32",
        "f64",
        "u8",
        "list",
        "none",
        "true",
        "false",
        "self",
    ]
)


def _words(text: str) -> Counter[str]:
    split = re.sub(r"([a-z])([A-Z])", r"\1 \2", text).replace("_", " ").lower()
    return Counter(w for w in re.findall(r"[a-z]+", split) if w not in _STOP and len(w) > 1)


def _cosine(a: Counter[str], b: Counter[str]) -> float:
    dot = sum(count * b[word] for word, count in a.items())
    norms = math.sqrt(sum(v * v for v in a.values()) * sum(v * v for v in b.values()))
    return dot / norms if norms else 0.0


def _literals(text: str) -> set[str]:
    found = re.findall(r"-?\d+\.?\d*|\"[^\"]*\"|'[^']*'", text)
    return {item.strip("\"'") for item in found}


def main() -> int:
    python, rust = get_domain("python").all_tasks(), get_domain("rust").all_tasks()
    described = [
        (t.task_id, _literals(t.verifier.test), _words(t.problem), t.verifier.entry) for t in python
    ]
    proposal: dict[str, list[str]] = {}
    for task in rust:
        tests, words = _literals(task.verifier.tests), _words(task.problem)
        entry = task.verifier.entry
        rows = []
        for other, other_tests, other_words, other_entry in described:
            shared = len(tests & other_tests) / max(1, len(tests | other_tests))
            common = len(tests & other_tests)
            cosine = _cosine(words, other_words)
            named = 1.0 if entry == other_entry else 0.5 if entry.startswith(other_entry) else 0.0
            rows.append((shared + cosine + named, shared, common, cosine, other))
        twins = [max(rows)[4]]
        by_words = max(rows, key=lambda r: r[3])
        if by_words[3] >= STRONG_WORDS and by_words[4] not in twins:
            twins.append(by_words[4])
        by_tests = sorted(rows, key=lambda r: -r[1])
        unique = by_tests[0][1] > by_tests[1][1]
        strong = by_tests[0][1] >= STRONG_TESTS and by_tests[0][2] >= SHARED_LITERALS
        if unique and strong and by_tests[0][4] not in twins:
            twins.append(by_tests[0][4])
        proposal[task.task_id] = twins
        if len(twins) > 1:
            print("read by hand:", task.task_id, entry, twins, file=sys.stderr)
    json.dump({"rust": proposal}, sys.stdout, indent=1, sort_keys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
