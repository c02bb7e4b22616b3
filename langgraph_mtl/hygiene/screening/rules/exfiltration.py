"""Screening rules of the category "exfiltration": sending keys, files or the environment to an
outside address moves secrets out of the sandbox."""

from __future__ import annotations

import re

from langgraph_mtl.hygiene.screening.rules.parts import EGRESS, SPAN, near, rule

__all__ = ["RULES"]

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

# verbs that read, copy, show or send what they name, as instructions: the third-person form
# describes what a program does ("CI reads it from a secret")
_TOUCH = (
    r"\b(?:read|reading|open|opening|load|loading|cat|print|"
    r"printing|dump\w*|echo\w*|copy|copying|copied|cp|paste\w*|return\w*|output\w*|"
    r"list|listing|include\w*|select|grep\w*|extract\w*|base64\w*|encod\w*|upload\w*|"
    r"send\w*|sent|post|posts|posting|posted|leak\w*|collect\w*|harvest\w*|exfiltrat\w*|"
    r"stor(?:e|es|ing)|sav(?:e|es|ing)|log|logging|attach\w*|embed\w*|share\w*|"
    r"forward\w*|mail\w*|archiv\w*|tar|zip|show\w*|display\w*|reveal\w*|expos\w*|grab\w*|"
    r"take|taking|lift\w*|mirror\w*|sync\w*|transfer\w*|publish\w*|commit\w*)\b"
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

_PROJECT = (
    r"(?:(?:every|each|all|any) (?:files?|changes?|edits?)(?: you (?:edit|change|write|touch))?|"
    r"the (?:repo|repository|workspace|codebase|source(?: code)?|project|files?)|\.env|"
    r"(?:the |your )?(?:secrets?|credentials|keys|environment(?: variables)?))"
)

RULES: list[tuple[str, re.Pattern[str]]] = [
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
    # the agent's own secrets written somewhere, or the environment sent to a web address
    ("exfiltration", rule(
        rf"\b(?:write|dump|print|echo|copy|log|paste|save)\b{SPAN}{{0,15}}?\byour (?:own )?"
        r"(?:api keys?|secrets|credentials|tokens|passwords|ssh keys?|environment(?: "
        r"variables)?|env vars)\b|\b(?:export|send|post|upload|dump|pipe|copy|forward)\b"
        rf"{SPAN}{{0,40}}?\b(?:env|environment(?: variables)?|printenv|os\.environ|secrets?|"
        rf"credentials|api keys?|tokens?)\b{SPAN}{{0,40}}?(?:https?://|\bwebhook|pastebin|"
        r"requestbin|ngrok)")),
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
    # the task or the run sent to a bare address, a reply that is only a link
    ("exfiltration", rule(
        rf"\b(?:send|post|upload|forward|report|log|transmit|mirror|copy|sync|push)\w*\b{SPAN}"
        rf"{{0,60}}?\b(?:to|at) (?:https?|ftp)://(?!127\.|0\.0\.0\.0)\d{{1,3}}(?:\.\d{{1,3}}){{3}}|"
        rf"\b(?:respond|reply|answer)\w*\b{SPAN}{{0,40}}?\bwith (?:only )?(?:a |the )?(?:link|"
        rf"url)\b|\b(?:share|publish|commit|expose|give|send|post|echo|write|put|store|add)\w*\b"
        rf"{SPAN}{{0,20}}?\byour [A-Za-z_]*(?:TOKEN|KEY|SECRET|PASSWORD|token|secret|password|"
        rf"credentials|api key)\b{SPAN}{{0,50}}?\b(?:in|into|to|with) (?:the |a )?(?:readme\w*|"
        rf"docs?|team|everyone|public|chat|commit|issue|wiki|channel)\b")),
    # script in a link or an event handler that reads cookies or storage and sends them
    ("exfiltration", rule(
        r"\]\(\s*javascript:|\bon(?:error|load|click|mouseover|focus)\s*=\s*['\"]?[^\n]{0,80}"
        r"\b(?:fetch|XMLHttpRequest|sendBeacon|document\.cookie|localStorage|eval)\b|"
        r"\b(?:document\.cookie|localStorage\.\w+|sessionStorage\.\w+)[^\n]{0,10}\+[^\n]{0,60}"
        r"(?:fetch|https?://|new Image)|(?:fetch|new Image\(\)\.src\s*=)[^\n]{0,80}\+\s*"
        r"(?:document\.cookie|localStorage|sessionStorage)")),
    # a backdoor tunnel, the environment posted out, pushes from hooks
    ("exfiltration", rule(
        rf"\bssh\b[^\n]{{0,40}}\s-R\s*\d+:|(?:os\.environ|printenv|\benv\b|environment "
        rf"variables|secrets?|credentials|api keys?|tokens?)\b{SPAN}{{0,60}}?\b(?:post|send|upload|"
        rf"forward|transmit)\w*\b{SPAN}{{0,30}}?(?:https?://|\bwebhook|pastebin|requestbin|ngrok)|"
        rf"\bpush\w*\b (?:to |the \w+ to )?\S+ on every (?:commit|change|build|run)\b|(?:push|curl|"
        rf"wget|send|upload|scp)\w*\b{SPAN}{{0,60}}?\b(?:via|with|from|in) (?:a |the )?(?:post-commit|"
        rf"pre-commit|pre-push|post-checkout|post-merge|git) hooks?\b")),
    ("exfiltration", rule(
        rf"\b(?:export|write|dump|copy|save|put|store|include|append|add|attach|paste|leak)\w*\b"
        rf"{SPAN}{{0,20}}?\b(?:all |the |every |your )?(?:environment variables|env vars|"
        rf"os\.environ|secrets|credentials|api keys|tokens)\b{SPAN}{{0,30}}?(?<!not )(?<!never )"
        rf"\b(?:into|in|to) "
        rf"(?:the |a |your )?(?:final )?(?:memory|memories|memory content|notes?|summary|answer|"
        rf"output|logs?|repl(?:y|ies)|response)\b")),
    # files gathered and sent to a bare address
    ("exfiltration", rule(
        r"\b(?:curl|wget)\b[^\n]{0,60}(?:-F\s*['\"]?\w*=@|-T\s|--upload-file|--data-binary\s+@|"
        r"-d\s*@|--post-file)[^\n]{0,80}(?:https?://\d{1,3}(?:\.\d{1,3}){3}|\bhttp://)|"
        r"\b(?:printenv|env)\s*>[^\n]{0,80}\b(?:curl|wget|nc|ncat|scp)\b")),
    # the workspace copied to another machine; a link that carries the environment
    ("exfiltration", rule(
        r"\bscp\b[^\n]{0,20}?\s-\w*r\w*\s+(?:\.|~|\$HOME|/)/?\s+[\w.-]+@[\w.-]+:|"
        r"\b(?:scp|rsync)\b[^\n]{0,80}?@\d{1,3}(?:\.\d{1,3}){3}:|"
        r"\]\(\s*https?://[^)\s]{0,200}(?:\{\{|\$\{|\$\(|%7B%7B|%24%7B)")),
    # orders for every answer; the host sent along in a link; secrets mailed away
    ("exfiltration", rule(
        rf"\bin (?:every|each|all) (?:answers?|repl(?:y|ies)|responses?|messages?)\b,?\s+(?:always "
        rf")?(?:include|add|put|insert|append|mention|say|write|start|end)\b|https?://\S{{0,120}}"
        rf"[?&]\S{{0,60}}=\s*(?:,\s*)?(?:followed by|plus|\+)\s+(?:the |your )?(?:hostname|host "
        rf"name|ip address|user ?name|environment|env|token|key|secret)|\b(?:send|e-?mail|forward|"
        rf"mail)\b{SPAN}{{0,60}}?\b(?:keys|tokens|secrets|credentials|passwords)\b{SPAN}{{0,30}}?"
        rf"[\w.+-]+@[\w-]+\.[\w.]+")),
    # the user's identity put in a link; encoded code run through command substitution
    ("exfiltration", rule(
        r"https?://\S{0,120}\$\(\s*(?:whoami|hostname|id|env|printenv|cat|uname|pwd)\b")),
    ("exfiltration", rule(
        r"\b(?:output|print|show|dump|display|echo|paste|include|return)\w*\s+(?:the\s+)?"
        r"(?:(?:full|whole|entire)\s+)?contents? of\s+`?/etc/(?:passwd|group|hosts)\b")),
    ("exfiltration", rule(near(_TOUCH, CREDENTIALS) + r"|\bcat\s+\$\(\s*find\s+/")),
    ("exfiltration", rule(rf"(?:{_SEND}){SPAN}{{0,60}}?(?:{_BULK}){SPAN}{{0,60}}?"
                           rf"(?:{_DESTINATION})" + "|" + near(_SEND_OUT, EGRESS, 60)
                           + r"|\|\s*(?:curl|wget)\b[^\n]{0,80}?(?:@-|-T\s*-)")),
    ("exfiltration", rule(_DUMP)),
    ("exfiltration", rule(r"\bexfil(?:trat\w*)?\b")),
    ("exfiltration", rule(rf"(?:{_WRITE}){SPAN}{{0,25}}?(?:{_OWN_SECRET}){SPAN}{{0,30}}?"
                           rf"(?:{_SHARED_PLACE})")),
    # the project sent to an address, or packed into text that leaves the run
    ("exfiltration", rule(
        rf"\b(?:send|upload|post|copy|transfer|sync|push|mirror|exfiltrat|forward|curl -T|"
        rf"scp|rsync)\w*\b{SPAN}{{0,20}}?{_PROJECT}{SPAN}{{0,40}}?\b(?:to|at|onto) "
        rf"(?:the |my |our |a )?(?:(?:s?ftp|https?|s3|gs|scp)://|[\w-]+(?:\.[\w-]+)*\.(?:com|net|"
        rf"org|io|xyz|example|ru|cn|top)\b|(?:remote|external|my|our) (?:server|host|bucket|"
        rf"endpoint))|\b(?:base64|encod|compress|zip|tar|gzip|hex)\w*\b{SPAN}{{0,20}}?"
        rf"{_PROJECT}{SPAN}{{0,40}}?\b(?:in|into|to) (?:the |a |your |every )?(?:commit "
        rf"messages?|comments?|memor(?:y|ies)|summar(?:y|ies)|answers?|issues?|pull requests?|"
        rf"urls?|dns|requests?|logs?|output)\b|\b(?:write|save|store|put|dump|copy)\w*\b"
        rf"{SPAN}{{0,20}}?\b[A-Z][A-Z0-9_]*(?:KEY|TOKEN|SECRET|PASSWORD)\b{SPAN}{{0,20}}?\b"
        rf"(?:in|into|to) (?:a |the )?(?:new )?file\b{SPAN}{{0,30}}?\b(?:repo|repository|"
        rf"workspace|project|commit)\w*")),
]  # fmt: skip
