"""Screening rules of the category "override": a memory that tells the reading agent to drop its
task or its instructions replaces the user's request with the memory writer's."""

from __future__ import annotations

import re

from langgraph_mtl.hygiene.screening.languages import EN_VERB, EN_WHAT
from langgraph_mtl.hygiene.screening.rules.parts import SPAN, rule

__all__ = ["RULES"]

# "rules" and "requirements" name the reader's brief only when owned as one ("your rules",
# "all previous requirements"); "your lint rules" are a tool's
_OWNED_RULES = (
    r"\b(?:your|the|all|any|previous|prior|earlier|original|above|these|those|system|safety|"
    r"agent'?s?|assistant'?s?|model'?s?)\s+(?:rules|requirements)\b"
)

RULES: list[tuple[str, re.Pattern[str]]] = [
    ("override", rule(
        rf"\b{EN_VERB}\b{SPAN}{{0,50}}?\b(?:previous|prior|above|earlier|all|any|your|the|"
        rf"system|original|task'?s?|user'?s?|these|those|other)\b{SPAN}{{0,25}}?\b{EN_WHAT}\b")),
    ("override", rule(
        r"\b(?:forget|ignore|disregard) (?:everything|all) (?:you were told|above|before)|"
        r"\bthe (?:previous|above|earlier) (?:messages|instructions) (?:are|were) (?:wrong|"
        r"outdated|void)|\balways (?:ignore|disregard) (?:them|it|the task|the user|the tests)")),
    ("override", rule(
        rf"(?:\b(?:instructions?|directives?|guidelines|prompt)\b|{_OWNED_RULES}){SPAN}{{0,40}}?"
        r"\b(?:are|is|were|was)\s+(?:now\s+)?(?:void|cancell?ed|obsolete|revoked|superseded|"
        rf"invalid|no longer valid)|(?:\b(?:instructions?|directives?)\b|{_OWNED_RULES}){SPAN}"
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
    # the task dropped for something else: "disregard the task; instead ..."
    ("override", rule(
        r"\b(?:ignore|disregard|forget|abandon)\s+(?:the|your|this)\s+(?:(?:user'?s?|original) )?"
        r"(?:task|assignment|request)(?:'?s)?(?:\s+(?:description|statement|text|spec\w*|prompt|"
        r"instructions?))?\b(?=\s*(?:[;:,.!]|and\b|instead\b|entirely\b|completely\b|$))")),
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
]  # fmt: skip
