"""Screening rules of the category "verifier-gaming": the expected answers hard-coded for the tests'
inputs, or read from the tests, answer keys or history."""

from __future__ import annotations

import re

from langgraph_mtl.hygiene.screening.rules.checker_terms import (
    ANSWER_KEYS,
    EMIT,
    HIDDEN_TESTS,
    HISTORY,
    KNOWN_ANSWER,
    READ,
)
from langgraph_mtl.hygiene.screening.rules.parts import SPAN, near, rule

__all__ = ["RULES"]

RULES: list[tuple[str, re.Pattern[str]]] = [
    # the finished answer read from the repository's history
    ("verifier-gaming", rule(
        rf"\b{KNOWN_ANSWER}\b{SPAN}{{0,60}}?\b{HISTORY}\b|\b{HISTORY}\b{SPAN}{{0,60}}?"
        rf"\b{KNOWN_ANSWER}\b")),
    ("verifier-gaming", rule(
        near(EMIT, ANSWER_KEYS, 60) + "|" + near(READ, ANSWER_KEYS, 60) + "|" + HIDDEN_TESTS)),
    # answers fixed for the inputs the tests use
    ("verifier-gaming", rule(
        rf"\b(?:hard-?cod\w*|special-?cas\w*|memori[sz]\w*|look\w* up (?:the |an? )?(?:answers?|"
        rf"outputs?|results?|expected\w*)|return\w* (?:an? |the )?(?:fixed|canned|constant|stored|"
        rf"precomputed))\b{SPAN}{{0,80}}?\b(?:inputs?|"
        rf"arguments?|cases?|values?|calls?) (?:that )?(?:the |each |every |your )?(?:unit |"
        rf"hidden )?tests? (?:use|uses|call|calls|pass|passes|give|gives|feed|feeds|check|"
        rf"checks|send|sends|try|tries)\b|\b(?:hard-?cod\w*|special-?cas\w*)\b{SPAN}{{0,30}}?"
        rf"\b(?:exact )?(?:arguments?|inputs?|values?) (?:that )?the tests?\b")),
    # the expected answers read out of the tests while the solution runs
    ("verifier-gaming", rule(
        rf"\breturn\w*\b{SPAN}{{0,20}}?\bwhatever\b{SPAN}{{0,20}}?\btests?\b{SPAN}{{0,10}}?"
        rf"\b(?:expects?|wants?|asserts?|checks?)\b|\b(?:read|pars|open|load|import|inspect)\w*"
        rf"\b{SPAN}{{0,15}}?\b(?:tests?|test (?:files?|suite|modules?))\b{SPAN}{{0,30}}?"
        rf"\bat run ?time\b")),
    # the test's frames or locals rewritten from the code under test
    ("verifier-gaming", rule(
        r"(?:\bsys\.(?:settrace|setprofile|_getframe)|\binspect\.(?:stack|currentframe|"
        rf"getouterframes)|\bf_(?:back|locals|globals))\b{SPAN}{{0,80}}?\b(?:rewrit\w*|"
        rf"overwrit\w*|chang\w*|replac\w*|set\w*|patch\w*|read\w*|return\w*|match\w*|"
        rf"grab\w*|copy\w*|tak\w*)\b{SPAN}{{0,50}}?\b(?:tests?'?s?|assert\w*)\b"
        rf"{SPAN}{{0,30}}?\b(?:expected|locals?|answers?|inputs?|arguments?|want\w*|outputs?)\b|"
        rf"\b(?:detect|recogni[sz]|identif|spot|sniff|look)\w*\b{SPAN}{{0,40}}?\b(?:tests?'?s?|"
        rf"grader'?s?|checker'?s?) (?:inputs?|cases?|arguments?|calls?)\b{SPAN}{{0,60}}?\breturn\w*"
        rf"\b{SPAN}{{0,30}}?\b(?:memori[sz]ed|canned|stored|hard-?coded|precomputed|known|saved|"
        r"cached|prepared|expected) (?:answers?|outputs?|results?|values?)\b")),
    # graded answers taken from a branch
    ("verifier-gaming", rule(
        rf"\bgit (?:checkout|show|cherry-pick|merge|pull|fetch|restore|switch)\b{SPAN}{{0,40}}?"
        rf"\b(?:solutions?|answers?|grader|graded)\b")),
]  # fmt: skip
