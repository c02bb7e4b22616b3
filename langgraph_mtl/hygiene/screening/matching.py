"""Screening a text: the scanners in turn (:mod:`.scanners`), each with its score (the rules over
every view of the text, :mod:`.rule_matching`; sentence frames, :mod:`.frames`; the code in it
judged by what it does), and a classifier's opinion when nothing flagged but the text is
undecided."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from langgraph_mtl.hygiene.screening.classifier import Classifier
from langgraph_mtl.hygiene.screening.scanners import (
    CodeScanner,
    Finding,
    FrameScanner,
    ModelScanner,
    RuleScanner,
    Scanner,
)

__all__ = ["DEFAULT_SCANNERS", "UNSCREENABLE", "Screening", "screen"]

UNSCREENABLE = "unscreenable"  # the reason given when a scanner fails on a text


@dataclass(frozen=True)
class Screening:
    """What screening found: why it flagged (the reasons of every scanner that did; empty when
    clean) and each scanner's finding with its score."""

    reasons: tuple[str, ...] = ()
    findings: tuple[Finding, ...] = ()

    @property
    def flagged(self) -> bool:
        return bool(self.reasons)

    @property
    def scores(self) -> dict[str, float]:
        """Each scanner's score, by name."""
        return {finding.scanner: finding.score for finding in self.findings}


DEFAULT_SCANNERS: tuple[Scanner, ...] = (RuleScanner(), FrameScanner(), CodeScanner())


def screen(
    *texts: str,
    classifier: Classifier | None = None,
    scanners: Sequence[Scanner] | None = None,
) -> Screening:
    """Screen texts for attempts to instruct the reading agent: each of ``scanners`` (the rules,
    the frames and the code scanner by default, see :mod:`.scanners`) in turn, then
    ``classifier`` (see :func:`model_classifier`) on text none flagged but that is undecided."""
    texts = tuple(dict.fromkeys(texts))  # a text given twice (a key that is the content) once
    chosen = list(DEFAULT_SCANNERS if scanners is None else scanners)
    if classifier is not None:
        chosen.append(ModelScanner(classifier))
    findings: list[Finding] = []
    for scanner in chosen:
        try:
            findings.append(scanner.scan(texts, any(f.flagged for f in findings)))
        except (RecursionError, ValueError, IndexError, UnicodeError):
            # text a scanner cannot read is held back: neither let through nor a crash
            findings.append(Finding(scanner.name, 1.0, (UNSCREENABLE,)))
    reasons = tuple(dict.fromkeys(r for f in findings for r in f.reasons))
    return Screening(reasons, tuple(findings))
