"""What came of an action, as data: every tool answer is text the model reads *and* a typed
outcome the loop's rules read, set where the answer is made, never parsed back from its words.

    answer = refused(f"[refused] {path} is a directory; give a file path", "directory")
    answer.outcome, answer.reason   # "refused", "directory"
    str(answer)                     # the text, free to be reworded
"""

from __future__ import annotations

from typing import Literal

__all__ = ["Answer"]

Outcome = Literal["applied", "unchanged", "refused", "failed", "done", "invalid", "submitted"]
"""``applied``: a change was written; ``unchanged``: a change gave back what the file held;
``refused``: not carried out (``reason`` says why); ``failed``: a command exited non-zero or
timed out; ``done``: a read, a search or a command that succeeded; ``invalid``: a reply that is
no usable action; ``submitted``: the agent ended the run."""


class Answer(str):
    """A tool's answer: its text, with its ``outcome`` and ``reason`` (a short code such as
    ``"missing"`` or ``"uncompilable"``), and a command's ``exit_code`` and printed ``output``."""

    outcome: Outcome
    reason: str
    exit_code: int | None
    output: str

    def __new__(
        cls,
        text: str,
        outcome: Outcome = "done",
        reason: str = "",
        *,
        exit_code: int | None = None,
        output: str = "",
    ) -> Answer:
        answer = super().__new__(cls, text)
        answer.outcome, answer.reason = outcome, reason
        answer.exit_code, answer.output = exit_code, output
        return answer

    def __add__(self, other: str) -> Answer:  # text added after keeps the answer's facts
        return Answer(
            str.__add__(self, other),
            self.outcome,
            self.reason,
            exit_code=self.exit_code,
            output=self.output,
        )


def applied(text: str) -> Answer:
    """A change written."""
    return Answer(text, "applied")


def unchanged(text: str) -> Answer:
    """A change that gave back what the file held."""
    return Answer(text, "unchanged", "same")


def refused(text: str, reason: str) -> Answer:
    """An action not carried out, and why (a short code)."""
    return Answer(text, "refused", reason)


def done(text: str, reason: str = "") -> Answer:
    """A read or search answered (``reason`` marks an empty one: ``"missing"``, ``"directory"``,
    ``"no_hits"``)."""
    return Answer(text, "done", reason)


def failed(text: str, reason: str = "") -> Answer:
    """A read or command that failed."""
    return Answer(text, "failed", reason)
