"""How the agent asks the model for an edit of part of a file, and the default format."""

from __future__ import annotations

from typing import Literal, get_args

__all__ = ["DEFAULT_EDITS", "EDIT_FORMATS", "EditFormat"]

EditFormat = Literal["line_range", "search_replace"]
EDIT_FORMATS: tuple[str, ...] = get_args(EditFormat)

# The better of the two on the repository tasks of the development split with the 1.5B model:
# line ranges solved 1 of 6, search/replace blocks 0 of 6 (the model rarely wrote a block).
DEFAULT_EDITS: EditFormat = "line_range"
