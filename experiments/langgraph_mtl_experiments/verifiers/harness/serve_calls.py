"""Serves calls to the solution's function, one request at a time (standard library only).

Run inside the verifier's sandbox as ``python -I serve_calls.py <function>`` in a folder that
holds only ``solution.py``. Requests and replies are length-prefixed pickles on the original
stdin/stdout; the solution's own prints go to stderr. The tests never enter this process:
the harness outside compares what comes back, as plain data.
"""

from __future__ import annotations

import os
import pickle
import struct
import sys


def _send(out, message: object) -> None:
    try:
        data = pickle.dumps(message, protocol=4)
    except Exception as exc:  # an unpicklable result cannot be compared: say so
        data = pickle.dumps(("bad-result", f"the result cannot be sent: {exc}"[:300]), protocol=4)
    out.write(struct.pack(">Q", len(data)) + data)
    out.flush()


def _receive(inp) -> object | None:
    head = inp.read(8)
    if len(head) < 8:
        return None
    return pickle.loads(inp.read(struct.unpack(">Q", head)[0]))  # from the trusted harness


def main() -> None:
    entry = sys.argv[1]
    out = os.fdopen(os.dup(1), "wb")
    inp = os.fdopen(os.dup(0), "rb")
    os.dup2(2, 1)
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    namespace: dict[str, object] = {"__name__": "solution"}
    try:
        with open("solution.py", encoding="utf-8") as handle:
            exec(compile(handle.read(), "solution.py", "exec"), namespace)
        function = namespace[entry]
    except BaseException as exc:
        _send(out, ("load-error", f"{type(exc).__name__}: {exc}"[:500]))
        return
    _send(out, ("ready",))
    while (request := _receive(inp)) is not None:
        args, kwargs = request  # type: ignore[misc]
        try:
            reply: tuple[object, ...] = ("ok", function(*args, **kwargs))  # type: ignore[operator,has-type]
        except BaseException as exc:
            reply = ("raise", type(exc).__name__, str(exc)[:300])
        _send(out, reply)


if __name__ == "__main__":
    main()
