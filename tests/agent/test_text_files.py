"""A change of a few lines leaves the rest of the file's bytes as they were: its line endings,
its encoding, a byte-order mark; text the file's encoding cannot hold, a file that cannot be
written and a path the file system refuses are answered, not raised."""

from __future__ import annotations

from pathlib import Path

import pytest

from langgraph_mtl.agent.tools import create_sandbox_tools


@pytest.fixture
def tools(tmp_path: Path):
    by_name = {t.name: t for t in create_sandbox_tools(sandbox="none")}

    def call(name: str, **arguments: object) -> str:
        return str(by_name[name].func(workspace=str(tmp_path), **arguments))

    return call


def test_an_edit_keeps_windows_line_endings(tools, tmp_path):
    (tmp_path / "crlf.py").write_bytes(b"one = 1\r\ntwo = 2\r\nthree = 3\r\n")
    assert tools("edit_file", path="crlf.py", old="two = 2", new="two = 22").startswith("[edited")
    assert (tmp_path / "crlf.py").read_bytes() == b"one = 1\r\ntwo = 22\r\nthree = 3\r\n"
    tools("write_file", path="crlf.py", content="one = 1\ntwo = 2\nthree = 4\n")
    assert (tmp_path / "crlf.py").read_bytes() == b"one = 1\r\ntwo = 2\r\nthree = 4\r\n"
    (tmp_path / "lf.py").write_bytes(b"a = 1\nb = 2\n")
    tools("edit_file", path="lf.py", old="b = 2", new="b = 3")
    assert (tmp_path / "lf.py").read_bytes() == b"a = 1\nb = 3\n"


def test_a_latin_1_file_is_shown_searched_and_edited_byte_for_byte(tools, tmp_path):
    (tmp_path / "notes.txt").write_bytes(b"caf\xe9 au lait\nprice = 2\n")
    assert "café au lait" in tools("view_file", path="notes.txt")
    assert "notes.txt:1: café au lait" in tools("search_files", query="caf")
    assert tools("edit_file", path="notes.txt", old="price = 2", new="price = 3").startswith(
        "[edited"
    )
    assert (tmp_path / "notes.txt").read_bytes() == b"caf\xe9 au lait\nprice = 3\n"
    refused = tools("edit_file", path="notes.txt", old="price = 3", new="price = 3 €")
    assert refused.startswith("[refused]") and "latin-1" in refused
    assert (tmp_path / "notes.txt").read_bytes() == b"caf\xe9 au lait\nprice = 3\n"


def test_a_byte_order_mark_stays_and_binary_files_are_not_text(tools, tmp_path):
    (tmp_path / "bom.py").write_bytes(b"\xef\xbb\xbfx = 1\n")
    tools("edit_file", path="bom.py", old="x = 1", new="x = 2")
    assert (tmp_path / "bom.py").read_bytes() == b"\xef\xbb\xbfx = 2\n"
    (tmp_path / "blob.bin").write_bytes(b"\x00\x01x = 1\n")
    assert "not a text file" in tools("view_file", path="blob.bin")
    assert "not a text file" in tools("edit_file", path="blob.bin", old="x = 1", new="x = 2")


def test_text_no_encoding_holds_is_refused_not_raised(tools, tmp_path):
    refused = tools("write_file", path="new.py", content="a = '\ud800'\n")
    assert refused.startswith("[refused]") and not (tmp_path / "new.py").exists()


def test_the_first_look_at_the_workspace_shows_a_latin_1_file_as_its_text(tmp_path):
    from langgraph_mtl.agent.briefing import describe_workspace, referenced_lines

    (tmp_path / "menu.py").write_bytes(b"# -*- coding: latin-1 -*-\nDISH = 'caf\xe9'\n")
    (tmp_path / "blob.bin").write_bytes(b"\x00\x01")
    shown = describe_workspace(str(tmp_path))
    assert "DISH = 'café'" in shown and "blob.bin (binary)" in shown
    said = 'File "menu.py", line 2, in <module>'
    assert "2| DISH = 'café'" in referenced_lines(said, tmp_path)


def test_a_file_that_cannot_be_written_is_an_answer_not_a_crash(tools, tmp_path, monkeypatch):
    import errno

    (tmp_path / "a.py").write_text("x = 1\n")

    def full(self, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Path, "write_bytes", full)
    said = tools("edit_file", path="a.py", old="x = 1", new="x = 2")
    assert said == "[refused] a.py could not be written: No space left on device"
    assert tools("write_file", path="b.py", content="y = 1\n").startswith("[refused] b.py")


def test_a_path_the_file_system_refuses_is_an_answer_not_a_crash(tools, tmp_path):
    (tmp_path / "a.py").write_text("x = 1\n")
    said = tools("write_file", path="a.py/b.py", content="y = 1\n")
    assert said == "[refused] 'a.py/b.py': a folder on that path is a file; give another path"
    long = "n" * 300 + ".py"
    assert "File name too long" in tools("view_file", path=long)
    assert tools("edit_file", path=long, old="a", new="b").startswith("[refused]")
    assert tools("search_files", query="x", path=long).startswith("[error]")
