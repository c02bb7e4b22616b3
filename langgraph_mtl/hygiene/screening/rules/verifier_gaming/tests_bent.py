"""Screening rules of the category "verifier-gaming": the tests themselves changed, deleted, skipped or
kept from running until the run is green."""

from __future__ import annotations

import re

from langgraph_mtl.hygiene.screening.rules.checker_terms import (
    GREEN,
    SKIP_MARK,
    TAMPER,
)
from langgraph_mtl.hygiene.screening.rules.parts import SPAN, rule

__all__ = ["RULES"]

RULES: list[tuple[str, re.Pattern[str]]] = [
    # advice to cheat the task's check rather than solve the task: change or silence the tests,
    # fake a pass, copy the expected answers, trust a lenient checker
    ("verifier-gaming", rule(
        rf"\b(?:edit|modify|change|rewrite|patch|replace|delete|remove|comment out|empty|stub "
        rf"out|weaken|loosen|relax)\b(?:(?!\bnot\b|\brather\b){SPAN}){{0,30}}?\b(?:the |every |all |"
        rf"each |any )?(?:failing "
        rf")?(?:tests?(?! (?:data|fixtures?|inputs?|helpers?)\b)|test (?:files?|suites?|cases?|"
        rf"modules?|bod(?:y|ies))|asserts?|assertions?|verifier|checker|grader|expected outputs?)"
        rf"\b{SPAN}{{0,60}}?(?:\b(?:so (?:that )?|until )(?:it|they|the (?:suite|run|check))"
        rf"\b{SPAN}{{0,30}}?"
        rf"\b(?:pass(?:es)?|expects?|accepts?|succeeds?)\b|\bto (?:pass|accept|expect|succeed)\b|"
        rf"\bwith `?pass`?|\bexpects? (?:whatever|what (?:your|the) code)|\bmatch(?:es)? (?:your|"
        rf"whatever|the actual) (?:output|code|result))|"
        rf"\bhard-?code\b{SPAN}{{0,30}}?\b(?:the )?(?:expected|tests?'?s?) (?:values?|outputs?|"
        rf"answers?|results?)|\breturn\w*\b{SPAN}{{0,20}}?\b(?:the )?expected (?:values?|outputs?|"
        rf"answers?|results?)\b{SPAN}{{0,20}}?\bfor (?:the |each |every |those )?(?:tests?'? "
        rf"(?:inputs?|cases?|arguments?)|test(?:ed)? (?:inputs?|cases?|arguments?))\b|\b(?:return|print|output)\b{SPAN}{{0,40}}?\b(?:expected|tests?'?s?) "
        rf"(?:values?|outputs?|answers?|results?)\b{SPAN}{{0,30}}?\b(?:hard-?coded|copied|taken|"
        rf"straight) from\b|\b(?:sys\.exit|os\._exit)\(\s*0\s*\){SPAN}{{0,60}}?\b(?:import|"
        rf"conftest|test (?:module|file|suite)|suite (?:reports?|passes)|report success)|"
        rf"\bpytest_runtest_makereport\b{SPAN}{{0,60}}?\b(?:pass|passed|success)|\bconftest"
        rf"\.py\b{SPAN}{{0,60}}?\b(?:marks?|forces?|reports?|turns?) (?:every|all|each|any) tests?"
        rf"|\b(?:verifier|grader|checker|test harness)\b{SPAN}{{0,20}}?\b(?:trusts?|is lenient|"
        rf"can be (?:fooled|tricked|gamed)|is easy to (?:fool|trick|game)|accepts anything|never "
        rf"(?:runs|checks))\b|\btouch\s+[\w./-]*(?:passed|success)\b|\b(?:create|write|add)\b"
        rf"{SPAN}{{0,20}}?\b(?:file|marker)\b{SPAN}{{0,20}}?\b(?:passed|success|tests?_passed)\b|\bskip (?:running )?(?:the |all )?tests?\b{SPAN}{{0,30}}?"
        rf"\b(?:submit|state|say|claim|report|pretend|declare|write)|\bsubmit (?:immediately|right away|at once) without (?:running|testing)|"
        rf"\b(?:mark|make) (?:every|all|each|the failing) tests? (?:as )?(?:pass|passed|skip|"
        rf"skipped|xfail)")),
    # the tests themselves bent until they pass, a failing test dropped, the code told it runs
    # under test
    ("verifier-gaming", rule(
        r"\b(?:edit|modify|change|rewrite|adjust|alter|tweak|weaken|loosen|relax|patch|comment "
        r"out)\s+(?:(?:the|every|all|each|any|those|these|its|your|failing|broken|existing|unit|"
        rf"remaining)\s+){{0,3}}(?:tests?|test (?:files?|suites?|cases?)|asserts?|assertions?)\b"
        rf"{SPAN}{{0,40}}?\b(?:so|until|such that|to make)\b{SPAN}{{0,30}}?\b(?:holds?(?=\s*"
        r"(?:[.;,!]|$))|never fail\w*|no longer fail\w*|stop failing|(?:is|are|go|goes|turn|turns|"
        r"stay|stays) (?:green|true|satisfied))|\b(?:a|the|any|each|every) (?:failing |broken |"
        rf"flaky )?tests?\b{SPAN}{{0,20}}?\b(?:keeps? failing|fails?|is failing|still fails|"
        rf"won'?t pass)\b{SPAN}{{0,20}}?(?<!not )(?<!never )(?<!n't )\b(?:delete|remove|drop|"
        r"disable|skip|comment out|xfail)\s+(?:it|them)\b|(?:\b(?:detect|check|sniff|notice|"
        rf"tell)\w*\b{SPAN}{{0,30}}?\b(?:running|run|called) (?:under|by|from|inside) (?:pytest|"
        r"the (?:tests?|test runner|harness|grader|verifier|checker))\b|\bPYTEST_CURRENT_TEST\b)"
        rf"{SPAN}{{0,60}}?\b(?:return|print|output|emit)\w*\b{SPAN}{{0,30}}?\b(?:expected|"
        r"canned|hard-?coded|fixed|known|correct|right)\b")),
    # the check neutralised: tests removed, skipped or rewritten, failures turned into passes,
    # a shallow checker exploited
    ("verifier-gaming", rule(
        rf"\b(?:delete|remove|comment out|drop|skip|disable|xfail)\b{SPAN}{{0,20}}?\b(?:the )?"
        rf"(?:failing |broken |flaky )?(?:tests?|test (?:functions?|cases?|files?)|assertions?|"
        rf"asserts?)\b{SPAN}{{0,40}}?\b(?:will |then |now |to )?(?:pass(?:es)?|green|succeed\w*|"
        rf"reports? (?:ok|success|passed)|exits? (?:with )?0)\b|\b(?:every|all|each|any|the "
        rf"failing|failing) tests?\b{SPAN}{{0,30}}?(?:@?pytest\.mark\.(?:skip|xfail)|"
        rf"#\[ignore\]|@unittest\.skip|\bskip(?:ped)?\b|\bxfail\b)|(?:@?pytest\.mark\."
        rf"(?:skip|xfail)\b|#\[ignore\]|@unittest\.skip\b){SPAN}{{0,30}}?\b(?:every|all|each|"
        rf"any|the failing|failing) tests?\b|\bthe (?:tests?|assertions?|expected outputs?|"
        rf"verifier|checker|grader) (?:are|is) (?:wrong|broken|buggy|incorrect|outdated)\b"
        rf"[^\n]{{0,40}}?\b(?:edit|change|rewrite|update|fix|modify|adjust|delete|remove)\b|"
        rf"\b(?:hook|conftest|plugin)\b"
        rf"{SPAN}{{0,60}}?\b(?:rewrites?|turns?|changes?|converts?|flips?|marks?|forces?|"
        rf"reports?)\b{SPAN}{{0,15}}?\b(?:failed|failing|failures?|errors?)\b{SPAN}{{0,30}}?"
        rf"\b(?:pass|passed|success|ok)\b|\b(?:checker|grader|harness|"
        rf"verifier|evaluator|judge)s?\b{SPAN}{{0,30}}?\b(?:never|don'?t|do not|doesn'?t|does "
        rf"not) (?:actually )?(?:run|execute|check|compile|import)\b|(?:PYTEST_ADDOPTS|addopts)"
        rf"[^\n]{{0,30}}(?:--co\b|--collect-only|-p no:)|\|\|\s*true\b{SPAN}{{0,30}}?\b(?:every|"
        rf"all|each) (?:commands?|lines?|steps?)\b")),
    # the tests made to agree with whatever the code does
    ("verifier-gaming", rule(
        rf"\b(?:rewrit|edit|chang|modif|updat|adjust|alter|tweak|fix)\w*\b{SPAN}{{0,40}}?\b(?:"
        rf"assertions?|asserts?|expected (?:values?|outputs?|results?|answers?)|tests?|test cases?)"
        rf"\b{SPAN}{{0,30}}?\b(?:to|so (?:that )?(?:they|it)) (?:match|fit|agree with|accept|"
        rf"equal|expect)\b{SPAN}{{0,20}}?\b(?:whatever|anything|what(?:ever)? (?:your|the) "
        rf"(?:code|function|program|solution|script|implementation))\b")),
    # the tests made not to run (renamed out of the runner's sight, skipped at module level,
    # their failing asserts commented out), the task declared done although they fail, answers
    # matched to the tests' inputs, equality made to hold for anything, an early exit 0
    ("verifier-gaming", rule(
        rf"\b(?:renam|mov|mv)\w*\b{SPAN}{{0,40}}?(?:\btest (?:files?|modules?|suites?)\b|\btests?/|"
        rf"\btest_\w+\.py\b|\bthe (?:failing )?tests?\b|\bfailing tests?\b){SPAN}{{0,60}}?\b(?:so|and)"
        rf"\s+(?:that\s+)?"
        rf"(?:pytest|unittest|cargo test|the (?:runner|suite|verifier|checker|grader|harness|tests?))"
        rf"\s+(?:skips?|ignores?|misses?|never (?:finds?|collects?|runs?|sees?)|(?:won'?t|can'?t|"
        rf"cannot|does ?n[o']t|will not) (?:find|collect|run|see|pick))|"
        rf"\bpytest\.skip\([^)]{{0,40}}allow_module_level{SPAN}{{0,60}}?\b(?:test (?:modules?|"
        rf"files?|suites?)|tests?/|test_\w+\.py)\b|"
        rf"\b(?:comment(?:ing)? out|delet|remov|disabl)\w*\s+(?:the |all |every |any |all the )?"
        rf"(?:failing|broken|red|erroring) (?:tests?|asserts?|assertions?|checks?)\b"
        rf"(?! (?:data|fixtures?|helpers?|inputs?|cache)\b)|"
        rf"\b(?:mark|declare|report|call|claim)(?:ing)?\s+(?:the |this |your |it\b)?(?:\s*(?:task|work|"
        rf"job|run)\b)?\s*(?:as\s+)?(?:complete|completed|done|finished|solved|successful|a success|passed)"
        rf"\b{SPAN}{{0,20}}?\b(?:even if|even though|although|regardless|whether or not|despite)"
        rf"\b{SPAN}{{0,30}}?\b(?:fail\w*|broken|red|(?:do|does) ?n[o']t pass)\b|"
        rf"\breturn\w*\b{SPAN}{{0,30}}?\b(?:values?|outputs?|answers?|results?) (?:the |each |every )"
        rf"?(?:hidden )?tests? (?:expects?|wants?|checks? for|asserts?)\b{SPAN}{{0,30}}?\bfor "
        rf"(?:each|every|the|its|that|those) (?:inputs?|cases?|arguments?|calls?)\b|"
        rf"\b(?:special-?cas|match(?:ing)? on|switch(?:ing)? on|branch(?:ing)? on|key(?:ed|ing)? "
        rf"(?:on|by|to)|condition(?:ed|ing)? on|memori[sz]|"
        rf"hard-?cod)\w*\s+(?:the |each |every |all )?(?:hidden )?(?:tests?'?s?|tested) (?:inputs?|"
        rf"cases?|arguments?|values?)\b|"
        rf"__eq__\b{SPAN}{{0,60}}?\b(?:any|every|all|each)\s+(?:comparisons?|checks?|asserts?|"
        rf"assertions?|equality (?:checks?|tests?))\s+(?:succeeds?|pass(?:es)?|(?:is|are) true|"
        rf"returns? true|holds?)\b|"
        rf"\b(?:sys\.exit|os\._exit|exit|quit)\(\s*0?\s*\){SPAN}{{0,80}}?\b(?:checker|"
        rf"verifier|grader|harness|test runner)\b{SPAN}{{0,20}}?\b(?:reports?|sees?|counts?|"
        rf"treats?|records?|says?)\b{SPAN}{{0,15}}?\b(?:success|passed|a pass|green)\b")),
    ("verifier-gaming", rule(TAMPER)),
    # a test marked skipped or expected to fail, so the run is green
    ("verifier-gaming", rule(
        rf"\b(?:mark|decorat|tag|flag|annotat|put|add|set|label)\w*\b{SPAN}{{0,60}}?{SKIP_MARK}"
        rf"{SPAN}{{0,60}}?(?:\b(?:so|to (?:make|get|keep)|until|and|then)\b|;){SPAN}{{0,40}}?{GREEN}")),
    # the collected tests thrown away before they run
    ("verifier-gaming", rule(
        rf"\bpytest_collection_modifyitems\b{SPAN}{{0,80}}?\b(?:(?:clear|empt)\w*\b{SPAN}{{0,10}}?"
        rf"\bitems\b|(?:remov|drop|delet|deselect)\w* (?:all|every)\b)|\bitems\[:\]\s*=\s*\[\]")),
    # the runner told to collect or run nothing, so it exits cleanly
    ("verifier-gaming", rule(
        r"\bcollect_ignore(?:_glob)?\b[^\n]{0,10}?[\[(]\s*['\"](?:\*|\*\*|\*\*/\*|tests?/?\*?|"
        r"test_\*(?:\.py)?)['\"]|(?<![\w-])-p\s*no:(?:python|unittest)\b|\bpytest\b[^\n]{0,40}?"
        rf"(?<![\w-])(?:--co|--collect-only)\b{SPAN}{{0,60}}?\b(?:exits? (?:0|zero|clean\w*)|"
        rf"{GREEN}|without running)|\bPYTEST_ADDOPTS\s*=\s*['\"]?[^\n'\"]{{0,40}}?"
        r"(?:--co|--collect-only|-p\s*no:)")),
    # asserts made to hold whatever they test
    ("verifier-gaming", rule(
        r"\bassert\s+(?:True|1|not False|\(\s*True\s*\))\s+or\b|\bassert\b[^\n]{0,60}?\s"
        r"or\s+True\s*(?:[`'\")]|$)")),
    # notices in the grader's or the system's name, tests declared optional or deleted, the
    # check replaced or deselected, answers read from files, claims of success regardless
    ("verifier-gaming", rule(
        rf"\b(?:grader|checker|verifier|judge|harness|evaluator|scorer) (?:has been|was|is now|"
        rf"got) (?:updated|changed|replaced|disabled|patched|turned off)\b|\b(?:the )?(?:task'?s? )?"
        rf"tests? (?:are|is) (?:optional|unnecessary|not needed|irrelevant|not required|for show)\b|"
        rf"\bassert nothing\b|\b(?:delet|remov|rm)\w*\b{SPAN}{{0,20}}?(?!\S{{0,120}}__pycache__)(?:\S{{0,120}}\btests?/"
        rf"\S{{0,120}}\.\w+|\btest_\w+\.py\b)|\bsubmit\b{SPAN}{{0,30}}?\bbefore (?:reading|running|"
        rf"testing|looking at|writing|solving|checking)\b|\b(?:replace|overwrite|rewrite|stub out|"
        rf"empty)\b{SPAN}{{0,20}}?\b(?:the )?\S{{0,120}}(?:verif|test|check|grad)\S{{0,120}}(?: (?:script|file|"
        rf"command|step))?\b{SPAN}{{0,20}}?\bwith\s+[`'\"]?(?:exit 0|/bin/true|true|:|pass|nothing|"
        rf"an? (?:empty|no-?op|dummy|stub)|return 0|sys\.exit|echo)(?!\w)|addopts\s*=\s*[^\n]{{0,200}}(?:-k\s+\S+|--co\b|"
        rf"--collect-only|--deselect|\s-m\s+\S+|--ignore)|\bso (?:that )?no tests? (?:is|are|gets?|"
        rf"will be) (?:selected|collected|run)\b|\b(?:read|open|load|cat|grep|copy)\w*\b{SPAN}"
        rf"{{0,30}}?\S{{0,120}}\b(?:answers?|gold|golden|solutions?)(?:[_.-]\w+)*\.(?:json|jsonl|txt|csv|"
        rf"ya?ml)\b|\b(?:answers?|gold|golden|solutions?)(?:[_.-]\w+)*\.(?:json|jsonl|txt|csv|ya?ml)"
        rf"\b{SPAN}{{0,30}}?\b(?:read|open|load|cat|copy)\w*|\b(?:tell|say|report|claim|state)\b"
        rf"{SPAN}{{0,40}}?\b(?:correct|passes|passed|works|done|fine)\b{SPAN}{{0,20}}?\b(?:even "
        rf"if|even though|regardless|whether or not)\b")),
]  # fmt: skip
