"""Screening rules of the category "authority": a claimed approval or rank (maintainers, security
team, administrator) is no authority over the agent's task."""

from __future__ import annotations

import re

from langgraph_mtl.hygiene.screening.rules.parts import SPAN, rule

__all__ = ["RULES"]

RULES: list[tuple[str, re.Pattern[str]]] = [
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
    # a sandbox or guardrail turned off, with or without a claimed permission
    ("authority", rule(
        r"\bsystem override\b|\b(?:user|admin|administrator|operator|developer|maintainer|"
        r"owner|team)s? (?:has|have) (?:already )?(?:authori[sz]ed|allowed|permitted|approved|"
        r"cleared) (?:you|the agent|the assistant) to\b|\byou (?:are|have been) (?:now )?"
        r"(?:authori[sz]ed|permitted|allowed|cleared) to (?:ignore|disable|bypass|skip|override|"
        r"access|read|run)")),
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
    ("authority", rule(
        r"\b(?:system|admin|administrator|security|developer|operator) override\b|"
        r"\bagents? (?:must now|are now required|should now|shall now)\b|"
        r"\bfrom now on,? agents?\b")),
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
    ("authority", rule(
        rf"\b(?:reply|respond|answer|say|refus|declin|output)\w*\b{SPAN}{{0,60}}?\b(?:to|for|on|"
        rf"in) (?:every|each|all|any) (?:subsequent|future|following|later|remaining|upcoming|"
        rf"next|other) (?:tasks?|requests?|questions?|prompts?|messages?|users?|runs?|"
        rf"conversations?)\b")),
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
