"""A change of a few lines leaves the rest of the file's bytes as they were: its line endings,
its encoding, a byte-order mark; text the file's encoding cannot hold, a file that cannot be
written and a path the file system refuses are answered, not raised."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from langgraph_mtl.agent.tools import create_sandbox_tools


@pytest.fixture
def tools(tmp_path: Path):
    by_name = {t.name: t for t in create_sandbox_tools(sandbox="none")}

    def call(name: str, **arguments: object) -> str:
        content, _facts = by_name[name].func(workspace=str(tmp_path), **arguments)
        return str(content)

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


def test_an_edit_of_a_file_of_mixed_line_endings_changes_only_the_edited_line(tools, tmp_path):
    mixed = tmp_path / "mixed.py"
    mixed.write_bytes(b"a = 1\r\nb = 2\nc = 3\r\nd = 4\n")
    tools("edit_file", path="mixed.py", old="c = 3", new="c = 33\ncc = 34")
    assert mixed.read_bytes() == b"a = 1\r\nb = 2\nc = 33\r\ncc = 34\r\nd = 4\n"
    old_mac = tmp_path / "old_mac.txt"  # lines ended by a lone carriage return
    old_mac.write_bytes(b"one\rtwo\rthree\r")
    tools("edit_file", path="old_mac.txt", old="two", new="two\n")
    assert old_mac.read_bytes() == b"one\rtwo\r\rthree\r"
    assert tools("view_file", path="old_mac.txt").count("|") == 4
    (tmp_path / "both.txt").write_bytes(b"a\rb\nc\n")  # \r then \n would read as one ending
    tools("edit_file", path="both.txt", old="a", new="a\n")
    assert tools("view_file", path="both.txt").count("|") == 4


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


def test_a_write_cut_short_by_the_disk_leaves_the_file_as_it_was(tmp_path):
    """A real fault: a file-size limit stops the write part-way, as a full disk would."""
    (tmp_path / "a.py").write_text("x = 1\n")
    script = textwrap.dedent(
        """
        import resource, signal, sys
        from pathlib import Path
        from langgraph_mtl.agent.text_files import write_text
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (64, 64))
        folder = Path(sys.argv[1])
        print(write_text(folder / "a.py", "x = 2\\n" * 100, "a.py"))
        print(write_text(folder / "b.py", "y = 1\\n" * 100, "b.py"))
        """
    )
    ran = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path)], capture_output=True, text=True, check=True
    )
    assert ran.stdout.splitlines() == [
        "[refused] a.py could not be written: File too large",
        "[refused] b.py could not be written: File too large",
    ]
    assert (tmp_path / "a.py").read_text() == "x = 1\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.py"]


def test_an_edit_keeps_the_file_mode_and_writes_through_a_link(tools, tmp_path):
    script = tmp_path / "run.sh"
    script.write_text("echo one\n")
    script.chmod(0o751)
    (tmp_path / "link.sh").symlink_to("run.sh")
    assert tools("edit_file", path="link.sh", old="one", new="two").startswith("[edited")
    assert script.read_text() == "echo two\n" and stat.S_IMODE(script.stat().st_mode) == 0o751
    assert (tmp_path / "link.sh").is_symlink()
    if os.geteuid() == 0:  # a file another user owns stays theirs
        os.chown(script, 1234, 5678)
        tools("edit_file", path="run.sh", old="two", new="three")
        assert (script.stat().st_uid, script.stat().st_gid) == (1234, 5678)


def test_a_file_without_write_permission_is_refused_not_replaced(tools, tmp_path, monkeypatch):
    # a read-only file in a writable folder could be replaced; it is refused as a write would be
    read_only = tmp_path / "fixed.py"
    read_only.write_text("x = 1\n")
    monkeypatch.setattr(os, "access", lambda path, mode: Path(path).name != "fixed.py")
    said = tools("edit_file", path="fixed.py", old="x = 1", new="x = 2")
    assert said == "[refused] fixed.py could not be written: Permission denied"
    assert read_only.read_text() == "x = 1\n"


def test_a_path_the_file_system_refuses_is_an_answer_not_a_crash(tools, tmp_path):
    (tmp_path / "a.py").write_text("x = 1\n")
    said = tools("write_file", path="a.py/b.py", content="y = 1\n")
    assert said == "[refused] 'a.py/b.py': a folder on that path is a file; give another path"
    long = "n" * 300 + ".py"
    assert "File name too long" in tools("view_file", path=long)
    assert tools("edit_file", path=long, old="a", new="b").startswith("[refused]")
    assert tools("search_files", query="x", path=long).startswith("[error]")
