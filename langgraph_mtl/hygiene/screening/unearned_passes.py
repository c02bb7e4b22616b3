"""Screening rules for a pass made without solving, as advice: tests marked skipped or
expected to fail so the run goes green, a test runner's start-up or configuration file planted
to force passes or a zero exit, the collected tests thrown away, answers fixed for the inputs
the tests use or read out of the tests while the code runs."""

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
    # a runner's file or a patched exit that makes the run end in success whatever happened
    ("verifier-gaming", rule(
        rf"(?:{_RUNNER_FILE}|\b(?:patch|monkeypatch|overrid|redefin|replac|stub)\w*\b{SPAN}{{0,20}}?"
        rf"(?:sys\.exit|os\._exit|\bexit\b|SystemExit)){SPAN}{{0,60}}?\b(?:so|to make|makes?|"
        rf"making|forces?|forcing|ensur\w*)\b{SPAN}{{0,30}}?\b(?:exits?|returns?|ends?|reports?) "
        rf"(?:with )?(?:0|zero|(?:code|status) 0|success|ok)\b")),
    # the collected tests thrown away before they run
    ("verifier-gaming", rule(
        rf"\bpytest_collection_modifyitems\b{SPAN}{{0,80}}?\b(?:(?:clear|empt)\w*\b{SPAN}{{0,10}}?"
        rf"\bitems\b|(?:remov|drop|delet|deselect)\w* (?:all|every)\b)|\bitems\[:\]\s*=\s*\[\]")),
    # the expected answers read out of the tests while the solution runs
    ("verifier-gaming", rule(
        rf"\breturn\w*\b{SPAN}{{0,20}}?\bwhatever\b{SPAN}{{0,20}}?\btests?\b{SPAN}{{0,10}}?"
        rf"\b(?:expects?|wants?|asserts?|checks?)\b|\b(?:read|pars|open|load|import|inspect)\w*"
        rf"\b{SPAN}{{0,15}}?\b(?:tests?|test (?:files?|suite|modules?))\b{SPAN}{{0,30}}?"
        rf"\bat run ?time\b")),
]  # fmt: skip
