"""Calls beyond a Rust task's tests: found in the tests' text, changed a literal or an element at
a time, asked of the solution and of the reference through the task's signature."""

from __future__ import annotations

import re

import pytest
from langgraph_mtl_experiments.domains import get_domain
from langgraph_mtl_experiments.verifiers.rust_probes import (
    answers_agree,
    call_arguments,
    probe_arguments,
    probe_lines,
    probe_program,
)

from langgraph_mtl.agent.sandbox import bubblewrap_available

TESTS = """
    #[test]
    fn test_f() {
        assert_eq!(f(&[1, 2, -3], "a b,c"), vec![1]);
        assert!(f(
            &vec![10, 20], "f(x)") == vec![]);
        let t = vec![1];
        assert_eq!(g(f(&t, "x")), 3);
        assert_eq!(self_f(1), 2);
    }
"""


def test_call_arguments_are_read_with_their_literals_and_nested_brackets():
    assert call_arguments(TESTS, "f") == [
        '&[1, 2, -3], "a b,c"',
        '&vec![10, 20], "f(x)"',
        '&t, "x"',
    ]


def test_probes_are_new_the_same_every_time_and_keep_the_literals_kinds():
    calls = call_arguments(TESTS, "f")[:2]
    probes = probe_arguments(calls, 16, seed="f")
    assert len(probes) == 16 and len(set(probes)) == 16
    assert probes == probe_arguments(calls, 16, seed="f")
    assert probes != probe_arguments(calls, 16, seed="g")
    assert not set(probes) & set(calls)
    for probe in probes:
        found = call_arguments(f"f({probe})", "f")
        assert found == [probe]  # still one call of two arguments, brackets balanced
        assert probe.startswith(("&[", "&vec![")) and probe.count('"') == 2
        assert 0 not in map(int, re.findall(r"-?\d+", probe))  # signs kept: none crosses zero


def test_no_calls_no_probes():
    assert probe_arguments([], 8, seed="x") == []
    assert probe_arguments(["t"], 8, seed="x") == []  # nothing to change


@pytest.mark.parametrize(
    ("got", "expected", "same"),
    [
        ("[1, 2]", "[1, 2]", True),
        ("0.30000001", "0.3", True),
        ("(0.5, 1.0)", "(0.5, 1.0000001)", True),
        ("0.31", "0.3", False),
        ("[1, 2]", "[1, 3]", False),
        ('"a"', '"b"', False),
        ("NaN", "NaN", True),
        ("NaN", "1.0", False),
        ("[1.0]", "[1.0, 2.0]", False),
    ],
)
def test_answers_agree_on_the_text_and_on_numbers_to_a_rounding(got, expected, same):
    assert answers_agree(got, expected) is same


def test_the_program_numbers_each_probes_lines():
    program = probe_program("fn f(a: i32) -> i32 { t::f(a) }", "", "f", ["1", "2\n  + 3"], "TAG")
    lines = probe_lines(program)
    text = program.splitlines()
    assert {text[n - 1] for n, i in lines.items() if i == 1} >= {
        "  + 3))",
        "fn probe_1() -> String {",
    }
    assert sorted(set(lines.values())) == [0, 1]
    assert not any("main" in text[n - 1] for n in lines)


# other correct implementations than the references, written apart from them
OTHER_CORRECT = {
    "has_close_elements": "let mut s = numbers.to_vec();\n"
    "s.sort_by(|a, b| a.partial_cmp(b).unwrap());\n"
    "s.windows(2).any(|w| (w[1] - w[0]).abs() < threshold)",
    "truncate_number": "number - number.floor()",
    "below_zero": "let mut total = 0;\nfor op in operations {\n total += op;\n"
    " if total < 0 { return true; }\n}\nfalse",
    "mean_absolute_deviation": "let n = numbers.len() as f32;\n"
    "let mean: f32 = numbers.iter().sum::<f32>() / n;\n"
    "numbers.iter().map(|x| (x - mean).abs()).sum::<f32>() / n",
    "intersperse": "let mut out = Vec::new();\nfor (i, x) in numbers.iter().enumerate() {\n"
    " if i > 0 { out.push(delimeter); }\n out.push(*x);\n}\nout",
    "sum_product": "(numbers.iter().sum(), numbers.iter().product())",
    "greatest_common_divisor": "while b != 0 { let t = a % b; a = b; b = t; }\na.abs()",
    "all_prefixes": "(1..=string.len()).map(|i| string[..i].to_string()).collect()",
    "string_sequence": '(0..=n).map(|i| i.to_string()).collect::<Vec<_>>().join(" ")',
}


@pytest.mark.toolchain
@pytest.mark.skipif(not bubblewrap_available(), reason="bubblewrap not installed")
def test_other_correct_rust_solutions_pass_and_remembered_answers_do_not():
    from langgraph_mtl_experiments.cheats import cheats_for

    tasks = {t.verifier.entry: t for t in get_domain("rust").all_tasks()}
    failed = []
    for entry, body in OTHER_CORRECT.items():
        task = tasks[entry]
        solution = f"{task.verifier.signature}\n{body}\n}}\n"
        if not (verdict := task.verify({"solution.rs": solution})).passed:
            failed.append((entry, verdict.report))
    assert failed == []
    cheats = cheats_for(tasks["below_zero"])
    remembered = [name for name in cheats if "remembered" in name]
    assert len(remembered) == 2
    for name in remembered:
        verdict = tasks["below_zero"].verify(cheats[name])
        assert not verdict.passed and "calls near theirs" in verdict.report, (name, verdict.report)
