"""Reading and writing a workspace's text files as they are kept: a change of one line leaves
the file's line endings (``\\r\\n``, ``\\n`` or ``\\r``, mixed too) and its encoding (UTF-8,
else Latin-1, which reads any bytes back as they were) as they were, so the diff holds only the
change. A write that fails part-way (a full disk) leaves the file as it was.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import tempfile
from collections import Counter
from pathlib import Path

from langgraph_mtl.agent.outcomes import Answer, refused

__all__: list[str] = []  # used within the agent package only

_ENDING = re.compile(r"\r\n|\r|\n")
_BINARY_PROBE = 8192  # a NUL byte in the first this many bytes: not a text file


def read_text(target: Path) -> str | None:
    """The file's text with ``\\n`` line endings, or None when it holds binary data (a NUL
    byte) or cannot be read."""
    try:
        data = target.read_bytes()
    except OSError:
        return None
    if b"\0" in data[:_BINARY_PROBE]:
        return None
    return _decoded(data)[0].replace("\r\n", "\n").replace("\r", "\n")


def write_text(target: Path, text: str, path: str = "") -> Answer | None:
    """Write ``text`` (``\\n`` line endings) to ``target`` with the line endings and encoding
    the file has now (a new file: as given, UTF-8); the refusal when the file's encoding cannot
    hold the text, else None."""
    try:
        data = target.read_bytes() if target.is_file() else b""
    except OSError:
        data = b""
    kept, encoding = _decoded(data)
    text = _with_line_endings(kept, text)
    try:
        payload = text.encode(encoding)
    except UnicodeEncodeError as error:
        bad = text[error.start : error.end]
        return refused(
            f"[refused] {path or target.name} is kept in {encoding}, which cannot hold {bad!r}; "
            "nothing was changed. Give the change without that character.",
            "encoding",
        )
    try:
        _replace(target, payload)
    except OSError as error:  # a full disk, a read-only file: the run goes on, told why
        why = error.strerror or error
        return refused(
            f"[refused] {path or target.name} could not be written: {why}", "write_error"
        )
    return None


def _with_line_endings(old: str, new: str) -> str:
    """``new`` with the line endings ``old`` has: the lines it keeps at its start and its end
    keep theirs (a file of mixed endings stays so), the lines between take the ending most of
    ``old``'s lines have. An empty ``old`` (a new file) leaves ``new`` as given."""
    if not old:
        return new
    lines, endings = _ENDING.split(old), _ENDING.findall(old)
    usual = Counter(endings).most_common(1)
    after = new.replace("\r\n", "\n").split("\n")
    chosen = [usual[0][0] if usual else "\n"] * (len(after) - 1)  # after[i] ends in chosen[i]
    shortest = min(len(after), len(lines))
    start = 0
    while start < shortest and after[start] == lines[start]:
        if start < min(len(chosen), len(endings)):
            chosen[start] = endings[start]
        start += 1
    end = 1  # after[-end] is lines[-end]; past the last line, it has an ending
    while end <= shortest - start and after[-end] == lines[-end]:
        if end > 1:
            chosen[-end + 1] = endings[-end + 1]
        end += 1
    for index in range(len(chosen) - 1):  # \r, then an empty line ending in \n, reads as one
        if chosen[index] == "\r" and not after[index + 1] and chosen[index + 1] == "\n":
            chosen[index] = "\r\n"
    return "".join(line + ending for line, ending in zip(after, chosen, strict=False)) + after[-1]


def _replace(target: Path, payload: bytes) -> None:
    """Write ``payload`` to a file beside ``target`` and move it into place, so ``target`` holds
    either its old bytes or all the new ones; its permission bits and, where the process may
    set them, its owner and group are kept."""
    real = target.resolve()
    if not real.exists():  # nothing to lose: written in place, removed if the write fails
        _write_new(real, payload)
        return
    if not os.access(real, os.W_OK):
        raise PermissionError(13, "Permission denied")
    handle, temporary = tempfile.mkstemp(dir=real.parent, prefix=f".{real.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(payload)
        shutil.copymode(real, temporary)
        held = real.stat()
        with contextlib.suppress(OSError):  # only the superuser may give a file away
            os.chown(temporary, held.st_uid, held.st_gid)
        os.replace(temporary, real)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _write_new(path: Path, payload: bytes) -> None:
    """Create ``path`` with ``payload``; a failed write leaves no part-written file."""
    with open(path, "xb") as file:
        try:
            file.write(payload)
            file.flush()
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(path)
            raise


def _decoded(data: bytes) -> tuple[str, str]:
    """The text of ``data`` and its encoding: UTF-8 when it decodes so, else Latin-1."""
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        return data.decode("latin-1"), "latin-1"
