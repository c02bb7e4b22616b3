"""Memories worth reading: the abstracting model sees the verifier's report and the files as the
run left them; an insight that is long or names the task's own code is asked for again, and
dropped when it still does; a trajectory is keyed by the problem, not its template."""

from __future__ import annotations

import pytest
from helpers import insight_json

from langgraph_mtl import MemoryContext
from langgraph_mtl.memory.records import MemoryType
from langgraph_mtl.nodes.writer_node import create_memory_writer_node
from langgraph_mtl.transfer.abstraction import FinishedRun, MemoryRejected, abstract_run
from langgraph_mtl.transfer.insight_rules import (
    code_names,
    insight_problems,
    named_code,
    unnamed,
    word_count,
)

REPORT = "test_below_zero failed: assert below_zero([1, -2]) == True\nAssertionError"
TASK = "solution.py holds the signature of `below_zero`. Implement the function."
PROBLEM = "def below_zero(operations: List[int]) -> bool:\n    '''Detect a negative balance.'''"


def _run(verified: bool = False) -> FinishedRun:
    return FinishedRun(
        task=TASK,
        steps=[{"action": "write_file solution.py", "observation": "[wrote solution.py]"}],
        domain="python",
        task_id="HumanEval/3",
        verified=verified,
        report=REPORT,
        files={"solution.py": "def below_zero(operations):\n    return sum(operations) < 0\n"},
        key_text=PROBLEM,
    )


CLEAN = insight_json(
    "Check running totals, not only the final one",
    "When a condition must hold at every step of a sequence.",
    "Test the condition after each step; a check on the final value misses earlier breaches.",
)


def test_the_abstracting_model_sees_the_report_and_the_files_as_the_run_left_them(scripted):
    model = scripted(CLEAN)
    abstract_run(_run(), MemoryType.INSIGHT, model=model)
    shown = str(model.calls[0][-2].content)  # the run, before the request for JSON
    assert "The verifier's report" in shown and "assert below_zero([1, -2]) == True" in shown
    assert "`solution.py` as the run left it" in shown and "return sum(operations) < 0" in shown


def test_an_insight_naming_the_tasks_code_is_asked_again_and_the_clean_one_kept(scripted):
    naming = insight_json(
        "Fix below_zero", "When below_zero fails.", "Use a running sum in `below_zero`."
    )
    model = scripted(naming, CLEAN)
    record = abstract_run(_run(), MemoryType.INSIGHT, model=model)
    assert record.key == "Check running totals, not only the final one"
    asked_again = str(model.calls[1][-2].content)
    assert "names the task's own code" in asked_again and "below_zero" in asked_again


def test_an_insight_asked_again_extends_the_first_prompt_as_it_was_sent(scripted):
    """The second request repeats the first one message for message (its guidance too), so a
    local server reuses the prefix it cached instead of reading the run again."""
    naming = insight_json("Fix below_zero", "When below_zero fails.", "Use `below_zero`.")
    model = scripted(naming, CLEAN)
    abstract_run(_run(), MemoryType.INSIGHT, model=model)
    first, again = model.calls
    assert "What to write:" in str(first[0].content)
    assert [(m.type, m.content) for m in again[: len(first)]] == [
        (m.type, m.content) for m in first
    ]
    assert again[len(first)].type == "ai" and "below_zero" in str(again[len(first)].content)


def test_an_insight_that_breaks_the_rules_twice_is_dropped_not_kept_for_a_retry(
    scripted, pool, tmp_path
):
    long = insight_json("Iterate", "Always.", " ".join(["check every step carefully"] * 20))
    model = scripted(long, long)
    try:
        abstract_run(_run(), MemoryType.INSIGHT, model=model)
    except MemoryRejected as exc:
        assert "too long" in str(exc)
    else:
        raise AssertionError("a long insight was kept")
    writer = create_memory_writer_node(
        pool, model=scripted(long, long), memory_types="insight", outbox=str(tmp_path / "o")
    )
    out = writer(
        {"task": TASK, "trajectory": [{"action": "ls", "observation": ""}], "verified": False},
        type("R", (), {"context": MemoryContext(domain="python", task_id="t")}),
    )
    assert out["memory_written"] == []
    assert out["memory_write_status"] == "insight dropped by rule: too long"  # not queued
    assert not (tmp_path / "o").exists() or "insight" not in (tmp_path / "o").read_text()


def test_a_definition_is_read_from_code_not_from_english_words_after_a_keyword():
    prose = "Define the function and run it; let the check pass; a class of inputs; var as is."
    assert code_names(prose) == set()
    assert not insight_problems({"content": prose}, ["def add(a, b) and the check"])
    code = "def add(a): function mul(a, b) class Foo: let total = 1; struct Point { var count;"
    code += " module counter #("
    assert {"add", "mul", "Foo", "total", "Point", "count", "counter"} <= code_names(code)


def test_the_rules_read_code_names_and_length():
    assert insight_problems({"title": "t", "content": "x " * 61}, [""])[0].startswith("it has 62")
    assert insight_problems({"content": "Call `parse_rows` first."}, [""])  # backticked: code
    assert insight_problems({"content": "Guard parse_rows against empty input."}, ["parse_rows"])
    assert not insight_problems({"content": "Guard parsers against empty input."}, ["parse_rows"])
    assert code_names("use snake_case_names, camelCase and os.path; not plain words") == {
        "snake_case_names",
        "camelCase",
        "os.path",
    }


def test_a_trajectory_is_keyed_by_the_problem_not_the_instruction_template():
    record = abstract_run(_run(verified=True), MemoryType.TRAJECTORY)
    assert record.key.startswith("def below_zero(")
    assert "Implement the function" in record.content  # the memory still shows the task


def test_an_insight_that_names_the_tasks_code_twice_keeps_its_lesson_without_the_names(scripted):
    """The writer meets the rule rather than dropping the lesson: the second reply's own names
    are written as what they stand for, and the rule (unchanged) then passes it."""
    naming = insight_json(
        "Fix below_zero", "When solution.py fails.", "Use a running sum in `below_zero`."
    )
    record = abstract_run(_run(), MemoryType.INSIGHT, model=scripted(naming, naming))
    assert "below_zero" not in record.content and "solution.py" not in record.content
    assert "running sum in the function" in record.content and "the file" in record.content
    assert insight_problems(record.payload, [TASK, PROBLEM, REPORT]) == []


def test_a_second_insight_too_long_keeps_its_first_sentences_within_the_limit(scripted):
    """Sentences past the limit are left off the end; the rule (unchanged) then passes it."""
    first = "Run the check after each change and read its first failure."
    more = " ".join(["Then look again at every case the task lists."] * 8)
    long = insight_json("Check after each change", "When a fix is in doubt.", f"{first} {more}")
    record = abstract_run(_run(), MemoryType.INSIGHT, model=scripted(long, long))
    assert record.payload["content"].startswith(first)
    assert word_count(record.content) <= 60
    assert insight_problems(record.payload, [TASK, PROBLEM, REPORT]) == []


@pytest.mark.parametrize(
    "wrap",
    ["{}", "`{}`", "'{}'", '"{}"', "`'{}'`", "{}()", "({})", "{}'s", "function {}",
     "the function `{}`", "def {}(a, b)", "class {}", "fn {}() -> i32"],
)  # fmt: skip
@pytest.mark.parametrize("name", ["planet_one", "Mercury", "planets.index", "return ()"])
def test_names_written_as_what_they_stand_for_never_name_the_task_again(name, wrap):
    """The words put in for a name ("the function", "the value") are never left quoted or after
    a definition's keyword ("def the function"), so a task whose own text says them cannot make
    them one of its literals or names."""
    source = [
        'def find(planet_one):\n    """The function returns the value; see the file and the '
        'code."""\n    planets = ["Mercury", "Venus"]\n    return planets.index(planet_one)'
        "\n    return ()\n"
    ]
    fields = {"title": "Check names", "description": "d", "content": f"Check {wrap.format(name)}."}
    named = named_code(fields, source)
    if not named:  # a plain word or phrase, unquoted: not code by the rule
        assert not name.replace("_", "").replace(".", "").isalnum() or name.isalpha(), fields
        assert not any(mark in wrap for mark in "`'\"") or wrap == "{}'s", fields
        return
    assert named_code(unnamed(fields, named), source) == set()


def test_a_defined_name_is_written_as_its_role_with_one_article():
    fields = {"content": "Define function add first; the function add returns a sum."}
    assert unnamed(fields, ["add"])["content"] == (
        "Define the function first; the function returns a sum."
    )


def test_a_dropped_insight_says_which_of_the_tasks_names_it_still_used(scripted, monkeypatch):
    """Not the insight's words, but the task's own names it kept (redacted), so why the writer
    failed the rule can be found."""
    import langgraph_mtl.transfer.abstraction as abstraction

    monkeypatch.setattr(abstraction, "unnamed", lambda fields, names: dict(fields))
    naming = insight_json("Fix it", "When it fails.", "Use a running sum in `below_zero`.")
    with pytest.raises(MemoryRejected) as caught:
        abstract_run(_run(), MemoryType.INSIGHT, model=scripted(naming, naming))
    assert str(caught.value) == "insight dropped by rule: names the task's own code (below_zero)"
