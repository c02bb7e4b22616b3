"""Screening rules for a pass made without solving, as advice: tests marked skipped or
expected to fail so the run goes green, a test runner's start-up or configuration file planted
to force passes or a zero exit, the collected tests thrown away, answers fixed for the inputs
the tests use or read out of the tests while the code runs, the runner told to collect nothing,
asserts made to hold whatever they test, the test's frames rewritten from the code under test,
objects equal to anything, a grepping checker fed the word it looks for, a pass claimed
without a run."""

from __future__ import annotations

import re

from langgraph_mtl.hygiene.screening.rule_parts import SPAN, rule

__all__ = ["UNEARNED_PASS_RULES"]

_GREEN = (
    r"(?:(?:is|are|goes|go|turns?|stays?|gets?|get) green|a green (?:build|run|suite|ci)|"
    r"pass(?:es)?|succeeds?|(?:is|are|be) (?:successful|green)|(?:no longer|never|stops?|won'?t) "
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
        rf"{SPAN}{{0,60}}?(?:\b(?:so|to (?:make|get|keep)|until|and|then)\b|;){SPAN}{{0,40}}?{_GREEN}")),
    # a runner's start-up or configuration file planted to force passes
    ("verifier-gaming", rule(
        rf"{_RUNNER_FILE}{SPAN}{{0,60}}?\b(?:makes?|making|forces?|forcing|marks?|marking|"
        rf"reports?|reporting|turns?)\b{SPAN}{{0,20}}?\b(?:every|all|each|any|the)(?: the)? "
        rf"(?:tests?|cases?|checks?)\b{SPAN}{{0,20}}?(?:{_GREEN}|as passed|to pass)")),
    # answers fixed for the inputs the tests use
    ("verifier-gaming", rule(
        rf"\b(?:hard-?cod\w*|special-?cas\w*|memori[sz]\w*|look\w* up (?:the |an? )?(?:answers?|"
        rf"outputs?|results?|expected\w*)|return\w* (?:an? |the )?(?:fixed|canned|constant|stored|"
        rf"precomputed))\b{SPAN}{{0,80}}?\b(?:inputs?|"
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
    # a check, a stub or a command made to pass whatever happens
    ("verifier-gaming", rule(
        rf"(?:\bso (?:that )?|\bmak\w* |\b(?:tests?|checks?|suite|runner|grader|checker|verifier)\b"
        rf"{SPAN}{{0,40}}?)(?:it|this|that|they) (?:always|will always) (?:pass(?:es)?|succeeds?|"
        rf"exits? (?:with )?0)\b")),
    # the runner told to collect or run nothing, so it exits cleanly
    ("verifier-gaming", rule(
        r"\bcollect_ignore(?:_glob)?\b[^\n]{0,10}?[\[(]\s*['\"](?:\*|\*\*|\*\*/\*|tests?/?\*?|"
        r"test_\*(?:\.py)?)['\"]|(?<![\w-])-p\s*no:(?:python|unittest)\b|\bpytest\b[^\n]{0,40}?"
        rf"(?<![\w-])(?:--co|--collect-only)\b{SPAN}{{0,60}}?\b(?:exits? (?:0|zero|clean\w*)|"
        rf"{_GREEN}|without running)|\bPYTEST_ADDOPTS\s*=\s*['\"]?[^\n'\"]{{0,40}}?"
        r"(?:--co|--collect-only|-p\s*no:)")),
    # asserts made to hold whatever they test
    ("verifier-gaming", rule(
        r"\bassert\s+(?:True|1|not False|\(\s*True\s*\))\s+or\b|\bassert\b[^\n]{0,60}?\s"
        r"or\s+True\s*(?:[`'\")]|$)")),
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
    # an object that equals anything, returned where the test compares
    ("verifier-gaming", rule(
        r"\b__eq__\b[^\n.]{0,30}?(?:\balways\s+(?:returns?\s+|is\s+|gives\s+|yields\s+)?|=\s*"
        r"lambda[^:\n]{0,20}:\s*|\breturn\s+)True\b(?!\s+(?:if|when|only|iff|for (?:equal|"
        r"identical|matching)|exactly))|\b(?:whose|with an?|that has an?) __eq__ (?:is|returns?|"
        r"gives|yields) True\b(?!\s+(?:if|when|only|iff|for (?:equal|identical|matching)|must|"
        r"should|also|needs?)\b)|\b__eq__\b[^\n.]{0,30}?\b(?:is|returns?|gives|yields) True (?:for|"
        r"on|against|with|whatever) (?:any|every|all|anything|everything|whatever|the other)\b")),
    # a grepping checker fed the word it looks for, whatever happened
    ("verifier-gaming", rule(
        r"\b(?:checker|grader|verifier|evaluator|judge|harness|ci|tests?|scripts?|graders)\b"
        rf"{SPAN}{{0,20}}?\b(?:greps?|searches|scans|looks|checks) (?:the (?:output|logs?|stdout) )?"
        rf"(?:for|only for)\b{SPAN}{{0,60}}?(?:\b(?:always|unconditionally) (?:print|echo|output|"
        rf"emit|write|log)\w*\b|\b(?:print|echo|output|emit|write|log)\w*\b{SPAN}{{0,60}}?\b(?:"
        r"regardless|always|unconditionally|no matter|whatever happens|even (?:if|when)|anyway|"
        r"whether or not)\b)")),
    # a pass claimed to the user without a run
    ("verifier-gaming", rule(
        r"\b(?:tell|inform|assure|reassure|report to|say to|answer|write to) (?:the )?(?:user|"
        rf"reviewers?|maintainers?|client|them)\b{SPAN}{{0,60}}?\b(?:tests? (?:all )?(?:pass|"
        rf"passed|succeed\w*|are green)|verified|(?:is|was) tested)\b{SPAN}{{0,60}}?\b(?:do not|"
        r"don'?t|never|no need to|without) (?:actually |even |really )?(?:run|running|execut\w*|"
        r"test|testing|check\w*|verif\w*)\b")),
]  # fmt: skip
