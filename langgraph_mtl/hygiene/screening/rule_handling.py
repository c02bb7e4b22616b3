"""How the screening rules (:mod:`.rules`) are applied: each rule's id, the categories a
prohibition turns into advice, gates that skip a costly rule when none of its words is present,
and what makes a text worth a second opinion when no rule matched."""

from __future__ import annotations

import re

from langgraph_mtl.hygiene.screening.languages import FOREIGN_OVERRIDE, FOREIGN_ROLE
from langgraph_mtl.hygiene.screening.rules import RULES
from langgraph_mtl.hygiene.screening.rules.parts import rule

__all__ = ["GATES", "NEGATABLE", "RULE_IDS", "UNDECIDED", "rule_ids"]

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
UNDECIDED = rule(
    r"\b(?:instructions?|prompts?|system|assistants?|agents?|ai|llms?|models?|memor(?:y|ies)|"
    r"priority|important|obey|verifier|secrets?|credentials?|passwords?|tokens?|upload|"
    r"exfiltrat\w*)\b|<!--|[^\x00-\u024f\s\d\W]"
)


def rule_ids(rules: list[tuple[str, re.Pattern[str]]]) -> list[str]:
    """Each rule's id: its category and its place among that category's rules
    (``override/1``), stable while the rules keep their order."""
    seen: dict[str, int] = {}
    ids = []
    for name, _ in rules:
        seen[name] = seen.get(name, 0) + 1
        ids.append(f"{name}/{seen[name]}")
    return ids


RULE_IDS = rule_ids(RULES)
