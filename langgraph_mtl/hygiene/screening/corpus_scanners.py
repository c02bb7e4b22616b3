"""Scanners that judge a memory by the screen's labelled development texts (``exemplars.jsonl``)
under the pool's own embedder:

- :class:`NeighbourScanner`: near-copies of a known attack;
- :class:`FittedScanner`: a linear model fitted on the labelled texts, for new wordings of the
  kinds of attack they hold.

Both read one :class:`LabelledTexts`, which embeds the texts once per process.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from importlib import resources
from typing import Any

from langgraph_mtl.hygiene.screening.scanners import Finding

__all__ = ["FittedScanner", "LabelledTexts", "NeighbourScanner"]

Embedder = Any  # a LangChain ``Embeddings``
QUERY_CHARACTERS = 2000  # how much of a memory is embedded to judge it


def exemplars() -> list[dict[str, str]]:
    """The labelled texts: rows of text, label (``injection`` or ``benign``) and category."""
    text = resources.files("langgraph_mtl.hygiene").joinpath("exemplars.jsonl")
    return [json.loads(line) for line in text.read_text(encoding="utf-8").splitlines() if line]


class LabelledTexts:
    """The labelled texts' unit vectors under ``embeddings`` (embedded on first use, once),
    and the vector of the text last judged (so two scanners embed a memory once). ``rows``:
    other labelled texts than :func:`exemplars` (rows with ``text`` and ``label``)."""

    def __init__(self, embeddings: Embedder, rows: Sequence[dict[str, str]] | None = None) -> None:
        self.embeddings, self.rows = embeddings, rows
        self._known: tuple[Any, Any] | None = None
        self._last: tuple[str, Any] | None = None
        self._lock = threading.Lock()

    def known(self) -> tuple[Any, Any]:
        """(unit vectors, whether each text is an attack)."""
        import numpy as np

        with self._lock:
            if self._known is None:
                rows = exemplars() if self.rows is None else self.rows
                vectors = np.asarray(self.embeddings.embed_documents([r["text"] for r in rows]))
                vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
                self._known = (vectors, np.array([r["label"] == "injection" for r in rows]))
            return self._known

    def vector(self, text: str) -> Any:
        """The unit vector of a memory's text (its first :data:`QUERY_CHARACTERS`)."""
        import numpy as np

        text = text[:QUERY_CHARACTERS]
        with self._lock:
            if self._last is not None and self._last[0] == text:
                return self._last[1]
        vector = np.asarray(self.embeddings.embed_query(text), dtype=float)
        vector /= max(float(np.linalg.norm(vector)), 1e-12)
        with self._lock:
            self._last = (text, vector)
        return vector


def _asked(texts: Sequence[str], flagged: bool) -> str:
    """The text to judge, or ``""`` when an earlier scanner flagged it or it is empty."""
    return "" if flagged else "\n".join(texts).strip()


class NeighbourScanner:
    """Flags a text whose nearest labelled attack is at least ``threshold`` similar and
    ``margin`` closer than its nearest labelled benign text (a near-copy of a known attack).
    ``known`` shares the labelled texts' vectors with other scanners."""

    name = "neighbours"

    def __init__(
        self,
        embeddings: Embedder,
        threshold: float = 0.92,
        margin: float = 0.05,
        known: LabelledTexts | None = None,
    ) -> None:
        self.threshold, self.margin = threshold, margin
        self.known = known or LabelledTexts(embeddings)

    @staticmethod
    def exemplars() -> list[dict[str, str]]:
        return exemplars()

    def scan(self, texts: Sequence[str], flagged: bool) -> Finding:
        text = _asked(texts, flagged)
        if not text:
            return Finding(self.name)
        vectors, attack = self.known.known()
        similarity = vectors @ self.known.vector(text)
        nearest_attack = float(similarity[attack].max()) if attack.any() else 0.0
        nearest_benign = float(similarity[~attack].max()) if (~attack).any() else 0.0
        if self.flags(nearest_attack, nearest_benign):
            return Finding(self.name, nearest_attack, ("known-attack",))
        return Finding(self.name, max(nearest_attack, 0.0))

    def flags(self, nearest_attack: float, nearest_benign: float) -> bool:
        """The decision, from a text's cosine to its nearest known attack and benign text."""
        return nearest_attack >= self.threshold and nearest_attack - nearest_benign >= self.margin


class FittedScanner:
    """A logistic regression (scikit-learn's, both labels weighted alike) fitted on the labelled
    texts' vectors. Flags a text whose attack probability reaches the level that would flag
    ``false_alarms`` of the labelled benign texts, each scored by a model fitted without it
    (five folds). Catches new wordings of the kinds of attack the texts hold, which neither the
    rules nor a near-copy catch; fitted on first use, once.

    Raises:
        ValueError: ``false_alarms`` outside (0, 1).
        ImportError: scikit-learn is not installed (``pip install 'langgraph-mtl[screen]'``).
    """

    name = "fitted"

    def __init__(self, known: LabelledTexts, false_alarms: float = 0.02) -> None:
        if not 0 < false_alarms < 1:
            raise ValueError(f"false_alarms must be between 0 and 1 (a share), not {false_alarms}")
        try:
            import sklearn  # noqa: F401
        except ImportError as exc:
            raise ImportError(
                "the fitted scanner needs scikit-learn: pip install 'langgraph-mtl[screen]'"
            ) from exc
        self.known, self.false_alarms = known, false_alarms
        self._fitted: tuple[Any, float] | None = None
        self._lock = threading.Lock()

    def model(self) -> tuple[Any, float]:
        """(the fitted model, the probability at which it flags)."""
        import numpy as np
        from sklearn.linear_model import LogisticRegression
        from sklearn.model_selection import StratifiedKFold, cross_val_predict

        with self._lock:
            if self._fitted is None:
                vectors, attack = self.known.known()
                settings = {"class_weight": "balanced", "max_iter": 2000}
                folds = StratifiedKFold(5, shuffle=True, random_state=0)
                held_out = cross_val_predict(
                    LogisticRegression(**settings), vectors, attack, cv=folds,
                    method="predict_proba",
                )[:, 1]  # fmt: skip
                level = float(np.quantile(held_out[~attack], 1 - self.false_alarms))
                self._fitted = (LogisticRegression(**settings).fit(vectors, attack), level)
            return self._fitted

    def probability(self, text: str) -> float:
        """The fitted model's probability that ``text`` is an attack."""
        model, _ = self.model()
        return float(model.predict_proba(self.known.vector(text)[None, :])[0, 1])

    def scan(self, texts: Sequence[str], flagged: bool) -> Finding:
        text = _asked(texts, flagged)
        if not text:
            return Finding(self.name)
        probability, (_, level) = self.probability(text), self.model()
        reasons = ("like-known-attacks",) if probability >= level else ()
        return Finding(self.name, probability, reasons)
