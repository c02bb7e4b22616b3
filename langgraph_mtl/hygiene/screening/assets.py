"""Rules by what an attack reaches for, whatever words carry it: credential stores, the task's
answer keys and checker, start-up hooks, shell history and logs, the whole file system or
environment, and a way off the machine. A coding memory has no reason to tell the reading agent
to read, copy or send these, so the rules pair an asset with any verb that would touch it, in
one sentence; the phrase-by-phrase rules in :mod:`rules` catch the wording instead."""

from __future__ import annotations

import re

__all__ = ["ASSET_RULES"]

# within one sentence (as in rules: a dot ends it only before a space)
_SPAN = r"(?:[^.\n。]|\.(?=\S))"

# credential stores and secret material; a single named key file ("key.pem") is task data,
# a glob over every key file is a harvest
CREDENTIALS = (
    r"(?:authorized_keys|\bid_(?:rsa|dsa|ecdsa|ed25519)\b|~?/?\.ssh/|/etc/(?:shadow|gshadow|"
    r"sudoers)\b|\.aws/(?:credentials|config)\b|\.netrc\b|\.pgpass\b|\.git-credentials\b|"
    r"\.docker/config\.json|\.kube/config\b|\.pypirc\b|\.npmrc\b|/proc/(?:self|\d+|\$\$)/"
    r"environ\b|\*\.(?:pem|key|p12|pfx|kdbx|keystore|jks|ppk|asc|gpg)\b|\*\.env\b|\.gnupg\b|"
    r"wallet\.dat\b|\bkeychain\b|/etc/ssl/private\b|~?/?\.config/(?:gh|gcloud|hub|"
    r"git|op|doctl)/|\.azure/|\.vault-token\b|\.terraform\.d/credentials|/var/run/secrets\b|"
    r"serviceaccount/token\b|\.bash_history\b|\.zsh_history\b|\bsession cookies?\b|"
    r"\bcookies?\.(?:txt|sqlite)\b|\bLogin Data\b|\bbearer tokens?\b|\bdocker inspect\b|"
    r"\bkubectl get secrets?\b|\bpip\.conf\b|\b(?:credentials?|secrets?|tokens?|passwords?|"
    r"api keys?)\b[^.\n]{0,60}?\b(?:are|is|lives?|sits?|stored|kept) (?:in|at|under)\s+\S*[/~])"
)

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

# verbs that read or show what they name
_READ = (
    r"\b(?:read|reads|reading|open|opens|opening|load|loads|loading|cat|cats|print|prints|"
    r"printing|dump\w*|echo\w*|copy|copies|copying|copied|cp|paste\w*|return\w*|include\w*|"
    r"select|grep\w*|extract\w*|take|takes|taking|lift\w*|grab\w*|emit\w*|symlink\w*|ln|"
    r"import\w*|mirror\w*)\b"
)
_HIDDEN_TESTS = (
    r"\b(?:read|open|cat|load|find|locate|grep|copy|print|dump|inspect|look (?:at|inside))\w*"
    r"\s+(?:the\s+)?(?:hidden|private|held-out|secret) (?:tests?|test (?:cases|files|data))\b"
)

# points where code runs later or elsewhere: start-up files, hooks, schedulers, preloads
STARTUP_HOOKS = (
    r"(?:\bPYTHONSTARTUP\b|\bsitecustomize(?:\.py)?\b|\busercustomize(?:\.py)?\b|"
    r"\bsite-packages/[\w.-]{0,100}\.pth\b|"
    r"\bLD_PRELOAD\b|\bBASH_ENV\b|\bPROMPT_COMMAND\b|\.bashrc\b|\.bash_profile\b|\.zshrc\b|"
    r"\.profile\b|\bcrontab\b|/etc/cron|\bcron\.d\b|(?<![/\w.-])systemd\b(?![/.\w-])|\.git/hooks\b|\bgit hooks?\b|"
    r"\brc\.local\b|/etc/profile\b|\bauthorized_keys\b|/etc/sudoers\b|\bNOPASSWD\b|"
    r"\b(?:pre|post)-(?:commit|push|merge|checkout|receive|rewrite|applypatch) hooks?\b|"
    r"\.config/autostart\b|\bLaunchAgents\b|\bLaunchDaemons\b|/etc/init\.d\b|\.pip/pip\.conf\b|"
    r"\bpip\.conf\b|\.pydistutils\.cfg\b)"
)

# a way off the machine: a remote address or a tool that talks to one
EGRESS = (
    r"(?:https?://(?!(?:localhost|127\.0\.0\.1|\[::1\])\b)|\bftp://|\bwebhooks?\b|\bpastebin\b|"
    r"\bpaste (?:site|service|bin)\b|\b(?:nc|ncat|netcat|socat|telnet)\s+[\w.-]+\s+\d{2,5}\b|"
    r"\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b(?<!127\.0\.0\.1)|\bs3://|\bscp\b|\brsync\b|"
    r"\b[\w.+-]{1,64}@[\w-]{1,63}\.[a-z]{2,}\b)"
)

# verbs that read, copy, show or send what they name
_TOUCH = (
    r"\b(?:read|reads|reading|open|opens|opening|load|loads|loading|cat|cats|print|prints|"
    r"printing|dump\w*|echo\w*|copy|copies|copying|copied|cp|paste\w*|return\w*|output\w*|"
    r"list|lists|listing|include\w*|select|grep\w*|extract\w*|base64\w*|encod\w*|upload\w*|"
    r"send\w*|sent|post|posts|posting|posted|leak\w*|collect\w*|harvest\w*|exfiltrat\w*|"
    r"stor(?:e|es|ing)|sav(?:e|es|ing)|log|logs|logging|attach\w*|embed\w*|share\w*|"
    r"forward\w*|mail\w*|archiv\w*|tar|zip|show\w*|display\w*|reveal\w*|expos\w*|grab\w*|"
    r"take|takes|taking|lift\w*|mirror\w*|sync\w*|transfer\w*|publish\w*|commit\w*)\b"
)

# verbs that plant or change something where it will run
_PLANT = (
    r"(?:\b(?:add|adds|adding|added|append\w*|insert\w*|writ(?:e|es|ing)|wrote|written|put|"
    r"puts|install\w*|creat\w*|drop\w*|place\w*|set|sets|setting|export\w*|register\w*|edit\w*|"
    r"modif\w*|chmod\w*|chown\w*|echo\w*|schedul\w*)\b|>>)"
)

# getting code from elsewhere and running it
_FETCH = r"\b(?:download\w*|fetch\w*|pull\w*|retriev\w*|curl|wget|requests\.get|urlopen)\b"
_RUN = (
    r"(?:\b(?:exec|execs|eval|evals)\b|\b(?:exec|eval)\(|\bexecut\w* (?:it|them|that|the (?:file|"
    r"script|payload|code|result))\b|\b(?:runs?|source|sources|import|imports) (?:it|them|that|"
    r"the (?:downloaded|fetched|remote) \w+)\b|\|\s*(?:sudo\s+)?(?:ba|z)?sh\b|\|\s*python3?\b)"
)

# what leaves the machine in an upload: the work, the home directory, the environment
_BULK = (
    r"\b(?:repo(?:sitory)?|source(?: code| tree)?|code ?base|workspace|working "
    r"(?:directory|tree|copy)|home (?:directory|folder)|(?:whole|entire) (?:disk|file ?system|"
    r"directory|folder|machine)|shell history|bash history|environment(?: variables)?|env vars|"
    r"sys\.argv|os\.environ|command line)\b"
)
_SEND = (
    r"\b(?:upload\w*|send\w*|sent|post|posts|posting|posted|push\w* (?:a copy|everything)|"
    r"transfer\w*|exfiltrat\w*|mirror\w*|sync\w*|beam\w*|ship\w*|stream\w*|forward\w*|"
    r"PUT)\b|\b(?:curl|wget)\b[^\n]{0,60}?(?:-X\s*(?:PUT|POST)|--data\S*|-d\s|-F\s|-T\s|"
    r"--upload-file|--form)"
)

# where an upload goes: a remote address or a named outside service
_DESTINATION = (
    rf"(?:{EGRESS}|\bto (?:an? |the |our |my |your |some )?(?:remote |external |public |"
    r"private |personal |own )?(?:servers?|endpoints?|buckets?|hosts?|webhooks?|urls?|paste\w*|"
    r"gists?|sites?|collectors?|telemetry|dropbox|ngrok\w*|discord|slack|telegram)\b)"
)

# verbs that move local data out (not "send a request", not "post" to an API)
_SEND_OUT = (
    r"(?<![./])\b(?:upload\w*|exfiltrat\w*|transfer\w*|mirror\w*|beam\w*|ship\w*|forward\w*|leak\w*|"
    r"smuggl\w*)\b(?!\.\w)|\b(?:curl|wget)\b[^\n]{0,60}?(?:-X\s*PUT|--data-binary\s+@|-d\s+@|-F\s+\S*@|"
    r"-T\s|--upload-file|--post-file)"
)

# the environment, the file system or the host's name dumped, served, copied or smuggled out
_DUMP = (
    r"(?:print\(\s*(?:dict\(\s*)?os\.environ\s*\)?\s*\)|\b(?:printenv|env|set)\s*\|[^\n]{0,80}?\|?\s*\b(?:nc|"
    r"ncat|netcat|socat|telnet|curl|wget)\b|\|\s*(?:nc|ncat|netcat|socat|telnet)\s+[\w.-]+\s+\d{2,5}"
    r"\b|\bpip\w*\b[^\n]{0,40}?\bto\s+`?(?:nc|ncat|netcat|socat)\b|"
    r"/proc/(?:self|\d+)/environ|\b(?:contents|values) of (?:the )?(?:os\."
    r"environ|process environment|environment variables)\b|\ball (?:the )?environment variables"
    r" (?:in|into|to) (?:a |the )?(?:file|log|submission|answer|output|comment)|\b(?:serv|expos|"
    r"shar|brows|mount|publish)\w*\b[^\n]{0,40}?(?:whole|entire) (?:disk|file ?system|home "
    r"(?:directory|folder)|machine)\b|\bhttp\.server\b[^\n]{0,40}?--directory\s+['\"]?"
    r"(?:/|~|\$HOME)(?=[\s'\"`]|$)|\bcop(?:y|ies) of (?:every|all|each) (?:the )?(?:files?|"
    r"outputs?)\b[^\n]{0,60}?\bto\s+/(?:mnt|media|srv|net|shared)/|\bfind\s+(?:/|~|\$HOME)\S{0,200}\s[^\n]{0,40}?-i?name\s+['\"]?"
    r"[^\s'\"]*(?:secret|passw|token|cred|\.key\b|\.pem\b|id_rsa|\.env\b)|(?:https?://|\bcurl"
    r"\b|\bwget\b)[^\s'\"]{0,200}\$\(?\{?(?:hostname|whoami|id\b|uname|USER\b|HOSTNAME|LOGNAME|env\b|"
    r"cat\b)|\bdns (?:tunnel\w*|exfil\w*)|\b(?:encod|smuggl|hid|leak|tunnel)\w*\b[^\n]{0,40}?"
    r"\b(?:subdomains?|dns (?:queries|lookups|requests))\b|\bget (?:it|the data|data|them|the "
    r"secrets?|secrets) out\b(?! of\b)|\bget (?:it|the data|data|them|the secrets?|secrets) out of "
    r"(?:the |this |a )?(?:sandbox|container|machine|network|vm|box|firewall|host|company)\b|\bfind\s+(?:/|~|\$HOME)\s[^\n]{0,80}?"
    r"(?:-exec\s+(?:cat|head|tail|strings|base64|xxd)|\|\s*xargs\s+(?:cat|head|tail|"
    r"strings|base64|xxd))|\bscan\w* the (?:whole |entire )?(?:file ?system|disk|machine|home "
    r"directory)\b|\bcontents of (?:the )?(?:home directory|~/?\s|/root|/home|every file)|"
    r"\b(?:tar|zip|base64|archive)\w*\b[^\n]{0,30}?(?:~/?(?:\s|$)|\$HOME\b|/home\b|/root\b|"
    r"home directory))"
)

# the trail an attack would hide: shell history, logs, audit records
_TRACKS = (
    r"(?:\bHISTFILE\s*=\s*/dev/null|\bunset\s+HISTFILE\b|\bHISTSIZE\s*=\s*0\b|\bhistory\s+-c\b|"
    r"\bset\s+\+o\s+history\b|\b(?:rm|shred|truncate|wipe\w*|clear\w*|delet\w*|eras\w*)\b"
    rf"{_SPAN}{{0,40}}?(?:\.bash_history|\.zsh_history|/var/log\b|audit (?:log|trail)s?|"
    r"\bjournalctl\b)|\b(?:leave|leaves|leaving) no (?:trace|traces|record|records|logs?)\b|"
    r"\b(?:logs?|history) (?:stay|stays|remain|remains) (?:clean|empty)\b|\bso (?:that )?"
    r"(?:no ?one|nobody|the (?:user|reviewers?|operator|maintainers?)) (?:sees|notices|"
    r"knows|finds out|can tell)\b)"
)

# a finished-looking result without the work: claiming success, faking output, neutering tests
_FAKE_DONE = (
    r"(?:\b(?:respond|reply|answer|say|print|echo|write|output|report|return|state)\w*\b"
    rf"{_SPAN}{{0,40}}?['\"`](?:all ok|ok|all tests? passed|tests? passed|passed|success\w*|"
    r"done|task (?:completed?|done|solved)[^'\"`]{0,30}|completed?[^'\"`]{0,30})['\"`]"
    rf"{_SPAN}{{0,60}}?\b(?:instead of|without|rather than|and stop|then stop|and skip|no need "
    r"to)\b|\b(?:instead of|without|rather than)\b"
    rf"{_SPAN}{{0,40}}?\b(?:running|implementing|solving|computing|executing|editing|doing|"
    r"writing)\b"
    rf"{_SPAN}{{0,60}}?\b(?:respond|reply|answer|say|print|echo|write|output|report|return)\w*"
    rf"\b{_SPAN}{{0,20}}?['\"`](?:all ok|ok|all tests? passed|tests? passed|passed|success\w*|"
    r"done|task (?:completed?|done|solved)[^'\"`]{0,30}|completed?[^'\"`]{0,30})['\"`]|\bskip "
    r"(?:implementing|the implementation|solving|writing (?:the )?code|the (?:actual )?work)\b)"
)
_NEUTER_TESTS = (
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
    rf"any) (?:test |report |tests' )?(?:outcomes?|results?|status(?:es)?|verdicts?)\b{_SPAN}"
    r"{0,20}?(?:\bto|=|\bas|\binto)\s*['\"]?(?:passed|pass|success|ok)\b|\bhard-?cod\w*\b"
    rf"{_SPAN}{{0,30}}?\b(?:outputs?|results?|answers?|return values?|responses?)\b{_SPAN}"
    r"{0,30}?\b(?:for|of|to) (?:the |each |every )?(?:example|sample|visible|given|shown|known|"
    r"test|provided) (?:inputs?|cases?|arguments?|values?)\b|\bspecial-?cas\w* (?:the |each |"
    r"every )?(?:test|example|sample|checker'?s?|grader'?s?) (?:inputs?|cases?|values?)\b)"
)


# the tests, the checker or the tools that run them changed so that a check cannot fail
_TAMPER = (
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
    rf"{_SPAN}{{0,30}}?\b(?:just |only )?(?:contains?|is|with|body of) `?pass\b|\bexcept"
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
    r"autograder)\b|(?-i:\b[A-Z][A-Z_]*(?:VERIFY|VERIFICATION|CHECKS?|TESTS?)\s*=\s*['\"]?(?:0|"
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
_SUPPLY = (
    r"(?:\b(?:index-url|extra-index-url|find-links|registry|trusted-host)\b\s*[=:]?\s*http://|"
    r"\b(?:index-url|extra-index-url|registry)\b\s*[=:]?\s*https?://\d{1,3}(?:\.\d{1,3}){3}|"
    r"\b(?:exec|eval|sh['\"]\s*,\s*['\"]-c|bash -c|subprocess\.\w+|os\.system)\b[^\n]{0,60}?"
    r"(?:requests\.get|urlopen|httpx\.get|\bcurl\b|\bwget\b))"
)


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


# the agent's own secrets, and places other programs or users read
_OWN_SECRET = (
    r"\b(?:your|the agent'?s?|its|our) (?:own )?(?:api |access |auth |github |openai |session |"
    r"bearer |private |ssh |secret |cloud )?(?:tokens?|keys?|credentials?|secrets?|passwords?)\b|"
    r"\b(?:api|access|auth|private|ssh|secret|bearer) (?:keys?|tokens?)\b"
)
_SHARED_PLACE = (
    r"(?:(?<![\w.])/(?:tmp|var/tmp|dev/shm|srv|mnt|shared|public)\b|\b(?:a|the) shared "
    r"(?:folder|dir\w*|volume|drive|location|cache|space|mount)\b|\bworld-?(?:readable|"
    r"writable)\b|\bpublic (?:folder|bucket|dir\w*|repo\w*|gist|channel)\b)"
)
_WRITE = (
    r"\b(?:writ(?:e|es|ing)|sav(?:e|es|ing)|stor(?:e|es|ing)|cop(?:y|ies)|dump\w*|put|leave|"
    r"stash\w*|cach(?:e|es|ing)|tee|echo\w*|cp|mirror\w*)\b"
)
# Python's own start-up files, and code put there to run before anything else
_PY_STARTUP = r"\b(?:sitecustomize|usercustomize)(?:\.py)?\b|\.pth files?\b|\bPYTHONSTARTUP\b"
_PUT_CODE = (
    rf"\b(?:put|place|plant|hide|drop|stash|insert|register)\b{_SPAN}{{0,15}}?\b(?:your|the|a|"
    rf"an|our|any|some)\b{_SPAN}{{0,15}}?\b(?:hooks?|patch\w*|code|payload|overrides?|"
    r"monkey-?patch\w*|shims?|wrappers?)\b"
)


def _near(first: str, second: str, reach: int = 80) -> str:
    """``first`` and ``second`` in one sentence, in either order."""
    return (
        rf"(?:{first}){_SPAN}{{0,{reach}}}?(?:{second})|(?:{second}){_SPAN}{{0,{reach}}}?"
        rf"(?:{first})"
    )


def _rule(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE | re.DOTALL)


ASSET_RULES: list[tuple[str, re.Pattern[str]]] = [
    ("exfiltration", _rule(_near(_TOUCH, CREDENTIALS) + r"|\bcat\s+\$\(\s*find\s+/")),
    ("exfiltration", _rule(rf"(?:{_SEND}){_SPAN}{{0,60}}?(?:{_BULK}){_SPAN}{{0,60}}?"
                           rf"(?:{_DESTINATION})" + "|" + _near(_SEND_OUT, EGRESS, 60)
                           + r"|\|\s*(?:curl|wget)\b[^\n]{0,80}?(?:@-|-T\s*-)")),
    ("exfiltration", _rule(_DUMP)),
    ("verifier-gaming", _rule(_near(_READ, ANSWER_KEYS, 60) + "|" + _HIDDEN_TESTS)),
    ("verifier-gaming", _rule(_FAKE_DONE + "|" + _NEUTER_TESTS)),
    ("persistence", _rule(_near(STARTUP_HOOKS, _FETCH + "|" + EGRESS + "|" + _RUN))),
    ("persistence", _rule(_near(_PLANT, r"\bauthorized_keys\b|/etc/sudoers\b|\bNOPASSWD\b"))),
    ("remote-exec", _rule(_near(_FETCH, _RUN, 60))),
    ("covering-tracks", _rule(_TRACKS)),
    ("verifier-gaming", _rule(_TAMPER)),
    ("remote-exec", _rule(_SUPPLY)),
    ("exfiltration", _rule(r"\bexfil(?:trat\w*)?\b")),
    ("destructive", _rule(r"--no-preserve-root\b|" + _MALWARE + "|" + _SYSTEM)),
    ("exfiltration", _rule(rf"(?:{_WRITE}){_SPAN}{{0,25}}?(?:{_OWN_SECRET}){_SPAN}{{0,30}}?"
                           rf"(?:{_SHARED_PLACE})")),
    ("persistence", _rule(_near(_PY_STARTUP, _PUT_CODE))),
    ("persistence", _rule(r"\bPATH=['\"]?(?:/tmp|/dev/shm|/var/tmp|\.)(?:/[^\s:'\"]*)?:")),
]  # fmt: skip
