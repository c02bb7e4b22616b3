"""Screening rules of the category "remote-exec": running code fetched from an outside address
executes whatever that address serves."""

from __future__ import annotations

import re

from langgraph_mtl.hygiene.screening.rules.parts import FETCH, RUN, SPAN, near, rule

__all__ = ["RULES"]

_SUPPLY = (
    r"(?:\b(?:index-url|extra-index-url|find-links|registry|trusted-host)\b\s*[=:]?\s*http://|"
    r"\b(?:index-url|extra-index-url|registry)\b\s*[=:]?\s*https?://\d{1,3}(?:\.\d{1,3}){3}|"
    r"\b(?:exec|eval|sh['\"]\s*,\s*['\"]-c|bash -c|subprocess\.\w+|os\.system)\b[^\n]{0,60}?"
    r"(?:requests\.get|urlopen|httpx\.get|\bcurl\b|\bwget\b))"
)

# a named package installed (not a requirements file, the project itself or pip)
INSTALL_A_PACKAGE = (
    r"(?:pip3?|npm|gem|cargo) install\s+(?!(?:-r|-e|--requirement|--editable|--upgrade pip|in|for|"
    r"before|at)\b|\.(?:\s|$))[\w@.-]+"
)

EVERY_TASK = (
    r"(?:in|for|before|at the start of) (?:every|each|all|any) (?:tasks?|runs?|sessions?|projects?)"
)

RULES: list[tuple[str, re.Pattern[str]]] = [
    ("remote-exec", rule(
        r"(?:curl|wget)\b[^\n|]{0,120}\|\s*(?:sudo\s+)?(?:ba|z|k|da)?sh\b|base64\s+(?:-d|"
        r"--decode)[^\n|]{0,40}\|\s*(?:ba)?sh\b|\beval\s*\"?\$\((?:curl|wget)|"
        r"(?:ba)?sh\s+<\(\s*(?:curl|wget)|exec\(\s*(?:urllib|requests)\S*\.(?:urlopen|get)\(|"
        r"\b(?:pip|npm|gem|cargo) install\b[^\n]{0,30}https?://\d{1,3}(?:\.\d{1,3}){3}|--run-payload")),
    # code run from an encoded string: exec(base64.b64decode(...)), os.system(bytes.fromhex(..))
    ("remote-exec", rule(
        r"\b(?:exec|eval|os\.system|os\.popen|subprocess\.\w+|popen)\s*\(\s*(?:[\w.]+\()?"
        r"\s*(?:base64\.b\d+decode|codecs\.decode|bytes\.fromhex|zlib\.decompress|"
        r"binascii\.\w+|__import__\(\s*['\"](?:base64|codecs|zlib))")),
    # code fetched, decoded or piped in and run; a shell handed to another machine
    ("remote-exec", rule(
        rf"\bdecode\b{SPAN}{{0,30}}?\b(?:and|then)\s+(?:run|execute|eval\w*|pipe)\b|"
        r"\breverse shell\b|\bn(?:c|cat)\b[^\n]{0,40}\s-(?:e|c)\s*/bin/(?:ba|z)?sh\b|"
        r"/dev/tcp/[\w.]+/\d+|\bsocat\b[^\n]{0,60}\bexec:|"
        r"\b(?:pip3?|uv pip|pipx) install\b[^\n]{0,60}(?:\bfrom\s+|--(?:extra-)?index-url[=\s]+|"
        r"\s-i\s+|--find-links[=\s]+|\s)http://|--trusted-host\b")),
    # code fetched from a bare address and run, a repository cloned from one
    ("remote-exec", rule(
        r"\b(?:git clone|curl|wget)\b[^\n]{0,40}(?:https?|git|ftp)://(?!127\.|0\.0\.0\.0)"
        r"\d{1,3}(?:\.\d{1,3}){3}[^\n]{0,80}(?:&&|;|\|)\s*(?:sudo\s+)?(?:(?:ba|z)?sh|python3?|"
        r"\./|chmod)|\bgit clone\s+(?:https?|git)://(?!127\.)\d{1,3}(?:\.\d{1,3}){3}")),
    ("remote-exec", rule(
        r"\$\(\s*(?:echo|printf)\s+['\"]?[A-Za-z0-9+/=]{8,}['\"]?\s*\|\s*base64\s+(?:-d|--decode)")),
    ("remote-exec", rule(
        rf"\b(?:pip3?|uv pip|pipx|npm|yarn|pnpm|gem|cargo|go) (?:install|add|get)\b{SPAN}{{0,60}}?"
        rf"\bfrom (?:the |our |a |my |this |their )?(?:[\w-]+'s (?:own )?|(?:team|private|internal|"
        rf"custom|own|alternate|alternative|unofficial|personal|patched|fixed) )(?:mirror|index|"
        rf"registry|feed)\b(?! (?:configured|set) (?:in|by) )")),
    ("remote-exec", rule(
        r"\btypo-?(?:squat\w*)?\s+(?:package|module|crate|library|dependency|version)\b|"
        rf"\b{INSTALL_A_PACKAGE}[^\n]{{0,80}}?\b{EVERY_TASK}\b|\b{EVERY_TASK}\b[^\n]{{0,20}}?"
        rf"\b{INSTALL_A_PACKAGE}")),
    ("remote-exec", rule(near(FETCH, RUN, 60))),
    ("remote-exec", rule(_SUPPLY)),
    ("remote-exec", rule(
        r"\b(?:pip3?|uv pip|pipx|npm|gem) install\b[^\n]{0,40}\s(?:https?|ftp)://\S+"
        r"\.(?:tar\.gz|tgz|whl|zip|egg)\b")),
]  # fmt: skip
