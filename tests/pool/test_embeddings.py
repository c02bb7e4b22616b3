"""The offline default embedder against PyTorch reference vectors, and real retrieval."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from langgraph_mtl import open_pool
from langgraph_mtl.pool.embeddings import MiniLMEmbeddings, embedder_identity

REFERENCE = json.loads((Path(__file__).parents[1] / "data" / "minilm_reference.json").read_text())


@pytest.fixture(scope="module")
def minilm() -> MiniLMEmbeddings:
    return MiniLMEmbeddings()


def test_vectors_match_the_pytorch_reference(minilm):
    got = minilm.embed_array(REFERENCE["sentences"])
    ref = np.array(REFERENCE["vectors"])
    assert got.shape == (5, 384)
    assert cosine_rows(got, ref).min() >= 0.999
    assert np.allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-3)  # unit vectors, as stored


def cosine_rows(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Row-wise cosine similarity, each side divided by its own norm."""
    return (a * b).sum(axis=1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))


def test_the_reference_check_fails_a_scaled_or_turned_vector():
    ref = np.array(REFERENCE["vectors"])
    turned = ref.copy()
    turned[:, :192] *= -1  # half the coordinates flipped: another direction
    assert cosine_rows(3.0 * turned, ref).min() < 0.999
    assert cosine_rows(3.0 * ref, ref).min() >= 0.999  # scaling alone keeps the direction


def test_batching_and_order_do_not_change_vectors(minilm):
    texts = ["short", "a much longer sentence about compiling rust code with cargo", "mid length"]
    together = minilm.embed_array(texts)
    alone = np.stack([minilm.embed_array([t])[0] for t in texts])
    assert np.allclose(together, alone, atol=1e-5)
    assert minilm.embed_array([]).shape == (0, 384)


@pytest.mark.slow
def test_identity_is_stable(minilm):
    assert embedder_identity(minilm).matches(embedder_identity(MiniLMEmbeddings()))


def test_refuses_a_model_file_with_the_wrong_hash(tmp_path):
    fake = tmp_path / "model.onnx"
    fake.write_bytes(b"not a model")
    with pytest.raises(RuntimeError, match="refusing to load"):
        MiniLMEmbeddings(model_path=fake).embed_query("x")


def test_paraphrases_are_retrieved_across_domains(minilm, tmp_path):
    from langgraph_mtl import MemoryRecord, MemoryType
    from langgraph_mtl.memory.records import memory_id

    pool = open_pool(str(tmp_path / "pool"), collection="paraphrase", embeddings=minilm)
    keys = {
        "python": "Run the project's unit tests after every change",
        "verilog": "Simulate the circuit with a testbench to check the waveform",
        "data": "Inspect the dataframe columns and dtypes before transforming",
        "shell": "Quote variables in shell scripts to survive spaces in file names",
    }
    pool.upsert(
        [
            MemoryRecord(
                id=memory_id("insight", d, "t", k),
                memory_type=MemoryType.INSIGHT,
                domain=d,
                task_id="t",
                key=k,
                content=k,
            )
            for d, k in keys.items()
        ]
    )
    queries = {
        "Execute the test suite each time you modify the code": "python",
        "Look at the table's fields and their types first": "data",
        "Use a test bench to simulate the hardware design": "verilog",
        "Handle filenames containing blanks in bash": "shell",
    }
    for query, domain in queries.items():
        assert pool.search(query, k=1, exclude_domains="rust")[0].record.domain == domain, query
    # a query holding what UTF-8 cannot (bytes decoded with surrogateescape) is still searched
    assert pool.search("Handle filenames containing blanks \udcff in bash", k=1)[
        0
    ].record.domain == ("shell")
