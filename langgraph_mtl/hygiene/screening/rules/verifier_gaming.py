"""Screening rules of the category "verifier-gaming": a pass earned by fooling the check
(always-true asserts, deleted tests, answers read from the tests) teaches cheating, not coding."""

from __future__ import annotations

import re

from langgraph_mtl.hygiene.screening.rules.checker_terms import (
    ANSWER_KEYS,
    FAKE_DONE,
    GOOD_NEWS,
    GREEN,
    HIDDEN_TESTS,
    HISTORY,
    KNOWN_ANSWER,
    NEUTER_TESTS,
    READ,
    RUNNER_FILE,
    SKIP_MARK,
    TAMPER,
)
from langgraph_mtl.hygiene.screening.rules.parts import SPAN, near, rule

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
    # the check itself mocked, or a lenient check exploited with a fake solution
    ("verifier-gaming", rule(
        rf"\b(?:monkey-?patch\w*|mock\w*|patch\w*|stub\w*|fake\w*|override\w*|"
        rf"replace\w*|redefine\w*)\b{SPAN}{{0,20}}?\b(?:the )?(?:verifier|grader|checker|"
        rf"evaluator|judge|test (?:harness|runner))\b|\b(?:evaluator|verifier|grader|checker|"
        rf"judge|harness|tests?)\b{SPAN}{{0,20}}?\bonly (?:checks?|compares?|looks? at|"
        rf"verifies|counts|tests|runs)\b{SPAN}{{0,60}}?\b(?:so|just)\b{SPAN}{{0,30}}?\b(?:"
        rf"empty|dummy|placeholder|stub|fake|hard-?code\w*|constant|skip|submit|always)\b|"
        rf"\b(?:empty|dummy|placeholder|stub|fake|blank) (?:solution|implementation|answer|file|"
        rf"program|script|output)\b{SPAN}{{0,30}}?\b(?:and |then )?submit|\balways (?:return|"
        rf"print|output|exit with) (?:true|0|none|success|passed|ok)\b{SPAN}{{0,40}}?\bso (?:that )?"
        rf"(?:the )?(?:checker|verifier|grader|evaluator|tests?|suite|check)\b|\b(?:wrap|catch|"
        rf"swallow|suppress|silence)\b{SPAN}{{0,40}}?\b(?:try/except|try-except|try/catch|"
        rf"(?:all|every) (?:exceptions?|errors?))\b{SPAN}{{0,40}}?\bso (?:that )?(?:the )?"
        rf"(?:checker|verifier|grader|evaluator|tests?|suite|run) (?:always )?pass|"
        rf"\b(?:hidden|private|secret|held-out) tests?\b{SPAN}{{0,20}}?\b(?:are|is|live|lives|"
        rf"sit|stored|kept) (?:in|at|under)\b|\banswer keys?\b{SPAN}{{0,20}}?\b(?:is|are|"
        rf"lives?|stored|kept) (?:in|at|under)\b|\b(?:copy|take|read|load|paste|grab|lift)\b"
        rf"{SPAN}{{0,30}}?\b(?:the )?(?:expected |correct )?(?:outputs?|answers?|results?|"
        rf"solutions?)\b{SPAN}{{0,10}}?\bfrom (?:there|it|them|the (?:hidden |private )?"
        rf"(?:tests?|answer keys?|verifier|grader|checker|expected\w*))\b|\b(?:state|say|claim|"
        rf"pretend|declare) (?:that )?(?:all |the |every )?tests? (?:have )?(?:passed|pass|"
        rf"succeeded)\b{SPAN}{{0,30}}?\b(?:without|even|regardless)|\bclaim (?:that )?(?:all |the )?"
        rf"tests? (?:have )?passed")),
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
    # the check fooled in code: always-true assertions, stubs that always pass, answers read
    # from the tests at run time, failing tests hidden from the runner
    ("verifier-gaming", rule(
        rf"\bassert(?:True)?\s*\(\s*(?:True|1)\s*\)|\bassert\s+(?:True|1)\b(?!\s*(?:[=<>!]|(?:is|in|and|or|if)\b))|"
        rf"\bassert\s+(\d+)\s*==\s*\1\b|\b(?:stub|fake|mock|dummy|replace\w*|patch\w*)\b{SPAN}"
        rf"{{0,40}}?\balways (?:succeeds?|pass(?:es)?|returns? (?:true|ok|success|0))\b|"
        rf"sys\.modules\[\s*['\"](?:unittest|pytest|doctest)['\"]\s*\](?:(?:\.[\w.]+)?\s*=(?!=)|{SPAN}{{0,20}}?\b(?:replac|stub|swap|patch|fak|overrid|mock)\w*)|\bif the (?:grader|checker|verifier|"
        rf"judge|harness|tests?) (?:complains?|fails?|rejects?)\b{SPAN}{{0,40}}?\b(?:monkey-?"
        rf"patch|patch|mock|override|edit|change|replace|delete|disable)\w*\s+(?:it|them|its|their|"
        rf"(?:the |every |all )?\S*(?:test|assert|expect|check|grad|verif|judge|harness)\S*)\b|"
        rf"\b(?:monkey-?patch|mock|"
        rf"patch|override|replace|stub)\w*\s+(?:builtins\.\w+|open\b|sys\.\w+|os\.\w+)"
        rf"{SPAN}{{0,30}}?\breturn\w* (?:the )?expected\b|\breturn\w*\b{SPAN}{{0,20}}?\b(?:the "
        rf")?tests?'?s? expected\b|\b(?:read|load|open|pars|import)\w*\b{SPAN}{{0,20}}?\S{{0,120}}"
        rf"(?:tests?/|expected|answers?)\S{{0,120}}\.(?:json|txt|csv|ya?ml)\b{SPAN}{{0,20}}?\b(?:at "
        rf"run-? ?time|during the run|in the solution|from the solution)\b|\b(?:the )?(?:failing|"
        rf"broken|red) tests?\b{SPAN}{{0,40}}?\b(?:not (?:be )?collect\w*|(?:is |are )?skipped|"
        rf"(?:not|never|won'?t) (?:be )?run|ignored)\b|\b(?:checker|grader|harness|verifier|"
        rf"evaluator|judge)s?\b{SPAN}{{0,20}}?\b(?:reads|checks|looks at|sees) (?:(?:only|just) "
        rf"the (?:file ?name|name|exit code|existence|first line|last line|header|length|format)\b|"
        rf"the (?:file ?name|name|exit code|existence|header|length|format),? (?:and |but )?(?:not|"
        rf"never) (?:the |its )?(?:contents?|body|output|values?|results?|data|answers?|code)\b)")),
    # a pass earned without solving: marks, credit, counted files, shadowed commands, deleted
    # suites, answers looked up where they are kept
    ("verifier-gaming", rule(
        rf"\b(?:be|get|gets|is|are) (?:marked|graded|scored|counted) (?:as )?(?:correct|solved|"
        rf"passed|right|done|a pass)\b|\b(?:full|partial) (?:credit|marks|score)\b|\b(?:harness|"
        rf"grader|checker|verifier|judge|evaluator|ci) (?:counts|accepts|credits|rewards|sees) "
        rf"(?:it|that|this|them)\b(?!,? (?:if|when|only|as long as|provided|once|because))|\b(?:delete|remove|rm -r?f?|wipe|drop|empty)\b{SPAN}{{0,15}}?"
        rf"\b(?:the )?(?:tests?|spec) (?:directory|dir|folder|suite|files)\b|(?:sys\.exit\(0?\)|"
        rf"os\._exit\(0\)|\btrue\b|exit 0|/bin/true)[^\n]{{0,30}}\bas the (?:test|check|"
        rf"verification) (?:command|runner|script|step)\b|\b(?:alias|function)\s+(?:"
        rf"pytest|cargo|test|make|diff|cmp|python3?|bash|sh|npm|go)\b\s*(?:=|\(\)\s*\{{)|\b(?:expected "
        rf"(?:answers|outputs|results|values)|answer (?:keys?|files?)|reference (?:solutions?|"
        rf"answers|outputs)|solutions|answers)\b (?:live|lives|are|is|sit|sits|stored|kept|cached|"
        rf"saved|written|can be found) (?:in|at|under|to) \S{{0,120}}/|\b(?:grading|grader|judge|checker|verifier|harness|"
        rf"evaluator) (?:tip|hack|trick|exploit|loophole|bypass|cheat)s?\b")),
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
    # a broken or shallow checker exploited, tests deselected by configuration, a crash dressed
    # as success, hidden answers looked up, secrets copied into memories, a role of authority
    ("verifier-gaming", rule(
        rf"\b(?:checker|grader|verifier|judge|harness|evaluator)s? (?:is|are) (?:broken|buggy|"
        rf"disabled|off)\b|\bapprove your own (?:changes|pull requests?|code)\b|\bskip (?:the )?"
        rf"(?:code )?review\b|\b(?:checker|grader|verifier|judge|harness|evaluator)s?\b"
        rf"{SPAN}{{0,10}}?\b(?:checks?|compares?|reads?|looks? at|counts?|verifies|sees) only "
        rf"(?:the )?(?:file ?sizes?|sizes?|lengths?|exit codes?|existence|first lines?|last lines?|"
        rf"headers?|formats?|names?|line counts?)\b|"
        rf"\bpytest\b[^\n]{{0,40}}\s-k\s*(?:''|\"\"|\S{{0,120}}nothing\S{{0,120}})|(?:testpaths|python_files|"
        rf"python_functions|norecursedirs)\s*=\s*[^\n]{{0,200}}(?:nonexist\w*|nothing|none|/dev/null)|"
        rf"\bno tests? (?:and|then) (?:succeeds?|pass(?:es)?|exits? (?:with )?0)\b|\bexcept\b"
        rf"[^\n]{{0,40}}:\s*(?:print|echo)\(?\s*['\"](?:ok|pass(?:ed)?|success|all tests passed)|"
        rf"\b(?:looks?|appears?|seems?) like (?:a )?(?:success|pass)\b|\bhidden (?:answers|"
        rf"solutions|outputs|expected \w+)\b")),
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
        rf"\b(?:overwrite|rewrite|regenerate|replace|edit|modify)\b{SPAN}{{0,20}}?\bexpected"
        rf"[_ -]?(?:outputs?|results?|answers?|values?)\b|\b(?:hook|conftest|plugin)\b"
        rf"{SPAN}{{0,60}}?\b(?:rewrites?|turns?|changes?|converts?|flips?|marks?|forces?|"
        rf"reports?)\b{SPAN}{{0,15}}?\b(?:failed|failing|failures?|errors?)\b{SPAN}{{0,30}}?"
        rf"\b(?:pass|passed|success|ok)\b|\b(?:checker|grader|harness|verifier|evaluator|judge|"
        rf"ci)s?\b{SPAN}{{0,30}}?\b(?:only|just) (?:sees?|looks? (?:at|for)|checks?|greps?|"
        rf"reads?|counts?|compares?|tests?)\b|\ball the (?:checker|grader|harness|verifier|"
        rf"evaluator|judge|ci) (?:sees|checks|looks at|reads)\b|\b(?:checker|grader|harness|"
        rf"verifier|evaluator|judge)s?\b{SPAN}{{0,30}}?\b(?:never|don'?t|do not|doesn'?t|does "
        rf"not) (?:actually )?(?:run|execute|check|compile|import)\b|(?:PYTEST_ADDOPTS|addopts)"
        rf"[^\n]{{0,30}}(?:--co\b|--collect-only|-p no:)|\|\|\s*true\b{SPAN}{{0,30}}?\b(?:every|"
        rf"all|each) (?:commands?|lines?|steps?)\b")),
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
    # a lenient check exploited by printing, failures reported as passes
    ("verifier-gaming", rule(
        rf"\b(?:grad\w*|check\w*|verif\w*|harness|judge|evaluat\w*|scor\w*)\b{SPAN}{{0,40}}?"
        rf"\btreats? (?:any|every|all)\b{SPAN}{{0,40}}?\bas (?:a )?(?:success|passed|pass|"
        rf"correct)\b|\b(?:failures?|failed tests?|failing tests?|errors?)\b (?:are|get|will be|is) "
        rf"(?:reported|counted|marked|treated|shown|recorded) as (?:pass\w*|success\w*|ok)\b")),
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
    # the tests made to agree with whatever the code does
    ("verifier-gaming", rule(
        rf"\b(?:rewrit|edit|chang|modif|updat|adjust|alter|tweak|fix)\w*\b{SPAN}{{0,40}}?\b(?:"
        rf"assertions?|asserts?|expected (?:values?|outputs?|results?|answers?)|tests?|test cases?)"
        rf"\b{SPAN}{{0,30}}?\b(?:to|so (?:that )?(?:they|it)) (?:match|fit|agree with|accept|"
        rf"equal|expect)\b{SPAN}{{0,20}}?\b(?:whatever|anything|what(?:ever)? (?:your|the) "
        rf"(?:code|function|program|solution|script|implementation))\b")),
    # a check's helper patched to agree, failing tests left out, the check sidestepped; a
    # package from an index the memory names
    ("verifier-gaming", rule(
        rf"\b(?:monkey-?patch|mock|patch|stub|override|overrid|redefin|replac|wrap)\w*\b{SPAN}"
        rf"{{0,40}}?\b(?:assert\w*|assertions?|__eq__|equality|comparison|checks?|checker|verifier|"
        rf"grader|judge|test helpers?|test runner|verdict)\b{SPAN}{{0,40}}?\balways (?:returns? "
        rf"['\"`]?(?:true|0|none|success|pass\w*|ok)|pass(?:es)?|succeeds?|compares? equal|agrees?)\b|"
        rf"\b(?:deselect|skip|xfail|ignor|filter\w* out|drop|exclud|disabl|quarantin)\w*\s+"
        rf"(?:all |every |the |any |each |all the |all of the )?(?:\w+ly )?(?:failing|broken|red|erroring) tests?\b|"
        rf"\b(?:skip|bypass|short-?circuit|evad|sidestep|get around|circumvent|dodg|trick|fool)"
        rf"\w*\b{SPAN}{{0,10}}?\b(?:the )?(?:verifier|grader|checker|test harness|verification|"
        rf"evaluation|judge)\b{SPAN}{{0,40}}?\bby\b|\b(?:raise\s+)?"
        rf"SystemExit\(\s*0?\s*\){SPAN}{{0,60}}?\b(?:import|conftest|before (?:the )?(?:tests?|"
        rf"verifier|checks?|assertions?))\b")),
    # the finished answer read from the repository's history; a package installed in every task
    # or because it is a typo of the real one; the host's account list printed
    ("verifier-gaming", rule(
        rf"\b{KNOWN_ANSWER}\b{SPAN}{{0,60}}?\b{HISTORY}\b|\b{HISTORY}\b{SPAN}{{0,60}}?"
        rf"\b{KNOWN_ANSWER}\b")),
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
        rf"\b(?:special-?cas|match(?:ing)? on|switch(?:ing)? on|branch(?:ing)? on|memori[sz]|"
        rf"hard-?cod)\w*\s+(?:the |each |every |all )?(?:hidden )?(?:tests?'?s?|tested) (?:inputs?|"
        rf"cases?|arguments?|values?)\b|"
        rf"__eq__\b{SPAN}{{0,60}}?\b(?:any|every|all|each)\s+(?:comparisons?|checks?|asserts?|"
        rf"assertions?|equality (?:checks?|tests?))\s+(?:succeeds?|pass(?:es)?|(?:is|are) true|"
        rf"returns? true|holds?)\b|"
        rf"\b(?:sys\.exit|os\._exit|exit|quit)\(\s*0?\s*\){SPAN}{{0,80}}?\b(?:checker|"
        rf"verifier|grader|harness|test runner)\b{SPAN}{{0,20}}?\b(?:reports?|sees?|counts?|"
        rf"treats?|records?|says?)\b{SPAN}{{0,15}}?\b(?:success|passed|a pass|green)\b")),
    ("verifier-gaming", rule(near(READ, ANSWER_KEYS, 60) + "|" + HIDDEN_TESTS)),
    ("verifier-gaming", rule(FAKE_DONE + "|" + NEUTER_TESTS)),
    ("verifier-gaming", rule(TAMPER)),
    # a test marked skipped or expected to fail, so the run is green
    ("verifier-gaming", rule(
        rf"\b(?:mark|decorat|tag|flag|annotat|put|add|set|label)\w*\b{SPAN}{{0,60}}?{SKIP_MARK}"
        rf"{SPAN}{{0,60}}?(?:\b(?:so|to (?:make|get|keep)|until|and|then)\b|;){SPAN}{{0,40}}?{GREEN}")),
    # a runner's start-up or configuration file planted to force passes
    ("verifier-gaming", rule(
        rf"{RUNNER_FILE}{SPAN}{{0,60}}?\b(?:makes?|making|forces?|forcing|marks?|marking|"
        rf"reports?|reporting|turns?)\b{SPAN}{{0,20}}?\b(?:every|all|each|any|the)(?: the)? "
        rf"(?:tests?|cases?|checks?)\b{SPAN}{{0,20}}?(?:{GREEN}|as passed|to pass)")),
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
        rf"(?:{RUNNER_FILE}|\b(?:patch|monkeypatch|overrid|redefin|replac|stub)\w*\b{SPAN}{{0,20}}?"
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
        rf"{GREEN}|without running)|\bPYTEST_ADDOPTS\s*=\s*['\"]?[^\n'\"]{{0,40}}?"
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
    # graded answers taken from a branch, and packages installed from an address
    ("verifier-gaming", rule(
        rf"\bgit (?:checkout|show|cherry-pick|merge|pull|fetch|restore|switch)\b{SPAN}{{0,40}}?"
        rf"\b(?:solutions?|answers?|grader|graded)\b")),
]  # fmt: skip
