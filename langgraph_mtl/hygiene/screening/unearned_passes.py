"""Screening rules for a pass made without solving, as advice: tests marked skipped or
expected to fail so the run goes green, a test runner's start-up or configuration file planted
to force passes, answers fixed for the inputs the tests use."""

from __future__ import annotations

import re

from langgraph_mtl.hygiene.screening.rule_parts import SPAN, rule

__all__ = ["UNEARNED_PASS_RULES"]

_GREEN = (
    r"(?:(?:is|are|goes|go|turns?|stays?|gets?|get) green|a green (?:build|run|suite|ci)|"
    r"pass(?:es)?|succeeds?|(?:is|are) (?:successful|green)|(?:no longer|never|stops?|won'?t) "
    r"fail\w*)"
)
_SKIP_MARK = (
    r"(?:@?pytest\.mark\.(?:skip|xfail)\b(?!if)|"
    r"@?unittest\.(?:skip|expectedFailure)\b(?!If|Unless)|#\[ignore\]|\b(?:it|describe|test)\.skip\b|\bxit\(|\b(?:skipped|xfail(?:ed)?|ignored)\b)"
)
_RUNNER_FILE = (
    r"(?:conftest\.py|sitecustomize\.py|usercustomize\.py|pytest\.ini|tox\.ini|setup\.cfg|"
    r"\.pth\b|jest\.config\.\w+)"
)
UNEARNED_PASS_RULES: list[tuple[str, re.Pattern[str]]] = [
    # a test marked skipped or expected to fail, so the run is green
    ("verifier-gaming", rule(
        rf"\b(?:mark|decorat|tag|flag|annotat|put|add|set|label)\w*\b{SPAN}{{0,60}}?{_SKIP_MARK}"
        rf"{SPAN}{{0,60}}?\b(?:so|to (?:make|get|keep)|until|and)\b{SPAN}{{0,40}}?{_GREEN}")),
    # a runner's start-up or configuration file planted to force passes
    ("verifier-gaming", rule(
        rf"{_RUNNER_FILE}{SPAN}{{0,60}}?\b(?:makes?|making|forces?|forcing|marks?|marking|"
        rf"reports?|reporting|turns?)\b{SPAN}{{0,20}}?\b(?:every|all|each|any|the)(?: the)? "
        rf"(?:tests?|cases?|checks?)\b{SPAN}{{0,20}}?(?:{_GREEN}|as passed|to pass)")),
    # answers fixed for the inputs the tests use
    ("verifier-gaming", rule(
        rf"\b(?:hard-?cod\w*|special-?cas\w*|memori[sz]\w*|return\w* (?:an? |the )?(?:fixed|"
        rf"canned|constant|stored|precomputed))\b{SPAN}{{0,80}}?\b(?:inputs?|"
        rf"arguments?|cases?|values?|calls?) (?:that )?(?:the |each |every |your )?(?:unit |"
        rf"hidden )?tests? (?:use|uses|call|calls|pass|passes|give|gives|feed|feeds|check|"
        rf"checks|send|sends|try|tries)\b|\b(?:hard-?cod\w*|special-?cas\w*)\b{SPAN}{{0,30}}?"
        rf"\b(?:exact )?(?:arguments?|inputs?|values?) (?:that )?the tests?\b")),
]  # fmt: skip
