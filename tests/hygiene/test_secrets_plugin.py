"""The project's secret rules as a detect-secrets plugin: a real detect-secrets scan with the
plugin loaded by path (its heuristic filters off) finds the secrets the rules redact, line by
line, and nothing in ordinary lines; the command line accepts the path the module prints."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from data.secrets import SECRET_CASES

from langgraph_mtl.hygiene.redaction import redact
from langgraph_mtl.hygiene.secrets_plugin import ProjectSecretRules, plugin_path

ONE_LINE = [(text, secret) for text, secret in SECRET_CASES if "\n" not in text]


def _scan_with_plugin(text: str) -> set[str]:
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
    from detect_secrets.core.scan import scan_line
    from detect_secrets.settings import transient_settings

    plugin = {"name": "ProjectSecretRules", "path": f"file://{plugin_path()}"}
    config = {"plugins_used": [plugin], "filters_used": []}  # no heuristic filters
    # detect-secrets caches its plugin classes once per process; a plugin given by path is
    # read only when that cache is filled under settings that name it
    get_mapping_from_secret_type_to_class.cache_clear()
    try:
        with transient_settings(config):
            return {
                found.secret_value or ""
                for found in scan_line(text)
                if found.type == ProjectSecretRules.secret_type
            }
    finally:
        get_mapping_from_secret_type_to_class.cache_clear()


def _rule_finds(text: str, secret: str) -> bool:
    return any(secret in found for found in ProjectSecretRules().analyze_string(text))


BY_RULE = [(text, secret) for text, secret in ONE_LINE if _rule_finds(text, secret)]


@pytest.mark.parametrize(("text", "secret"), BY_RULE)
def test_a_detect_secrets_scan_with_the_plugin_finds_what_the_rules_redact(text, secret):
    assert any(secret in found for found in _scan_with_plugin(text))
    assert secret not in redact(text).text


def test_the_plugin_finds_most_one_line_cases_and_nothing_in_ordinary_lines():
    found = sum(any(s in f for f in _scan_with_plugin(t)) for t, s in ONE_LINE)
    assert found >= 0.6 * len(ONE_LINE), (found, len(ONE_LINE))
    for line in [
        "password = None",
        "Run the tests before submitting.",
        "api_key = os.environ['KEY']",
    ]:
        assert _scan_with_plugin(line) == set(), line


def test_the_command_line_prints_the_plugin_path_detect_secrets_accepts(tmp_path):
    path = subprocess.run(
        [sys.executable, "-m", "langgraph_mtl.hygiene.secrets_plugin"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    target = tmp_path / "settings.py"
    target.write_text('props.setProperty("password", "Hv7kQ2zLm9Xw");\n')
    out = subprocess.run(  # run where the file is: a scan keeps to the folder it runs in
        [sys.executable, "-m", "detect_secrets", "scan", "--plugin", path, target.name],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    types = {s["type"] for found in json.loads(out)["results"].values() for s in found}
    assert ProjectSecretRules.secret_type in types
