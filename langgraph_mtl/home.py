"""Where langgraph-mtl keeps its local state: ``$MTL_HOME``, else ``./.mtl``."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["mtl_home"]


def mtl_home() -> Path:
    """The directory for the pool, the outbox, assembled weights, task data and caches."""
    return Path(os.environ.get("MTL_HOME") or ".mtl")
