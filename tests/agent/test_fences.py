"""Files shown to the model are fenced with their language and cannot close the fence early."""

from __future__ import annotations

import pytest

from langgraph_mtl.agent.fences import fence_file, language_of


@pytest.mark.parametrize(
    ("path", "label"),
    [
        ("solution.py", "python"),
        ("answer.sh", "bash"),
        ("src/lib.rs", "rust"),
        ("Makefile", "make"),
        ("dir\\notes.md", "markdown"),
        ("notes", ""),
        ("data.csv", ""),
        ("", ""),
    ],
)
def test_the_label_is_the_language_the_file_name_says(path, label):
    assert language_of(path) == label


def test_a_plain_file_gets_a_three_backtick_fence():
    assert fence_file("a.py", "x = 1") == "```python\nx = 1\n```"
    assert fence_file("a.py", "x = 1\n") == "```python\nx = 1\n```"


def test_a_file_holding_fences_gets_a_longer_one():
    text = "# Use\n```bash\nrun\n```\nand ````` five\n"
    fenced = fence_file("README.md", text)
    assert fenced == f"``````markdown\n{text}``````"
    assert fenced.count("``````") == 2  # only the outer fence is six long
