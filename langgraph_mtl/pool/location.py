"""Where a pool lives, parsed once: a directory (embedded Chroma), a Chroma server URL, or memory.

Anything else is refused with a message that says what was expected, so a typo never turns
into a new, empty pool somewhere unexpected.
"""

from __future__ import annotations

import ipaddress
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal
from urllib.parse import urlparse

from langgraph_mtl.home import mtl_home

__all__ = [
    "PoolLocation",
    "PoolLocationError",
    "PoolUnavailableError",
    "check_collection_name",
    "default_pool_location",
    "parse_location",
]

_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")
_HOST_PORT = re.compile(r"^[A-Za-z0-9.-]+:\d+(/.*)?$")
_COLLECTION_NAME = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?")
_LONGEST_PART_SUFFIX = len(".trajectory")  # each memory type has its own collection
SQLITE_FILE = "chroma.sqlite3"


class PoolLocationError(ValueError):
    """The pool location is not something a pool can live at (a configuration error)."""


class PoolUnavailableError(RuntimeError):
    """The pool location is valid but the pool cannot be reached or does not exist there."""


@dataclass(frozen=True)
class PoolLocation:
    """A parsed pool location."""

    kind: Literal["dir", "server", "memory"]
    path: Path | None = None
    host: str = ""
    port: int = 0
    ssl: bool = False

    @property
    def url(self) -> str:
        return f"{'https' if self.ssl else 'http'}://{self.host}:{self.port}"

    def __str__(self) -> str:
        if self.kind == "memory":
            return ":memory:"
        return self.url if self.kind == "server" else str(self.path)

    def has_pool(self) -> bool:
        """For a directory: whether an embedded Chroma is stored there already."""
        return self.kind == "dir" and self.path is not None and (self.path / SQLITE_FILE).is_file()

    def require_pool(self) -> None:
        """For a directory: raise :class:`PoolUnavailableError` unless a pool is stored there
        (a read must not create one)."""
        if self.kind == "dir" and not self.has_pool():
            raise PoolUnavailableError(
                f"no pool at {self.path} (nothing has been stored there); check --pool / "
                "MTL_POOL, or write to it first"
            )


def check_collection_name(name: str) -> str:
    """``name`` if Chroma accepts it (with the memory-type suffixes the pool adds).

    Raises:
        PoolLocationError: the name is too short or too long, has other characters or two
            periods in a row, or is an IP address.
    """
    longest = 512 - _LONGEST_PART_SUFFIX
    if not isinstance(name, str):
        raise PoolLocationError(f"collection name {name!r:.60} is not text: give a name")
    if not (3 <= len(name) <= longest and _COLLECTION_NAME.fullmatch(name)) or ".." in name:
        raise PoolLocationError(
            f"collection name {name[:80]!r} is not allowed: use 3 to {longest} letters, digits, "
            "'.', '_' or '-', starting and ending with a letter or digit, no '..' "
            "(--collection)"
        )
    if _is_ip_address(name):
        raise PoolLocationError(
            f"collection name {name!r} is not allowed: it reads as an IP address; add a word"
        )
    return name


def _is_ip_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def default_pool_location() -> str:
    """``$MTL_POOL`` if set, else ``$MTL_HOME/pool``, else ``./.mtl/pool``."""
    return os.environ.get("MTL_POOL") or str(mtl_home() / "pool")


def parse_location(text: str | os.PathLike[str]) -> PoolLocation:
    """Parse ``text`` (a directory, ``http(s)://host:port`` or ``:memory:``).

    Raises:
        PoolLocationError: an unknown scheme, a ``host:port`` without scheme, an empty value,
            or a path that exists but is not a directory.
    """
    if isinstance(text, os.PathLike):  # a pathlib.Path to a directory
        text = os.fspath(text)
    if not isinstance(text, str):
        raise PoolLocationError(
            f"pool location {text!r:.60} is not text: give a directory, http://host:port or "
            "':memory:'"
        )
    value = text.strip()
    if not value:
        raise PoolLocationError("pool location is empty: give a directory or http://host:port")
    if value == ":memory:":
        return PoolLocation("memory")
    scheme = _SCHEME.match(value)
    if scheme:
        name = scheme.group(1).lower()
        if name not in ("http", "https"):
            raise PoolLocationError(
                f"pool location {value!r}: unknown scheme {scheme.group(1)!r}; use a directory, "
                "http://host:port or https://host:port"
            )
        url = urlparse(name + value[len(scheme.group(1)) :])
        if not url.hostname:
            raise PoolLocationError(f"pool location {value!r}: no host in the URL")
        try:
            port = url.port or (443 if name == "https" else 8000)
        except ValueError:
            raise PoolLocationError(f"pool location {value!r}: the port is not a number") from None
        return PoolLocation("server", host=url.hostname, port=port, ssl=name == "https")
    if _HOST_PORT.match(value) and not Path(value).exists():
        raise PoolLocationError(
            f"pool location {value!r} looks like a server address without a scheme; "
            f"write http://{value} (or give a directory path)"
        )
    path = Path(value).expanduser()
    if path.exists() and not path.is_dir():
        raise PoolLocationError(
            f"pool location {value!r} is a file, not a directory; point it at the pool's "
            "directory (or a new one)"
        )
    return PoolLocation("dir", path=path)
