"""Every row of a run comes from the same code: a run records the code it starts with, and a
resumed run refuses other code, naming the commit to resume from."""

from __future__ import annotations

import json
import shutil

import pytest
from langgraph_mtl_experiments import code_identity
from langgraph_mtl_experiments.code_identity import (
    CODE_FILE,
    CodeChanged,
    CodeIdentity,
    check_code,
    current_code,
)


def test_the_code_running_now_is_named_by_its_sources_and_commit():
    code = current_code()
    assert len(code.source_sha256) == 64
    assert code.name.startswith(code.commit[:12] or "sha256:")
    assert code.pinned == (bool(code.commit) and not code.dirty)


def test_a_changed_source_file_changes_the_identity(tmp_path):
    roots = code_identity._roots()
    copies = []
    for root in roots:
        copy = tmp_path / root.name
        shutil.copytree(root, copy, ignore=shutil.ignore_patterns("__pycache__"))
        copies.append(copy)
    before = code_identity._source_hash(copies)
    assert before == code_identity._source_hash(roots)  # the same files, the same hash
    (copies[1] / "runner.py").write_text((copies[1] / "runner.py").read_text() + "\n# x\n")
    assert code_identity._source_hash(copies) != before


def test_a_new_run_records_its_code_and_a_resumed_one_under_it_goes_on(tmp_path):
    now = check_code(tmp_path, has_rows=False)
    assert json.loads((tmp_path / CODE_FILE).read_text())["source_sha256"] == now.source_sha256
    assert check_code(tmp_path, has_rows=True) == now


def test_a_run_with_rows_refuses_other_code_and_says_where_to_resume(tmp_path):
    other = CodeIdentity("0" * 64, commit="a1b2c3d4e5f6a7b8", dirty=False)
    (tmp_path / CODE_FILE).write_text(json.dumps(other.record()))
    with pytest.raises(CodeChanged, match="a1b2c3d4e5f6") as caught:
        check_code(tmp_path, has_rows=True)
    assert "git worktree add" in str(caught.value)
    assert json.loads((tmp_path / CODE_FILE).read_text()) == other.record()  # kept as it was


def test_a_run_without_rows_yet_takes_the_code_it_restarts_with(tmp_path):
    (tmp_path / CODE_FILE).write_text(json.dumps(CodeIdentity("0" * 64).record()))
    now = check_code(tmp_path, has_rows=False)
    assert json.loads((tmp_path / CODE_FILE).read_text())["source_sha256"] == now.source_sha256


def test_a_damaged_code_record_is_named(tmp_path):
    (tmp_path / CODE_FILE).write_text("{not json")
    with pytest.raises(CodeChanged, match="not a code record"):
        check_code(tmp_path, has_rows=True)
