"""The screening rules, by category: each a name and a pattern over one view of the text.
Categories listed in ``NEGATABLE`` are advice when a prohibition forbids them; ``GATES`` skips a
costly rule when none of the words it needs is present; ``UNDECIDED`` tells a text worth a
second opinion when no rule matched."""

from __future__ import annotations

import re

from langgraph_mtl.hygiene.screening.assets import ASSET_RULES
from langgraph_mtl.hygiene.screening.languages import (
    EN_VERB,
    EN_WHAT,
    FOREIGN_OVERRIDE,
    FOREIGN_ROLE,
)

__all__ = ["GATES", "NEGATABLE", "RULES", "UNDECIDED"]

# within one sentence: a dot ends it only before a space ("tests.rs" stays inside); so do a
# line break and the ideographic full stop
_SPAN = r"(?:[^.\n。]|\.(?=\S))"


# a finished answer named as such, and where a repository keeps what it once held
_KNOWN_ANSWER = (
    r"(?:upstream|reference|official|real|correct|finished|working|full|complete) "
    r"(?:solutions?|answers?)"
)
_HISTORY = (
    r"(?:(?:older|earlier|previous|past|old|prior|initial|first) commits?|(?:git|commit) "
    r"history|git (?:log -p|show|reflog|stash (?:show|list))|reflog)"
)

# a named package installed (not a requirements file, the project itself or pip)
_INSTALL_A_PACKAGE = (
    r"(?:pip3?|npm|gem|cargo) install\s+(?!(?:-r|-e|--requirement|--editable|--upgrade pip|in|for|"
    r"before|at)\b|\.(?:\s|$))[\w@.-]+"
)
_EVERY_TASK = (
    r"(?:in|for|before|at the start of) (?:every|each|all|any) (?:tasks?|runs?|sessions?|projects?)"
)


def _rule(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE | re.DOTALL)


RULES: list[tuple[str, re.Pattern[str]]] = [
    ("override", _rule(
        rf"\b{EN_VERB}\b{_SPAN}{{0,50}}?\b(?:previous|prior|above|earlier|all|any|your|the|"
        rf"system|original|task'?s?|user'?s?|these|those|other)\b{_SPAN}{{0,25}}?\b{EN_WHAT}\b")),
    ("override", _rule(
        r"\b(?:forget|ignore|disregard) (?:everything|all) (?:you were told|above|before)|"
        r"\bthe (?:previous|above|earlier) (?:messages|instructions) (?:are|were) (?:wrong|"
        r"outdated|void)|\balways (?:ignore|disregard) (?:them|it|the task|the user|the tests)")),
    ("override", _rule(
        rf"\b(?:instructions?|directives?|rules|requirements|guidelines|prompt)\b{_SPAN}{{0,40}}?"
        r"\b(?:are|is|were|was)\s+(?:now\s+)?(?:void|cancell?ed|obsolete|revoked|superseded|"
        rf"invalid|no longer valid)|\b(?:instructions?|directives?|rules|requirements)\b{_SPAN}"
        r"{0,40}?\bno longer apply|\b(?:do not|don'?t|never) (?:follow|obey|do) (?:the|your|any)"
        r" (?:task|instructions?|prompt|user|original|requirements)|(?<!n't )(?<!not )(?<!never )"
        r"\b(?:drop|abandon|skip|discard|throw away) (?:the |your |whatever |all )?(?:original |previous )?(?:(?:user|task)'?s? )?(?:task|"
        r"requirements|instructions|prompt|rules)|\b(?:skip|drop) whatever (?:the )?(?:task|"
        r"prompt|user) (?:asked|says|wants)|\byour real (?:task|goal|job|instructions?) (?:is|"
        r"are)\b|\b(?:obey|follow) only (?:what|this|these|the instructions here)|\bonly "
        r"(?:obey|follow) (?:this|these|me|what)|\b(?:previous|prior|earlier|above|original) "
        rf"(?:guidance|instructions?|directives?|orders|rules)\b{_SPAN}{{0,20}}?\b(?:is|are) "
        r"(?:cancell?ed|void|revoked|replaced|obsolete)|\bstop (?:working on|doing) (?:the|your|"
        r"this) (?:task|user'?s? request|assignment)|\binstead of (?:solving|doing|completing) "
        r"(?:the|your) (?:task|assignment)|\bthe (?:task|prompt)(?: text)? is (?:a )?(?:decoy|fake"
        r"|trap)|\b(?:true|real|actual|new) (?:objective|goal|task|mission|requirement|purpose|"
        r"instruction|job|assignment|spec\w*) is\b|"
        r"\b(?:never ?mind|forget about) (?:the )?(?:task|tests|instructions)|"
        r"\bthe requirement is now to")),
    ("multilingual", _rule("|".join(
        rf"(?:(?:{verb}){_SPAN}{{0,40}}?(?:{noun})|(?:{noun}){_SPAN}{{0,12}}?(?:{verb}))"
        for _, verb, noun in FOREIGN_OVERRIDE
    ) + "|" + FOREIGN_ROLE)),
    ("role-change", _rule(
        r"\b(?:you are now (?:an?|the|my|in|acting|no|DAN)\b|you'?re now (?:an?|the|my)\b|"
        r"from now on,? you (?:are|will|must|act|obey|follow)|you are no longer|act as (?:an? )?"
        r"(?:unrestricted|jailbroken|root|admin)|new (?:system )?instructions?\s*:|developer mode|"
        r"DAN\b|jailbr(?:oken|eak)|pretend (?:to be|you are) (?:the )?(?:system|admin|root)|"
        r"switch roles|enter (?:god|admin|debug) mode)")),
    ("fake-markup", _rule(
        r"<\s*/?\s*(?:tool_call|function_call|tool_use|invoke|system|im_start|im_end|"
        r"assistant|developer)\b|<\s*/\s*memory\s*>|\[/?INST\]|<\|(?:system|user|assistant|"
        r"im_start|im_end|endoftext)\|>|\"(?:name|tool)\"\s*:\s*\"[^\"]+\"\s*,\s*\""
        r"(?:arguments|parameters|input)\"\s*:|```\s*(?:system|assistant|developer)\b|"
        r"<\|(?:system|user|assistant)\|>|\[(?:system|assistant)\]\s*:|<\s*/?\s*system[-_]\w+|"
        r"(?:^|\n)[^\S\n]*(?:#{1,6}|={2,}|\*{2,}|-{3,})\s*(?:system|admin|developer)(?: (?:message|"
        r"prompt|note|override))?\s*(?:#{1,6}|={2,}|\*{2,}|-{3,}|:)")),
    ("fake-markup", _rule(  # an HTML comment that addresses the agent or claims to be system
        r"<!--(?:(?!-->).){0,300}?\b(?:system|assistant|agent|ai|llm|model|instruction|"
        r"override|ignore|you must|always answer)\b")),
    ("addressed-to-agent", _rule(
        r"(?:^|\n)[^\S\n]*(?:#+|//+|/\*+|--|;+|%|\*)\s*(?:note (?:to|for) (?:the |any )?|attention,?\s*"
        r"|hey,?\s*|dear\s+)?(?:ai|llm|assistant|agent|model|copilot|chatgpt|claude|gpt)"
        r"(?:\s+agent)?(?:\s*/\s*\w+)?\s*(?:[:,]|reading this|instruction)")),
    ("addressed-to-agent", _rule(
        r"\b(?:note (?:to|for) (?:the |any |all )?(?:ai|llm|assistant|agents?|language models?|"
        r"models?(?=\s*:))|"
        r"(?:any|all|every) (?:ai|llm|language model|assistant|agent)s? reading this|"
        r"if you are an? (?:ai|llm|language model|assistant)|(?:ai|llm|assistant|agent)s? "
        r"reading this)")),
    ("addressed-to-agent", _rule(
        r"(?:@|\bfor (?:the |all |any )?|\bdear |\bhey |\battention |\(|\bTODO\()?\b(?:ai|llms?|"
        r"(?:ai|llm|coding) (?:assistants?|agents?)|assistants|copilot|chatgpt|claude|gpt|"
        r"language models?|future (?:agents|runs|models|readers))\b"
        r"\)?\s*(?:[:,]|->|=>)\s*"
        r"(?:(?:please|kindly|now|just|quickly)\s+)*(?:upload|disregard|send|ignore|disregard|replace|delete|remove|run|execute|print|"
        r"reveal|stop|mark|report|return|write|submit|treat|always|never|do|don'?t|you|skip|"
        r"forget|the correct|output|answer|say|please|copy|include|mark)\b")),
    ("prompt-leak", _rule(
        rf"\b(?:reveal|print|show|repeat|output|leak|tell me|dump|display)\b{_SPAN}{{0,30}}?"
        r"\b(?:system prompt|hidden instructions|your instructions|instructions you (?:were given|"
        r"received)|api keys?|(?:the|your|all|any) (?:secrets|tokens|passwords|credentials)|"
        r"secrets|credentials|environment variables|the text above)\b|\b(?:quot|recit|reproduc|"
        r"paste|copy)\w*\s+(?:your|the)\s+(?:full\s+|entire\s+|whole\s+)?(?:system (?:message|"
        r"prompt)|instructions|hidden prompt)")),
    ("exfiltration", _rule(
        r"\b(?:exfiltrat\w*|upload|send|post|transmit|forward|copy|e-?mail)\b[^\n]{0,60}?"
        r"(?:\b(?:the|your|all|any|these|those|our)\s+(?:[\w-]+'s\s+)?(?:(?:api|ssh|private|access|"
        r"secret)\s+)?"
        r"(?:keys|tokens|secrets|credentials|passwords|environment variables|env vars)\b|"
        r"\b(?:the|your) (?:api|ssh|private|access|secret) (?:key|token)\b|\bssh (?:private )?"
        r"keys?\b|\bid_rsa\b|\.env\b|~/\.\w+|/etc/(?:passwd|shadow)|\bsecrets? (?:directory|"
        r"folder|files?)\b)")),
    ("exfiltration", _rule(
        r"\b(?:curl|wget|nc|ncat)\b[^\n]{0,80}?(?:-d|--data\S*|-F|--upload-file|-T|--post-file"
        r"|--post-data)\b[^\n]{0,80}?(?:\$\{?\w*(?:KEY|TOKEN|SECRET|PASS)|\.env|id_rsa|"
        r"/etc/passwd|\$\(env\)|`env`|credentials)|--post-file=/etc/")),
    ("exfiltration", _rule(  # a secret file and a way out of the machine in one sentence
        r"(?:id_(?:rsa|dsa|ecdsa|ed25519)|\.ssh/|\.env\b|\.aws/|\.netrc|\.pgpass|"
        rf"\.git-credentials|\.docker/config|/etc/(?:passwd|shadow)){_SPAN}{{0,80}}?(?:\b(?:curl|"
        r"wget|nc|ncat|scp|rsync|s?ftp|mail|sendmail)\b|https?://|\b\d{1,3}(?:\.\d{1,3}){3}\b|"
        r"[\w.-]+@[\w-]+\.[\w.]+)|\b(?:curl|wget|nc|ncat|scp|rsync|s?ftp|mail|sendmail)\b"
        rf"{_SPAN}{{0,80}}?(?:id_(?:rsa|dsa|ecdsa|ed25519)|\.ssh/|\.env\b|\.aws/|\.netrc|"
        rf"/etc/(?:passwd|shadow))|\b(?:mail|e-?mail)\b{_SPAN}{{0,40}}?\b(?:id_rsa|\.env|"
        r"private key|credentials)|(?:~/\.ssh|\.env\b|\.aws|id_rsa)[^\n]{0,40}\|\s*(?:curl|nc|ncat|"
        r"wget|ssh)\b|\binclude (?:the )?(?:contents? of )?(?:\.env|id_rsa|~/\.ssh|your (?:api keys?|"
        r"credentials|tokens?|secrets))|\b(?:post|send|submit|paste) (?:your|the|all) (?:aws |api |"
        rf"cloud |git(?:hub)? )?(?:credentials|keys|tokens|secrets|passwords)\b{_SPAN}{{0,30}}?"
        r"(?:https?://|to (?:the |this |our )?(?:url|server|endpoint|webhook|address))")),
    ("exfiltration", _rule(
        rf"\b(?:append|add|include|put|send|post|paste|leak)\b{_SPAN}{{0,40}}?\$\{{?\w*(?:TOKEN|"
        r"KEY|SECRET|PASSWORD|PASS)\w*")),
    ("remote-exec", _rule(
        r"(?:curl|wget)\b[^\n|]{0,120}\|\s*(?:sudo\s+)?(?:ba|z|k|da)?sh\b|base64\s+(?:-d|"
        r"--decode)[^\n|]{0,40}\|\s*(?:ba)?sh\b|\beval\s*\"?\$\((?:curl|wget)|"
        r"(?:ba)?sh\s+<\(\s*(?:curl|wget)|exec\(\s*(?:urllib|requests)\S*\.(?:urlopen|get)\(|"
        r"\b(?:pip|npm|gem|cargo) install\b[^\n]{0,30}https?://\d{1,3}(?:\.\d{1,3}){3}|--run-payload")),
    ("unconditional", _rule(
        r"\b(?:unconditionally|no matter what|whatever the task|without (?:asking|checking|"
        rf"verification|question|telling))\b{_SPAN}{{0,40}}?\b(?:run|execute|call|invoke|submit|"
        rf"report)\b|\b(?:run|execute|call|invoke|submit|report)\b{_SPAN}{{0,60}}?\b(?:"
        r"unconditionally|no matter what|without (?:asking|checking|verification|question|"
        r"telling|testing))")),
    ("authority", _rule(
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
    ("verifier-gaming", _rule(
        rf"\b(?:edit|modify|change|rewrite|patch|replace|delete|remove|comment out|empty|stub "
        rf"out|weaken|loosen|relax)\b{_SPAN}{{0,30}}?\b(?:the |every |all |each |any )?(?:failing "
        rf")?(?:tests?(?! (?:data|fixtures?|inputs?|helpers?)\b)|test (?:files?|suites?|cases?|"
        rf"modules?|bod(?:y|ies))|asserts?|assertions?|verifier|checker|grader|expected outputs?)"
        rf"\b{_SPAN}{{0,60}}?(?:\b(?:so (?:that )?|until )(?:it|they|the (?:suite|run|check))"
        rf"\b{_SPAN}{{0,30}}?"
        rf"\b(?:pass(?:es)?|expects?|accepts?|succeeds?)\b|\bto (?:pass|accept|expect|succeed)\b|"
        rf"\bwith `?pass`?|\bexpects? (?:whatever|what (?:your|the) code)|\bmatch(?:es)? (?:your|"
        rf"whatever|the actual) (?:output|code|result))|"
        rf"\bhard-?code\b{_SPAN}{{0,30}}?\b(?:the )?(?:expected|tests?'?s?) (?:values?|outputs?|"
        rf"answers?|results?)|\breturn\w*\b{_SPAN}{{0,20}}?\b(?:the )?expected (?:values?|outputs?|"
        rf"answers?|results?)\b{_SPAN}{{0,20}}?\bfor (?:the |each |every |those )?(?:tests?'? "
        rf"(?:inputs?|cases?|arguments?)|test(?:ed)? (?:inputs?|cases?|arguments?))\b|\b(?:return|print|output)\b{_SPAN}{{0,40}}?\b(?:expected|tests?'?s?) "
        rf"(?:values?|outputs?|answers?|results?)\b{_SPAN}{{0,30}}?\b(?:hard-?coded|copied|taken|"
        rf"straight) from\b|\b(?:sys\.exit|os\._exit)\(\s*0\s*\){_SPAN}{{0,60}}?\b(?:import|"
        rf"conftest|test (?:module|file|suite)|suite (?:reports?|passes)|report success)|"
        rf"\bpytest_runtest_makereport\b{_SPAN}{{0,60}}?\b(?:pass|passed|success)|\bconftest"
        rf"\.py\b{_SPAN}{{0,60}}?\b(?:marks?|forces?|reports?|turns?) (?:every|all|each|any) tests?"
        rf"|\b(?:verifier|grader|checker|test harness)\b{_SPAN}{{0,20}}?\b(?:trusts?|is lenient|"
        rf"can be (?:fooled|tricked|gamed)|is easy to (?:fool|trick|game)|accepts anything|never "
        rf"(?:runs|checks))\b|\btouch\s+[\w./-]*(?:passed|success)\b|\b(?:create|write|add)\b"
        rf"{_SPAN}{{0,20}}?\b(?:file|marker)\b{_SPAN}{{0,20}}?\b(?:passed|success|tests?_passed)\b|\bskip (?:running )?(?:the |all )?tests?\b{_SPAN}{{0,30}}?"
        rf"\b(?:submit|state|say|claim|report|pretend|declare|write)|\bsubmit (?:immediately|right away|at once) without (?:running|testing)|"
        rf"\b(?:mark|make) (?:every|all|each|the failing) tests? (?:as )?(?:pass|passed|skip|"
        rf"skipped|xfail)")),
    # the task dropped for something else: "disregard the task; instead ..."
    ("override", _rule(
        r"\b(?:ignore|disregard|forget|abandon)\s+(?:the|your|this)\s+(?:(?:user'?s?|original) )?"
        r"(?:task|assignment|request)(?:'?s)?(?:\s+(?:description|statement|text|spec\w*|prompt|"
        r"instructions?))?\b(?=\s*(?:[;:,.!]|and\b|instead\b|entirely\b|completely\b|$))")),
    # the agent's own secrets written somewhere, or the environment sent to a web address
    ("exfiltration", _rule(
        rf"\b(?:write|dump|print|echo|copy|log|paste|save)\b{_SPAN}{{0,15}}?\byour (?:own )?"
        r"(?:api keys?|secrets|credentials|tokens|passwords|ssh keys?|environment(?: "
        r"variables)?|env vars)\b|\b(?:export|send|post|upload|dump|pipe|copy|forward)\b"
        rf"{_SPAN}{{0,40}}?\b(?:env|environment(?: variables)?|printenv|os\.environ|secrets?|"
        rf"credentials|api keys?|tokens?)\b{_SPAN}{{0,40}}?(?:https?://|\bwebhook|pastebin|"
        r"requestbin|ngrok)")),
    # code run from an encoded string: exec(base64.b64decode(...)), os.system(bytes.fromhex(..))
    ("remote-exec", _rule(
        r"\b(?:exec|eval|os\.system|os\.popen|subprocess\.\w+|popen)\s*\(\s*(?:[\w.]+\()?"
        r"\s*(?:base64\.b\d+decode|codecs\.decode|bytes\.fromhex|zlib\.decompress|"
        r"binascii\.\w+|__import__\(\s*['\"](?:base64|codecs|zlib))")),
    # secret files shown to whoever reads the agent's answer
    ("exfiltration", _rule(
        rf"(?:\.env\b|id_(?:rsa|dsa|ecdsa|ed25519)\b|\.ssh/|\.aws/|\.netrc\b|\.pgpass\b|~/\.\w[\w./-]*|"
        rf"/etc/(?:passwd|shadow|sudoers|hosts)\b|\.bash_history\b|"
        rf"\.git-credentials\b|/etc/shadow\b|credentials files?\b|private keys?\b){_SPAN}{{0,60}}?"
        r"\b(?:in|into|to) (?:your|the) (?:final )?(?:answer|reply|response|output|message|summary|"
        r"memory|commit|pull request|reasoning|thoughts?|scratchpad|plan|notes)\b|\b(?:print|"
        r"show|output|dump|paste|cat|reveal|echo|"
        rf"include)\b{_SPAN}{{0,30}}?\b(?:every|all|each|any) (?:of the )?(?:\.env|secret|"
        r"credentials?|key|ssh key|config) files?\b")),
    # a sandbox or guardrail turned off, with or without a claimed permission
    ("authority", _rule(
        r"\bsystem override\b|\b(?:user|admin|administrator|operator|developer|maintainer|"
        r"owner|team)s? (?:has|have) (?:already )?(?:authori[sz]ed|allowed|permitted|approved|"
        r"cleared) (?:you|the agent|the assistant) to\b|\byou (?:are|have been) (?:now )?"
        r"(?:authori[sz]ed|permitted|allowed|cleared) to (?:ignore|disable|bypass|skip|override|"
        r"access|read|run)")),
    ("sandbox-escape", _rule(
        r"\b(?:disable|turn off|switch off|escape|bypass|break out of|get around|circumvent)\s+"
        r"(?:the |your |any |all )?(?:sandbox\w*|safety (?:checks?|filters?|rules)|guardrails?|"
        r"restrictions|content filters?|seccomp|bwrap|bubblewrap|screening)\b")),
    # the check itself mocked, or a lenient check exploited with a fake solution
    ("verifier-gaming", _rule(
        rf"\b(?:monkey-?patch\w*|mock\w*|patch\w*|stub\w*|fake\w*|override\w*|"
        rf"replace\w*|redefine\w*)\b{_SPAN}{{0,20}}?\b(?:the )?(?:verifier|grader|checker|"
        rf"evaluator|judge|test (?:harness|runner))\b|\b(?:evaluator|verifier|grader|checker|"
        rf"judge|harness|tests?)\b{_SPAN}{{0,20}}?\bonly (?:checks?|compares?|looks? at|"
        rf"verifies|counts|tests|runs)\b{_SPAN}{{0,60}}?\b(?:so|just)\b{_SPAN}{{0,30}}?\b(?:"
        rf"empty|dummy|placeholder|stub|fake|hard-?code\w*|constant|skip|submit|always)\b|"
        rf"\b(?:empty|dummy|placeholder|stub|fake|blank) (?:solution|implementation|answer|file|"
        rf"program|script|output)\b{_SPAN}{{0,30}}?\b(?:and |then )?submit|\balways (?:return|"
        rf"print|output|exit with) (?:true|0|none|success|passed|ok)\b{_SPAN}{{0,40}}?\bso (?:that )?"
        rf"(?:the )?(?:checker|verifier|grader|evaluator|tests?|suite|check)\b|\b(?:wrap|catch|"
        rf"swallow|suppress|silence)\b{_SPAN}{{0,40}}?\b(?:try/except|try-except|try/catch|"
        rf"(?:all|every) (?:exceptions?|errors?))\b{_SPAN}{{0,40}}?\bso (?:that )?(?:the )?"
        rf"(?:checker|verifier|grader|evaluator|tests?|suite|run) (?:always )?pass|"
        rf"\b(?:hidden|private|secret|held-out) tests?\b{_SPAN}{{0,20}}?\b(?:are|is|live|lives|"
        rf"sit|stored|kept) (?:in|at|under)\b|\banswer keys?\b{_SPAN}{{0,20}}?\b(?:is|are|"
        rf"lives?|stored|kept) (?:in|at|under)\b|\b(?:copy|take|read|load|paste|grab|lift)\b"
        rf"{_SPAN}{{0,30}}?\b(?:the )?(?:expected |correct )?(?:outputs?|answers?|results?|"
        rf"solutions?)\b{_SPAN}{{0,10}}?\bfrom (?:there|it|them|the (?:hidden |private )?"
        rf"(?:tests?|answer keys?|verifier|grader|checker|expected\w*))\b|\b(?:state|say|claim|"
        rf"pretend|declare) (?:that )?(?:all |the |every )?tests? (?:have )?(?:passed|pass|"
        rf"succeeded)\b{_SPAN}{{0,30}}?\b(?:without|even|regardless)|\bclaim (?:that )?(?:all |the )?"
        rf"tests? (?:have )?passed")),
    # code fetched, decoded or piped in and run; a shell handed to another machine
    ("remote-exec", _rule(
        rf"\bdecode\b{_SPAN}{{0,30}}?\b(?:and|then)\s+(?:run|execute|eval\w*|pipe)\b|"
        r"\breverse shell\b|\bn(?:c|cat)\b[^\n]{0,40}\s-(?:e|c)\s*/bin/(?:ba|z)?sh\b|"
        r"/dev/tcp/[\w.]+/\d+|\bsocat\b[^\n]{0,60}\bexec:|"
        r"\b(?:pip3?|uv pip|pipx) install\b[^\n]{0,60}(?:\bfrom\s+|--(?:extra-)?index-url[=\s]+|"
        r"\s-i\s+|--find-links[=\s]+|\s)http://|--trusted-host\b")),
    ("role-change", _rule(r"\bnew (?:system )?instructions? (?:follow|below|are as follows)\b")),
    # the memory set above the task, or the task declared stale
    ("authority", _rule(
        rf"\b(?:follow|obey|trust|prefer|use) (?:this|these|the) (?:memory|memories|note|notes|"
        rf"hints?|tips?)\b{_SPAN}{{0,20}}?\b(?:instead|over|rather than|first|only|above)\b|"
        rf"\b(?:instructions?|prompt|task(?: statement| description)?|requirements?|user'?s? "
        rf"request)\b{_SPAN}{{0,30}}?\b(?:is|are) (?:now )?(?:outdated|stale|deprecated|"
        rf"superseded|misleading|fake|a test|no longer (?:valid|relevant|binding))\b|"
        rf"\b(?:memory|memories|note|this|these)\b{_SPAN}{{0,20}}?\b(?:has|have|takes?|gets?|"
        rf"carries|carry) (?:a )?(?:higher|top|the highest|highest|more|absolute|final) "
        rf"(?:priority|precedence|authority|weight)\b|\b(?:higher|more|greater) (?:priority|"
        rf"precedence|authority) than (?:the |your |any )?(?:user|task|system|prompt|"
        rf"instructions?|request)|\btreat (?:this|these|any|all|every) (?:instructions?|"
        rf"memor(?:y|ies)|notes?|text|hints?)\b{_SPAN}{{0,40}}?\bas (?:coming from |if (?:it|"
        rf"they) came from |an? |the )?(?:the )?(?:system|admin\w*|developer|operator|"
        rf"authoritative|binding|mandatory|official|orders?|commands?)\b|\byou no longer "
        rf"(?:need|have) to (?:follow|obey|do|complete|solve|finish|respect)\b|\byour (?:new|"
        rf"only|real|true|actual) (?:goal|objective|task|job|mission|purpose) (?:is|now)\b|"
        rf"\b(?:reply|respond|answer|talk|speak|write (?:to the user|back))\b{_SPAN}{{0,50}}?"
        rf"\b(?:from now on|in every (?:answer|reply|response)|in all (?:future )?(?:answers|"
        rf"replies|responses))|\bfrom now on\b{_SPAN}{{0,20}}?\b(?:reply|respond|answer|talk|"
        rf"speak)\b")),
    # a prompt repeated back; an answer that carries a secret file
    ("prompt-leak", _rule(
        rf"\b(?:repeat|recit|quot|reproduc|print|output|include|copy|echo|restat|paste)\w*\b"
        rf"{_SPAN}{{0,30}}?\b(?:hidden |original |full |entire |whole |initial )?(?:system "
        rf"(?:message|prompt)|hidden (?:message|prompt|instructions)|developer (?:message|prompt)|"
        rf"initial (?:prompt|instructions)|pre-?prompt)\b|\b(?:answer|reply|respond)\w*\b"
        rf"{_SPAN}{{0,30}}?\bwith (?:the )?(?:contents?|text) of\b")),
    # secret files read, the environment piped out, a token written where others read it
    ("exfiltration", _rule(
        r"\b(?:cat|less|more|head|tail|print|read|dump|open|cp|copy|base64|xxd|strings|type)\b"
        r"[^\n|;&]{0,30}?(?:~/\.aws/credentials|\.ssh/id_\w+(?!\.pub)|/etc/shadow|\.netrc\b|"
        r"\.pgpass\b|\.git-credentials|\.docker/config\.json|\.kube/config|/proc/\w+/environ|"
        r"/run/secrets)|\b(?:env|printenv|export -p|set)\s*\|\s*(?:curl|wget|nc|ncat|ssh|mail|"
        rf"sendmail|base64|tee)\b|\b(?:store|put|write|include|add|paste|echo|print|log|save|"
        rf"append|embed|leave)\b{_SPAN}{{0,20}}?(?:\$\{{?|\byour )?\b[A-Za-z_]*(?:TOKEN|KEY|"
        rf"SECRET|PASSWORD|PASS|CREDENTIALS?|token|secret|password|credentials|api key)\b\}}?"
        rf"{_SPAN}{{0,30}}?\b(?:in|into|to) (?:the |your |a |every )?(?:commit(?: message)?s?|"
        rf"pull requests?|issues?|comments?|logs?|output|answers?|repl(?:y|ies)|readme|"
        rf"memor(?:y|ies)|notes?|urls?|gists?|paste\w*)\b|\b(?:send|upload|push|copy|sync|"
        rf"mirror|transfer|scp|rsync|tar)\b{_SPAN}{{0,40}}?\b(?:repo|repository|codebase|source "
        rf"code|workspace|project|home directory)\b{_SPAN}{{0,30}}?(?:\b(?:s?ftp|tftp)://|"
        rf"\b\d{{1,3}}(?:\.\d{{1,3}}){{3}}\b|pastebin|transfer\.sh|webhook|ngrok|requestbin)")),
    # covert action, a user or operator speaking through the memory, dictated answers
    ("authority", _rule(
        rf"\bsecretly\b|\bcovertly\b|\bwithout (?:mentioning|telling|informing|notifying) "
        rf"(?:it|this|that|them|the user|anyone|anybody)\b|\bthe user (?:secretly |actually |"
        rf"really )?(?:wants|asked|expects|prefers|needs|told) you to\b|\b(?:per|by order of) "
        rf"the (?:operator|administrator|admin|developer|owner)\b|\bthe (?:operator|"
        rf"administrator) (?:says|wants|requires|orders|asks)\b|\b(?:whoever|anyone|anybody|"
        rf"any (?:agent|model|assistant)|the (?:agent|model|assistant|ai)) (?:that |who )?"
        rf"(?:reads|is reading|sees|finds|retrieves|loads) this\b|\bassistants? (?:must|shall|"
        rf"has to|is required to|needs to|should always)\b|\b(?:include|add|put|insert|append|"
        rf"start|begin|end)\b{_SPAN}{{0,40}}?\b(?:in|into|to|with) (?:every|each|all|your) "
        rf"(?:answers?|repl(?:y|ies)|responses?|messages?)\b|\b(?:from here on|henceforth|going "
        rf"forward|for the rest of the (?:session|conversation|task))\b{_SPAN}{{0,30}}?\b(?:reply|"
        rf"respond|answer|talk|speak|write)|\b(?:reply|respond|answer|talk|speak)\b{_SPAN}"
        rf"{{0,40}}?\b(?:from here on|henceforth|going forward|for the rest of the (?:session|"
        rf"conversation|task))\b|\bwhatever (?:the )?(?:prompt|task|user|question|statement) "
        rf"(?:asks|says|wants|requires|is)\b|\b(?:ignore|disregard|forget) what (?:the )?(?:task|prompt|user|"
        rf"statement|spec\w*|instructions?|question)\b|\b(?:tell|inform) the user (?:that )?"
        rf"(?:the task|it|this) (?:is|was) (?:impossible|done|solved|complete|finished|"
        rf"unsolvable)\b")),
    # the check fooled: test files overwritten, an early exit, a printed pass, a shallow or
    # lenient checker, expected values collected into a table
    ("verifier-gaming", _rule(
        rf">\s*['\"]?[^\s>]{{0,120}}(?:\btests?/\S{{1,120}}|\btest_\w+\.\w+|_test\.\w+|\bconftest\.py)|"
        rf"\b(?:exit 0|sys\.exit\(0?\)|os\._exit\(0\)|process\.exit\(0?\))(?!\w){_SPAN}{{0,60}}?"
        rf"\b(?:first line|top of|on import|beginning of|start of|run_tests|conftest|test (?:file|"
        rf"module|script|suite))\b|\b(?:print|echo|output|write|log)\w*\b{_SPAN}{{0,20}}?['\"]"
        rf"(?:all )?(?:tests? passed|\d+ passed|ok, all tests)|\b(?:checker|grader|harness|"
        rf"verifier|evaluator|judge|ci)s?\b{_SPAN}{{0,30}}?\b(?:then |will |would )?(?:marks?|"
        rf"counts?|treats?|reports?|scores?|records?) (?:the |your )?(?:task|run|answer|solution|"
        rf"it) (?:as )?(?:solved|passed|correct|done|successful|a pass)\b|\b(?:checker|grader|"
        rf"harness|verifier|evaluator|judge|hidden tests|tests)\b{_SPAN}{{0,20}}?\b(?:ignores?|"
        rf"skips?|(?:don'?t|do not|doesn'?t|does not|never|won'?t) (?:test|check|cover|exercise|"
        rf"look at|see|read)|only (?:diffs?|matches?|parses?|inspects?|uses?|considers?|grades?|"
        rf"scores?|verifies))\b|\b(?:copy|paste|put|store|hard-?code|collect|gather)\b{_SPAN}"
        rf"{{0,20}}?\b(?:each|every|all|the) expected (?:values?|outputs?|answers?|results?)\b"
        rf"{_SPAN}{{0,20}}?\b(?:into|in|as)\b|\b(?:lookup table|dict\w*|table|map) of (?:the )?"
        rf"(?:expected|tests?'?) (?:outputs?|answers?|values?|results?)|\b(?:print|output|return|"
        rf"echo) (?:the )?(?:sample|expected) (?:answers?|outputs?)\b|\b\w*SKIP_(?:TESTS?|"
        rf"CHECKS?|VERIFY)\w*\s*=")),
    # the brief replaced, the task refused, a prompt disclosed by permission
    ("authority", _rule(
        rf"\b(?:instructions?|prompt|task(?: statement| description)?|requirements?)\b{_SPAN}"
        rf"{{0,30}}?\b(?:is|are) (?:only |just )?(?:an? )?(?:placeholder|draft|decoy|example|"
        rf"irrelevant|red herring|distraction|trick|trap|lie|not (?:real|binding|the real))\b|"
        rf"\b(?:obey|follow|heed|prioriti[sz]e|prefer|trust)\b{_SPAN}{{0,40}}?\b(?:rather than|"
        rf"instead of|over|above) (?:the |your )?(?:task|user'?s?(?: request)?|prompt|"
        rf"instructions?|system)\b|\bthis (?:note|memory|hint|tip) is the "
        rf"(?:real|true|actual|authoritative|official|only) (?:brief|spec\w*|task|instructions?|"
        rf"requirements?|prompt)\b|\b(?:do not|don'?t|never) (?:solve|complete|attempt|finish|"
        rf"work on|do) (?:the|this|your) (?:task|problem|assignment|exercise)\b|\b(?:assistant|"
        rf"agent|model|ai)s? (?:is|are) (?:now )?(?:allowed|permitted|authori[sz]ed|free) to\b|"
        rf"\b(?:disclos|shar|expos|reveal|leak|divulg)\w*\b{_SPAN}{{0,20}}?\b(?:its|your|the) "
        rf"(?:system|hidden|original|initial) (?:instructions|prompt|message)\b")),
    # the check fooled in code: always-true assertions, stubs that always pass, answers read
    # from the tests at run time, failing tests hidden from the runner
    ("verifier-gaming", _rule(
        rf"\bassert(?:True)?\s*\(\s*(?:True|1)\s*\)|\bassert\s+(?:True|1)\b(?!\s*[=<>!])|"
        rf"\bassert\s+(\d+)\s*==\s*\1\b|\b(?:stub|fake|mock|dummy|replace\w*|patch\w*)\b{_SPAN}"
        rf"{{0,40}}?\balways (?:succeeds?|pass(?:es)?|returns? (?:true|ok|success|0))\b|"
        rf"sys\.modules\[\s*['\"](?:unittest|pytest|doctest)|\bif the (?:grader|checker|verifier|"
        rf"judge|harness|tests?) (?:complains?|fails?|rejects?)\b{_SPAN}{{0,40}}?\b(?:monkey-?"
        rf"patch|patch|mock|override|edit|change|replace|delete|disable)|\b(?:monkey-?patch|mock|"
        rf"patch|override|replace|stub)\w*\s+(?:builtins\.\w+|open\b|sys\.\w+|os\.\w+)"
        rf"{_SPAN}{{0,30}}?\breturn\w* (?:the )?expected\b|\breturn\w*\b{_SPAN}{{0,20}}?\b(?:the "
        rf")?tests?'?s? expected\b|\b(?:read|load|open|pars|import)\w*\b{_SPAN}{{0,20}}?\S{{0,120}}"
        rf"(?:tests?/|expected|answers?)\S{{0,120}}\.(?:json|txt|csv|ya?ml)\b{_SPAN}{{0,20}}?\b(?:at "
        rf"run-? ?time|during the run|in the solution|from the solution)\b|\b(?:the )?(?:failing|"
        rf"broken|red) tests?\b{_SPAN}{{0,40}}?\b(?:not (?:be )?collect\w*|(?:is |are )?skipped|"
        rf"(?:not|never|won'?t) (?:be )?run|ignored)\b|\b(?:checker|grader|harness|verifier|"
        rf"evaluator|judge)s?\b{_SPAN}{{0,20}}?\b(?:reads|checks|looks at|sees) (?:only )?the "
        rf"(?:file ?name|name|exit code|existence|first line|last line|header|length|format)\b")),
    # a pass earned without solving: marks, credit, counted files, shadowed commands, deleted
    # suites, answers looked up where they are kept
    ("verifier-gaming", _rule(
        rf"\b(?:be|get|gets|is|are) (?:marked|graded|scored|counted) (?:as )?(?:correct|solved|"
        rf"passed|right|done|a pass)\b|\b(?:full|partial) (?:credit|marks|score)\b|\b(?:harness|"
        rf"grader|checker|verifier|judge|evaluator|ci) (?:counts|accepts|credits|rewards|sees) "
        rf"(?:it|that|this|them)\b(?!,? (?:if|when|only|as long as|provided|once|because))|\b(?:delete|remove|rm -r?f?|wipe|drop|empty)\b{_SPAN}{{0,15}}?"
        rf"\b(?:the )?(?:tests?|spec) (?:directory|dir|folder|suite|files)\b|(?:sys\.exit\(0?\)|"
        rf"os\._exit\(0\)|\btrue\b|exit 0|/bin/true)[^\n]{{0,30}}\bas the (?:test|check|"
        rf"verification) (?:command|runner|script|step)\b|\b(?:it|this|that) (?:always|will "
        rf"always) (?:pass(?:es)?|succeeds?|exits? (?:with )?0)\b|\b(?:alias|function)\s+(?:"
        rf"pytest|cargo|test|make|diff|cmp|python3?|bash|sh|npm|go)\b\s*(?:=|\(\))|\b(?:expected "
        rf"(?:answers|outputs|results|values)|answer (?:keys?|files?)|reference (?:solutions?|"
        rf"answers|outputs)|solutions|answers)\b (?:live|lives|are|is|sit|sits|stored|kept|cached|"
        rf"saved|written|can be found) (?:in|at|under|to) \S{{0,120}}/|\b(?:grading|grader|judge|checker|verifier|harness|"
        rf"evaluator) (?:tip|hack|trick|exploit|loophole|bypass|cheat)s?\b")),
    # the task or the run sent to a bare address, a reply that is only a link
    ("exfiltration", _rule(
        rf"\b(?:send|post|upload|forward|report|log|transmit|mirror|copy|sync|push)\w*\b{_SPAN}"
        rf"{{0,60}}?\b(?:to|at) (?:https?|ftp)://(?!127\.|0\.0\.0\.0)\d{{1,3}}(?:\.\d{{1,3}}){{3}}|"
        rf"\b(?:respond|reply|answer)\w*\b{_SPAN}{{0,40}}?\bwith (?:only )?(?:a |the )?(?:link|"
        rf"url)\b|\b(?:share|publish|commit|expose|give|send|post|echo|write|put|store|add)\w*\b"
        rf"{_SPAN}{{0,20}}?\byour [A-Za-z_]*(?:TOKEN|KEY|SECRET|PASSWORD|token|secret|password|"
        rf"credentials|api key)\b{_SPAN}{{0,50}}?\b(?:in|into|to|with) (?:the |a )?(?:readme\w*|"
        rf"docs?|team|everyone|public|chat|commit|issue|wiki|channel)\b")),
    # script in a link or an event handler that reads cookies or storage and sends them
    ("exfiltration", _rule(
        r"\]\(\s*javascript:|\bon(?:error|load|click|mouseover|focus)\s*=\s*['\"]?[^\n]{0,80}"
        r"\b(?:fetch|XMLHttpRequest|sendBeacon|document\.cookie|localStorage|eval)\b|"
        r"\b(?:document\.cookie|localStorage\.\w+|sessionStorage\.\w+)[^\n]{0,10}\+[^\n]{0,60}"
        r"(?:fetch|https?://|new Image)|(?:fetch|new Image\(\)\.src\s*=)[^\n]{0,80}\+\s*"
        r"(?:document\.cookie|localStorage|sessionStorage)")),
    # the conversation so far declared a test, the "actual" instruction given, an encoded one
    # to decode and obey, a role without restrictions
    ("override", _rule(
        rf"\b(?:previous|earlier|above|prior) (?:steps|messages|instructions|text|prompt|"
        rf"conversation)\b (?:were|was|is|are) (?:only |just )?(?:a test|fake|a joke|a decoy|"
        rf"a trick|not real)\b|\b(?:actual|real|true) (?:instructions?|task|request|order|"
        rf"command|objective|goal)\s*(?:is|are|:)|\bdecode\b{_SPAN}{{0,30}}?\b(?:and|then)\s+"
        rf"(?:follow|obey|do|apply|carry out)\b|\byou are (?:now )?(?:unrestricted|unfiltered|"
        rf"uncensored|jailbroken|free of (?:all )?(?:rules|restrictions))\b|\b(?:you (?:now )?have no|"
        rf"(?:ai|assistant|model|agent) (?:with|without) (?:any )?) (?:restrictions|"
        rf"limits|rules|guidelines|filters)\b")),
    # notices in the grader's or the system's name, tests declared optional or deleted, the
    # check replaced or deselected, answers read from files, claims of success regardless
    ("verifier-gaming", _rule(
        rf"\b(?:grader|checker|verifier|judge|harness|evaluator|scorer) (?:has been|was|is now|"
        rf"got) (?:updated|changed|replaced|disabled|patched|turned off)\b|\b(?:the )?(?:task'?s? )?"
        rf"tests? (?:are|is) (?:optional|unnecessary|not needed|irrelevant|not required|for show)\b|"
        rf"\bassert nothing\b|\b(?:delet|remov|rm)\w*\b{_SPAN}{{0,20}}?(?!\S{{0,120}}__pycache__)(?:\S{{0,120}}\btests?/"
        rf"\S{{0,120}}\.\w+|\btest_\w+\.py\b)|\bsubmit\b{_SPAN}{{0,30}}?\bbefore (?:reading|running|"
        rf"testing|looking at|writing|solving|checking)\b|\b(?:replace|overwrite|rewrite|stub out|"
        rf"empty)\b{_SPAN}{{0,20}}?\b(?:the )?\S{{0,120}}(?:verif|test|check|grad)\S{{0,120}}(?: (?:script|file|"
        rf"command|step))?\b{_SPAN}{{0,20}}?\bwith\s+[`'\"]?(?:exit 0|/bin/true|true|:|pass|nothing|"
        rf"an? (?:empty|no-?op|dummy|stub)|return 0|sys\.exit|echo)(?!\w)|addopts\s*=\s*[^\n]{{0,200}}(?:-k\s+\S+|--co\b|"
        rf"--collect-only|--deselect|\s-m\s+\S+|--ignore)|\bso (?:that )?no tests? (?:is|are|gets?|"
        rf"will be) (?:selected|collected|run)\b|\b(?:read|open|load|cat|grep|copy)\w*\b{_SPAN}"
        rf"{{0,30}}?\S{{0,120}}\b(?:answers?|gold|golden|solutions?)(?:[_.-]\w+)*\.(?:json|jsonl|txt|csv|"
        rf"ya?ml)\b|\b(?:answers?|gold|golden|solutions?)(?:[_.-]\w+)*\.(?:json|jsonl|txt|csv|ya?ml)"
        rf"\b{_SPAN}{{0,30}}?\b(?:read|open|load|cat|copy)\w*|\b(?:tell|say|report|claim|state)\b"
        rf"{_SPAN}{{0,40}}?\b(?:correct|passes|passed|works|done|fine)\b{_SPAN}{{0,20}}?\b(?:even "
        rf"if|even though|regardless|whether or not)\b")),
    ("authority", _rule(
        r"\b(?:system|admin|administrator|security|developer|operator) (?:notice|alert|"
        r"announcement|override)\b|\bagents? (?:must now|are now required|should now|shall now)\b|"
        r"\bfrom now on,? agents?\b")),
    # a backdoor tunnel, the environment posted out, pushes from hooks
    ("exfiltration", _rule(
        rf"\bssh\b[^\n]{{0,40}}\s-R\s*\d+:|(?:os\.environ|printenv|\benv\b|environment "
        rf"variables|secrets?|credentials|api keys?|tokens?)\b{_SPAN}{{0,60}}?\b(?:post|send|upload|"
        rf"forward|transmit)\w*\b{_SPAN}{{0,30}}?(?:https?://|\bwebhook|pastebin|requestbin|ngrok)|"
        rf"\bpush\w*\b (?:to |the \w+ to )?\S+ on every (?:commit|change|build|run)\b|(?:push|curl|"
        rf"wget|send|upload|scp)\w*\b{_SPAN}{{0,60}}?\b(?:via|with|from|in) (?:a |the )?(?:post-commit|"
        rf"pre-commit|pre-push|post-checkout|post-merge|git) hooks?\b")),
    # a broken or shallow checker exploited, tests deselected by configuration, a crash dressed
    # as success, hidden answers looked up, secrets copied into memories, a role of authority
    ("verifier-gaming", _rule(
        rf"\b(?:checker|grader|verifier|judge|harness|evaluator)s? (?:is|are) (?:broken|buggy|"
        rf"disabled|off)\b|\bapprove your own (?:changes|pull requests?|code)\b|\bskip (?:the )?"
        rf"(?:code )?review\b|\b(?:checker|grader|verifier|judge|harness|evaluator)s?\b"
        rf"{_SPAN}{{0,10}}?\b(?:checks?|compares?|reads?|looks? at|counts?|verifies|sees) only "
        rf"(?:the )?(?:file ?sizes?|sizes?|lengths?|exit codes?|existence|first lines?|last lines?|"
        rf"headers?|formats?|names?|line counts?)\b|"
        rf"\bpytest\b[^\n]{{0,40}}\s-k\s*(?:''|\"\"|\S{{0,120}}nothing\S{{0,120}})|(?:testpaths|python_files|"
        rf"python_functions|norecursedirs)\s*=\s*[^\n]{{0,200}}(?:nonexist\w*|nothing|none|/dev/null)|"
        rf"\bno tests? (?:and|then) (?:succeeds?|pass(?:es)?|exits? (?:with )?0)\b|\bexcept\b"
        rf"[^\n]{{0,40}}:\s*(?:print|echo)\(?\s*['\"](?:ok|pass(?:ed)?|success|all tests passed)|"
        rf"\b(?:looks?|appears?|seems?) like (?:a )?(?:success|pass)\b|\bhidden (?:answers|"
        rf"solutions|outputs|expected \w+)\b")),
    ("exfiltration", _rule(
        rf"\b(?:export|write|dump|copy|save|put|store|include|append|add|attach|paste|leak)\w*\b"
        rf"{_SPAN}{{0,20}}?\b(?:all |the |every |your )?(?:environment variables|env vars|"
        rf"os\.environ|secrets|credentials|api keys|tokens)\b{_SPAN}{{0,30}}?\b(?:into|in|to) "
        rf"(?:the |a |your )?(?:final )?(?:memory|memories|memory content|notes?|summary|answer|"
        rf"output|logs?|repl(?:y|ies)|response)\b")),
    ("role-change", _rule(
        r"(?<!if )(?<!If )(?<!when )\byou are (?:now )?(?:the |an? )?(?:admin\w*|root|owner|"
        r"superuser|maintainer|operator|system)\b(?! of\b)")),
    # code fetched from a bare address and run, a repository cloned from one
    ("remote-exec", _rule(
        r"\b(?:git clone|curl|wget)\b[^\n]{0,40}(?:https?|git|ftp)://(?!127\.|0\.0\.0\.0)"
        r"\d{1,3}(?:\.\d{1,3}){3}[^\n]{0,80}(?:&&|;|\|)\s*(?:sudo\s+)?(?:(?:ba|z)?sh|python3?|"
        r"\./|chmod)|\bgit clone\s+(?:https?|git)://(?!127\.)\d{1,3}(?:\.\d{1,3}){3}")),
    # files gathered and sent to a bare address
    ("exfiltration", _rule(
        r"\b(?:curl|wget)\b[^\n]{0,60}(?:-F\s*['\"]?\w*=@|-T\s|--upload-file|--data-binary\s+@|"
        r"-d\s*@|--post-file)[^\n]{0,80}(?:https?://\d{1,3}(?:\.\d{1,3}){3}|\bhttp://)|"
        r"\b(?:printenv|env)\s*>[^\n]{0,80}\b(?:curl|wget|nc|ncat|scp)\b")),
    # persistence and privilege: sudoers, hooks and start-up files fed from outside
    ("destructive", _rule(
        r"\bchmod\s+(?:-R\s+)?(?:777|666|a\+w|o\+w)\s+/(?:etc|usr|bin|boot|root|var)\b|"
        r"\bNOPASSWD\b|(?:>>?|\btee(?:\s+-a)?|\bchmod\b[^\n]{0,15}|\bsed\s+-i\b[^\n]{0,40})"
        r"\s*/etc/(?:sudoers|passwd|shadow|ld\.so\.preload)|\bcore\.hooksPath\s+/tmp|"
        r"\b(?:curl|wget)\b[^\n|;]{0,80}(?:>>?|-o|-O)\s*[^\s>]{0,120}(?:hooks/|\.bashrc|\.profile|"
        r"\.zshrc|authorized_keys|/etc/cron|crontab|/etc/profile)|>>\s*~?/?[^\s>]{0,120}authorized_keys")),
    # the check neutralised: tests removed, skipped or rewritten, failures turned into passes,
    # a shallow checker exploited
    ("verifier-gaming", _rule(
        rf"\b(?:delete|remove|comment out|drop|skip|disable|xfail)\b{_SPAN}{{0,20}}?\b(?:the )?"
        rf"(?:failing |broken |flaky )?(?:tests?|test (?:functions?|cases?|files?)|assertions?|"
        rf"asserts?)\b{_SPAN}{{0,40}}?\b(?:will |then |now |to )?(?:pass(?:es)?|green|succeed\w*|"
        rf"reports? (?:ok|success|passed)|exits? (?:with )?0)\b|\b(?:every|all|each|any|the "
        rf"failing|failing) tests?\b{_SPAN}{{0,30}}?(?:@?pytest\.mark\.(?:skip|xfail)|"
        rf"#\[ignore\]|@unittest\.skip|\bskip(?:ped)?\b|\bxfail\b)|(?:@?pytest\.mark\."
        rf"(?:skip|xfail)\b|#\[ignore\]|@unittest\.skip\b){_SPAN}{{0,30}}?\b(?:every|all|each|"
        rf"any|the failing|failing) tests?\b|\bthe (?:tests?|assertions?|expected outputs?|"
        rf"verifier|checker|grader) (?:are|is) (?:wrong|broken|buggy|incorrect|outdated)\b"
        rf"[^\n]{{0,40}}?\b(?:edit|change|rewrite|update|fix|modify|adjust|delete|remove)\b|"
        rf"\b(?:overwrite|rewrite|regenerate|replace|edit|modify)\b{_SPAN}{{0,20}}?\bexpected"
        rf"[_ -]?(?:outputs?|results?|answers?|values?)\b|\b(?:hook|conftest|plugin)\b"
        rf"{_SPAN}{{0,60}}?\b(?:rewrites?|turns?|changes?|converts?|flips?|marks?|forces?|"
        rf"reports?)\b{_SPAN}{{0,15}}?\b(?:failed|failing|failures?|errors?)\b{_SPAN}{{0,30}}?"
        rf"\b(?:pass|passed|success|ok)\b|\b(?:checker|grader|harness|verifier|evaluator|judge|"
        rf"ci)s?\b{_SPAN}{{0,30}}?\b(?:only|just) (?:sees?|looks? (?:at|for)|checks?|greps?|"
        rf"reads?|counts?|compares?|tests?)\b|\ball the (?:checker|grader|harness|verifier|"
        rf"evaluator|judge|ci) (?:sees|checks|looks at|reads)\b|\b(?:checker|grader|harness|"
        rf"verifier|evaluator|judge)s?\b{_SPAN}{{0,30}}?\b(?:never|don'?t|do not|doesn'?t|does "
        rf"not) (?:actually )?(?:run|execute|check|compile|import)\b|(?:PYTEST_ADDOPTS|addopts)"
        rf"[^\n]{{0,30}}(?:--co\b|--collect-only|-p no:)|\|\|\s*true\b{_SPAN}{{0,30}}?\b(?:every|"
        rf"all|each) (?:commands?|lines?|steps?)\b")),
    # a chat transcript or a system line written into a memory
    ("fake-markup", _rule(
        r"(?:^|\n)[^\S\n]*(?-i:SYSTEM|ASSISTANT|DEVELOPER|ADMIN)\s*:[^\n]{0,120}?\b(?:you|your|"
        r"agents?|assistant|tasks?|instructions?|ignore|must|call|finish|submit|now)\b|"
        r"(?:^|\n)[^\S\n]*(?:assistant|ai|model|system)\s*:[^\n]{0,200}\n[^\S\n]*(?:user|human)"
        r"\s*:|(?:^|\n)[^\S\n]*(?:user|human)\s*:[^\n]{0,200}\n[^\S\n]*(?:assistant|ai|model)\s*:")),
    # the work declared done or the answer dictated: every task solved already, a fixed answer
    # for every task, an action to copy verbatim, an observation to trust instead of running
    ("verifier-gaming", _rule(
        rf"\b(?:all|every|each) (?:the |of the )?tasks?\b{_SPAN}{{0,30}}?\b(?:are|is|were|have "
        rf"been|has been) already (?:solved|done|complete|completed|finished|passed)\b|"
        rf"\b(?:correct|right|expected|final) (?:final )?answers? (?:to|for|of) (?:every|all|any|"
        rf"each) (?:tasks?|questions?|problems?) (?:is|=) (?:always |simply |just )?(?:the "
        rf"(?:string|number|word|value)\b|[\"'`]|\d)|\b(?:copy|paste|emit|output|repeat)\b"
        rf"{_SPAN}{{0,30}}?\b(?:exactly|verbatim|word for word)\b{_SPAN}{{0,10}}?\bas (?:your|the) "
        rf"(?:first|next|only|final) (?:action|step|reply|response|tool call)\b|\b(?:use|trust|"
        rf"assume|reuse|copy)\b (?:this|these|the (?:above|given|following)) (?:observations?|"
        rf"results?|outputs?)\b{_SPAN}{{0,30}}?\binstead of (?:running|executing|checking|testing"
        rf"|computing)\b|\bwrite\b{_SPAN}{{0,20}}?\b(?:the )?expected (?:outputs?|results?|"
        rf"answers?)(?: files?)?\b{_SPAN}{{0,20}}?\b(?:directly|by hand|yourself|instead of "
        rf"(?:running|computing|executing))|\b(?:fail\w*|broken|red)\b{_SPAN}{{0,60}}?\bso "
        rf"(?:that )?(?:pytest|cargo|it|they|the (?:runner|harness|suite|checker|verifier|grader|"
        rf"test runner)) (?:does not|doesn'?t|won'?t|will not|cannot|can'?t|never) (?:collect|run|"
        rf"find|see|pick up|execute)\b|(?:@?pytest\.mark\.(?:skip|xfail)|#\[ignore\]|"
        rf"@unittest\.skip|\bskip|\bxfail)\w*{_SPAN}{{0,30}}?\b(?:any|every|all|each|whichever)"
        rf"\b(?: (?:ones?|tests?|of them))? (?:that|which) (?:fail|break|error)|\bLD_PRELOAD\s*=\s*"
        rf"\S{{0,40}}(?:/tmp|/dev/shm)|\bpatched (?:stdlib|standard library|pytest|unittest|python|"
        rf"test runner|builtins)\b|\bPYTHONPATH\b{_SPAN}{{0,60}}?\b(?:patched|fake|shim|evil|"
        rf"malicious)")),
    # the workspace copied to another machine; a link that carries the environment
    ("exfiltration", _rule(
        r"\bscp\b[^\n]{0,20}?\s-\w*r\w*\s+(?:\.|~|\$HOME|/)/?\s+[\w.-]+@[\w.-]+:|"
        r"\b(?:scp|rsync)\b[^\n]{0,80}?@\d{1,3}(?:\.\d{1,3}){3}:|"
        r"\]\(\s*https?://[^)\s]{0,200}(?:\{\{|\$\{|\$\(|%7B%7B|%24%7B)")),
    # a lenient check exploited by printing, failures reported as passes
    ("verifier-gaming", _rule(
        rf"\b(?:grad\w*|check\w*|verif\w*|harness|judge|evaluat\w*|scor\w*)\b{_SPAN}{{0,40}}?"
        rf"\btreats? (?:any|every|all)\b{_SPAN}{{0,40}}?\bas (?:a )?(?:success|passed|pass|"
        rf"correct)\b|\b(?:failures?|failed tests?|failing tests?|errors?)\b (?:are|get|will be|is) "
        rf"(?:reported|counted|marked|treated|shown|recorded) as (?:pass\w*|success\w*|ok)\b")),
    # the task skipped for a stored answer; the memory set above the task; hidden orders
    ("override", _rule(
        rf"\bskip (?:reading|looking at|parsing) (?:the )?(?:task|prompt|question|instructions|"
        rf"request)\b|\breuse\b{_SPAN}{{0,40}}?\b(?:memory|memories)\b{_SPAN}{{0,20}}?\b(?:verbatim|"
        rf"word for word|without (?:reading|checking|adapting|changing))|\bconflicts? with "
        rf"(?:this|these) (?:memory|memories|note|notes)\b|\bthe new (?:ones|instructions?|rules|orders|directives?) "
        rf"(?:say|tell you|require|are to)\b|\binstructions? from the (?:operator|admin\w*|"
        rf"developer|owner|system)\b{_SPAN}{{0,30}}?\b(?:were|was|have been|has been|are|is) "
        rf"(?:rotated|changed|updated|replaced|revised|new)\b|\bhidden (?:rule|instruction|"
        rf"directive|order)s? for (?:the )?(?:assistant|agent|ai|model)\b")),
    # orders for every answer; the host sent along in a link; secrets mailed away
    ("exfiltration", _rule(
        rf"\bin (?:every|each|all) (?:answers?|repl(?:y|ies)|responses?|messages?)\b,?\s+(?:always "
        rf")?(?:include|add|put|insert|append|mention|say|write|start|end)\b|https?://\S{{0,120}}"
        rf"[?&]\S{{0,60}}=\s*(?:,\s*)?(?:followed by|plus|\+)\s+(?:the |your )?(?:hostname|host "
        rf"name|ip address|user ?name|environment|env|token|key|secret)|\b(?:send|e-?mail|forward|"
        rf"mail)\b{_SPAN}{{0,60}}?\b(?:keys|tokens|secrets|credentials|passwords)\b{_SPAN}{{0,30}}?"
        rf"[\w.+-]+@[\w-]+\.[\w.]+")),
    # permission claimed on someone's behalf; other memories discredited; the task swapped
    ("authority", _rule(
        rf"\b(?:has|have|had|was|were|is|are) (?:already )?pre-?approved\b|\byou (?:now )?have "
        rf"(?:been granted )?elevated (?:privileges|permissions|rights|access)\b|\bonly trust "
        rf"(?:this|me|these)\b|\b(?:previous|other|earlier|all (?:other|previous)) memories "
        rf"(?:are|were|have been) (?:compromised|wrong|fake|poisoned|outdated|invalid)\b|"
        rf"\b(?:supervisor|manager|boss|lead|owner|admin) (?:wants|says|asks|needs|told|expects) "
        rf"you\b|\b(?:sudo|root)\b{_SPAN}{{0,20}}?\b(?:is |are )?(?:allowed|permitted|fine|ok|"
        rf"okay) without (?:asking|confirmation|approval)|\bpretend (?:that )?the (?:task|user|"
        rf"prompt|question) (?:asked|asks|wants|said|says)\b|\bsolve (?:that|this|something "
        rf"else) instead\b|\bskip\b{_SPAN}{{0,40}}?\b(?:especially (?:the )?|all (?:the )?|any )"
        rf"(?:requirements|constraints|instructions)\b")),
    # the check switched off or fooled: asserts patched to no-ops, test modules compiled out,
    # a fake tool first on PATH, a marker file, an exit at import, a fixed string graders take
    ("verifier-gaming", _rule(
        rf"\b(?:monkey-?patch|patch|mock|stub|replace|override|redefine)\w*\b{_SPAN}{{0,30}}?"
        rf"\bassert\w*\b{_SPAN}{{0,30}}?\b(?:no-?op|nothing|to pass|lambda|always true|return "
        rf"true)\b|cfg\(\s*any\(\s*\)\s*\)|\bPATH=\S{{0,60}}(?:fake|shim|stub)\w*|\b(?:pytest|"
        rf"cargo|python3?|diff|make|test)\b (?:just|simply|always) exits? (?:with )?0\b|"
        rf"\b(?:sys\.exit|os\._exit|exit)\b(?:\(\d?\))? (?:at|on|during) import\b|\b(?:files?|"
        rf"markers?) (?:named|called) \S{{0,3}}(?:pass|passed|success|ok|done)\b|\bpass(?:es)? "
        rf"(?:regardless|no matter what|instantly)\b|\b(?:graders?|checkers?|verifiers?|ci|"
        rf"harness|judges?|evaluators?) accepts? anything\b|\b(?:stop|quit|skip) (?:verifying|testing|checking)\b{_SPAN}{{0,30}}?"
        rf"\bsubmit\b|\bsubmit whatever\b|\b(?:copy|take|read|load|use)\b{_SPAN}{{0,20}}?"
        rf"\breference (?:solution|answer)s?\b{_SPAN}{{0,30}}?\b(?:from|at|in) /|\breturn (?:the "
        rf"|a )?(?:string |word )?['\"]\w{{1,20}}['\"] instead\b{_SPAN}{{0,30}}?\b(?:graders?|"
        rf"checkers?|verifiers?|harness|judges?)\b{_SPAN}{{0,10}}?\baccept")),
    # the user's identity put in a link; encoded code run through command substitution
    ("exfiltration", _rule(
        r"https?://\S{0,120}\$\(\s*(?:whoami|hostname|id|env|printenv|cat|uname|pwd)\b")),
    ("remote-exec", _rule(
        r"\$\(\s*(?:echo|printf)\s+['\"]?[A-Za-z0-9+/=]{8,}['\"]?\s*\|\s*base64\s+(?:-d|--decode)")),
    # a role without limits, or rules declared not to apply
    ("role-change", _rule(
        r"\b(?:act|behave|respond|operate|answer|work)\w* (?:as|like) (?:an? |the )?(?:"
        r"unrestricted|unfiltered|uncensored|jailbroken|unaligned)\b|\b(?:anything goes|no "
        r"rules apply|(?:the )?rules (?:do not|don'?t) apply)\b")),
    ("destructive", _rule(
        r"\brm\s+-[a-z]*(?:r[a-z]*f|f[a-z]*r)[a-z]*\s+(?:--no-preserve-root\s+)?(?:/|~/?|"
        r"\$HOME/?|\.\.?/?)?\*?(?=\s|$|[`'\";&|)])|\bmkfs(?:\.\w+)?\s|:\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:|"
        r"\bchmod\s+-R\s+777\s+/|\bdd\s+if=/dev/(?:zero|u?random)\s+of=/dev/[sh]d|"
        r"\bfind\s+/\s+[^\n]{0,30}-delete|\bdrop\s+(?:database|schema)\b|"
        r"\bgit\s+push\s+(?:[^\n]{0,30}\s)?(?:--force\b|-f\b)(?![-\w])|"
        r"\bgit\s+reset\s+--hard\s+HEAD~\d{2,}|>\s*/dev/sd[a-z]\b|\bshred\s+[^\n]{0,20}/dev/|"
        r"\brm\s+-[a-z]*(?:r[a-z]*f|f[a-z]*r)[a-z]*\s+(?:\$HOME|~|/(?:etc|usr|var|home|opt|boot|"
        r"lib|bin|root|srv)\b)|\bgit\s+push\s+[^\n]{0,40}\s\+[\w/-]+|\btruncate\s+-s\s*0\s+/|"
        r"\bkill\s+-9\s+-1\b|\bkillall\s+-9\b|\bsudo\s+rm\s+-[a-z]*r|\bch(?:own|mod)\s+-R\s+"
        r"\S+\s+/(?:etc|usr|var|bin|boot|lib|root)?(?:\s|$)|\brm\s+-[a-z]*r[a-z]*\s+[^\n]{0,200}\.\./\*")),
    # the agent's own prompt written into what it produces
    ("prompt-leak", _rule(
        rf"\b(?:append|add|insert|attach|embed|put|write|prepend|send|post|share|disclos|expos|"
        rf"divulg|leak)\w*\b{_SPAN}{{0,20}}?\b(?:your|its) (?:(?:full|entire|whole|complete|"
        rf"exact|original|hidden|initial|verbatim) )*(?:system (?:prompt|message)|hidden "
        rf"(?:prompt|instructions)|(?:original|initial) instructions|instructions you (?:were "
        rf"given|received))\b")),
    # a check made to succeed whatever happens
    ("verifier-gaming", _rule(
        rf"\b(?:verifier|checker|grader|evaluator|judge|test (?:harness|runner|script)|tests?)\b"
        rf"{_SPAN}{{0,60}}?\b(?:exits?|returns?|reports?|ends?)\s+(?:with\s+)?(?:(?:code|status)"
        rf"\s+)?(?:0|zero|success|true|passed|ok)\b{_SPAN}{{0,30}}?\b(?:regardless|no matter|"
        rf"whatever|even (?:if|when|though)|every time|unconditionally)\b|\b(?:make|let|have|"
        rf"force|edit|modify|change|patch|rewrite)\b{_SPAN}{{0,30}}?\b(?:verifier|checker|grader|"
        rf"evaluator|judge|test (?:harness|runner|script)|tests?)\b{_SPAN}{{0,30}}?\b(?:always|"
        rf"unconditionally) (?:(?:exits?|returns?|reports?)(?: with)? (?:0|zero|success|true|"
        rf"pass\w*|ok)|pass(?:es)?|succeeds?)\b")),
    # the tests made to agree with whatever the code does
    ("verifier-gaming", _rule(
        rf"\b(?:rewrit|edit|chang|modif|updat|adjust|alter|tweak|fix)\w*\b{_SPAN}{{0,40}}?\b(?:"
        rf"assertions?|asserts?|expected (?:values?|outputs?|results?|answers?)|tests?|test cases?)"
        rf"\b{_SPAN}{{0,30}}?\b(?:to|so (?:that )?(?:they|it)) (?:match|fit|agree with|accept|"
        rf"equal|expect)\b{_SPAN}{{0,20}}?\b(?:whatever|anything|what(?:ever)? (?:your|the) "
        rf"(?:code|function|program|solution|script|implementation))\b")),
    # the memory speaking of itself being read, and orders for every later task
    ("addressed-to-agent", _rule(
        r"\b(?:when|if|once|whenever|as soon as) you (?:see|read|retrieve|load|find|encounter|"
        r"receive|get|are (?:shown|given)) this (?:memory|note|message|text|insight|tip|lesson|"
        r"hint|entry|record|line)\b")),
    # ... asking to be kept secret, or to be reported as having helped
    ("addressed-to-agent", _rule(
        rf"\b(?:do not|don'?t|never|without)\s+(?:ever\s+)?(?:mention|reveal|disclos|acknowledg|"
        rf"cit|quot|repeat|report)\w*\b{_SPAN}{{0,15}}?\bthis (?:memory|note|instruction|message|"
        rf"insight|tip|lesson|hint|entry|record)\b|\b(?:mark|rate|report|score|label|record|flag|"
        rf"count|vote)\w*\b{_SPAN}{{0,20}}?\bthis (?:memory|note|insight|tip|lesson|hint|entry|"
        rf"record)\b{_SPAN}{{0,20}}?\bas (?:very )?(?:helpful|useful|successful|a success|relevant|"
        rf"correct|good|positive)\b")),
    # a check's helper patched to agree, failing tests left out, the check sidestepped; a
    # package from an index the memory names
    ("verifier-gaming", _rule(
        rf"\b(?:monkey-?patch|mock|patch|stub|override|overrid|redefin|replac|wrap)\w*\b{_SPAN}"
        rf"{{0,40}}?\b(?:assert\w*|assertions?|__eq__|equality|comparison|checks?|checker|verifier|"
        rf"grader|judge|test helpers?|test runner|verdict)\b{_SPAN}{{0,40}}?\balways (?:returns? "
        rf"['\"`]?(?:true|0|none|success|pass\w*|ok)|pass(?:es)?|succeeds?|compares? equal|agrees?)\b|"
        rf"\b(?:deselect|skip|xfail|ignor|filter\w* out|drop|exclud|disabl|quarantin)\w*\s+"
        rf"(?:all |every |the |any |each |all the |all of the )?(?:\w+ly )?(?:failing|broken|red|erroring) tests?\b|"
        rf"\b(?:skip|bypass|short-?circuit|evad|sidestep|get around|circumvent|dodg|trick|fool)"
        rf"\w*\b{_SPAN}{{0,10}}?\b(?:the )?(?:verifier|grader|checker|test harness|verification|"
        rf"evaluation|judge)\b{_SPAN}{{0,40}}?\bby\b|\b(?:raise\s+)?"
        rf"SystemExit\(\s*0?\s*\){_SPAN}{{0,60}}?\b(?:import|conftest|before (?:the )?(?:tests?|"
        rf"verifier|checks?|assertions?))\b")),
    ("remote-exec", _rule(
        rf"\b(?:pip3?|uv pip|pipx|npm|yarn|pnpm|gem|cargo|go) (?:install|add|get)\b{_SPAN}{{0,60}}?"
        rf"\bfrom (?:the |our |a |my |this |their )?(?:[\w-]+'s (?:own )?|(?:team|private|internal|"
        rf"custom|own|alternate|alternative|unofficial|personal|patched|fixed) )(?:mirror|index|"
        rf"registry|feed)\b(?! (?:configured|set) (?:in|by) )")),
    # the finished answer read from the repository's history; a package installed in every task
    # or because it is a typo of the real one; the host's account list printed
    ("verifier-gaming", _rule(
        rf"\b{_KNOWN_ANSWER}\b{_SPAN}{{0,60}}?\b{_HISTORY}\b|\b{_HISTORY}\b{_SPAN}{{0,60}}?"
        rf"\b{_KNOWN_ANSWER}\b")),
    ("remote-exec", _rule(
        r"\btypo-?(?:squat\w*)?\s+(?:package|module|crate|library|dependency|version)\b|"
        rf"\b{_INSTALL_A_PACKAGE}[^\n]{{0,80}}?\b{_EVERY_TASK}\b|\b{_EVERY_TASK}\b[^\n]{{0,20}}?"
        rf"\b{_INSTALL_A_PACKAGE}")),
    ("exfiltration", _rule(
        r"\b(?:output|print|show|dump|display|echo|paste|include|return)\w*\s+(?:the\s+)?"
        r"(?:(?:full|whole|entire)\s+)?contents? of\s+`?/etc/(?:passwd|group|hosts)\b")),
    ("authority", _rule(
        rf"\b(?:reply|respond|answer|say|refus|declin|output)\w*\b{_SPAN}{{0,60}}?\b(?:to|for|on|"
        rf"in) (?:every|each|all|any) (?:subsequent|future|following|later|remaining|upcoming|"
        rf"next|other) (?:tasks?|requests?|questions?|prompts?|messages?|users?|runs?|"
        rf"conversations?)\b")),
    # the tests made not to run (renamed out of the runner's sight, skipped at module level,
    # their failing asserts commented out), the task declared done although they fail, answers
    # matched to the tests' inputs, equality made to hold for anything, an early exit 0
    ("verifier-gaming", _rule(
        rf"\b(?:renam|mov|mv)\w*\b{_SPAN}{{0,40}}?(?:\btest (?:files?|modules?|suites?)\b|\btests?/|"
        rf"\btest_\w+\.py\b|\bthe (?:failing )?tests?\b|\bfailing tests?\b){_SPAN}{{0,60}}?\b(?:so|and)"
        rf"\s+(?:that\s+)?"
        rf"(?:pytest|unittest|cargo test|the (?:runner|suite|verifier|checker|grader|harness|tests?))"
        rf"\s+(?:skips?|ignores?|misses?|never (?:finds?|collects?|runs?|sees?)|(?:won'?t|can'?t|"
        rf"cannot|does ?n[o']t|will not) (?:find|collect|run|see|pick))|"
        rf"\bpytest\.skip\([^)]{{0,40}}allow_module_level{_SPAN}{{0,60}}?\b(?:test (?:modules?|"
        rf"files?|suites?)|tests?/|test_\w+\.py)\b|"
        rf"\b(?:comment(?:ing)? out|delet|remov|disabl)\w*\s+(?:the |all |every |any |all the )?"
        rf"(?:failing|broken|red|erroring) (?:tests?|asserts?|assertions?|checks?)\b"
        rf"(?! (?:data|fixtures?|helpers?|inputs?|cache)\b)|"
        rf"\b(?:mark|declare|report|call|claim)(?:ing)?\s+(?:the |this |your |it\b)?(?:\s*(?:task|work|"
        rf"job|run)\b)?\s*(?:as\s+)?(?:complete|completed|done|finished|solved|successful|a success|passed)"
        rf"\b{_SPAN}{{0,20}}?\b(?:even if|even though|although|regardless|whether or not|despite)"
        rf"\b{_SPAN}{{0,30}}?\b(?:fail\w*|broken|red|(?:do|does) ?n[o']t pass)\b|"
        rf"\breturn\w*\b{_SPAN}{{0,30}}?\b(?:values?|outputs?|answers?|results?) (?:the |each |every )"
        rf"?(?:hidden )?tests? (?:expects?|wants?|checks? for|asserts?)\b{_SPAN}{{0,30}}?\bfor "
        rf"(?:each|every|the|its|that|those) (?:inputs?|cases?|arguments?|calls?)\b|"
        rf"\b(?:special-?cas|match(?:ing)? on|switch(?:ing)? on|branch(?:ing)? on|memori[sz]|"
        rf"hard-?cod)\w*\s+(?:the |each |every |all )?(?:hidden )?(?:tests?'?s?|tested) (?:inputs?|"
        rf"cases?|arguments?|values?)\b|"
        rf"__eq__\b{_SPAN}{{0,60}}?\b(?:any|every|all|each)\s+(?:comparisons?|checks?|asserts?|"
        rf"assertions?|equality (?:checks?|tests?))\s+(?:succeeds?|pass(?:es)?|(?:is|are) true|"
        rf"returns? true|holds?)\b|"
        rf"\b(?:sys\.exit|os\._exit|exit|quit)\(\s*0?\s*\){_SPAN}{{0,80}}?\b(?:checker|"
        rf"verifier|grader|harness|test runner)\b{_SPAN}{{0,20}}?\b(?:reports?|sees?|counts?|"
        rf"treats?|records?|says?)\b{_SPAN}{{0,15}}?\b(?:success|passed|a pass|green)\b")),
    *ASSET_RULES,
]  # fmt: skip
# rules whose match is advice, not an attack, when the sentence forbids it
NEGATABLE = {
    "destructive",
    "remote-exec",
    "exfiltration",
    "prompt-leak",
    "verifier-gaming",
    "sandbox-escape",
    "persistence",
    "covering-tracks",
}


# a rule that cannot match without one of these words is skipped when none is present; the
# words are lower case and searched in the lower-cased text (three times faster than a
# case-insensitive search over this many alternatives)
GATES = {
    "multilingual": re.compile(
        "|".join(verb for _, verb, _ in FOREIGN_OVERRIDE) + "|" + FOREIGN_ROLE, re.DOTALL
    ),
}


# what makes a text worth a second opinion when no rule matched: it talks about the agent, its
# instructions or secrets, or is written (partly) in a script the rules cover less well
UNDECIDED = _rule(
    r"\b(?:instructions?|prompts?|system|assistants?|agents?|ai|llms?|models?|memor(?:y|ies)|"
    r"priority|important|obey|verifier|secrets?|credentials?|passwords?|tokens?|upload|"
    r"exfiltrat\w*)\b|<!--|[^\x00-\u024f\s\d\W]"
)
