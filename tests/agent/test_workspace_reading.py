"""What the agent reads out of a workspace's files: which definition an output names."""

from __future__ import annotations

from langgraph_mtl.agent.workspace import last_named_definition

MODULE = (
    "import functools\n"
    "\n"
    "def parse_header(raw):\n"
    "    return raw.split(':')\n"
    "\n"
    "@functools.cache\n"
    "def parse_body(raw):\n"
    "    return raw.strip()\n"
    "\n"
    "def _hidden(raw):\n"
    "    return raw\n"
)


def test_the_definition_named_last_is_found_from_its_first_decorator():
    said = "parse_header returned the wrong parts; then parse_body raised"
    assert last_named_definition(MODULE, said) == 6
    assert last_named_definition(MODULE, "parse_body is fine but parse_header is not") == 3


def test_private_names_partial_words_and_other_languages_name_nothing():
    assert last_named_definition(MODULE, "_hidden(raw) failed") is None
    assert last_named_definition(MODULE, "reparse_headers failed") is None
    assert last_named_definition("fn parse_header() {}", "parse_header failed") is None
