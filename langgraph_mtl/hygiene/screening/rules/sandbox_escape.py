"""Screening rules of the category "sandbox-escape": disabling or escaping the sandbox removes the
isolation every run relies on."""

from __future__ import annotations

import re

from langgraph_mtl.hygiene.screening.rules.parts import rule

__all__ = ["RULES"]

RULES: list[tuple[str, re.Pattern[str]]] = [
    ("sandbox-escape", rule(
        r"\b(?:disable|turn off|switch off|escape|bypass|break out of|get around|circumvent)\s+"
        r"(?:the |your |any |all )?(?:sandbox\w*|safety (?:checks?|filters?|rules)|guardrails?|"
        r"restrictions|content filters?|seccomp|bwrap|bubblewrap|screening)\b")),
    # the host reached from inside: another process's root through /proc, the host's
    # namespaces entered or its file system mounted, a write routed around the sandbox (a disk
    # mounted by name is ordinary system work)
    ("sandbox-escape", rule(
        r"/proc/\d+/root\b|\bnsenter\b[^\n]{0,30}(?:-t\s*1\b|--target\s*1\b)|"
        r"\bmount\b[^\n]{0,40}\bthe host'?s? (?:root|disks?|file ?system)|"
        r"\bchroot\s+/(?:host|mnt/host)\b|\b(?:write|writes|writing|reach|get)\s+(?:through|"
        r"around|outside)\s+(?:the |your )?(?:sandbox|bwrap|bubblewrap|jail|container)\b")),
]  # fmt: skip
