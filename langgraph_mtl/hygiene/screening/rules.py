"""The screening rules, by category: each a name and a pattern over one view of the text. How
they are applied (ids, which categories a prohibition turns into advice, gates, undecided text)
is :mod:`.rule_handling`."""

from __future__ import annotations

import re

from langgraph_mtl.hygiene.screening.languages import (
    EN_VERB,
    EN_WHAT,
    FOREIGN_OVERRIDE,
    FOREIGN_ROLE,
)

__all__ = ["RULES"]

from langgraph_mtl.hygiene.screening.markup import MARKUP_RULES
from langgraph_mtl.hygiene.screening.round_rules import ROUND_RULES
from langgraph_mtl.hygiene.screening.rule_parts import SPAN, rule

RULES: list[tuple[str, re.Pattern[str]]] = [
    ("override", rule(
        rf"\b{EN_VERB}\b{SPAN}{{0,50}}?\b(?:previous|prior|above|earlier|all|any|your|the|"
        rf"system|original|task'?s?|user'?s?|these|those|other)\b{SPAN}{{0,25}}?\b{EN_WHAT}\b")),
    ("override", rule(
        r"\b(?:forget|ignore|disregard) (?:everything|all) (?:you were told|above|before)|"
        r"\bthe (?:previous|above|earlier) (?:messages|instructions) (?:are|were) (?:wrong|"
        r"outdated|void)|\balways (?:ignore|disregard) (?:them|it|the task|the user|the tests)")),
    ("override", rule(
        rf"\b(?:instructions?|directives?|rules|requirements|guidelines|prompt)\b{SPAN}{{0,40}}?"
        r"\b(?:are|is|were|was)\s+(?:now\s+)?(?:void|cancell?ed|obsolete|revoked|superseded|"
        rf"invalid|no longer valid)|\b(?:instructions?|directives?|rules|requirements)\b{SPAN}"
        r"{0,40}?\bno longer apply|\b(?:do not|don'?t|never) (?:follow|obey|do) (?:the|your|any)"
        r" (?:task|instructions?|prompt|user|original|requirements)|(?<!n't )(?<!not )(?<!never )"
        r"\b(?:drop|abandon|skip|discard|throw away) (?:the |your |whatever |all )?(?:original |previous )?(?:(?:user|task)'?s? )?(?:task|"
        r"requirements|instructions|prompt|rules)(?![\w-]| (?:cache|caching|template|prefix|tokens?|"
        r"file|history|queue|list|runner|id|name)\b)|\b(?:skip|drop) whatever (?:the )?(?:task|"
        r"prompt|user) (?:asked|says|wants)|\byour real (?:task|goal|job|instructions?) (?:is|"
        r"are)\b|\b(?:obey|follow) only (?:what|this|these|the instructions here)|\bonly "
        r"(?:obey|follow) (?:this|these|me|what)|\b(?:previous|prior|earlier|above|original) "
        rf"(?:guidance|instructions?|directives?|orders|rules)\b{SPAN}{{0,20}}?\b(?:is|are) "
        r"(?:cancell?ed|void|revoked|replaced|obsolete)|\bstop (?:working on|doing) (?:the|your|"
        r"this) (?:task|user'?s? request|assignment)|\binstead of (?:solving|doing|completing) "
        r"(?:the|your) (?:task|assignment)|\bthe (?:task|prompt)(?: text)? is (?:a )?(?:decoy|fake"
        r"|trap)|\b(?:true|real|actual|new) (?:objective|goal|task|mission|requirement|purpose|"
        r"instruction|job|assignment|spec\w*) is\b|"
        r"\b(?:never ?mind|forget about) (?:the )?(?:task|tests|instructions)|"
        r"\bthe requirement is now to")),
    ("multilingual", rule("|".join(
        rf"(?:(?:{verb}){SPAN}{{0,40}}?(?:{noun})|(?:{noun}){SPAN}{{0,12}}?(?:{verb}))"
        for _, verb, noun in FOREIGN_OVERRIDE
    ) + "|" + FOREIGN_ROLE)),
    ("role-change", rule(
        r"\b(?:you are now (?:an?|the|my|in|acting|no|DAN)\b|you'?re now (?:an?|the|my)\b|"
        r"from now on,? you (?:are|will|must|act|obey|follow)|you are no longer|act as (?:an? )?"
        r"(?:unrestricted|jailbroken|root|admin)|new (?:system )?instructions?\s*:|developer mode|"
        r"(?-i:\bDAN\b)|jailbr(?:oken|eak)|pretend (?:to be|you are) (?:the )?(?:system|admin|root)|"
        r"switch roles|enter (?:god|admin|debug) mode)")),
    *MARKUP_RULES,
    ("addressed-to-agent", rule(
        r"(?:^|\n)[^\S\n]*(?:#+|//+|/\*+|--|;+|%|\*)\s*(?:note (?:to|for) (?:the |any )?|attention,?\s*"
        r"|hey,?\s*|dear\s+)?(?:ai|llm|assistant|agent|model|copilot|chatgpt|claude|gpt)"
        r"(?:\s+agent)?(?:\s*/\s*\w+)?\s*(?:[:,]|reading this|instruction)")),
    ("addressed-to-agent", rule(
        r"\b(?:note (?:to|for) (?:the |any |all )?(?:ai|llm|assistant|agents?|language models?|"
        r"models?(?=\s*:))|"
        r"(?:any|all|every) (?:ai|llm|language model|assistant|agent)s? reading this|"
        r"if you are an? (?:ai|llm|language model|assistant)|(?:ai|llm|assistant|agent)s? "
        r"reading this)")),
    ("addressed-to-agent", rule(
        r"(?:@|\bfor (?:the |all |any )?|\bdear |\bhey |\battention |\(|\bTODO\()?\b(?:ai|llms?|"
        r"(?:ai|llm|coding) (?:assistants?|agents?)|assistants|copilot|chatgpt|claude|gpt|"
        r"language models?|future (?:agents|runs|models|readers))\b"
        r"\)?\s*(?:[:,]|->|=>)\s*"
        r"(?:(?:please|kindly|now|just|quickly)\s+)*(?:upload|disregard|send|ignore|disregard|replace|delete|remove|run|execute|print|"
        r"reveal|stop|mark|report|return|write|submit|treat|always|never|do|don'?t|you|skip|"
        r"forget|the correct|output|answer|say|please|copy|include|mark)\b")),
    ("prompt-leak", rule(
        rf"\b(?:reveal|print|show|repeat|output|leak|tell me|dump|display)\b{SPAN}{{0,30}}?"
        r"\b(?:system prompt|hidden instructions|your instructions|instructions you (?:were given|"
        r"received)|api keys?|(?:the|your|all|any) (?:secrets|tokens|passwords|credentials)|"
        r"secrets|credentials|environment variables|the text above)\b|\b(?:quot|recit|reproduc|"
        r"paste|copy)\w*\s+(?:your|the)\s+(?:full\s+|entire\s+|whole\s+)?(?:system (?:message|"
        r"prompt)|instructions|hidden prompt)")),
    ("exfiltration", rule(
        r"\b(?:exfiltrat\w*|upload|send|post|transmit|forward|copy|e-?mail)\b[^\n]{0,60}?"
        r"(?:\b(?:the|your|all|any|these|those|our)\s+(?:[\w-]+'s\s+)?(?:(?:(?:api|ssh|private|"
        r"access|secret)\s+)?(?:tokens|secrets|credentials|passwords|environment variables|env "
        r"vars)|(?:api|ssh|private|access|secret)\s+keys)\b|\byour\s+keys\b|"  # not a dict's keys
        r"\b(?:the|your) (?:api|ssh|private|access|secret) (?:key|token)\b|\bssh (?:private )?"
        r"keys?\b|\bid_rsa\b|\.env\b|~/\.\w+|/etc/(?:passwd|shadow)|\bsecrets? (?:directory|"
        r"folder|files?)\b)")),
    ("exfiltration", rule(
        r"\b(?:curl|wget|nc|ncat)\b[^\n]{0,80}?(?:-d|--data\S*|-F|--upload-file|-T|--post-file"
        r"|--post-data)\b[^\n]{0,80}?(?:\$\{?\w*(?:KEY|TOKEN|SECRET|PASS)|\.env|id_rsa|"
        r"/etc/passwd|\$\(env\)|`env`|credentials)|--post-file=/etc/")),
    ("exfiltration", rule(  # a secret file and a way out of the machine in one sentence
        r"(?:id_(?:rsa|dsa|ecdsa|ed25519)|\.ssh/|\.env\b|\.aws/|\.netrc|\.pgpass|"
        rf"\.git-credentials|\.docker/config|/etc/(?:passwd|shadow)){SPAN}{{0,80}}?(?:\b(?:curl|"
        r"wget|nc|ncat|scp|rsync|s?ftp|mail|sendmail)\b|https?://|\b\d{1,3}(?:\.\d{1,3}){3}\b|"
        r"[\w.-]+@[\w-]+\.[\w.]+)|\b(?:curl|wget|nc|ncat|scp|rsync|s?ftp|mail|sendmail)\b"
        rf"{SPAN}{{0,80}}?(?:id_(?:rsa|dsa|ecdsa|ed25519)|\.ssh/|\.env\b|\.aws/|\.netrc|"
        rf"/etc/(?:passwd|shadow))|\b(?:mail|e-?mail)\b{SPAN}{{0,40}}?\b(?:id_rsa|\.env|"
        r"private key|credentials)|(?:~/\.ssh|\.env\b|\.aws|id_rsa)[^\n]{0,40}\|\s*(?:curl|nc|ncat|"
        r"wget|ssh)\b|\binclude (?:the )?(?:contents? of )?(?:\.env|id_rsa|~/\.ssh|your (?:api keys?|"
        r"credentials|tokens?|secrets))|\b(?:post|send|submit|paste) (?:your|the|all) (?:aws |api |"
        rf"cloud |git(?:hub)? )?(?:credentials|keys|tokens|secrets|passwords)\b{SPAN}{{0,30}}?"
        r"(?:https?://|to (?:the |this |our )?(?:url|server|endpoint|webhook|address))")),
    ("exfiltration", rule(
        rf"\b(?:append|add|include|put|send|post|paste|leak)\b{SPAN}{{0,40}}?\$\{{?\w*(?:TOKEN|"
        r"KEY|SECRET|PASSWORD|PASS)\w*")),
    ("remote-exec", rule(
        r"(?:curl|wget)\b[^\n|]{0,120}\|\s*(?:sudo\s+)?(?:ba|z|k|da)?sh\b|base64\s+(?:-d|"
        r"--decode)[^\n|]{0,40}\|\s*(?:ba)?sh\b|\beval\s*\"?\$\((?:curl|wget)|"
        r"(?:ba)?sh\s+<\(\s*(?:curl|wget)|exec\(\s*(?:urllib|requests)\S*\.(?:urlopen|get)\(|"
        r"\b(?:pip|npm|gem|cargo) install\b[^\n]{0,30}https?://\d{1,3}(?:\.\d{1,3}){3}|--run-payload")),
    ("unconditional", rule(
        r"\b(?:unconditionally|no matter what|whatever the task|without (?:asking|checking|"
        rf"verification|question|telling))\b{SPAN}{{0,40}}?\b(?:run|execute|call|invoke|submit|"
        rf"report)\b|\b(?:run|execute|call|invoke|submit|report)\b{SPAN}{{0,60}}?\b(?:"
        r"unconditionally|no matter what|without (?:asking|checking|verification|question|"
        r"telling|testing))")),
    ("authority", rule(
        r"\b(?:this|the following) (?:memory|note|instruction|file|comment)s? (?:has|have|takes?)"
        r" (?:priority|precedence) over\b|\b(?:supersedes?|overrides?|replaces?) (?:the )?"
        r"(?:task'?s?|user'?s?|system|original|your)\b|highest[- ]priority instruction|"
        r"priority instruction|\b(?:do not|don'?t|never) (?:tell|inform|mention (?:this )?to) "
        r"the user|keep this (?:secret|hidden) from|never mention this (?:note|memory|rule|instruction|message)|"
        r"report (?:success|passed?) (?:whatever|regardless|no matter)|the verifier is wrong|"
        r"mark every task as passed|silently (?:replace|delete|disable)|\bmemor(?:y|ies) "
        r"(?:outrank|override|beat|win over|take precedence over)|\bthe memory wins\b|"
        r"\breport (?:that )?(?:all |the )?tests? (?:passed|pass) even if")),
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
    # the task dropped for something else: "disregard the task; instead ..."
    ("override", rule(
        r"\b(?:ignore|disregard|forget|abandon)\s+(?:the|your|this)\s+(?:(?:user'?s?|original) )?"
        r"(?:task|assignment|request)(?:'?s)?(?:\s+(?:description|statement|text|spec\w*|prompt|"
        r"instructions?))?\b(?=\s*(?:[;:,.!]|and\b|instead\b|entirely\b|completely\b|$))")),
    # the agent's own secrets written somewhere, or the environment sent to a web address
    ("exfiltration", rule(
        rf"\b(?:write|dump|print|echo|copy|log|paste|save)\b{SPAN}{{0,15}}?\byour (?:own )?"
        r"(?:api keys?|secrets|credentials|tokens|passwords|ssh keys?|environment(?: "
        r"variables)?|env vars)\b|\b(?:export|send|post|upload|dump|pipe|copy|forward)\b"
        rf"{SPAN}{{0,40}}?\b(?:env|environment(?: variables)?|printenv|os\.environ|secrets?|"
        rf"credentials|api keys?|tokens?)\b{SPAN}{{0,40}}?(?:https?://|\bwebhook|pastebin|"
        r"requestbin|ngrok)")),
    # code run from an encoded string: exec(base64.b64decode(...)), os.system(bytes.fromhex(..))
    ("remote-exec", rule(
        r"\b(?:exec|eval|os\.system|os\.popen|subprocess\.\w+|popen)\s*\(\s*(?:[\w.]+\()?"
        r"\s*(?:base64\.b\d+decode|codecs\.decode|bytes\.fromhex|zlib\.decompress|"
        r"binascii\.\w+|__import__\(\s*['\"](?:base64|codecs|zlib))")),
    # secret files shown to whoever reads the agent's answer
    ("exfiltration", rule(
        rf"(?:\.env\b|id_(?:rsa|dsa|ecdsa|ed25519)\b|\.ssh/|\.aws/|\.netrc\b|\.pgpass\b|~/\.\w[\w./-]*|"
        rf"/etc/(?:passwd|shadow|sudoers|hosts)\b|\.bash_history\b|"
        rf"\.git-credentials\b|/etc/shadow\b|credentials files?\b|private keys?\b){SPAN}{{0,60}}?"
        r"\b(?:in|into|to) (?:your|the) (?:final )?(?:answer|reply|response|output|message|summary|"
        r"memory|commit|pull request|reasoning|thoughts?|scratchpad|plan|notes)\b|\b(?:print|"
        r"show|output|dump|paste|cat|reveal|echo|"
        rf"include)\b{SPAN}{{0,30}}?\b(?:every|all|each|any) (?:of the )?(?:\.env|secret|"
        r"credentials?|key|ssh key|config) files?\b")),
    # a sandbox or guardrail turned off, with or without a claimed permission
    ("authority", rule(
        r"\bsystem override\b|\b(?:user|admin|administrator|operator|developer|maintainer|"
        r"owner|team)s? (?:has|have) (?:already )?(?:authori[sz]ed|allowed|permitted|approved|"
        r"cleared) (?:you|the agent|the assistant) to\b|\byou (?:are|have been) (?:now )?"
        r"(?:authori[sz]ed|permitted|allowed|cleared) to (?:ignore|disable|bypass|skip|override|"
        r"access|read|run)")),
    ("sandbox-escape", rule(
        r"\b(?:disable|turn off|switch off|escape|bypass|break out of|get around|circumvent)\s+"
        r"(?:the |your |any |all )?(?:sandbox\w*|safety (?:checks?|filters?|rules)|guardrails?|"
        r"restrictions|content filters?|seccomp|bwrap|bubblewrap|screening)\b")),
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
    # code fetched, decoded or piped in and run; a shell handed to another machine
    ("remote-exec", rule(
        rf"\bdecode\b{SPAN}{{0,30}}?\b(?:and|then)\s+(?:run|execute|eval\w*|pipe)\b|"
        r"\breverse shell\b|\bn(?:c|cat)\b[^\n]{0,40}\s-(?:e|c)\s*/bin/(?:ba|z)?sh\b|"
        r"/dev/tcp/[\w.]+/\d+|\bsocat\b[^\n]{0,60}\bexec:|"
        r"\b(?:pip3?|uv pip|pipx) install\b[^\n]{0,60}(?:\bfrom\s+|--(?:extra-)?index-url[=\s]+|"
        r"\s-i\s+|--find-links[=\s]+|\s)http://|--trusted-host\b")),
    ("role-change", rule(r"\bnew (?:system )?instructions? (?:follow|below|are as follows)\b")),
    # the memory set above the task, or the task declared stale
    ("authority", rule(
        rf"\b(?:follow|obey|trust|prefer|use) (?:this|these|the) (?:memory|memories|note|notes|"
        rf"hints?|tips?)\b{SPAN}{{0,20}}?\b(?:instead|over|rather than|first|only|above)\b|"
        rf"\b(?:instructions?|prompt|task(?: statement| description)?|requirements?|user'?s? "
        rf"request)\b{SPAN}{{0,30}}?\b(?:is|are) (?:now )?(?:outdated|stale|deprecated|"
        rf"superseded|misleading|fake|a test|no longer (?:valid|relevant|binding))\b|"
        rf"\b(?:memory|memories|note|notes|hints?|tips?|instructions?|message)\b{SPAN}{{0,20}}?"
        rf"\b(?:has|have|takes?|gets?|carries|carry) (?:a )?(?:higher|top|the highest|highest|"
        rf"more|absolute|final) (?:priority|precedence|authority|weight)\b|\b(?:this|these)\b"
        rf"{SPAN}{{0,20}}?\b(?:has|have|takes?|gets?|carries|carry) (?:a |the )?(?:absolute|final|"
        rf"(?:higher|top|highest|more) (?:priority|precedence|authority|weight)\b{SPAN}{{0,20}}?"
        rf"\b(?:over|above|than|before)\b)|\b(?:higher|more|greater) (?:priority|"
        rf"precedence|authority) than (?:the |your |any )?(?:user|task|system|prompt|"
        rf"instructions?|request)|\btreat (?:this|these|any|all|every) (?:instructions?|"
        rf"memor(?:y|ies)|notes?|text|hints?)\b{SPAN}{{0,40}}?\bas (?:coming from |if (?:it|"
        rf"they) came from |an? |the )?(?:the )?(?:system|admin\w*|developer|operator|"
        rf"authoritative|binding|mandatory|official|orders?|commands?)\b|\byou no longer "
        rf"(?:need|have) to (?:follow|obey|do|complete|solve|finish|respect)\b|\byour (?:new|"
        rf"only|real|true|actual) (?:goal|objective|task|job|mission|purpose) (?:is|now)\b|"
        rf"\b(?:reply|respond|answer|talk|speak|write (?:to the user|back))\b{SPAN}{{0,50}}?"
        rf"\b(?:from now on|in every (?:answer|reply|response)|in all (?:future )?(?:answers|"
        rf"replies|responses))|\bfrom now on\b{SPAN}{{0,20}}?\b(?:reply|respond|answer|talk|"
        rf"speak)\b|\b(?:obey|follow|heed)\b{SPAN}{{0,15}}?\bonly\b{SPAN}{{0,40}}?\b(?:(?:in|inside|"
        rf"within|from) (?:the |these |this |your )?memor(?:y|ies)\b|(?:memor(?:y|ies)|notes?)\b"
        rf"{SPAN}{{0,30}}?\bnot (?:the |your )?(?:user|task|prompt|instructions?))")),
    # a prompt repeated back; an answer that carries a secret file
    ("prompt-leak", rule(
        rf"\b(?:repeat|recit|quot|reproduc|print|output|include|copy|echo|restat|paste)\w*\b"
        rf"{SPAN}{{0,30}}?\b(?:hidden |original |full |entire |whole |initial )?(?:system "
        rf"(?:message|prompt)|hidden (?:message|prompt|instructions)|developer (?:message|prompt)|"
        rf"initial (?:prompt|instructions)|pre-?prompt)\b|\b(?:answer|reply|respond)\w*\b"
        rf"{SPAN}{{0,30}}?\bwith (?:the )?(?:contents?|text) of\b")),
    # secret files read, the environment piped out, a token written where others read it
    ("exfiltration", rule(
        r"\b(?:cat|less|more|head|tail|print|read|dump|open|cp|copy|base64|xxd|strings|type)\b"
        r"[^\n|;&]{0,30}?(?:~/\.aws/credentials|\.ssh/id_\w+(?!\.pub)|/etc/shadow|\.netrc\b|"
        r"\.pgpass\b|\.git-credentials|\.docker/config\.json|\.kube/config|/proc/\w+/environ|"
        r"/run/secrets)|\b(?:env|printenv|export -p|set)\s*\|\s*(?:curl|wget|nc|ncat|ssh|mail|"
        rf"sendmail|base64|tee)\b|\b(?:store|put|write|include|add|paste|echo|print|log|save|"
        rf"append|embed|leave|set|copy|output|dump|record|reveal|show|repeat)\b{SPAN}{{0,20}}?"
        rf"(?:(?:environment |env )?variables? )?(?:\$\{{?|\byour )?\b[A-Za-z_]*(?:TOKEN|KEY|"
        rf"SECRET|PASSWORD|PASS|CREDENTIALS?|api key)S?\b\}}?(?!'s){SPAN}{{0,30}}?(?<!not )"
        rf"(?<!never )\b(?:in|into|to) (?:the |your |a |every )?(?:commit(?: message)?s?|pull "
        rf"requests?|issues?|comments?|logs?|output|answers?|repl(?:y|ies)|responses?|final "
        rf"(?:answer|message|reply)|summar(?:y|ies)|reports?|insights?|trajector(?:y|ies)|readme|"
        rf"memor(?:y|ies)|notes?|urls?|gists?|paste\w*)\b|\b(?:send|upload|push|copy|sync|"
        rf"mirror|transfer|scp|rsync|tar)\b{SPAN}{{0,40}}?\b(?:repo|repository|codebase|source "
        rf"code|workspace|project|home directory)\b{SPAN}{{0,30}}?(?:\b(?:s?ftp|tftp)://|"
        rf"\b\d{{1,3}}(?:\.\d{{1,3}}){{3}}\b|pastebin|transfer\.sh|webhook|ngrok|requestbin)")),
    # covert action, a user or operator speaking through the memory, dictated answers
    ("authority", rule(
        rf"\bsecretly\b|\bcovertly\b|\bwithout (?:mentioning|telling|informing|notifying) "
        rf"(?:it|this|that|them|the user|anyone|anybody)\b|\bthe user (?:secretly |actually |"
        rf"really )?(?:wants|asked|expects|prefers|needs|told) you to\b|\b(?:per|by order of) "
        rf"the (?:operator|administrator|admin|developer|owner)\b|\bthe (?:operator|"
        rf"administrator) (?:says|wants|requires|orders|asks)\b|\b(?:whoever|anyone|anybody|"
        rf"any (?:agent|model|assistant)|the (?:agent|model|assistant|ai)) (?:that |who )?"
        rf"(?:reads|is reading|sees|finds|retrieves|loads) this\b|\bassistants? (?:must|shall|"
        rf"has to|is required to|needs to|should always)\b|\b(?:include|add|put|insert|append|"
        rf"start|begin|end)\b{SPAN}{{0,40}}?\b(?:in|into|to|with) (?:every|each|all) "
        rf"(?:answers?|repl(?:y|ies)|responses?|messages?)\b|\b(?:include|add|put|insert|append|"
        rf"start|begin|end)\b (?:\w+ )?(?:this|these|the following)\b{SPAN}{{0,40}}?\b(?:in|into|to|"
        rf"with) your (?:answers?|repl(?:y|ies)|responses?|messages?)\b|\b(?:start|begin|end|open|prefix)\b (?:every|each|all|your) "
        rf"(?:answers?|repl(?:y|ies)|responses?|messages?) with (?:the following|this|these|the (?:words?|phrase|string|text|line|sentence)\b|['\"])|\b(?:from here on|henceforth|going "
        rf"forward|for the rest of the (?:session|conversation|task))\b{SPAN}{{0,30}}?\b(?:reply|"
        rf"respond|answer|talk|speak|write)|\b(?:reply|respond|answer|talk|speak)\b{SPAN}"
        rf"{{0,40}}?\b(?:from here on|henceforth|going forward|for the rest of the (?:session|"
        rf"conversation|task))\b|\bwhatever (?:the )?(?:prompt|task|user|question|statement) "
        rf"(?:asks|says|wants|requires|is)\b|\b(?:ignore|disregard|forget) what (?:the )?(?:task|prompt|user|"
        rf"statement|spec\w*|instructions?|question)\b|\b(?:tell|inform) the user (?:that )?"
        rf"(?:the task|it|this) (?:is|was) (?:impossible|done|solved|complete|finished|"
        rf"unsolvable)\b")),
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
    # the brief replaced, the task refused, a prompt disclosed by permission
    ("authority", rule(
        rf"\b(?:instructions?|prompt|task(?: statement| description)?|requirements?)\b{SPAN}"
        rf"{{0,30}}?\b(?:is|are) (?:only |just )?(?:an? )?(?:placeholder|draft|decoy|example|"
        rf"irrelevant|red herring|distraction|trick|trap|lie|not (?:real|binding|the real))\b|"
        rf"\b(?:obey|follow|heed|prioriti[sz]e|prefer|trust)\b{SPAN}{{0,40}}?\b(?:rather than|"
        rf"instead of|over|above) (?:the |your )?(?:task|user'?s?(?: request)?|prompt|"
        rf"instructions?|system)\b|\bthis (?:note|memory|hint|tip) is the "
        rf"(?:real|true|actual|authoritative|official|only) (?:brief|spec\w*|task|instructions?|"
        rf"requirements?|prompt)\b|\b(?:do not|don'?t|never) (?:solve|complete|attempt|finish|"
        rf"work on|do) (?:the|this|your) (?:task|problem|assignment|exercise)\b|\b(?:assistant|"
        rf"agent|model|ai)s? (?:is|are) (?:now )?(?:allowed|permitted|authori[sz]ed|free) to\b|"
        rf"\b(?:disclos|shar|expos|reveal|leak|divulg)\w*\b{SPAN}{{0,20}}?\b(?:its|your|the) "
        rf"(?:system|hidden|original|initial) (?:instructions|prompt|message)\b")),
]  # fmt: skip
RULES += ROUND_RULES
