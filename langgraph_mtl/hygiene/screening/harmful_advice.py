"""Screening rules for advice that harms without naming an attack: a foothold left behind (a
shell start-up file, a scheduled job), the memory copying itself into others, results
misreported, the project sent or packed off, its history destroyed, answers taken from a
branch, a package installed from an address, and memories set above the task."""

from __future__ import annotations

import re

from langgraph_mtl.hygiene.screening.rule_parts import SPAN, rule

__all__ = ["HARMFUL_ADVICE_RULES"]

_START_UP = (
    r"(?:~/|\$HOME/|/root/)?\.(?:bashrc|bash_profile|bash_login|zshrc|profile|zprofile)\b|"
    r"/etc/(?:profile|bash\.bashrc)\b|\b(?:bashrc|zshrc)\b|"
    r"\bcron ?(?:jobs?|tabs?|entry|entries)\b|\bcrontab\b|/etc/cron\w*|\bsystemd (?:units?|"
    r"services?|timers?)\b|\bauthorized_keys\b|/etc/rc\.local\b|\blaunchagents\b"
)
_PROJECT = (
    r"(?:(?:every|each|all|any) (?:files?|changes?|edits?)(?: you (?:edit|change|write|touch))?|"
    r"the (?:repo|repository|workspace|codebase|source(?: code)?|project|files?)|\.env|"
    r"(?:the |your )?(?:secrets?|credentials|keys|environment(?: variables)?))"
)
_GOOD_NEWS = (
    r"(?:succeed\w*|success\w*|pass\w*|done|fixed|solved|approved|green|complete\w*|works?)"
)
HARMFUL_ADVICE_RULES: list[tuple[str, re.Pattern[str]]] = [
    # a foothold left behind: a start-up file or a scheduled job set to run something
    ("destructive", rule(
        rf"\b(?:add|append|write|put|insert|install|create|set up|register|schedule|echo)\w*\b"
        rf"{SPAN}{{0,40}}?(?:{_START_UP}){SPAN}{{0,60}}?\b(?:runs?|runn\w*|execut\w*|launch\w*|"
        rf"starts?|uploads?|sends?|calls?|fetch\w*|every (?:login|boot|hour|minute|day|run)|on "
        rf"(?:every |each )?(?:login|boot|start-?up)|persist\w*)\b")),
    # the memory copied into other memories or answers, to spread
    ("addressed-to-agent", rule(  # not a category read as advice after "never": said here
        rf"(?<!not )(?<!never )(?<!n't )(?<!avoid )"
        rf"\b(?:copy|repeat|append|include|paste|insert|propagate|spread|forward|add)\w*\b"
        rf"{SPAN}{{0,20}}?\b(?:this|these) (?:exact )?(?:insights?|memor(?:y|ies)|notes?|"
        rf"paragraphs?|texts?|sentences?|instructions?|messages?|lines?)\b{SPAN}{{0,40}}?\b(?:"
        rf"(?:into|to|in) (?:every|all|each|any|other|future|later|your next)\b{SPAN}{{0,20}}?"
        rf"\b(?:memor|summar|insight|note|answer|repl|respons|output|run)\w*|so (?:that )?"
        rf"(?:other|future|later|every|all) (?:agents?|runs?|models?|assistants?) (?:see|read|"
        rf"get|learn|follow)\w*)")),
    # results misreported: success claimed whatever happened, failures hidden from the report
    ("verifier-gaming", rule(
        rf"\b(?:tell|say|report|claim|state|answer|respond|reply|mark|announce|print)\w*\b"
        rf"{SPAN}{{0,50}}?\b{_GOOD_NEWS}\b{SPAN}{{0,40}}?\b(?:even (?:when|if|though)|regardless|"
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
    # a repository's history destroyed
    ("destructive", rule(
        r"\b(?:delet|remov|wip|eras|rm -r\w*)\w*\s+(?:the |your |all )?(?:\.git\b(?:"
        r" (?:director(?:y|ies)|folder))?|git history|repository history|commit history)")),
    # graded answers taken from a branch, and packages installed from an address
    ("verifier-gaming", rule(
        rf"\bgit (?:checkout|show|cherry-pick|merge|pull|fetch|restore|switch)\b{SPAN}{{0,40}}?"
        rf"\b(?:solutions?|answers?|grader|graded)\b")),
    ("remote-exec", rule(
        r"\b(?:pip3?|uv pip|pipx|npm|gem) install\b[^\n]{0,40}\s(?:https?|ftp)://\S+"
        r"\.(?:tar\.gz|tgz|whl|zip|egg)\b")),
    # memories set above the task, or the task said to hide its real requirement
    ("authority", rule(
        rf"\b(?:if|when) (?:a |the |this |any )?memor(?:y|ies) (?:contradicts?|disagrees? with|"
        rf"conflicts? with) (?:the )?(?:task|user|instructions?|prompt)\b{SPAN}{{0,30}}?\b(?:the "
        rf"memory|memories|it) (?:is right|wins|prevails|takes precedence|is correct)|\bmemor"
        rf"(?:y|ies) (?:is|are) (?:verified|approved|vetted|signed|checked) by (?:the )?"
        rf"(?:maintainers|admins?|administrators?|developers|owners|operators|system)\b|\bthe "
        rf"(?:real|true|actual|hidden|secret) (?:requirements?|goal|task|instructions?|objective)"
        rf"\b{SPAN}{{0,15}}?\(?(?:hidden|not (?:stated|shown|given)|left out|kept out) (?:from|in) "
        rf"(?:the )?(?:task|prompt|user|instructions)")),
]  # fmt: skip
