"""Screening rules of the category "addressed-to-agent": a lesson speaks about code; text addressed
to the AI that reads it is an instruction smuggled into data."""

from __future__ import annotations

import re

from langgraph_mtl.hygiene.screening.rules.parts import SPAN, rule

__all__ = ["RULES"]

RULES: list[tuple[str, re.Pattern[str]]] = [
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
]  # fmt: skip
