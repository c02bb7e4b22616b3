"""The project's secret rules as one table-driven ``detect-secrets`` plugin, so a repository's
own secret scan (``detect-secrets scan --plugin <path>``, or a pre-commit hook) applies the same
table the pool's redaction does (:data:`.secret_rules.RULES`). A plugin sees one line at a
time: rules whose secret spans lines (a private key's block) find only what one line shows,
and detect-secrets' own heuristic filters (sequential or UUID-shaped values, likely ids) drop
some findings the pool redacts anyway.

    detect-secrets scan --plugin "$(python -m langgraph_mtl.hygiene.secrets_plugin)" src/
"""

from __future__ import annotations

from collections.abc import Generator

from detect_secrets.plugins.base import BasePlugin

from langgraph_mtl.hygiene.secret_rules import RULES

__all__ = ["ProjectSecretRules", "plugin_path"]


class ProjectSecretRules(BasePlugin):
    """Every secret a project rule finds in a string (the rule's secret group, as redaction
    replaces it)."""

    secret_type = "langgraph-mtl secret rule"  # a label, not a secret

    def analyze_string(self, string: str) -> Generator[str, None, None]:
        for _kind, pattern, group in RULES:
            for match in pattern.finditer(string):
                index = (match.lastindex or 0) if group < 0 else group
                secret = match.group(index)
                if secret and "[REDACTED:" not in secret:
                    yield secret


def plugin_path() -> str:
    """This file's path, for ``detect-secrets scan --plugin``."""
    return __file__


if __name__ == "__main__":
    print(plugin_path())
