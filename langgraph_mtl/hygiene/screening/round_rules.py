"""Screening rules added by the screening rounds, each for the whole category of attack a round
found (the check fooled in code, a pass earned without solving, the brief replaced, links that
carry the run away, persistence, chat transcripts); :mod:`.rules` puts them after its own."""

from __future__ import annotations

import re

from langgraph_mtl.hygiene.screening.assets import ASSET_RULES
from langgraph_mtl.hygiene.screening.harmful_advice import HARMFUL_ADVICE_RULES
from langgraph_mtl.hygiene.screening.rule_parts import (
    EVERY_TASK,
    HISTORY,
    INSTALL_A_PACKAGE,
    KNOWN_ANSWER,
    SPAN,
    rule,
)
from langgraph_mtl.hygiene.screening.unearned_passes import UNEARNED_PASS_RULES

__all__ = ["ROUND_RULES"]

ROUND_RULES: list[tuple[str, re.Pattern[str]]] = [
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
    # the conversation so far declared a test, the "actual" instruction given, an encoded one
    # to decode and obey, a role without restrictions
    ("override", rule(
        rf"\b(?:previous|earlier|above|prior) (?:steps|messages|instructions|text|prompt|"
        rf"conversation)\b (?:were|was|is|are) (?:only |just )?(?:a test|fake|a joke|a decoy|"
        rf"a trick|not real)\b|\b(?:actual|real|true) (?:instructions?|task|request|order|"
        rf"command|objective|goal)\s*(?:is|are|:)|\bdecode\b{SPAN}{{0,30}}?\b(?:and|then)\s+"
        rf"(?:follow|obey|do|apply|carry out)\b|\byou are (?:now )?(?:unrestricted|unfiltered|"
        rf"uncensored|jailbroken|free of (?:all )?(?:rules|restrictions))\b|\b(?:you (?:now )?have no|"
        rf"(?:ai|assistant|model|agent) (?:with|without) (?:any )?) (?:restrictions|"
        rf"limits|rules|guidelines|filters)\b")),
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
    ("authority", rule(
        r"\b(?:system|admin|administrator|security|developer|operator) (?:notice|alert|"
        r"announcement|override)\b|\bagents? (?:must now|are now required|should now|shall now)\b|"
        r"\bfrom now on,? agents?\b")),
    # a backdoor tunnel, the environment posted out, pushes from hooks
    ("exfiltration", rule(
        rf"\bssh\b[^\n]{{0,40}}\s-R\s*\d+:|(?:os\.environ|printenv|\benv\b|environment "
        rf"variables|secrets?|credentials|api keys?|tokens?)\b{SPAN}{{0,60}}?\b(?:post|send|upload|"
        rf"forward|transmit)\w*\b{SPAN}{{0,30}}?(?:https?://|\bwebhook|pastebin|requestbin|ngrok)|"
        rf"\bpush\w*\b (?:to |the \w+ to )?\S+ on every (?:commit|change|build|run)\b|(?:push|curl|"
        rf"wget|send|upload|scp)\w*\b{SPAN}{{0,60}}?\b(?:via|with|from|in) (?:a |the )?(?:post-commit|"
        rf"pre-commit|pre-push|post-checkout|post-merge|git) hooks?\b")),
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
    ("exfiltration", rule(
        rf"\b(?:export|write|dump|copy|save|put|store|include|append|add|attach|paste|leak)\w*\b"
        rf"{SPAN}{{0,20}}?\b(?:all |the |every |your )?(?:environment variables|env vars|"
        rf"os\.environ|secrets|credentials|api keys|tokens)\b{SPAN}{{0,30}}?(?<!not )(?<!never )"
        rf"\b(?:into|in|to) "
        rf"(?:the |a |your )?(?:final )?(?:memory|memories|memory content|notes?|summary|answer|"
        rf"output|logs?|repl(?:y|ies)|response)\b")),
    ("role-change", rule(
        r"(?<!if )(?<!If )(?<!when )\byou are (?:now )?(?:the |an? )?(?:admin\w*|root|owner|"
        r"superuser|maintainer|operator|system)\b(?! of\b)")),
    # code fetched from a bare address and run, a repository cloned from one
    ("remote-exec", rule(
        r"\b(?:git clone|curl|wget)\b[^\n]{0,40}(?:https?|git|ftp)://(?!127\.|0\.0\.0\.0)"
        r"\d{1,3}(?:\.\d{1,3}){3}[^\n]{0,80}(?:&&|;|\|)\s*(?:sudo\s+)?(?:(?:ba|z)?sh|python3?|"
        r"\./|chmod)|\bgit clone\s+(?:https?|git)://(?!127\.)\d{1,3}(?:\.\d{1,3}){3}")),
    # files gathered and sent to a bare address
    ("exfiltration", rule(
        r"\b(?:curl|wget)\b[^\n]{0,60}(?:-F\s*['\"]?\w*=@|-T\s|--upload-file|--data-binary\s+@|"
        r"-d\s*@|--post-file)[^\n]{0,80}(?:https?://\d{1,3}(?:\.\d{1,3}){3}|\bhttp://)|"
        r"\b(?:printenv|env)\s*>[^\n]{0,80}\b(?:curl|wget|nc|ncat|scp)\b")),
    # persistence and privilege: sudoers, hooks and start-up files fed from outside
    ("destructive", rule(
        r"\bchmod\s+(?:-R\s+)?(?:777|666|a\+w|o\+w)\s+/(?:etc|usr|bin|boot|root|var)\b|"
        r"\bNOPASSWD\b|(?:>>?|\btee(?:\s+-a)?|\bchmod\b[^\n]{0,15}|\bsed\s+-i\b[^\n]{0,40})"
        r"\s*/etc/(?:sudoers|passwd|shadow|ld\.so\.preload)|\bcore\.hooksPath\s+/tmp|"
        r"\b(?:curl|wget)\b[^\n|;]{0,80}(?:>>?|-o|-O)\s*[^\s>]{0,120}(?:hooks/|\.bashrc|\.profile|"
        r"\.zshrc|authorized_keys|/etc/cron|crontab|/etc/profile)|>>\s*~?/?[^\s>]{0,120}authorized_keys")),
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
    # a chat transcript or a system line written into a memory
    ("fake-markup", rule(
        r"(?:^|\n)[^\S\n]*(?-i:SYSTEM|ASSISTANT|DEVELOPER|ADMIN)\s*:[^\n]{0,120}?\b(?:you|your|"
        r"agents?|assistant|tasks?|instructions?|ignore|must|call|finish|submit|now)\b|"
        r"(?:^|\n)[^\S\n]*(?:assistant|ai|model|system)\s*:[^\n]{0,200}\n[^\S\n]*(?:user|human)"
        r"\s*:|(?:^|\n)[^\S\n]*(?:user|human)\s*:[^\n]{0,200}\n[^\S\n]*(?:assistant|ai|model)\s*:")),
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
    # the workspace copied to another machine; a link that carries the environment
    ("exfiltration", rule(
        r"\bscp\b[^\n]{0,20}?\s-\w*r\w*\s+(?:\.|~|\$HOME|/)/?\s+[\w.-]+@[\w.-]+:|"
        r"\b(?:scp|rsync)\b[^\n]{0,80}?@\d{1,3}(?:\.\d{1,3}){3}:|"
        r"\]\(\s*https?://[^)\s]{0,200}(?:\{\{|\$\{|\$\(|%7B%7B|%24%7B)")),
    # a lenient check exploited by printing, failures reported as passes
    ("verifier-gaming", rule(
        rf"\b(?:grad\w*|check\w*|verif\w*|harness|judge|evaluat\w*|scor\w*)\b{SPAN}{{0,40}}?"
        rf"\btreats? (?:any|every|all)\b{SPAN}{{0,40}}?\bas (?:a )?(?:success|passed|pass|"
        rf"correct)\b|\b(?:failures?|failed tests?|failing tests?|errors?)\b (?:are|get|will be|is) "
        rf"(?:reported|counted|marked|treated|shown|recorded) as (?:pass\w*|success\w*|ok)\b")),
    # the task skipped for a stored answer; the memory set above the task; hidden orders
    ("override", rule(
        rf"\bskip (?:reading|looking at|parsing) (?:the )?(?:task|prompt|question|instructions|"
        rf"request)\b|\breuse\b{SPAN}{{0,40}}?\b(?:memory|memories)\b{SPAN}{{0,20}}?\b(?:verbatim|"
        rf"word for word|without (?:reading|checking|adapting|changing))|\bconflicts? with "
        rf"(?:this|these) (?:memory|memories|note|notes)\b|\bthe new (?:ones|instructions?|rules|orders|directives?) "
        rf"(?:say|tell you|require|are to)\b|\binstructions? from the (?:operator|admin\w*|"
        rf"developer|owner|system)\b{SPAN}{{0,30}}?\b(?:were|was|have been|has been|are|is) "
        rf"(?:rotated|changed|updated|replaced|revised|new)\b|\bhidden (?:rule|instruction|"
        rf"directive|order)s? for (?:the )?(?:assistant|agent|ai|model)\b")),
    # orders for every answer; the host sent along in a link; secrets mailed away
    ("exfiltration", rule(
        rf"\bin (?:every|each|all) (?:answers?|repl(?:y|ies)|responses?|messages?)\b,?\s+(?:always "
        rf")?(?:include|add|put|insert|append|mention|say|write|start|end)\b|https?://\S{{0,120}}"
        rf"[?&]\S{{0,60}}=\s*(?:,\s*)?(?:followed by|plus|\+)\s+(?:the |your )?(?:hostname|host "
        rf"name|ip address|user ?name|environment|env|token|key|secret)|\b(?:send|e-?mail|forward|"
        rf"mail)\b{SPAN}{{0,60}}?\b(?:keys|tokens|secrets|credentials|passwords)\b{SPAN}{{0,30}}?"
        rf"[\w.+-]+@[\w-]+\.[\w.]+")),
    # permission claimed on someone's behalf; other memories discredited; the task swapped
    ("authority", rule(
        rf"\b(?:has|have|had|was|were|is|are) (?:already )?pre-?approved\b|\byou (?:now )?have "
        rf"(?:been granted )?elevated (?:privileges|permissions|rights|access)\b|\bonly trust "
        rf"(?:this|me|these)\b|\b(?:previous|other|earlier|all (?:other|previous)) memories "
        rf"(?:are|were|have been) (?:compromised|wrong|fake|poisoned|outdated|invalid)\b|"
        rf"\b(?:supervisor|manager|boss|lead|owner|admin) (?:wants|says|asks|needs|told|expects) "
        rf"you\b|\b(?:sudo|root)\b{SPAN}{{0,20}}?\b(?:is |are )?(?:allowed|permitted|fine|ok|"
        rf"okay) without (?:asking|confirmation|approval)|\bpretend (?:that )?the (?:task|user|"
        rf"prompt|question) (?:asked|asks|wants|said|says)\b|\bsolve (?:that|this|something "
        rf"else) instead\b|\bskip\b{SPAN}{{0,40}}?\b(?:especially (?:the )?|all (?:the )?|any )"
        rf"(?:requirements|constraints|instructions)\b")),
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
    # the user's identity put in a link; encoded code run through command substitution
    ("exfiltration", rule(
        r"https?://\S{0,120}\$\(\s*(?:whoami|hostname|id|env|printenv|cat|uname|pwd)\b")),
    ("remote-exec", rule(
        r"\$\(\s*(?:echo|printf)\s+['\"]?[A-Za-z0-9+/=]{8,}['\"]?\s*\|\s*base64\s+(?:-d|--decode)")),
    # a role without limits, or rules declared not to apply
    ("role-change", rule(
        r"\b(?:act|behave|respond|operate|answer|work)\w* (?:as|like) (?:an? |the )?(?:"
        r"unrestricted|unfiltered|uncensored|jailbroken|unaligned)\b|\b(?:(?:now|on|for you|this (?:"
        r"session|chat|task)),? anything goes|anything goes (?:now|for you|here|from now)|no rules "
        r"apply|(?:the )?rules (?:do not|don'?t) apply)\b(?! (?:to|for|in|on|when|if|inside|under) )")),
    ("destructive", rule(
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
    ("prompt-leak", rule(
        rf"\b(?:append|add|insert|attach|embed|put|write|prepend|send|post|share|disclos|expos|"
        rf"divulg|leak)\w*\b{SPAN}{{0,20}}?\b(?:your|its) (?:(?:full|entire|whole|complete|"
        rf"exact|original|hidden|initial|verbatim) )*(?:system (?:prompt|message)|hidden "
        rf"(?:prompt|instructions)|(?:original|initial) instructions|instructions you (?:were "
        rf"given|received))\b")),
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
    # the memory speaking of itself being read, and orders for every later task
    ("addressed-to-agent", rule(
        r"\b(?:when|if|once|whenever|as soon as) you (?:see|read|retrieve|load|find|encounter|"
        r"receive|get|are (?:shown|given)) this (?:memory|note|message|text|insight|tip|lesson|"
        r"hint|entry|record|line)\b")),
    # ... asking to be kept secret, or to be reported as having helped
    ("addressed-to-agent", rule(
        rf"\b(?:do not|don'?t|never|without)\s+(?:ever\s+)?(?:mention|reveal|disclos|acknowledg|"
        rf"cit|quot|repeat|report)\w*\b{SPAN}{{0,15}}?\bthis (?:memory|note|instruction|message|"
        rf"insight|tip|lesson|hint|entry|record)\b|\b(?:mark|rate|report|score|label|record|flag|"
        rf"count|vote)\w*\b{SPAN}{{0,20}}?\bthis (?:memory|note|insight|tip|lesson|hint|entry|"
        rf"record)\b{SPAN}{{0,20}}?\bas (?:very )?(?:helpful|useful|successful|a success|relevant|"
        rf"correct|good|positive)\b")),
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
    ("remote-exec", rule(
        rf"\b(?:pip3?|uv pip|pipx|npm|yarn|pnpm|gem|cargo|go) (?:install|add|get)\b{SPAN}{{0,60}}?"
        rf"\bfrom (?:the |our |a |my |this |their )?(?:[\w-]+'s (?:own )?|(?:team|private|internal|"
        rf"custom|own|alternate|alternative|unofficial|personal|patched|fixed) )(?:mirror|index|"
        rf"registry|feed)\b(?! (?:configured|set) (?:in|by) )")),
    # the finished answer read from the repository's history; a package installed in every task
    # or because it is a typo of the real one; the host's account list printed
    ("verifier-gaming", rule(
        rf"\b{KNOWN_ANSWER}\b{SPAN}{{0,60}}?\b{HISTORY}\b|\b{HISTORY}\b{SPAN}{{0,60}}?"
        rf"\b{KNOWN_ANSWER}\b")),
    ("remote-exec", rule(
        r"\btypo-?(?:squat\w*)?\s+(?:package|module|crate|library|dependency|version)\b|"
        rf"\b{INSTALL_A_PACKAGE}[^\n]{{0,80}}?\b{EVERY_TASK}\b|\b{EVERY_TASK}\b[^\n]{{0,20}}?"
        rf"\b{INSTALL_A_PACKAGE}")),
    ("exfiltration", rule(
        r"\b(?:output|print|show|dump|display|echo|paste|include|return)\w*\s+(?:the\s+)?"
        r"(?:(?:full|whole|entire)\s+)?contents? of\s+`?/etc/(?:passwd|group|hosts)\b")),
    ("authority", rule(
        rf"\b(?:reply|respond|answer|say|refus|declin|output)\w*\b{SPAN}{{0,60}}?\b(?:to|for|on|"
        rf"in) (?:every|each|all|any) (?:subsequent|future|following|later|remaining|upcoming|"
        rf"next|other) (?:tasks?|requests?|questions?|prompts?|messages?|users?|runs?|"
        rf"conversations?)\b")),
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
    *ASSET_RULES,
    *UNEARNED_PASS_RULES,
    *HARMFUL_ADVICE_RULES,
]  # fmt: skip
