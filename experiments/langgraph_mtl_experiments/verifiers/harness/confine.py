"""Keeps code under test from reaching into the harness that checks it (standard library
only; run inside the verifier's sandbox, in the same process as the code under test).

``confine(harness_dir)`` installs an audit hook that refuses, on behalf of code outside the
interpreter's own libraries and ``harness_dir`` (the solution, the project under test, the
suite, code they compile), the ways into the harness's state:

- a frame older than that code's own (``sys._getframe``, also through a library such as
  pandas' ``eval(level=...)``), or any frame it asks for itself (``inspect``, a traceback's,
  generator's or coroutine's frame); libraries asking for their own purposes pass (pandas
  finding a warning's stack level, ``collections.namedtuple`` naming its module);
- while it is running at all: every thread's frames, tracing of every thread, monitoring
  callbacks, the garbage collector's object lists and an audit hook of its own;
- asked for by it: tracing or profiling, raw memory (``ctypes``), code objects made by hand or
  passed off as a library's, a new body or new default arguments for a function written in
  another file (``__code__``, ``__defaults__``, ``__kwdefaults__``: the test machinery changed
  in place, where its identity stays the same); from anywhere: ``/proc/<pid>/mem``.

``inspect``, ``traceback``, the debuggers and ``ctypes`` hand on what their caller asked for,
so their caller is the one judged (``doctest`` restoring the tracer it found passes). A
refused request raises ``PermissionError`` and is listed by the function ``confine`` returns,
which the harness reports as tampering. An audit hook cannot be removed, and is not a sandbox:
this closes the routes named here, not every route into a process.
"""

from __future__ import annotations

import os
import sys
import sysconfig
from collections.abc import Callable
from types import FrameType

FRAME_ATTRIBUTES = frozenset({"tb_frame", "gi_frame", "cr_frame", "ag_frame"})
WHILE_RUNNING = frozenset(
    {
        "sys._current_frames",
        "sys._current_exceptions",
        "sys._settraceallthreads",
        "sys._setprofileallthreads",
        "sys.monitoring.register_callback",
        "gc.get_objects",
        "gc.get_referrers",
        "gc.get_referents",
        "sys.addaudithook",  # a hook of its own runs its code wherever the harness's runs
    }
)
ASKED_BY = frozenset(
    {"sys.settrace", "sys.setprofile", "code.__new__", "marshal.loads", "marshal.load"}
)
FUNCTION_INTERNALS = frozenset({"__code__", "__defaults__", "__kwdefaults__"})
WATCHED = WHILE_RUNNING | ASKED_BY | {"open", "sys._getframe", "compile"}
WATCHED |= {"object.__getattr__", "object.__setattr__"}
HANDS_ON = (
    (os.sep + "inspect.py", ("currentframe", "stack", "trace", "getouterframes", "getinnerframes")),
    (os.sep + "traceback.py", ("walk_stack", "walk_tb")),
    (os.sep + "bdb.py", ()),
    (os.sep + "pdb.py", ()),
    (os.sep + "ctypes" + os.sep, ()),
    (os.sep + "ctypeslib.py", ()),
)


def _library_roots() -> tuple[str, ...]:
    paths = sysconfig.get_paths()
    keys = ("stdlib", "platstdlib", "purelib", "platlib")
    return tuple(sorted({os.path.realpath(paths[k]) + os.sep for k in keys if k in paths}))


def _hands_on(frame: FrameType, started: bool) -> bool:
    """``frame`` runs a function that hands frames or memory on to its caller (once one has,
    every frame of those modules is passed through)."""
    code = frame.f_code
    for suffix, functions in HANDS_ON:
        if code.co_filename.endswith(suffix) or (
            suffix.endswith(os.sep) and suffix in code.co_filename
        ):
            return started or not functions or code.co_name in functions
    return False


def confine(harness_dir: str) -> Callable[[], list[str]]:
    """Install the hook; returns a function listing what was refused (first ten)."""
    import _thread

    roots = (*_library_roots(), os.path.realpath(harness_dir) + os.sep)
    refused: list[str] = []
    busy: set[int] = set()
    getframe, get_ident = sys._getframe, _thread.get_ident
    realpath, isabs = os.path.realpath, os.path.isabs
    known: dict[str, bool] = {}

    def library_file(name: str) -> bool:
        """A file under the libraries or ``harness_dir`` (decided once per name)."""
        verdict = known.get(name)
        if verdict is None:
            try:
                verdict = isabs(name) and realpath(name).startswith(roots)
            except (ValueError, OSError):  # a name no file can have
                verdict = False
            known[name] = verdict
        return verdict

    def trusted(frame: FrameType) -> bool:
        name = frame.f_code.co_filename
        return name.startswith("<frozen ") or library_file(name)

    def asker(raiser: FrameType | None) -> FrameType | None:
        """The frame that asked, seen through the functions that hand things on."""
        started = False
        while raiser is not None and _hands_on(raiser, started):
            started, raiser = True, raiser.f_back
        return raiser

    def asked_by_untrusted(raiser: FrameType | None) -> bool:
        first = asker(raiser)
        return first is not None and not trusted(first)

    def innermost_untrusted(raiser: FrameType | None) -> FrameType | None:
        while raiser is not None and trusted(raiser):
            raiser = raiser.f_back
        return raiser

    def reason(event: str, args: tuple[object, ...], raiser: FrameType | None) -> str | None:
        if event == "open":
            path = args[0] if args else None
            if isinstance(path, bytes):
                path = path.decode("utf-8", "replace")
            return f"open {path}" if isinstance(path, str) and _raw_memory(path) else None
        if event in WHILE_RUNNING:
            return event if innermost_untrusted(raiser) is not None else None
        if event == "sys._getframe":
            if asked_by_untrusted(raiser):
                return event
            untrusted = innermost_untrusted(raiser)
            given = args[0] if args else None
            if untrusted is None or given is None:
                return None
            frame: FrameType | None = raiser
            while frame is not None and frame is not given and frame is not untrusted:
                frame = frame.f_back
            return None if frame is given else "a frame above the solution's own"
        if event == "object.__setattr__":
            if len(args) < 2 or args[1] not in FUNCTION_INTERNALS:
                return None
            first = asker(raiser)
            code = getattr(args[0], "__code__", None)
            if first is None or trusted(first):
                return None
            if code is not None and code.co_filename == first.f_code.co_filename:
                return None  # its own function
            return f"a new {args[1]} for {getattr(args[0], '__qualname__', 'a function')}"
        if event == "object.__getattr__":
            if len(args) < 2 or args[1] not in FRAME_ATTRIBUTES:
                return None
            event = f"the {args[1]} attribute"
        elif event == "compile":
            name = args[1] if len(args) > 1 else None
            if not (isinstance(name, str) and library_file(name)):
                return None
            event = f"code named as a library's ({name})"
        elif not (event in ASKED_BY or event.startswith("ctypes.")):
            return None
        return event if asked_by_untrusted(raiser) else None

    def hook(event: str, args: tuple[object, ...]) -> None:
        if event not in WATCHED and not event.startswith("ctypes."):
            return
        ident = get_ident()
        if ident in busy:
            return
        busy.add(ident)
        try:
            try:
                raiser: FrameType | None = getframe(1)
            except ValueError:  # raised from a thread with no Python frame
                raiser = None
            found = reason(event, args, raiser)
        except Exception as exc:  # a check that cannot decide refuses
            found = f"{event} (undecided: {type(exc).__name__})"
        finally:
            busy.discard(ident)
        if found is not None:
            if len(refused) < 10:
                refused.append(found)
            raise PermissionError(f"{found}: not allowed while the solution is checked")

    sys.addaudithook(hook)
    return lambda: list(refused)


def _raw_memory(path: str) -> bool:
    """``/proc/<pid>/mem`` and the like: a process's memory read as a file."""
    parts = path.replace("\\", "/").rstrip("/").split("/")
    in_proc = len(parts) >= 4 and parts[1] == "proc"
    return (in_proc and parts[-1] in ("mem", "pagemap")) or path in ("/dev/mem", "/dev/kmem")


def run_apart(target: Callable[..., object], *args: object) -> None:
    """Run ``target(*args)`` in a daemon thread of its own and wait for it. The thread forgets
    both as it starts, so code under test that lists the threads (``threading.enumerate()``)
    cannot reach the harness's state through the running one's ``_target`` or ``_args``."""
    import threading

    box = [(target, args)]

    def start() -> None:
        call, arguments = box.pop()
        call(*arguments)

    worker = threading.Thread(target=start, daemon=True)
    worker.start()
    worker.join()
