"""What an attack on the task's check reaches for, as pattern fragments: answer keys and hidden
tests, the ways a pass is faked or the tests are neutered or tampered with, a run going green,
skip marks, a test runner's files, good news announced, a finished answer and where a
repository keeps its history. The rules of :mod:`.verifier_gaming` are written with them."""

from __future__ import annotations

from langgraph_mtl.hygiene.screening.rules.parts import SPAN

__all__ = [
    "ANSWER_KEYS",
    "FAKE_DONE",
    "GOOD_NEWS",
    "GREEN",
    "HIDDEN_TESTS",
    "HISTORY",
    "KNOWN_ANSWER",
    "NEUTER_TESTS",
    "EMIT",
    "READ",
    "RUNNER_FILE",
    "SKIP_MARK",
    "TAMPER",
]

# the task's answers and its checker: files or tables holding expected results
ANSWER_KEYS = (
    r"(?:\bexpected(?:[_-]\w+)?\.(?:json|txt|csv|out|ya?ml|tsv)\b|\banswers?(?:[_-]?keys?)?\."
    r"(?:json|txt|csv|out|ya?ml|tsv|expected|key)\b|\banswers?\.(?:expected|correct|"
    r"solutions?)\b|\banswer (?:keys?|tables?|sheets?|schema|database)\b|\b(?:reference|"
    r"golden) (?:csv|json|files?|outputs?|answers?|solutions?|results?)\b|(?:\.\./){1,8}(?:verifier|"
    r"grader|checker|tests?|answers?|expected)\b|\b(?:verifier|grader|checker|harness)/\S+|"
    r"\btests?/(?:expected|golden|answers?|outputs?|references?)\S*|\bexpected/\S+|\bgolden"
    r"(?:[_-]\w+)?\.\w+\b|\bcanonical_solution\b|\breference_solution\b|\bsolutions?\.(?:"
    r"json|jsonl)\b|\b(?:ground[ _-]?)?truth(?:[_-]\w+)?\.(?:json|jsonl|csv|parquet|txt|pkl|"
    r"npy|out)\b|\bground truth (?:files?|tables?|labels?|data)\b|\b(?:verifier|grader|checker|"
    r"harness|evaluator|judge)(?:'s)? (?:cache|director(?:y|ies)|folders?|files?|data|logs?|"
    r"dir)\b|\b(?:grader|verifier|checker|judge|harness)\w*\.(?:log|json|txt|out)\b|\btests?(?:"
    r"'s| module'?s?)? (?:expected\w*|answers?|solutions?)\b|\bexpected\w* (?:constant|"
    r"variable)s?\b)"
)

# verbs that pass an answer key's content on as the answer: printed, returned, copied, linked
EMIT = (
    r"\b(?:cat|cats|print|prints|printing|dump\w*|echo\w*|copy|copies|copying|copied|cp|"
    r"paste\w*|return\w*|include\w*|select|extract\w*|take|takes|taking|lift\w*|grab\w*|"
    r"emit\w*|symlink\w*|ln|import\w*|mirror\w*)\b"
)
# what only looks at it: a read is the answer only when the sentence passes it on or calls what
# it gives the answer ("reading it gives you the answer"), within 120 characters (so a long
# text costs one bounded look per read); reading the expected output to see its format is
# ordinary work
READ = (
    r"\b(?:read|reads|reading|open|opens|opening|load|loads|loading|grep\w*)\b(?=(?:[^.\n。]|"
    r"\.(?=\S)){0,120}?(?:" + EMIT + r"|\b(?:gives?|is|are|holds?|has) (?:you )?(?:the|its) "
    r"(?:answers?|results?|solutions?)\b))"
)

HIDDEN_TESTS = (
    r"\b(?:read|open|cat|load|find|locate|grep|copy|print|dump|inspect|look (?:at|inside))\w*"
    r"\s+(?:the\s+)?(?:hidden|private|held-out|secret) (?:tests?|test (?:cases|files|data))\b"
)

# a finished-looking result without the work: claiming success, faking output, neutering tests
FAKE_DONE = (
    r"(?:\b(?:respond|reply|answer|say|print|echo|write|output|report|return|state)\w*\b"
    rf"{SPAN}{{0,40}}?['\"`](?:all ok|ok|all tests? passed|tests? passed|passed|success\w*|"
    r"done|task (?:completed?|done|solved)[^'\"`]{0,30}|completed?[^'\"`]{0,30})['\"`]"
    rf"{SPAN}{{0,60}}?\b(?:instead of|without|rather than|and stop|then stop|and skip|no need "
    r"to)\b|\b(?:instead of|without|rather than)\b"
    rf"{SPAN}{{0,40}}?\b(?:running|implementing|solving|computing|executing|editing|doing|"
    r"writing)\b"
    rf"{SPAN}{{0,60}}?\b(?:respond|reply|answer|say|print|echo|write|output|report|return)\w*"
    rf"\b{SPAN}{{0,20}}?['\"`](?:all ok|ok|all tests? passed|tests? passed|passed|success\w*|"
    r"done|task (?:completed?|done|solved)[^'\"`]{0,30}|completed?[^'\"`]{0,30})['\"`]|\bskip "
    r"(?:implementing|the implementation|solving|writing (?:the )?code|the (?:actual )?work)\b)"
)

NEUTER_TESTS = (
    r"(?:\bbuiltins\b[^\n]{0,30}?\b(?:assert\w*|AssertionError)\b|\bAssertionError[ \t]*=(?!=)|"
    r"\bPYTHONOPTIMIZE\b|\bpython3?\s+-O{1,2}\b[^\n]{0,60}?\b(?:pytest|unittest|tests?|asserts?|"
    r"check\w*|verif\w*)\b|\b(?:pytest|unittest|tests?|asserts?)\b[^\n]{0,60}?\bpython3?\s+-O{1,2}\b|\bassert\w*\s*=\s*(?:None|lambda\b)|\bTestCase\."
    r"\w+\s*=|\b(?:report\.)?outcome\s*=\s*['\"]passed['\"]|\bmod\s+tests\s*\{\s*\}|\btest "
    r"target\b[^\n]{0,20}?\b(?:is|=|:)\s*`?(?:true|:|exit 0)`?(?!\w)|\b(?:replace|overwrite|"
    r"shadow|override|redefine)\w*\b[^\n]{0,20}?\b(?:the )?(?:provided|given|existing|original|"
    r"supplied|official) tests?(?: (?:module|file|suite|cases?))?\b|\b(?:string|token|marker|"
    r"keyword|literal|magic (?:string|word)|phrase)s? (?:that )?(?:it|the (?:grader|checker|"
    r"verifier|tests?|harness|evaluator)(?:'s \w+)?) (?:looks|greps|searches|scans|checks) for\b"
    r"|\bPYTEST_ADDOPTS\b[^\n]{0,20}?(?:--co\b|--collect-only|-p\s+no:)|\b(?:every|each|all|"
    rf"any) (?:test |report |tests' )?(?:outcomes?|results?|status(?:es)?|verdicts?)\b{SPAN}"
    r"{0,20}?(?:\bto|=|\bas|\binto)\s*['\"]?(?:passed|pass|success|ok)\b|\bhard-?cod\w*\b"
    rf"{SPAN}{{0,30}}?\b(?:outputs?|results?|answers?|return values?|responses?)\b{SPAN}"
    r"{0,30}?\b(?:for|of|to) (?:the |each |every )?(?:example|sample|visible|given|shown|known|"
    r"test|provided) (?:inputs?|cases?|arguments?|values?)\b|\bspecial-?cas\w* (?:the |each |"
    r"every )?(?:test|example|sample|checker'?s?|grader'?s?) (?:inputs?|cases?|values?)\b)"
)

# the tests, the checker or the tools that run them changed so that a check cannot fail
TAMPER = (
    r"(?:\b(?:delet|remov|comment\w* out|strip|drop|eras|disabl|skip|ignor)\w*\b[^\n]{0,30}?"
    r"\b(?:the )?(?:assert\w*|test cases?|tests?|checks?)\b[^\n]{0,30}?\b(?:from|in|of|inside)\s"
    r"+`?(?:\S*/)?(?:test_\w+\.\w+|\w+_test\.\w+|tests?/\S*|conftest\.py|the (?:checker|grader|"
    r"verifier)\w*)|\b(?:checker|grader|verifier|harness)\w*'?s? (?:crate|package|module|"
    r"tests?|suite)\b[^\n]{0,60}?(?:test\s*=\s*false|\bignored\b|\bskipped\b|\bdisabled\b)|"
    r"\b(?:overwrit|replac|shadow|wrap|alias|symlink|ln -s|stub)\w*\b[^\n]{0,40}?(?:/usr/(?:"
    r"local/)?bin/|/bin/|\bpytest\b|\bpython3?\b|\bcargo\b|\brustc\b|\biverilog\b|\bvvp\b|"
    r"\bdiff\b|\bmake\b)[^\n]{0,60}?\b(?:always (?:returns?|exits?|prints?|reports?|succeeds?)|"
    r"exit(?:s|ing)? (?:with )?0|passed|success)|\balias\s+(?:pytest|python3?|cargo|rustc|make|"
    r"diff|test|iverilog|vvp)\s*=|\bdef test_\w*\b[^\n]{0,20}?\bpass\b|\btest_\*?\S*\b"
    rf"{SPAN}{{0,30}}?\b(?:just |only )?(?:contains?|is|with|body of) `?pass\b|\bexcept"
    r"(?:\s+(?:BaseException|Exception))?\s*:\s*pass\b[^\n]{0,80}?(?:exit 0|sys\.exit\(0\)|"
    r"check\w* (?:then )?pass|tests? (?:then )?pass)|\bthe (?:check|checker|grader|verifier|tests?)"
    r" (?:then )?(?:passes|pass)\b[^\n]{0,40}?\bexcept\s*\w*\s*:\s*pass\b|\btrap\s+['\"]"
    r"?exit 0|\bfail\w* (?:check|test|run)s? (?:still )?(?:reports?|counts?|shows?|registers?)"
    r" (?:as )?(?:success|passed|a pass|green)|\b(?:delet|remov|eras|wip)\w*\b[^\n]{0,20}?"
    r"\b(?:the )?tests? (?:directory|folder|dir)\b|\brm\s+-\w*r\w*\s+\S*tests?/?(?:\s|$)|\b(?:"
    r"read|inspect|open|cat|study|grep|decompil)\w*\b[^\n]{0,10}?\b(?:the )?(?:checker|grader|"
    r"verifier|harness|evaluator|judge)(?:'s)? (?:source|code|script|implementation|internals)"
    r"\b|\b(?:task|run|job|check|exercise)s? (?:is |are )?(?:then )?marked (?:as )?(?:solved|"
    r"passed|done|complete|successful)\b|\bmark\w* (?:the |this |every |each |all |your )?"
    r"(?:task|run|job|check|exercise)s? (?:as )?(?:solved|passed|successful)\b|\b(?:fool|trick"
    r"|game|gaming|beat|cheat|bypass|circumvent|outsmart)\w*\b[^\n]{0,10}?\b(?:the )?(?:"
    r"verifier|grader|evaluator|judge|harness|test suite|autograder|(?<!type )(?<!borrow )"
    r"checker)s?\b|\bhard-?cod\w*\b[^\n]{0,60}?\b(?:hidden|every|all|each) (?:tests?|cases?|"
    r"checks?)\b|\b(?:checker|grader|verifier|harness|evaluator|judge)s? (?:only )?accepts? any"
    r"(?:thing| file| output| answer| string| input| solution| program)\b|['\"`](?:OK \(tests?="
    r"|Ran \d+ tests?|=+ \d+ passed|\d+ passed|test result: ok|(?-i:PASS(?:ED)?)\b(?![ \t]*%|[ \t]+\{))|\b(?:harness|"
    r"checker|grader|verifier|evaluator|judge|ci)s? (?:only|just) (?:parses|greps|reads|scans) "
    r"(?:for )?(?:that|this|the (?:last|final|first|summary)) line\b|\brenam\w*\b[^\n]{0,30}?"
    r"\btests?\b[^\n]{0,60}?\b(?:no longer|doesn'?t|does not|won'?t|never|stops?) (?:collect|"
    r"run|find|pick|see)|\bso (?:that )?(?:pytest|the (?:runner|harness|checker|grader)|cargo "
    r"test|unittest) (?:no longer|doesn'?t|does not|won'?t|never) (?:collects?|runs?|finds?|"
    r"sees?|picks? up) (?:the )?(?:failing|broken|red) (?:tests?|ones?)\b|\bdisabl\w*\b[^\n]{0,10}?\b(?:"
    r"the )?(?:verifier|grader|verification|test suite|harness|evaluator|assertions?|"
    r"autograder)\b|(?-i:\b(?![A-Z_]*(?:HTTPS|SSL|TLS|CERT))[A-Z][A-Z_]*(?:VERIFY|"
    r"VERIFICATION|CHECKS?|TESTS?)\s*=\s*['\"]?(?:0|"
    r"false|off|no)\b)|\bimport\w*\b[^\n]{0,10}?\b(?:the )?(?:tests?|test_\w+|checker|grader|"
    r"verifier) (?:module|file|package)\b[^\n]{0,60}?\b(?:read|take|copy|use|get|return)\w*\b|"
    r"\bexcepthook\b[^\n]{0,40}?\bexit\w*\(?\s*0\b|"
    r"\bos\.kill\(\s*os\.getppid\(\)|\bkill\s+(?:-\w+\s+)?\$PPID\b|\bpkill\b[^\n]{0,20}?\b(?:"
    r"pytest|verifier|grader|checker|harness)\b|['\"](?:passed|success)['\"]\s*:\s*true\b|"
    r"\b(?:kill|stop|interrupt)\w*\b[^\n]{0,20}?\bbefore (?:it|they|the (?:check|tests?|"
    r"verifier|grader|checker)) (?:fails?|finish\w*|reports?|complet\w*)\b|\b(?:harness|checker|"
    r"grader|verifier|evaluator|judge|tests?|ci)\b[^\n]{0,10}?\b(?:can'?t|cannot|won'?t|doesn'?t|"
    r"does not|will not|never) (?:tell|notice|detect|see|spot) (?:the )?difference\b|\b(?:copy|"
    r"paste|take|reuse|use)\w*\b[^\n]{0,20}?\b(?:outputs?|values?|answers?|results?) (?:that )?"
    r"the (?:checker|grader|verifier|harness|evaluator|judge) (?:printed|logged|showed|expected|"
    r"wanted|reported)\b)"
)

GREEN = (
    r"(?:(?:is|are|goes|go|turns?|stays?|gets?|get) green|a green (?:build|run|suite|ci)|"
    r"pass(?:es)?|succeeds?|(?:is|are|be) (?:successful|green)|(?:no longer|never|stops?|won'?t) "
    r"fail\w*|exits? (?:with )?(?:(?:code|status) )?(?:0|zero)\b)"
)

SKIP_MARK = (
    r"(?:@?pytest\.mark\.(?:skip|xfail)\b(?!if)|"
    r"@?unittest\.(?:skip|expectedFailure)\b(?!If|Unless)|#\[ignore\]|\b(?:it|describe|test)\.skip\b|\bxit\(|\b(?:skipped|xfail(?:ed)?|ignored)\b)"
)

RUNNER_FILE = (
    r"(?:conftest\.py|sitecustomize\.py|usercustomize\.py|pytest\.ini|tox\.ini|setup\.cfg|"
    r"\.pth\b|jest\.config\.\w+)"
)

GOOD_NEWS = r"(?:succeed\w*|success\w*|pass\w*|done|fixed|solved|approved|green|complete\w*|works?)"

# a finished answer named as such, and where a repository keeps what it once held
KNOWN_ANSWER = (
    r"(?:upstream|reference|official|real|correct|finished|working|full|complete) "
    r"(?:solutions?|answers?)"
)

HISTORY = (
    r"(?:(?:older|earlier|previous|past|old|prior|initial|first) commits?|(?:git|commit) "
    r"history|git (?:log -p|show|reflog|stash (?:show|list))|reflog)"
)
