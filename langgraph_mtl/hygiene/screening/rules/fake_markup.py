"""Screening rules of the category "fake-markup": chat-template or system markup inside a memory
poses as a message from the system."""

from __future__ import annotations

import re

from langgraph_mtl.hygiene.screening.rules.parts import rule

__all__ = ["RULES"]

# the turn and header tokens of the common chat templates besides ChatML's (Llama 2 and 3,
# Gemma, Phi, Command R, DeepSeek, the harmony format): in a memory they pose as a turn
_TEMPLATE_TOKENS = (
    r"<<\s*/?\s*sys\s*>>|<\|(?:begin_of_text|start_header_id|end_header_id|eot_id|eom_id|"
    r"python_tag|end|start_of_turn_token|end_of_turn_token|system_token|user_token|"
    r"chatbot_token|channel|message|start|return|call|constrain)\|>|<(?:start|end)_of_turn>|"
    r"<\uff5c(?:begin\u2581of\u2581sentence|user|assistant)\uff5c>"
)
# a heading that poses as a tool's output, with content under it
_TOOL_HEADING = (
    r"(?:^|\n)[^\S\n]*#{1,6}[^\S\n]*(?:tool|function)[ _-]?(?:output|result|response)s?\b"
    r"[^\n]{0,40}\n[^\S\n]*\S"
)
# a chat message written as YAML or as keys on their own lines: a system role, then content
_ROLE_RECORD = (
    r"(?:^|\n)[^\S\n]*-?[^\S\n]*role[^\S\n]*[:=][^\S\n]*[\"']?(?:system|developer)[\"']?"
    r"[^\S\n]*\n[^\S\n]*content[^\S\n]*[:=]"
)

RULES: list[tuple[str, re.Pattern[str]]] = [
    ("fake-markup", rule(
        r"<\s*/?\s*(?:tool_call|function_call|tool_use|invoke|system|im_start|im_end|"
        r"assistant|developer)\b|<\s*/\s*memory\s*>|\[/?INST\]|<\|(?:system|user|assistant|"
        r"im_start|im_end|endoftext)\|>|\"(?:name|tool)\"\s*:\s*\"[^\"]+\"\s*,\s*\""
        r"(?:arguments|parameters|input)\"\s*:|```\s*(?:system|assistant|developer)\b|"
        r"<\|(?:system|user|assistant)\|>|\[(?:system|assistant)\]\s*:|<\s*/?\s*system[-_]\w+|"
        # a role's tag in brackets opening a line of content (a tool's output is judged by
        # what it claims: "[tool_result] 3 tests passed [/tool_result]" shows a format)
        r"(?:^|\n)[^\S\n]*[\[(](?:system|assistant|developer)[\])][^\S\n]*\S|"
        r"(?:^|\n)[^\S\n]*(?:#{1,6}|={2,}|\*{2,}|-{3,})\s*(?:begin\s+|start\s+)?(?:system|admin|"
        r"developer|operator)(?: (?:message|prompt|note|notice|override|alert|update))?\s*"
        r"(?:#{1,6}|={2,}|\*{2,}|-{3,}|:)")),
    ("fake-markup", rule(  # a chat message in JSON, from the system, that gives orders
        r"[\"']role[\"']\s*:\s*[\"'](?:system|developer)[\"']\s*,\s*[\"']content[\"']\s*:\s*[\"']"
        r"[^\"'\n]{0,200}?\b(?:ignore|disregard|forget|override|you are now|from now on|reveal|obey|"
        r"do not follow|instead|no longer|jailbr\w*|unrestricted)\b")),
    ("fake-markup", rule(  # an HTML comment that addresses the agent or claims to be system
        r"<!--(?:(?!-->).){0,300}?\b(?:system|assistant|agent|ai|llm|model|instruction|"
        r"override|ignore|you must|always answer)\b")),
    # a chat transcript or a system line written into a memory
    ("fake-markup", rule(
        r"(?:^|\n)[^\S\n]*(?-i:SYSTEM|ASSISTANT|DEVELOPER|ADMIN)\s*:[^\n]{0,120}?\b(?:you|your|"
        r"agents?|assistant|tasks?|instructions?|ignore|must|call|finish|submit|now)\b|"
        r"(?:^|\n)[^\S\n]*(?:assistant|ai|model|system)\s*:[^\n]{0,200}\n[^\S\n]*(?:user|human)"
        r"\s*:|(?:^|\n)[^\S\n]*(?:user|human)\s*:[^\n]{0,200}\n[^\S\n]*(?:assistant|ai|model)\s*:")),
    ("fake-markup", rule(_TEMPLATE_TOKENS + "|" + _ROLE_RECORD + "|" + _TOOL_HEADING)),
]  # fmt: skip
