"""The embedded local model: pinned weights and a llama.cpp server process."""

from __future__ import annotations
