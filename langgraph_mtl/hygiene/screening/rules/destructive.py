"""Screening rules of the category "destructive": commands that wipe the file system or home
directory destroy the user's data."""

from __future__ import annotations

import re

from langgraph_mtl.hygiene.screening.rules.parts import SPAN, rule

__all__ = ["RULES"]

# harm in its own name: malware, a stopped machine, the host's name resolution changed
_MALWARE = (
    r"\bkey ?loggers?\b|\bkeystroke logg\w*|\bmin(?:e|es|ing) (?:crypto\w*|bitcoin|monero|"
    r"xmr)\b|\bcrypto ?(?:currency )?miners?\b|\bxmrig\b|\bbackdoors?\b|\brootkits?\b|"
    r"\bbotnets?\b|\bransomware\b|\bspyware\b|\btrojans?\b"
)

_SYSTEM = (
    r"\bshutdown\s+(?:-\w+\s+)*(?:now|0)\b|\bpoweroff\b|\bsystemctl\s+(?:poweroff|reboot|"
    r"halt)\b|\binit\s+0\b|\b(?:os\.system|subprocess\.\w+)\(\s*\[?['\"](?:shutdown|reboot|"
    r"poweroff|halt)|\b(?:overwrit|edit|modif|append|writ|chang|add|point)\w*\b[^\n]{0,30}?"
    r"/etc/(?:hosts|resolv\.conf|nsswitch\.conf)\b|\b(?:writ|edit|modif|chang)\w* outside "
    r"(?:of )?(?:the|your) (?:workspace|sandbox|project)\b"
)

_START_UP = (
    r"(?:~/|\$HOME/|/root/)?\.(?:bashrc|bash_profile|bash_login|zshrc|profile|zprofile)\b|"
    r"/etc/(?:profile|bash\.bashrc)\b|\b(?:bashrc|zshrc)\b|"
    r"\bcron ?(?:jobs?|tabs?|entry|entries)\b|\bcrontab\b|/etc/cron\w*|\bsystemd (?:units?|"
    r"services?|timers?)\b|\bauthorized_keys\b|/etc/rc\.local\b|\blaunchagents\b"
)

# a path under the home or a system folder that names a cache, a temporary folder or a build's
# output: what it holds is made again, so removing it destroys nothing ("rm -rf ~/.cache/pip")
_NOT_REGENERATED = (
    r"(?![^\s`'\";&|)]*?[/._](?:cache|caches|tmp|temp|build|dist|node_modules|__pycache__|"
    r"target|venv|tox|pytest_cache|mypy_cache|ruff_cache)(?:[/\s`'\";&|)]|$))"
)

RULES: list[tuple[str, re.Pattern[str]]] = [
    # persistence and privilege: sudoers, hooks and start-up files fed from outside
    ("destructive", rule(
        r"\bchmod\s+(?:-R\s+)?(?:777|666|a\+w|o\+w)\s+/(?:etc|usr|bin|boot|root|var)\b|"
        r"\bNOPASSWD\b|(?:>>?|\btee(?:\s+-a)?|\bchmod\b[^\n]{0,15}|\bsed\s+-i\b[^\n]{0,40})"
        r"\s*/etc/(?:sudoers|passwd|shadow|ld\.so\.preload)|\bcore\.hooksPath\s+/tmp|"
        r"\b(?:curl|wget)\b[^\n|;]{0,80}(?:>>?|-o|-O)\s*[^\s>]{0,120}(?:hooks/|\.bashrc|\.profile|"
        r"\.zshrc|authorized_keys|/etc/cron|crontab|/etc/profile)|>>\s*~?/?[^\s>]{0,120}authorized_keys")),
    ("destructive", rule(
        r"\brm\s+-[a-z]*(?:r[a-z]*f|f[a-z]*r)[a-z]*\s+(?:--no-preserve-root\s+)?(?:/|~/?|"
        r"\$HOME/?|\.\.?/?)?\*?(?=\s|$|[`'\";&|)])|\bmkfs(?:\.\w+)?\s|:\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:|"
        r"\bchmod\s+-R\s+777\s+/|\bdd\s+if=/dev/(?:zero|u?random)\s+of=/dev/[sh]d|"
        r"\bfind\s+/\s+[^\n]{0,30}-delete|\bdrop\s+(?:database|schema)\b|"
        r"\bgit\s+push\s+(?:[^\n]{0,30}\s)?(?:--force\b|-f\b)(?![-\w])|"
        r"\bgit\s+reset\s+--hard\s+HEAD~\d{2,}|>\s*/dev/sd[a-z]\b|\bshred\s+[^\n]{0,20}/dev/|"
        r"\brm\s+-[a-z]*(?:r[a-z]*f|f[a-z]*r)[a-z]*\s+(?:\$HOME|~|/(?:etc|usr|var|home|opt|boot|"
        r"lib|bin|root|srv)\b)" + _NOT_REGENERATED + "|"
        r"\bgit\s+push\s+[^\n]{0,40}\s\+[\w/-]+|\btruncate\s+-s\s*0\s+/|"
        r"\bkill\s+-9\s+-1\b|\bkillall\s+-9\b|\bsudo\s+rm\s+-[a-z]*r|\bch(?:own|mod)\s+-R\s+"
        r"\S+\s+/(?:etc|usr|var|bin|boot|lib|root)?(?:\s|$)|\brm\s+-[a-z]*r[a-z]*\s+[^\n]{0,200}\.\./\*")),
    ("destructive", rule(r"--no-preserve-root\b|" + _MALWARE + "|" + _SYSTEM)),
    # a foothold left behind: a start-up file or a scheduled job set to run something
    ("destructive", rule(
        rf"\b(?:add|append|write|put|insert|install|create|set up|register|schedule|echo)\w*\b"
        rf"{SPAN}{{0,40}}?(?:{_START_UP}){SPAN}{{0,60}}?\b(?:runs?|runn\w*|execut\w*|launch\w*|"
        rf"starts?|uploads?|sends?|calls?|fetch\w*|every (?:login|boot|hour|minute|day|run)|on "
        rf"(?:every |each )?(?:login|boot|start-?up)|persist\w*)\b")),
    # a repository's history destroyed
    ("destructive", rule(
        r"\b(?:delet|remov|wip|eras|rm -r\w*)\w*\s+(?:the |your |all )?(?:\.git\b(?:"
        r" (?:director(?:y|ies)|folder))?|git history|repository history|commit history)")),
]  # fmt: skip
