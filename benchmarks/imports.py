"""JSONL import with vectors against raw ``collection.add`` of the same records, same run."""

from __future__ import annotations

import json
import tempfile
import time

import chromadb
import numpy as np
from chromadb.config import Settings
from rich.console import Console

from benchmarks.data import memory_texts, noisy_vectors, records
from langgraph_mtl import open_pool
from langgraph_mtl.pool.codec import to_metadata
from langgraph_mtl.pool.embeddings import MiniLMEmbeddings


def import_ratio(count: int, console: Console) -> dict[str, float]:
    """Records per second of ``mtl pool import`` (vectors reused) and of a raw add."""
    embedder = MiniLMEmbeddings()
    texts = memory_texts(2000, seed=5)
    base = np.asarray(MiniLMEmbeddings(threads=2).embed_array(texts), dtype=np.float32)
    batch = records(texts, 0, count, seed=5)
    vectors = noisy_vectors(base, 0, count, seed=5)
    with tempfile.TemporaryDirectory() as tmp:
        pool = open_pool(tmp, collection="imported", embeddings=embedder)
        name = pool.identity_name
        lines = [
            json.dumps(
                {"record": r.model_dump(mode="json"), "embedding": v.tolist(), "embedder": name}
            )
            for r, v in zip(batch, vectors, strict=True)
        ]
        start = time.perf_counter()
        report = pool.import_jsonl(lines)
        imported = count / (time.perf_counter() - start)
        assert report.imported == count, report

        raw = chromadb.PersistentClient(
            path=f"{tmp}/raw", settings=Settings(anonymized_telemetry=False)
        ).create_collection("raw", configuration={"hnsw": {"space": "cosine"}})
        start = time.perf_counter()
        for i in range(0, count, 1000):
            raw.add(
                ids=[r.id for r in batch[i : i + 1000]],
                embeddings=vectors[i : i + 1000],
                documents=[r.content for r in batch[i : i + 1000]],
                metadatas=[to_metadata(r) for r in batch[i : i + 1000]],
            )
        added = count / (time.perf_counter() - start)
    result = {
        "records": count,
        "import_per_s": round(imported),
        "raw_add_per_s": round(added),
        "ratio": round(imported / added, 2),
    }
    console.print(
        f"JSONL import with vectors: {result['import_per_s']:,} records/s | raw collection.add "
        f"{result['raw_add_per_s']:,} records/s | import/raw {result['ratio']:.2f}x "
        f"({count:,} records)"
    )
    return result


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--records", type=int, default=20000)
    import_ratio(parser.parse_args().records, Console())
