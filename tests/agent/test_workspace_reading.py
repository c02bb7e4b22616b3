"""What the agent reads out of a workspace and its own steps: which definition an output
names, which lines an output points at, whether a file was read since the last command."""

from __future__ import annotations

from steps import ran, searched, viewed

from langgraph_mtl.agent.references import file_lines, lines_of
from langgraph_mtl.agent.workspace import last_named_definition, view_file
from langgraph_mtl.agent.writing import read_since_run

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
    assert last_named_definition(MODULE, said) == (6, 8)
    assert last_named_definition(MODULE, "parse_body is fine but parse_header is not") == (3, 4)


def test_a_name_shown_as_code_outranks_the_same_word_written_in_prose():
    module = "def iterate(f, x):\n    return x\n\n\ndef diff(*seqs):\n    return seqs\n"
    pytest_said = (
        ">       assert list(islice(iterate(inc, 0), 0, 5)) == [0, 1, 2, 3, 4]\n"
        "E       assert [] == [0, 1, 2, 3, 4]\n"
        "E         Use -v to get more diff\n"
    )
    assert last_named_definition(module, pytest_said) == (1, 2)
    for code in ("x = iterate (f, 1)", "toolz.iterate", "`iterate` is wrong", "line 3, in iterate"):
        assert last_named_definition(module, f"{code}\nthen see the diff") == (1, 2), code
    # words alone still lead, the last one shown
    assert last_named_definition(module, "iterate or diff") == (5, 6)


def test_private_names_partial_words_and_other_languages_name_nothing():
    assert last_named_definition(MODULE, "_hidden(raw) failed") is None
    assert last_named_definition(MODULE, "reparse_headers failed") is None
    assert last_named_definition("fn parse_header() {}", "parse_header failed") is None


def test_a_file_counts_as_read_when_it_was_viewed_or_its_lines_came_up_in_a_search():
    tests = ran("python3 -m pytest", "1 failed")
    assert read_since_run("a.py", [tests, viewed("a.py", "3: x = 1", 3, 9)])
    assert read_since_run("a.py", [tests, viewed("a.py", "1: x = 1")])
    assert read_since_run("a.py", [tests, searched("x", "lines holding 'x':\na.py:3: x")])


def test_a_file_with_a_name_inside_another_files_name_was_not_read():
    tests = ran("python3 -m pytest", "1 failed")
    assert not read_since_run("a.py", [tests, viewed("ba.py", "3: x = 1", 3, 9)])
    assert not read_since_run("a.py", [tests, searched("a.py", "no line", "no_hits")])
    assert not read_since_run("a.py", [tests, searched("x", "lines holding 'x':\nba.py:3: x")])
    assert not read_since_run("a.py", [viewed("a.py", "3: x = 1", 3, 9), tests])


OUTPUT = (
    "Traceback (most recent call last):\n"
    '  File "/tmp/ws/test_big.py", line 2, in <module>\n'
    '  File "/tmp/ws/pkg/big.py", line 1503, in clamp\n'
    "src/lib.rs:12:5: error\n"
    "(big.py:7) and `pkg/big.py:9`, not mybig.py:4 nor version 1.2:3 of big.py\n"
)


def test_an_output_names_files_and_lines_in_order_in_each_form():
    assert file_lines(OUTPUT) == [
        ("/tmp/ws/test_big.py", 2),
        ("/tmp/ws/pkg/big.py", 1503),
        ("src/lib.rs", 12),
        ("big.py", 7),
        ("pkg/big.py", 9),
        ("mybig.py", 4),
        ("1.2", 3),
    ]


def test_the_lines_of_one_file_never_come_from_a_longer_name_ending_the_same_way():
    assert lines_of("big.py", OUTPUT) == [1503, 7, 9]
    assert lines_of("pkg/big.py", OUTPUT) == [1503, 9]
    assert lines_of("lib.rs", OUTPUT) == [12]


def test_a_view_is_bounded_whatever_range_or_line_length_it_meets(tmp_path):
    (tmp_path / "many.py").write_text("".join(f"name_{i} = {i}\n" for i in range(3000)))
    (tmp_path / "min.js").write_text("var x='" + "a" * 200_000 + "';\n")
    shown = view_file(tmp_path, "many.py", 1, 10**15)
    assert shown.startswith("[many.py, lines 1-200 of 3000;") and "view 201-400 for more" in shown
    assert shown.endswith("200| name_199 = 199") and len(shown) < 6000
    assert view_file(tmp_path, "many.py", 2990, 10**15).endswith("3000| name_2999 = 2999")
    cut = view_file(tmp_path, "min.js")
    assert cut.endswith("... [199609 more characters]") and len(cut) < 1000
