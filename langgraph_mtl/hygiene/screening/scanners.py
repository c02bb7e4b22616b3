"""The screen as a list of scanners, each giving its own score in the verdict.

- :class:`RuleScanner`: the rules over every view of the text (as written, normalised, digits
  read as letters, decoded, glossed into English); scores 1 when a rule matches.
- :class:`FrameScanner`: what a sentence does, read from its words' base forms (:mod:`.frames`);
  scores 1 when a frame flags.
- :class:`CodeScanner`: shell and Python in the text parsed and judged by what they do
  (:mod:`.code_effects`); scores 1 for a harmful effect.
- :class:`~.corpus_scanners.NeighbourScanner` and :class:`~.corpus_scanners.FittedScanner`:
  the screen's labelled texts under the pool's embedder (near-copies of known attacks, and a
  linear model fitted on them); opt-in.
- :class:`ModelScanner`: a chat model's verdict on text no other scanner flagged but that
  mentions the agent, instructions or secrets.

A scanner flags when its score reaches its threshold; the screen flags when any does.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from langgraph_mtl.hygiene.screening.rule_matching import rule_reasons

__all__ = [
    "CodeScanner",
    "Finding",
    "FrameScanner",
    "ModelScanner",
    "RuleScanner",
    "Scanner",
]


@dataclass(frozen=True)
class Finding:
    """One scanner's verdict: its ``score`` (0 to 1) and, when it flags, why."""

    scanner: str
    score: float = 0.0
    reasons: tuple[str, ...] = ()

    @property
    def flagged(self) -> bool:
        return bool(self.reasons)


class Scanner(Protocol):
    """Something that judges a memory's texts."""

    name: str

    def scan(self, texts: Sequence[str], flagged: bool) -> Finding:
        """The verdict on ``texts``; ``flagged`` says whether an earlier scanner flagged."""
        ...


def _switched_off(disabled: Iterable[str]) -> frozenset[str]:
    """``disabled`` checked against the rules' and the frames' ids and categories.

    Raises:
        ValueError: an id or category that no rule or frame has (the message names a few).
    """
    chosen = frozenset(disabled)
    if not chosen:
        return chosen
    from langgraph_mtl.hygiene.screening.frames import frame_ids
    from langgraph_mtl.hygiene.screening.rule_handling import RULE_IDS

    known = {*RULE_IDS, *frame_ids()}
    known |= {switch.split("/")[0] for switch in known}
    unknown = sorted(chosen - known)
    if unknown:
        raise ValueError(
            f"screen_disabled: no rule {unknown[0]!r}; give rule ids such as "
            f"{', '.join(RULE_IDS[:3])}, frame ids such as {frame_ids()[0]} or a category "
            f"such as {RULE_IDS[0].split('/')[0]!r}"
        )
    return chosen


class RuleScanner:
    """The rules over every view of the text (see :mod:`.matching`), but those whose ids are
    in ``disabled`` (``"override/2"``; a category's name disables all of its rules).

    Raises:
        ValueError: an id or category that no rule or frame has (the message names a few).
    """

    name = "rules"

    def __init__(self, disabled: Iterable[str] = ()) -> None:
        from langgraph_mtl.hygiene.screening.rule_handling import RULE_IDS

        chosen = _switched_off(disabled)
        self.disabled = frozenset(
            rule_id for rule_id in RULE_IDS if rule_id in chosen or rule_id.split("/")[0] in chosen
        )

    def scan(self, texts: Sequence[str], flagged: bool) -> Finding:
        reasons = rule_reasons("\n".join(texts), self.disabled)
        return Finding(self.name, 1.0 if reasons else 0.0, reasons)


class FrameScanner:
    """Sentence frames (:mod:`.frames`) over the normalised text and its English gloss: what a
    sentence does, whatever its wording, for the memory system itself, a dismissed brief, a
    claimed permission, a foothold, a check made to pass and insecure advice; reasons are the
    frames' categories. Frames whose ids or categories are in ``disabled`` are skipped.

    Raises:
        ValueError: an id or category that no rule or frame has.
    """

    name = "frames"

    def __init__(self, disabled: Iterable[str] = ()) -> None:
        self.disabled = _switched_off(disabled)

    def scan(self, texts: Sequence[str], flagged: bool) -> Finding:
        from langgraph_mtl.hygiene.gloss import gloss
        from langgraph_mtl.hygiene.screening.frames import frame_reasons
        from langgraph_mtl.hygiene.screening.text import normalise

        plain = normalise("\n".join(texts))
        views = [plain] + [g for g in (gloss(plain),) if g is not None]
        hits = frame_reasons(views, self.disabled)
        reasons = tuple(dict.fromkeys(hit.split("/")[0] for hit in hits))
        return Finding(self.name, 1.0 if reasons else 0.0, reasons)


class CodeScanner:
    """Shell and Python judged by what they do (:mod:`.code_effects`); code in backticks inside
    a sentence that only reports an attack to warn of it (the notes the rules and frames pass,
    :func:`~.accounts.reported`) is left out."""

    name = "code"

    def scan(self, texts: Sequence[str], flagged: bool) -> Finding:
        from langgraph_mtl.hygiene.screening.code_effects import code_effects

        effects = code_effects(_unreported("\n".join(texts)))
        return Finding(self.name, 1.0 if effects else 0.0, effects)


_TICKED = re.compile(r"`[^`\n]+`")


def _unreported(text: str) -> str:
    """``text`` with each backticked span that a warning note reports blanked out."""
    from langgraph_mtl.hygiene.screening.accounts import reported

    return _TICKED.sub(
        lambda m: " " * len(m.group(0)) if reported(text, m.start()) else m.group(0), text
    )


class ModelScanner:
    """A chat model's verdict (a :data:`~.classifier.Classifier`) on text no other scanner
    flagged but that is undecided: it mentions the agent, instructions or secrets, or uses
    another script."""

    name = "model"

    def __init__(self, classifier: Callable[[str], bool | None]) -> None:
        self.classifier = classifier

    def scan(self, texts: Sequence[str], flagged: bool) -> Finding:
        from langgraph_mtl.hygiene.screening.rule_handling import UNDECIDED
        from langgraph_mtl.hygiene.screening.text import normalise

        plain = normalise("\n".join(texts))
        if flagged or not UNDECIDED.search(plain):
            return Finding(self.name)
        verdict = self.classifier(plain[:4000])
        return Finding(self.name, 1.0 if verdict else 0.0, ("model",) if verdict else ())
