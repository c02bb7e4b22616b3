"""Screening rules of the category "prompt-leak": asking the agent to print its system prompt or
hidden instructions leaks them into the run and the pool."""

from __future__ import annotations

import re

from langgraph_mtl.hygiene.screening.rules.parts import SPAN, rule

__all__ = ["RULES"]

RULES: list[tuple[str, re.Pattern[str]]] = [
    ("prompt-leak", rule(
        rf"\b(?:reveal|print|show|repeat|output|leak|tell me|dump|display)\b{SPAN}{{0,30}}?"
        r"\b(?:system prompt|hidden instructions|your instructions|instructions you (?:were given|"
        r"received)|api keys?|(?:the|your|all|any) (?:secrets|tokens|passwords|credentials)|"
        r"secrets|credentials|environment variables|the text above)\b|\b(?:quot|recit|reproduc|"
        r"paste|copy)\w*\s+(?:your|the)\s+(?:full\s+|entire\s+|whole\s+)?(?:system (?:message|"
        r"prompt)|instructions|hidden prompt)")),
    # a prompt repeated back; an answer that carries a secret file
    ("prompt-leak", rule(
        rf"\b(?:repeat|recit|quot|reproduc|print|output|include|copy|echo|restat|paste)\w*\b"
        rf"{SPAN}{{0,30}}?\b(?:hidden |original |full |entire |whole |initial )?(?:system "
        rf"(?:message|prompt)|hidden (?:message|prompt|instructions)|developer (?:message|prompt)|"
        rf"initial (?:prompt|instructions)|pre-?prompt)\b|\b(?:answer|reply|respond)\w*\b"
        rf"{SPAN}{{0,30}}?\bwith (?:the )?(?:contents?|text) of\b")),
    # the agent's own prompt written into what it produces
    ("prompt-leak", rule(
        rf"\b(?:append|add|insert|attach|embed|put|write|prepend|send|post|share|disclos|expos|"
        rf"divulg|leak)\w*\b{SPAN}{{0,20}}?\b(?:your|its) (?:(?:full|entire|whole|complete|"
        rf"exact|original|hidden|initial|verbatim) )*(?:system (?:prompt|message)|hidden "
        rf"(?:prompt|instructions)|(?:original|initial) instructions|instructions you (?:were "
        rf"given|received))\b")),
]  # fmt: skip
