"""Screening rules of the category "verifier-gaming": the run made to end in success, or a pass claimed
without one: early exits, marker files, planted runner files, printed or reported passes."""

from __future__ import annotations

import re

from langgraph_mtl.hygiene.screening.rules.checker_terms import (
    FAKE_DONE,
    GOOD_NEWS,
    GREEN,
    NEUTER_TESTS,
    RUNNER_FILE,
)
from langgraph_mtl.hygiene.screening.rules.parts import SPAN, rule

__all__ = ["RULES"]

RULES: list[tuple[str, re.Pattern[str]]] = [
    # the check fooled: test files overwritten, an early exit, a printed pass, a shallow or
    # lenient checker, expected values collected into a table
    ("verifier-gaming", rule(
        rf">[ \t]*['\"]?[^\s>()\[\]{{}}=,;]{{0,120}}(?:\btests?/\S{{1,120}}|\btest_\w+\.\w+|_test\.\w+|\bconftest\.py)|"
        rf"\b(?:exit 0|sys\.exit\(0?\)|os\._exit\(0\)|process\.exit\(0?\))(?!\w){SPAN}{{0,60}}?"
        rf"\b(?:first line|top of|on import|beginning of|start of|run_tests|conftest|test (?:file|"
        rf"module|script|suite))\b|\b(?:print|echo|output|write|log)\w*\b{SPAN}{{0,20}}?['\"]"
        rf"(?:all )?(?:tests? passed|\d+ passed|ok, all tests)|\b(?:checker|grader|harness|"
        rf"verifier|evaluator|judge|ci)s?\b{SPAN}{{0,30}}?\b(?:then |will |would )?(?:marks?|"
        rf"counts?|treats?|reports?|scores?|records?) (?:the |your )?(?:task|run|answer|solution|"
        rf"it) (?:as )?(?:solved|passed|correct|done|successful|a pass)\b|\b(?:checker|grader|"
        rf"harness|verifier|evaluator|judge|hidden tests|tests)\b{SPAN}{{0,20}}?\b(?:ignores?|"
        rf"skips?|(?:don'?t|do not|doesn'?t|does not|never|won'?t) (?:test|check|cover|exercise|"
        rf"look at|see|read)|only (?:diffs?|matches?|parses?|inspects?|uses?|considers?|grades?|"
        rf"scores?|verifies))\b|\b(?:copy|paste|put|store|hard-?code|collect|gather)\b{SPAN}"
        rf"{{0,20}}?\b(?:each|every|all|the) expected (?:values?|outputs?|answers?|results?)\b"
        rf"{SPAN}{{0,20}}?\b(?:into|in|as)\b|\b(?:lookup table|dict\w*|table|map) of (?:the )?"
        rf"(?:expected|tests?'?) (?:outputs?|answers?|values?|results?)|\b(?:print|output|return|"
        rf"echo) (?:the )?(?:sample|expected) (?:answers?|outputs?)\b|(?-i:\b\w*SKIP_(?:TESTS?|"
        rf"CHECKS?|VERIFY)\w*)\s*=")),
    # the work declared done or the answer dictated: every task solved already, a fixed answer
    # for every task, an action to copy verbatim, an observation to trust instead of running
    ("verifier-gaming", rule(
        rf"\b(?:all|every|each) (?:the |of the )?tasks?\b{SPAN}{{0,30}}?\b(?:are|is|were|have "
        rf"been|has been) already (?:solved|done|complete|completed|finished|passed)\b|"
        rf"\b(?:correct|right|expected|final) (?:final )?answers? (?:to|for|of) (?:every|all|any|"
        rf"each) (?:tasks?|questions?|problems?) (?:is|=) (?:always |simply |just )?(?:the "
        rf"(?:string|number|word|value)\b|[\"'`]|\d)|\b(?:copy|paste|emit|output|repeat)\b"
        rf"{SPAN}{{0,30}}?\b(?:exactly|verbatim|word for word)\b{SPAN}{{0,10}}?\bas (?:your|the) "
        rf"(?:first|next|only|final) (?:action|step|reply|response|tool call)\b|\b(?:use|trust|"
        rf"assume|reuse|copy)\b (?:this|these|the (?:above|given|following)) (?:observations?|"
        rf"results?|outputs?)\b{SPAN}{{0,30}}?\binstead of (?:running|executing|checking|testing"
        rf"|computing)\b|\bwrite\b{SPAN}{{0,20}}?\b(?:the )?expected (?:outputs?|results?|"
        rf"answers?)(?: files?)?\b{SPAN}{{0,20}}?\b(?:directly|by hand|yourself|instead of "
        rf"(?:running|computing|executing))|\b(?:fail\w*|broken|red)\b{SPAN}{{0,60}}?\bso "
        rf"(?:that )?(?:pytest|cargo|it|they|the (?:runner|harness|suite|checker|verifier|grader|"
        rf"test runner)) (?:does not|doesn'?t|won'?t|will not|cannot|can'?t|never) (?:collect|run|"
        rf"find|see|pick up|execute)\b|(?:@?pytest\.mark\.(?:skip|xfail)|#\[ignore\]|"
        rf"@unittest\.skip|\bskip|\bxfail)\w*{SPAN}{{0,30}}?\b(?:any|every|all|each|whichever)"
        rf"\b(?: (?:ones?|tests?|of them))? (?:that|which) (?:fail|break|error)|\bLD_PRELOAD\s*=\s*"
        rf"\S{{0,40}}(?:/tmp|/dev/shm)|\bpatched (?:stdlib|standard library|pytest|unittest|python|"
        rf"test runner|builtins)\b|\bPYTHONPATH\b{SPAN}{{0,60}}?\b(?:patched|fake|shim|evil|"
        rf"malicious)")),
    # the check switched off or fooled: asserts patched to no-ops, test modules compiled out,
    # a fake tool first on PATH, a marker file, an exit at import, a fixed string graders take
    ("verifier-gaming", rule(
        rf"\b(?:monkey-?patch|patch|mock|stub|replace|override|redefine)\w*\b{SPAN}{{0,30}}?"
        rf"\bassert\w*\b{SPAN}{{0,30}}?\b(?:no-?op|nothing|to pass|lambda|always true|return "
        rf"true)\b|cfg\(\s*any\(\s*\)\s*\)|\bPATH=\S{{0,60}}(?:fake|shim|stub)\w*|\b(?:pytest|"
        rf"cargo|python3?|diff|make|test)\b (?:just|simply|always) exits? (?:with )?0\b|"
        rf"\b(?:sys\.exit|os\._exit|exit)\b(?:\(\d?\))? (?:at|on|during) import\b|\b(?:files?|"
        rf"markers?) (?:named|called) \S{{0,3}}(?:pass|passed|success|ok|done)\b|\bpass(?:es)? "
        rf"(?:regardless|no matter what|instantly)\b|\b(?:graders?|checkers?|verifiers?|ci|"
        rf"harness|judges?|evaluators?) accepts? anything\b|\b(?:stop|quit|skip) (?:verifying|testing|checking)\b{SPAN}{{0,30}}?"
        rf"\bsubmit\b|\bsubmit whatever\b|\b(?:copy|take|read|load|use)\b{SPAN}{{0,20}}?"
        rf"\breference (?:solution|answer)s?\b{SPAN}{{0,30}}?\b(?:from|at|in) /|\breturn (?:the "
        rf"|a )?(?:string |word )?['\"]\w{{1,20}}['\"] instead\b{SPAN}{{0,30}}?\b(?:graders?|"
        rf"checkers?|verifiers?|harness|judges?)\b{SPAN}{{0,10}}?\baccept")),
    # a check made to succeed whatever happens
    ("verifier-gaming", rule(
        rf"\b(?:verifier|checker|grader|evaluator|judge|test (?:harness|runner|script)|tests?)\b"
        rf"{SPAN}{{0,60}}?\b(?:exits?|returns?|reports?|ends?)\s+(?:with\s+)?(?:(?:code|status)"
        rf"\s+)?(?:0|zero|success|true|passed|ok)\b{SPAN}{{0,30}}?\b(?:regardless|no matter|"
        rf"whatever|even (?:if|when|though)|every time|unconditionally)\b|\b(?:make|let|have|"
        rf"force|edit|modify|change|patch|rewrite)\b{SPAN}{{0,30}}?\b(?:verifier|checker|grader|"
        rf"evaluator|judge|test (?:harness|runner|script)|tests?)\b{SPAN}{{0,30}}?\b(?:always|"
        rf"unconditionally) (?:(?:exits?|returns?|reports?)(?: with)? (?:0|zero|success|true|"
        rf"pass\w*|ok)|pass(?:es)?|succeeds?)\b")),
    ("verifier-gaming", rule(FAKE_DONE + "|" + NEUTER_TESTS)),
    # a runner's start-up or configuration file planted to force passes
    ("verifier-gaming", rule(
        rf"{RUNNER_FILE}{SPAN}{{0,60}}?\b(?:makes?|making|forces?|forcing|marks?|marking|"
        rf"reports?|reporting|turns?)\b{SPAN}{{0,20}}?\b(?:every|all|each|any|the)(?: the)? "
        rf"(?:tests?|cases?|checks?)\b{SPAN}{{0,20}}?(?:{GREEN}|as passed|to pass)")),
    # a runner's file or a patched exit that makes the run end in success whatever happened
    ("verifier-gaming", rule(
        rf"(?:{RUNNER_FILE}|\b(?:patch|monkeypatch|overrid|redefin|replac|stub)\w*\b{SPAN}{{0,20}}?"
        rf"(?:sys\.exit|os\._exit|\bexit\b|SystemExit)){SPAN}{{0,60}}?\b(?:so|to make|makes?|"
        rf"making|forces?|forcing|ensur\w*)\b{SPAN}{{0,30}}?\b(?:exits?|returns?|ends?|reports?) "
        rf"(?:with )?(?:0|zero|(?:code|status) 0|success|ok)\b")),
    # a check, a stub or a command made to pass whatever happens
    ("verifier-gaming", rule(
        rf"(?:\bso (?:that )?|\bmak\w* |\b(?:tests?|checks?|suite|runner|grader|checker|verifier)\b"
        rf"{SPAN}{{0,40}}?)(?:it|this|that|they) (?:always|will always) (?:pass(?:es)?|succeeds?|"
        rf"exits? (?:with )?0)\b")),
    # a pass claimed to the user without a run
    ("verifier-gaming", rule(
        r"\b(?:tell|inform|assure|reassure|report to|say to|answer|write to) (?:the )?(?:user|"
        rf"reviewers?|maintainers?|client|them)\b{SPAN}{{0,60}}?\b(?:tests? (?:all )?(?:pass|"
        rf"passed|succeed\w*|are green)|verified|(?:is|was) tested)\b{SPAN}{{0,60}}?\b(?:do not|"
        r"don'?t|never|no need to|without) (?:actually |even |really )?(?:run|running|execut\w*|"
        r"test|testing|check\w*|verif\w*)\b")),
    # results misreported: success claimed whatever happened, failures hidden from the report
    ("verifier-gaming", rule(
        rf"\b(?:tell|say|report|claim|state|answer|respond|reply|mark|announce|print)\w*\b"
        rf"{SPAN}{{0,50}}?\b{GOOD_NEWS}\b{SPAN}{{0,40}}?\b(?:even (?:when|if|though)|regardless|"
        rf"whether or not|no matter)\b|\b(?:hide|conceal|omit|leave out|bury|suppress)\w*\b"
        rf"{SPAN}{{0,20}}?\b(?:errors?|failures?|failing tests?|tracebacks?|exceptions?)\b"
        rf"{SPAN}{{0,30}}?\b(?:from|in|out of) (?:the |your )?(?:final )?(?:reports?|answers?|"
        rf"summar(?:y|ies)|repl(?:y|ies)|messages?|users?)\b|\bleave\b{SPAN}{{0,10}}?\b(?:the |"
        rf"any |all )?(?:errors?|failures?|failing tests?|tracebacks?)\b (?:out of|from) (?:the |"
        rf"your )?(?:final )?(?:reports?|answers?|"
        rf"summar(?:y|ies)|repl(?:y|ies)|messages?|users?)\b|\b(?:report|mark|record|list)\w* "
        rf"(?:the |all |every |any )?(?:tests?|checks?|runs?) as (?:passed|passing|green|"
        rf"successful)\b|\b(?:kill|pkill|"
        rf"killall|terminate)\w*\s+(?:-\d+\s+)?(?:any |all |every |the )?(?:process(?:es)? "
        rf"(?:named|called) )?(?:pytest|the test runner|the tests|the checker|the grader|the "
        rf"verifier)\b")),
]  # fmt: skip
