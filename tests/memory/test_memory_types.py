"""Every memory type, from successful and failed runs."""

from __future__ import annotations

import inspect
import json

import pytest
from helpers import insight_json, make_run

from langgraph_mtl import MemoryType, Outcome
from langgraph_mtl.memory.records import Judge, schema_for
from langgraph_mtl.transfer.abstraction import (
    FAILURE_INSTRUCTION,
    SUCCESS_INSTRUCTION,
    AbstractionError,
    abstract_run,
)

REPLIES = {
    MemoryType.WORKFLOW: json.dumps(
        {"goal": "Fix a failing unit test", "steps": ["read the test", "run pytest"]}
    ),
    MemoryType.SUMMARY: json.dumps(
        {"task_summary": "Implement add.", "experience_summary": "Wrote it, ran tests, passed."}
    ),
    MemoryType.INSIGHT: insight_json("Validate with the real test suite"),
}
KEYS = {
    MemoryType.WORKFLOW: "Fix a failing unit test",
    MemoryType.SUMMARY: "Implement add.",
    MemoryType.INSIGHT: "Validate with the real test suite",
}


@pytest.mark.parametrize("verified", [True, False])
@pytest.mark.parametrize("kind", [MemoryType.WORKFLOW, MemoryType.SUMMARY, MemoryType.INSIGHT])
def test_abstract_types_from_success_and_failure(scripted, kind, verified):
    model = scripted(REPLIES[kind])
    record = abstract_run(
        make_run("python", "t1", "Implement add(a, b)", verified=verified), kind, model=model
    )
    assert record.memory_type is kind
    assert record.outcome is (Outcome.SUCCESS if verified else Outcome.FAILURE)
    assert record.judged_by is Judge.VERIFIER
    assert record.key == KEYS[kind]
    assert record.abstraction_model == "scripted"
    assert record.agent_model == "agent-x"
    system = model.calls[0][0].content
    assert system.startswith(SUCCESS_INSTRUCTION if verified else FAILURE_INSTRUCTION)
    # a grammar or a text-only model never shows the schema: its instructions are in the prompt
    assert inspect.cleandoc(schema_for(kind).__doc__ or "") in system
    assert "pytest -q" in model.calls[0][1].content  # the run reached the model


def test_trajectory_needs_no_model_and_keeps_actions_without_reasoning():
    record = abstract_run(make_run("python", "t1", "Implement add"), MemoryType.TRAJECTORY)
    assert record.key == "Implement add"
    assert "pytest -q" in record.content
    assert "3 passed" in record.content
    assert "look around" not in record.content  # reasoning text is dropped
    assert record.abstraction_model == "none"


def test_same_run_gives_same_id_and_different_run_a_new_one():
    a = abstract_run(make_run("python", "t1", "Implement add"), "trajectory")
    b = abstract_run(make_run("python", "t1", "Implement add"), "trajectory")
    c = abstract_run(make_run("python", "t2", "Implement add"), "trajectory")
    assert a.id == b.id != c.id


def test_llm_judge_decides_when_no_verifier(scripted):
    run = make_run("python", "t1", "Implement add", verified=None)
    passed = abstract_run(run, "trajectory", judge=scripted("Verdict: PASS"))
    failed = abstract_run(run, "trajectory", judge=scripted("FAIL - tests were never run"))
    unclear = abstract_run(run, "trajectory", judge=scripted("I think it maybe worked"))
    assert (passed.outcome, passed.judged_by) == (Outcome.SUCCESS, Judge.LLM_JUDGE)
    assert failed.outcome is Outcome.FAILURE
    assert (unclear.outcome, unclear.judged_by) == (Outcome.UNKNOWN, Judge.NONE)
    assert abstract_run(run, "trajectory").outcome is Outcome.UNKNOWN


def test_text_only_model_is_parsed_and_repaired(scripted):
    fenced = "Sure!\n```json\n" + insight_json("Check the spec first")[:-1] + ",}\n```"
    # the structured calls (with the type's guidance, then without) fail; a text reply is parsed
    model = scripted(RuntimeError("no structured output"), RuntimeError("still none"), fenced)
    record = abstract_run(make_run("rust", "r1", "Implement fib"), "insight", model=model)
    assert record.key == "Check the spec first"


@pytest.mark.parametrize(
    "bad",
    [
        "this is not json",
        json.dumps({"name": "wrong fields"}),
        "",
        json.dumps({"title": "x" * 1_000_000, "description": "d", "content": "c"}),
        json.dumps({"title": "  ", "description": "d", "content": "c"}),
    ],
    ids=["not-json", "wrong-fields", "empty", "1MB-string", "blank-title"],
)
def test_malformed_output_is_retried_then_reported(scripted, bad):
    model = scripted(default=bad)
    with pytest.raises(AbstractionError, match="no valid InsightMemory after 3 attempts"):
        abstract_run(make_run("rust", "r1", "Implement fib"), "insight", model=model)
    assert len(model.calls) == 3


def test_long_trajectory_is_truncated_with_a_marker(scripted):
    run = make_run("python", "t1", "Implement add")
    run.steps = [{"action": f"cmd {i}", "observation": "x" * 5000} for i in range(200)]
    model = scripted(insight_json("Keep runs short"))
    abstract_run(run, "insight", model=model, max_tokens=3000)
    prompt = model.calls[0][1].content
    assert "steps cut" in prompt
    assert "characters cut" in prompt
    assert len(prompt) < 3000 * 4 + 2000


def test_bad_input_is_a_clear_error():
    run = make_run("python", "t1", "   ")
    with pytest.raises(ValueError, match="task is empty"):
        abstract_run(run, "trajectory")
    with pytest.raises(ValueError, match="needs a model"):
        abstract_run(make_run("python", "t1", "x"), "insight")
    with pytest.raises(ValueError):
        abstract_run(make_run("python", "t1", "x"), "recipe")


def test_a_bad_reply_is_shown_back_with_what_was_wrong(scripted):
    model = scripted(
        '{"title": "only a title"}', '{"title": "still only a title"}', insight_json("Fixed")
    )
    record = abstract_run(make_run("go", "g1", "Sort numbers"), "insight", model=model)
    assert record.key == "Fixed"
    repair_prompt = model.calls[2]
    assert repair_prompt[-2].content == '{"title": "still only a title"}'
    assert "not valid" in repair_prompt[-1].content
    assert "description" in repair_prompt[-1].content
    assert '"content": "<1-3 sentences' in repair_prompt[-3].content  # the example, not the schema
    assert "description: Field required" in repair_prompt[-1].content


def test_a_model_that_cannot_follow_the_guidance_gets_the_plain_request_next(scripted):
    model = scripted('{"title": "cut off', insight_json("Plain"))
    record = abstract_run(make_run("go", "g1", "Sort numbers"), "insight", model=model)
    assert record.key == "Plain"
    guided, plain = (call[0].content for call in model.calls)
    assert "Do not mention specific files" in guided
    assert plain == SUCCESS_INSTRUCTION  # the second call is the request without the guidance
    assert model.calls[1][1:] == model.calls[0][1:]


def test_the_structured_call_shows_the_fields_to_fill_in(scripted):
    model = scripted(insight_json("Short"))
    abstract_run(make_run("go", "g1", "Sort numbers"), "insight", model=model)
    # a grammar constrains a local model's reply but does not say what the fields mean
    assert '"title": "<A short, general title' in model.calls[0][-1].content


def test_abstraction_caps_the_reply_length_of_a_copy():
    from langgraph_mtl.models import capped, local_chat_model
    from langgraph_mtl.transfer.structured import REPLY_TOKENS

    model = local_chat_model("http://127.0.0.1:9/v1", max_tokens=4096)
    assert capped(model, REPLY_TOKENS).max_tokens == REPLY_TOKENS
    assert model.max_tokens == 4096


def test_after_a_cut_off_reply_the_plain_request_is_still_structured(scripted):
    # a reply cut off at the token cap raises (it is not a parse error); the retry keeps the
    # grammar: a text-only reply with a trailing comma would be repaired, a structured one not
    loose = "```json\n" + insight_json("Text path")[:-1] + ",}\n```"
    model = scripted(RuntimeError("length limit reached"), loose, insight_json("Structured"))
    record = abstract_run(make_run("go", "g1", "Sort numbers"), "insight", model=model)
    assert record.key == "Structured"
    assert len(model.calls) == 3


def test_the_insight_schema_bounds_what_a_grammar_lets_a_model_write():
    """llama.cpp compiles the schema into a grammar: an insight it allows holds at most 390
    characters in all, 60 words of English, so the length rule (unchanged) has nothing to
    drop; the bounds are the grammar's only, another model's reply is judged by the rules."""
    from langgraph_mtl.memory.records import INSIGHT_CHARS, InsightMemory
    from langgraph_mtl.transfer.insight_rules import MAX_INSIGHT_WORDS

    fields = InsightMemory.model_json_schema()["properties"]
    bounds = {name: fields[name]["maxLength"] for name in ("title", "description", "content")}
    assert bounds == INSIGHT_CHARS
    assert sum(bounds.values()) <= 6.5 * MAX_INSIGHT_WORDS
    InsightMemory(title="Use `x`", description="d " * 400, content="c_1")
