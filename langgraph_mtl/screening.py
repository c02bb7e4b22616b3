"""Injection screening: memory text that tries to instruct the reading agent is quarantined.

A quarantined memory is kept and flagged, never retrieved unless asked for, and reported.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Screening", "screen"]

_RULES: list[tuple[str, re.Pattern[str]]] = [
    ("override", re.compile(
        r"(?i)\b(ignore|disregard|forget|override|bypass)\b[^.\n]{0,40}\b(previous|prior|above|earlier|"
        r"all|any|your|system|original)\b[^.\n]{0,20}\b(instructions?|prompts?|rules|guidelines|"
        r"directives|messages?|context)\b")),
    ("role-change", re.compile(
        r"(?i)\b(you are now|from now on,? you|act as (?:an? )?(?:unrestricted|jailbroken|root)|"
        r"new (?:system )?instructions?:|developer mode|DAN mode)")),
    ("prompt-leak", re.compile(
        r"(?i)\b(reveal|print|show|repeat|output|leak)\b[^.\n]{0,30}\b(system prompt|hidden "
        r"instructions|your instructions|api keys?|secrets?|credentials|environment variables)\b")),
    ("exfiltration", re.compile(
        r"(?i)(\b(exfiltrat\w*|upload|send|post|transmit|forward)\b[^\n]{0,60}?(\b(keys?|tokens?|"
        r"secrets?|credentials|passwords?|ssh|id_rsa|env(?:ironment)?)\b|\.env\b|~/\.\w+))|"
        r"(\b(curl|wget)\b[^\n]{0,80}(-d|--data|-F|--upload-file|-T)\b[^\n]{0,80}"
        r"(\$\w*(KEY|TOKEN|SECRET)|\.env|id_rsa|/etc/passwd|\$\(env\)|`env`))")),
    ("remote-exec", re.compile(
        r"(?i)((curl|wget)\b[^\n|]{0,120}\|\s*(sudo\s+)?(ba|z|k)?sh\b)|"
        r"(base64\s+(-d|--decode)[^\n|]{0,40}\|\s*(ba)?sh\b)|(\beval\s*\$\((curl|wget))")),
    ("unconditional", re.compile(
        r"(?i)(\b(unconditionally|no matter what|whatever the task|without (?:asking|checking|"
        r"verification|question|telling))\b[^.\n]{0,40}\b(run|execute|call|invoke)\b)|"
        r"(\b(run|execute|call|invoke)\b[^.\n]{0,60}\b(unconditionally|no matter what|without "
        r"(?:asking|checking|verification|question|telling)))")),
    ("destructive", re.compile(
        r"(?i)(\brm\s+-[a-z]*r[a-z]*f?[a-z]*\s+(/|~|\$HOME|\*)(\s|$))|(\bmkfs\.)|(:\(\)\s*\{\s*:\|:&\s*\};:)|"
        r"(\bchmod\s+-R\s+777\s+/)|(\bdd\s+if=/dev/(zero|random)\s+of=/dev/sd)")),
    ("tool-call", re.compile(
        r"(?i)(<\s*/?\s*(tool_call|function_call|tool_use|invoke|system|im_start|im_end)\b)|"
        r"(\"(name|tool)\"\s*:\s*\"[^\"]+\"\s*,\s*\"(arguments|parameters|input)\"\s*:)|"
        r"(</\s*memory\s*>)|(\[/?INST\])|(<\|(system|user|assistant|im_start|im_end)\|>)")),
]  # fmt: skip


@dataclass(frozen=True)
class Screening:
    """What screening found: the rule names that matched (empty when clean)."""

    reasons: tuple[str, ...] = ()

    @property
    def flagged(self) -> bool:
        return bool(self.reasons)


def screen(*texts: str) -> Screening:
    """Screen texts for attempts to instruct the reading agent."""
    joined = "\n".join(texts)
    return Screening(tuple(name for name, pattern in _RULES if pattern.search(joined)))
