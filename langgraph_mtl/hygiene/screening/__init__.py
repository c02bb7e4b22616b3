"""Injection screening: memory text that tries to instruct the reading agent is quarantined.

Text is normalised before the rules run (Unicode NFKC, zero-width, soft-hyphen and bidi
characters removed, lookalike letters from other scripts mapped to Latin, spelled-out words and
words hyphenated across lines joined), then screened in several views (as written, normalised,
with digits read as letters, and decoded where the text shows an encoding, see :mod:`views`, and
glossed into English where it is written in another language, see :mod:`gloss`), so an
obfuscated instruction meets the same rules as a plain one. The rules cover instructions in
English and 31 other languages, role changes, fake system or tool markup, comments and notes
addressed to an AI, destructive commands presented as a required step, exfiltration, remote
execution, persistence (sudoers, hooks, start-up files), sandbox escapes, prompt leaks, claims
of authority over the task, covert or dictated replies, and advice to cheat the task's check
(edit, skip or delete the tests, fake a pass, exploit a shallow checker, copy the expected
answers, plant a test runner's configuration, fix answers for the inputs the tests use, make the
runner collect nothing, make asserts or equality hold for anything, rewrite the test's frames,
claim a pass without a run), and advice that harms without naming an attack (a foothold in a
start-up file or a scheduled job, a memory copying itself into others, results misreported, the
project sent or packed off, history deleted); and, whatever the wording, a verb that reads,
copies, plants or sends what an attack reaches for (credential stores, answer keys and the
checker's files, start-up hooks, shell history, the whole disk or environment, a remote
address). The rules live in :mod:`.rules`, one module per category; beside them, sentence
frames (:mod:`.frames`, ``frames.toml``) read what a sentence does from its words' base forms.
Advice phrased as a prohibition ("never force-push to main") is not an instruction to the agent
and passes; an idiom that only sounds like one ("don't hesitate to ...") does not.

A quarantined memory is kept and flagged, never retrieved unless asked for, and reported.
"""

from langgraph_mtl.hygiene.screening.classifier import (
    CLASSIFIER_PROMPT,
    Classifier,
    model_classifier,
)
from langgraph_mtl.hygiene.screening.matching import Screening, screen
from langgraph_mtl.hygiene.screening.text import normalise

__all__ = [
    "CLASSIFIER_PROMPT",
    "Classifier",
    "Screening",
    "model_classifier",
    "normalise",
    "screen",
]
