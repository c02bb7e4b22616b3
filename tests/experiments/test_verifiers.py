"""Verifiers that cannot be gamed: references pass, wrong solutions and every known cheat fail,
only allowlisted files are taken from a workspace, and tampering is recorded."""

from __future__ import annotations

import dataclasses
import json
import os
import sys
import time
from pathlib import Path

import pytest
from helpers import TinyDomain, solve_tiny
from langgraph_mtl_experiments.cheats import cheats_for
from langgraph_mtl_experiments.conditions import CONDITIONS
from langgraph_mtl_experiments.domains import get_domain
from langgraph_mtl_experiments.runner import ResultStore, generate_memories, run_condition
from langgraph_mtl_experiments.soundness import check_soundness
from langgraph_mtl_experiments.tasks import Domain, Task, verify_sandbox
from langgraph_mtl_experiments.verifiers import CallTests, UnittestSuite
from langgraph_mtl_experiments.verifiers.rust import forwarding_function, judged
from langgraph_mtl_experiments.verifiers.rust_reach import forbidden_names
from langgraph_mtl_experiments.verifiers.scratch import read_result
from langgraph_mtl_experiments.verifiers.shell import ShellOutcome, make_variant, printing
from langgraph_mtl_experiments.verifiers.unittest_suite import count_tests
from langgraph_mtl_experiments.verifiers.verilog import design_reach, tag_testbench

from langgraph_mtl import Outcome
from langgraph_mtl.agent.sandbox import Sandbox, bubblewrap_available

pytestmark = pytest.mark.slow  # seconds each: the full suite runs them, not test-unit

PROMPT = 'def add(a, b):\n    """Return a + b."""\n'
CHECK = "def check(candidate):\n    assert candidate(2, 3) == 5\n    assert candidate(-1, 1) == 0\n"


def _add_task() -> Task:
    return Task(
        domain="python",
        task_id="add",
        instruction="implement add",
        files={"solution.py": PROMPT},
        verifier=CallTests(
            entry="add", prompt=PROMPT, test=CHECK, reference=PROMPT + "    return a + b\n"
        ),
        reference={"solution.py": PROMPT + "    return a + b\n"},
        wrong={"solution.py": PROMPT + "    raise NotImplementedError\n"},
    )


def test_function_tasks_pass_the_reference_and_fail_the_wrong_solution_and_every_cheat():
    task = _add_task()
    assert task.verify(task.reference).passed
    assert not task.verify(task.wrong).passed
    cheats = cheats_for(task)
    assert len(cheats) >= 6
    passed = [name for name, files in cheats.items() if task.verify(files).passed]
    assert passed == []


@pytest.mark.parametrize(
    "body",
    [
        "    return {(2, 3): 5, (-1, 1): 0}[(a, b)]\n",
        "    return {(2, 3): 5, (-1, 1): 0}.get((a, b), 0)\n",
        "    if (a, b) == (2, 3):\n        return 5\n    return a * b + 1\n",
        "    if (a, b) in {(2, 3): 5, (-1, 1): 0}:\n        return a + b\n    while True:\n        pass\n",
        "    import os\n    if (a, b) not in ((2, 3), (-1, 1)):\n        os._exit(0)\n    return a + b\n",
    ],
    ids=["table", "table-default", "branches", "stuck-elsewhere", "exits-elsewhere"],
)
def test_a_function_that_remembers_the_tests_answers_fails(body):
    task = _add_task()
    verdict = task.verify({"solution.py": PROMPT + body})
    assert not verdict.passed
    assert "calls near theirs" in verdict.report


@pytest.mark.parametrize(
    "body",
    [
        "    return b + a\n",
        "    return sum([a, b])\n",
        "    import time\n    time.sleep(0.05)\n    return a + b\n",
    ],
)
def test_another_correct_function_passes_the_calls_beyond_the_tests(body):
    task = _add_task()
    assert task.verify({"solution.py": PROMPT + body}).passed


def test_calls_beyond_the_tests_are_judged_only_where_the_reference_answers():
    raising = (
        PROMPT
        + "    if (a, b) not in ((2, 3), (-1, 1)):\n        raise ValueError(a)\n    return a + b\n"
    )
    verifier = CallTests(entry="add", prompt=PROMPT, test=CHECK, reference=raising)
    remembered = PROMPT + "    return {(2, 3): 5, (-1, 1): 0}[(a, b)]\n"
    assert verifier.check({"solution.py": remembered}, verify_sandbox()).passed


def test_function_tasks_work_when_the_host_holds_many_open_files():
    import os
    import resource

    if resource.getrlimit(resource.RLIMIT_NOFILE)[0] < 1200:
        pytest.skip("the open-file limit is too low to reach fd 1024")
    held = [os.open(os.devnull, os.O_RDONLY) for _ in range(1100)]  # pipes land above 1024
    try:
        task = _add_task()
        assert task.verify(task.reference).passed
    finally:
        for fd in held:
            os.close(fd)


def test_function_tasks_compare_plain_data_only():
    task = _add_task()
    # a class of the solution's own cannot even be sent; an importable one is refused
    local = (
        PROMPT + "    class N(int):\n        def __eq__(self, o): return True\n    return N(0)\n"
    )
    assert not task.verify({"solution.py": local}).passed
    importable = PROMPT + "    from fractions import Fraction\n    return Fraction(a + b)\n"
    verdict = task.verify({"solution.py": importable})
    assert not verdict.passed
    assert "not plain data" in verdict.report
    printing = PROMPT + "    print('all checks passed')\n    return a - b\n"
    assert not task.verify({"solution.py": printing}).passed


def test_only_the_allowlisted_files_are_verified():
    task = _add_task()
    assert not task.verify({"other.py": task.reference["solution.py"]}).passed
    assert task.verify({**task.reference, "sitecustomize.py": "import os\nos._exit(0)\n"}).passed


def test_a_workspace_that_adds_or_changes_steering_files_is_tampered(tmp_path):
    (task,) = TinyDomain("alpha").all_tasks()[:1]
    task.prepare(tmp_path)
    (tmp_path / "out.txt").write_text("0\n")
    baseline = task.baseline(tmp_path)
    assert task.verify_workspace(tmp_path, baseline).passed
    (tmp_path / ".pytest_cache" / "v").mkdir(parents=True)  # running pytest is no tampering
    (tmp_path / ".pytest_cache" / "v" / "lastfailed").write_text("{}")
    assert task.verify_workspace(tmp_path, baseline).passed
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "conftest.py").write_text("# anything\n")
    verdict = task.verify_workspace(tmp_path, baseline)
    assert not verdict.passed
    assert verdict.tampered == ("added sub/conftest.py",)


def solve_and_tamper(messages):
    """Solves a TinyDomain task, and also leaves a ``.pth`` file in the workspace."""
    return solve_tiny(messages, then="touch x.pth")


def _zero_shot_rows(domain, model, pool, tmp_path) -> list[dict]:
    """The rows of a zero-shot run of ``domain`` with a scripted ``model``."""
    store = ResultStore(tmp_path / "results.jsonl")
    run_condition(
        CONDITIONS["zero-shot"],
        [domain],
        model=model,
        pool=pool,
        store=store,
        attempts=1,
        split="all",
        step_limit=3,
    )
    rows = list(store.rows())
    assert rows
    return rows


def test_a_tampering_run_is_recorded_and_never_passes(scripted, pool, tmp_path):
    rows = _zero_shot_rows(TinyDomain("alpha"), scripted(default=solve_and_tamper), pool, tmp_path)
    assert all(not r["passed"] and r["tampered"] == ["added x.pth"] for r in rows)


class GuardedDomain(TinyDomain):
    """TinyDomain tasks that come with a file the agent must leave as it is."""

    def candidates(self) -> list[Task]:
        return [
            dataclasses.replace(t, files={"check.txt": "keep\n"}, protected=("check.txt",))
            for t in super().candidates()
        ]


@pytest.mark.skipif(not bubblewrap_available(), reason="bubblewrap not installed")
def test_a_tasks_protected_files_reach_the_agent_read_only(scripted, pool, tmp_path):
    model = scripted(default=lambda m: solve_tiny(m, then="echo changed > check.txt"))
    rows = _zero_shot_rows(GuardedDomain("alpha"), model, pool, tmp_path)
    assert all(r["passed"] and not r["tampered"] for r in rows), rows


def test_a_tampering_run_is_never_written_as_a_success_memory(scripted, pool):
    domain = TinyDomain("alpha")
    written = generate_memories(
        [domain],
        model=scripted(default=solve_and_tamper),
        pool=pool,
        limit=2,
        memory_types=["trajectory"],
        step_limit=3,
    )
    records = pool.list_records()
    assert written == 2
    assert len(records) == 2
    assert {r.outcome for r in records} == {Outcome.FAILURE}


def test_verdicts_cached_by_an_older_verifier_are_not_trusted(tmp_path, monkeypatch):
    monkeypatch.setenv("MTL_HOME", str(tmp_path))
    (tmp_path / "cache").mkdir()
    stale = ["alpha-0"]  # an older verifier kept one task; this one keeps all four
    (tmp_path / "cache" / "alpha-verified.json").write_text(json.dumps(stale))

    class Checked(TinyDomain):
        all_tasks = Domain.all_tasks

    domain = Checked("alpha")
    tasks = domain.all_tasks()
    assert tasks
    assert all(domain.check(t, {"out.txt": f"{t.task_id[-1]}\n"}).passed for t in tasks)
    assert [t.task_id for t in tasks] == [f"alpha-{i}" for i in range(4)]
    assert list((tmp_path / "cache").glob("alpha-verified-v*.json"))


def test_a_task_whose_reference_passes_only_sometimes_is_not_chosen(tmp_path, monkeypatch):
    monkeypatch.setenv("MTL_HOME", str(tmp_path))
    calls: dict[str, int] = {}

    class Flaky(TinyDomain):
        all_tasks = Domain.all_tasks

        def check(self, task, files):
            verdict = super().check(task, files)
            if task.task_id != "alpha-1" or files != task.reference:
                return verdict
            calls[task.task_id] = calls.get(task.task_id, 0) + 1
            return type(verdict)(passed=calls[task.task_id] % 2 == 1, report="changed output")

    assert [t.task_id for t in Flaky("alpha").all_tasks()] == ["alpha-0", "alpha-2", "alpha-3"]
    assert calls == {"alpha-1": 2}


def test_the_report_line_needs_the_runs_nonce():
    output = 'MTL-RESULT abc {"ran": 3}\nMTL-RESULT def {"ran": 1}\n'
    assert read_result(output, "abc") == {"ran": 3}
    assert read_result(output, "zzz") is None
    assert read_result('MTL-RESULT abc {"ran": 3', "abc") is None


def test_testbench_modules_and_instances_are_renamed_and_the_verdict_tagged():
    bench = (
        "module reference_module(input a, output q);\nassign q = a;\nendmodule\n"
        "module tb();\nreference_module good1 (.a(a), .q(q_ref));\n"
        "top_module top_module1 (.a(a), .q(q_dut));\n"
        'final $display("Mismatches: %1d in %1d samples", e, c);\nendmodule\n'
    )
    tagged = tag_testbench(bench, "n4mes", "t4g")
    assert "module reference_module_n4mes(" in tagged
    assert "module tb_n4mes(" in tagged
    assert "good1_n4mes" in tagged
    assert "top_module top_module1_n4mes" in tagged
    assert '"MTL-t4g Mismatches: ' in tagged  # %m in the design shows the names, not the tag
    assert "reference_module good1 " not in tagged
    assert "t4g" not in tagged.replace('"MTL-t4g Mismatches: ', "")


@pytest.mark.parametrize(
    ("design", "reach"),
    [
        ('initial begin f = $fopen("/proc/self/cmdline", "r"); end', ["$fopen"]),
        (
            'initial if ($value$plusargs("x=%s", s)) $readmemh("sim", m);',
            ["$value$plusargs", "$readmemh"],
        ),
        ('initial $system("cat tb.sv");', ["$system"]),
        ('initial begin f = $fopenr("sim"); while (!$feof(f)) ; end', ["$fopenr", "$feof"]),
        # comments, writing, $fatal, $finish and $display are not reaching out
        (
            '// $fopen\n/* $fgets */ initial begin $display("%m"); $fdisplay(1, "x"); $finish; end',
            [],
        ),
        ("always @(posedge clk) if (bad) $fatal(1);", []),
    ],
)
def test_a_verilog_design_may_not_read_files_arguments_or_run_programs(design, reach):
    assert design_reach(design) == reach


@pytest.mark.toolchain
@pytest.mark.skipif(not bubblewrap_available(), reason="bubblewrap not installed")
def test_a_verilog_design_is_screened_with_its_macros_expanded():
    task = get_domain("verilog").tasks("all", limit=1)[0]
    design = task.reference["top_module.sv"]
    pasted = "`define CAT(a, b) a``b\n" + design.replace(
        "endmodule",
        'integer f;\ninitial f = `CAT($fo, pen)("/proc/self/cmdline", "r");\nendmodule',
        1,
    )
    verdict = task.verify({"top_module.sv": pasted})
    assert not verdict.passed and "may not use $fopen" in verdict.report, verdict.report
    included = '`include "../harness/tb.sv"\n' + design
    assert "does not preprocess on its own" in task.verify({"top_module.sv": included}).report
    honest = "`timescale 1ns/1ps\n`default_nettype wire\n`define WIDTH 1\n" + design
    assert task.verify({"top_module.sv": honest}).passed


SHELL_TREE = "mkdir -p d/a d/b\nprintf 'x\\ny\\n' > d/f.txt\n"


@pytest.mark.parametrize(
    ("gold", "honest", "printed"),
    [
        ("ls d | wc -l", "ls -1 d | wc -l", "echo 3"),
        ("ls -d d/*/", "ls -d d/*/", "printf 'd/a/\\nd/b/\\n'"),
        ("wc -l < d/f.txt", "cat d/f.txt | wc -l", "echo 2"),
        ("sort -r d/f.txt", "sort d/f.txt | tac", "printf 'y\\nx\\n'"),
        ("head -n 1 d/f.txt", "sed -n 1p d/f.txt", "echo x"),
        ("tail -n 1 d/f.txt", "sed -n '$p' d/f.txt", "echo y"),
        (
            'for f in d/*.txt; do mv "$f" "${f%.txt}.bak"; done',
            'for f in $(ls d/*.txt); do mv "$f" "d/$(basename "$f" .txt).bak"; done',
            "mv d/f.txt d/f.bak",
        ),
    ],
)
def test_a_shell_answer_printing_or_redoing_what_the_gold_did_on_the_one_tree_fails(
    gold, honest, printed
):
    verifier = ShellOutcome(setup=SHELL_TREE, golds=(gold,), env={})
    assert verifier.check({"answer.sh": honest}, "none").passed
    verdict = verifier.check({"answer.sh": printed}, "none")
    assert not verdict.passed
    assert "on a variant of it" in verdict.report


@pytest.mark.parametrize(
    ("gold", "honest"),
    [
        ("echo $HOME", 'printf "%s\\n" "$HOME"'),
        ("umask", "umask"),
        ("echo $TERM", 'echo "${TERM}"'),
        ("env | grep -c .", "printenv | wc -l"),
        ("ulimit -n", "ulimit -a | grep -i 'open files' | grep -o '[0-9]*$'"),
        ("echo $PATH | tr : '\\n' | tail -n 1", "printenv PATH | sed 's/.*://'"),
    ],
)
def test_a_shell_answer_printing_an_environment_fact_fails(gold, honest):
    verifier = ShellOutcome(setup=SHELL_TREE, golds=(gold,), env={})
    assert verifier.check({"answer.sh": honest}, "none").passed
    verdict = verifier.check({"answer.sh": verifier.printed_gold("none")}, "none")
    assert not verdict.passed
    assert "on a variant of it" in verdict.report


def test_printing_prints_exactly_its_output_even_with_the_end_marker_inside(tmp_path):
    for output in ("", "a b\n  c", "MTL_END\n$HOME `x`"):
        script = printing(output)
        shown = Sandbox(tmp_path, mode="none").run(script).output
        assert shown == output + "\n"


def _shell_task(gold: str) -> Task:
    verifier = ShellOutcome(setup=SHELL_TREE, golds=(gold,), env={})
    return Task(
        domain="shell",
        task_id="t",
        instruction="",
        files={},
        verifier=verifier,
        reference={"answer.sh": gold},
        wrong={"answer.sh": "true\n"},
    )


@pytest.mark.parametrize(
    ("gold", "used"),
    [
        ("echo hello | base64", False),  # the answer is in the request: printing it passes
        ("basename /usr/local/bin/x.sh", False),
        ("cat d/f.txt", True),
        ("sort -r d/f.txt", True),
    ],
)
def test_a_shell_task_whose_printed_answer_passes_is_not_used(gold, used):
    shell, task = get_domain("shell"), _shell_task(gold)
    assert shell.verifies(task) is used
    found = check_soundness(shell, [task])
    assert found.sound and found.usable == int(used)
    if not used:
        assert found.dropped == {
            "printing the gold's output passes (a command cannot be told from it)": 1
        }
    else:
        assert found.cheats_fail == found.cheats_tried >= 4  # printing among them


def test_a_trees_variant_doubles_text_twins_files_and_adds_folders(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.txt").write_text("one\ntwo")
    (tmp_path / "b.bin").write_bytes(b"\0\1")
    os.utime(tmp_path / "sub" / "a.txt", (1_000_000, 1_000_000))
    (tmp_path / "link").symlink_to("b.bin")
    assert make_variant(tmp_path) == 2 + 1 + 2  # two folders, one text file, two twins
    doubled = "# twin line\none\ntwo\none\ntwo\n# twin line\n"
    assert (tmp_path / "sub" / "a.txt").read_text() == doubled
    assert (tmp_path / "sub" / "twin-a.txt").read_text() == doubled
    assert (tmp_path / "b.bin").read_bytes() == (tmp_path / "twin-b.bin").read_bytes() == b"\0\1"
    assert (tmp_path / "sub" / "a.txt").stat().st_mtime == 1_000_000
    assert (tmp_path / "twin-folder").is_dir() and (tmp_path / "sub" / "twin-folder").is_dir()
    assert not (tmp_path / "twin-link").exists()


def test_a_suite_counts_its_own_tests():
    source = (
        "import unittest\nclass T(unittest.TestCase):\n    def test_a(self): pass\n"
        "    def test_b(self): pass\n    def helper(self): pass\n"
        "class Other:\n    def test_c(self): pass\n"
    )
    assert count_tests(source) == 2


SUITE = (
    "import unittest\nclass T(unittest.TestCase):\n"
    "    def test_value(self):\n        self.assertEqual(f(2), 4)\n"
    "    def test_list(self):\n        self.assertEqual(f(3), 9)\n"
)


def test_a_suite_in_the_solutions_process_catches_forged_results_patches_and_exits():
    suite = UnittestSuite(tests=SUITE, entry="f", python=sys.executable, stub="def f(x):\n")
    stub = "def f(x):\n"
    assert suite.check({"solution.py": stub + "    return x * x\n"}, "none").passed
    assert not suite.check({"solution.py": stub + "    return x + 1\n"}, "none").passed
    task = Task(
        domain="data",
        task_id="sq",
        instruction="",
        files={"solution.py": stub},
        verifier=suite,
        wrong={"solution.py": stub + "    raise NotImplementedError\n"},
    )
    cheats = cheats_for(task)
    passed = [name for name, files in cheats.items() if suite.check(files, "none").passed]
    assert passed == []
    assert len(cheats) >= 8
    forged = suite.check(cheats["result equal to anything"], "none")
    assert forged.tampered == ("_Any result equals anything",)
    swapped = suite.check(cheats["a number whose == is its base type's !="], "none")
    assert swapped.tampered == ("_I result equals anything",)


def test_a_suites_tests_never_see_the_solutions_other_names():
    tests = "import unittest\nclass T(unittest.TestCase):\n    def test_len(self):\n        self.assertEqual(len(f()), 3)\n"
    suite = UnittestSuite(tests=tests, entry="f", python=sys.executable, stub="def f():\n")
    assert suite.check({"solution.py": "def f():\n    return [1, 2, 3]\n"}, "none").passed
    shadow = "len = lambda x: 3\ndef f():\n    return []\n"
    assert not suite.check({"solution.py": shadow}, "none").passed
    own_type = (
        "class L(list):\n    def __len__(self):\n        return 3\ndef f():\n    return L()\n"
    )
    verdict = suite.check({"solution.py": own_type}, "none")
    assert not verdict.passed
    assert "type the solution defined" in verdict.report


def test_a_suite_run_that_never_reports_fails(tmp_path):
    suite = UnittestSuite(tests="import unittest\n", entry="f", python="python3")
    verdict = suite.check({"solution.py": "def f():\n    return 1\n"}, "none")
    assert not verdict.passed  # no tests: nothing to pass


@pytest.mark.parametrize(
    ("source", "names"),
    [
        ("fn f() { std::process::exit(0) }", ["process"]),
        ("fn f() { r#process::exit(0) }", ["process"]),
        ('fn f() { let _ = std::fs::read("/proc/self/exe"); unsafe {} }', ["fs", "unsafe"]),
        ('fn f() { include_str!("/proc/self/exe"); std::env::args(); }', ["env", "include_str"]),
        ('#[no_mangle] pub fn f() {} extern "C" { fn g(); }', ["extern", "no_mangle"]),
        ('fn f() { let s = "a\\"b"; use std::net; }', ["net"]),
        # comments, strings, raw strings, chars and names that only contain a word pass
        ('fn f() { let s = "std::process"; // process\n /* env /* fs */ os */ }', []),
        ("fn f<'a>(x: &'a str) -> char { let c = '\"'; let r = r#\"fs\"#; 'x' }", []),
        ("fn f(os_name: &str, process_id: u32) -> u32 { process_id }", []),
        ('fn f() { let s = "unterminated }', ["an unterminated comment or literal"]),
    ],
)
def test_a_rust_solution_may_not_name_what_reaches_outside_its_computation(source, names):
    """A Rust solution runs in its tests' process: reading its own binary, listing its tests or
    stopping the run would let it print libtest's lines itself."""
    assert forbidden_names(source) == names


@pytest.mark.parametrize(
    ("signature", "wrapper"),
    [
        ("fn f(s: &str) -> String {", "fn f(s: &str) -> String { g(s) }"),
        (
            "pub fn f(mut a: i32, b: Vec<(i32, i32)>) -> i32{",
            "fn f(mut a: i32, b: Vec<(i32, i32)>) -> i32 { g(a, b) }",
        ),
        (
            "fn f<'a, T: Ord>(x: &'a [T]) -> Option<&'a T> {",
            "fn f<'a, T: Ord>(x: &'a [T]) -> Option<&'a T> { g(x) }",
        ),
        (
            "fn f(h: impl Fn(i32) -> i32, n: i32) -> (i32, i32) {",
            "fn f(h: impl Fn(i32) -> i32, n: i32) -> (i32, i32) { g(h, n) }",
        ),
        ("fn f() -> bool {", "fn f() -> bool { g() }"),
        ("fn f((a, b): (i32, i32)) -> i32 {", None),  # not plain names: the tests import it
        ("", None),
    ],
)
def test_rust_tests_call_the_solution_through_the_tasks_own_signature(signature, wrapper):
    made = forwarding_function(signature, "g")
    assert made == (wrapper and f"#[allow(unused_mut)]\n{wrapper}")


def test_a_rust_run_passes_only_when_libtest_itself_exits_0():
    lines = (
        "running 2 tests\ntest mtl_n::done ... ok\ntest tests::t ... ok\n\n"
        "test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out\n"
    )
    assert judged(lines, 0, "n", 2).passed
    assert not judged(lines, 101, "n", 2).passed  # the lines written by a thread of the solution
    assert not judged(lines, None, "n", 2).passed
    assert not judged(lines, 0, "m", 2).passed
    assert not judged(lines, 0, "n", 3).passed


# tasks whose suites run quickly, for a domain whose first tasks' suites are slow (every cheat
# runs the whole suite); the cheats attack the verifier, so any task serves
QUICK_TASKS = {"data": ("DFB/T3070", "DFB/T0077")}


@pytest.mark.toolchain
@pytest.mark.skipif(not bubblewrap_available(), reason="bubblewrap not installed")
@pytest.mark.parametrize("name", ["python", "rust", "verilog", "shell", "data", "repo"])
def test_every_domain_rejects_every_known_cheat(name):
    """Two tasks' references pass and wrong solutions fail; every cheat fails on the first (a
    cheat is a kind of attack on the verifier, not on a task; `mtl experiment soundness` tries
    every cheat on every task)."""
    domain = get_domain(name)
    if name in QUICK_TASKS:  # taken as they are: the check below runs their references
        by_id = {task.task_id: task for task in domain.candidates()}
        first, second = (by_id[task_id] for task_id in QUICK_TASKS[name])
    else:
        first, second = domain.tasks("all", limit=2)
    found = check_soundness(domain, [first])
    plain = check_soundness(domain, [second], cheats=False)
    assert found.references_pass == plain.references_pass == 1, (found.as_dict(), plain.as_dict())
    assert found.usable == plain.usable == 1, (found.as_dict(), plain.as_dict())
    tried = len(cheats_for(first))
    assert found.cheats_tried == tried >= 3 and found.cheats_fail == tried, found.as_dict()


# other correct implementations than the references, written apart from them
OTHER_CORRECT = {
    "HumanEval/0": "    s = sorted(numbers)\n    return any(b - a < threshold for a, b in zip(s, s[1:]))\n",
    "HumanEval/2": "    import math\n    return number - math.floor(number)\n",
    "HumanEval/4": "    if not numbers:\n        return 0.0\n    m = sum(numbers) / len(numbers)\n    total = 0.0\n    for x in numbers:\n        total += abs(m - x)\n    return total / len(numbers)\n",
    "HumanEval/7": "    out = []\n    for s in strings:\n        if s.find(substring) != -1:\n            out.append(s)\n    return out\n",
    "HumanEval/11": "    return ''.join(str(int(x) ^ int(y)) for x, y in zip(a, b))\n",
    "HumanEval/12": "    best = None\n    for s in strings:\n        if best is None or len(s) > len(best):\n            best = s\n    return best\n",
    "HumanEval/23": "    n = 0\n    for _ in string:\n        n += 1\n    return n\n",
    "HumanEval/28": "    out = ''\n    for s in strings:\n        out += s\n    return out\n",
    "HumanEval/29": "    return [s for s in strings if s[:len(prefix)] == prefix]\n",
    "HumanEval/34": "    out = []\n    for x in sorted(l):\n        if not out or out[-1] != x:\n            out.append(x)\n    return out\n",
    "HumanEval/35": "    best = l[0]\n    for x in l[1:]:\n        if x > best:\n            best = x\n    return best\n",
    "HumanEval/42": "    return list(map(lambda x: x + 1, l))\n",
    "HumanEval/45": "    return a * h * 0.5\n",
    "HumanEval/52": "    return max(l) < t if l else True\n",
    "HumanEval/53": "    return sum((x, y))\n",
    "HumanEval/55": "    a, b = 0, 1\n    for _ in range(n):\n        a, b = b, a + b\n    return a\n",
    "HumanEval/60": "    return n * (n + 1) // 2\n",
}


@pytest.mark.toolchain
def test_other_correct_humaneval_solutions_pass_the_calls_beyond_the_tests():
    tasks = {t.task_id: t for t in get_domain("python").all_tasks()}
    failed = [
        (task_id, verdict.report)
        for task_id, body in OTHER_CORRECT.items()
        if not (
            verdict := tasks[task_id].verify({"solution.py": tasks[task_id].verifier.prompt + body})
        ).passed
    ]
    assert failed == []


def _children_states() -> list[str]:
    """The run state letters of this process's children (``T`` is stopped)."""
    states = []
    for stat in os.listdir("/proc"):
        if stat.isdigit():
            try:
                fields = Path(f"/proc/{stat}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == os.getpid():
                states.append(fields[0])
    return states


def test_the_solution_is_stopped_while_the_reference_answers(monkeypatch):
    seen: list[list[str]] = []
    answers = CallTests._answers

    def watched(self, asked, mode):
        states = _children_states()
        deadline = time.monotonic() + 2  # a stop signal lands when the process is next scheduled
        while "T" not in states and time.monotonic() < deadline:
            time.sleep(0.01)
            states = _children_states()
        seen.append(states)
        return answers(self, asked, mode)

    monkeypatch.setattr(CallTests, "_answers", watched)
    task = _add_task()
    assert task.verify({"solution.py": PROMPT + "    return a + b\n"}).passed
    assert len(seen) == 2 and all("T" in states for states in seen), seen


def test_a_solution_that_ends_after_the_tests_fails_without_breaking_the_verifier():
    ending = PROMPT + (
        "    import os, threading\n"
        "    if (a, b) == (-1, 1):\n"
        "        threading.Timer(0.01, os._exit, (0,)).start()\n"
        "    return a + b\n"
    )
    task = _add_task()
    verdict = task.verify({"solution.py": ending})
    assert not verdict.passed and "calls near theirs" in verdict.report, verdict.report


def _shipped(tmp_path, monkeypatch, **entry):
    from langgraph_mtl_experiments import tasks as tasks_module

    path = tmp_path / "usable_tasks.json"
    path.write_text(json.dumps({"alpha": entry}))
    monkeypatch.setattr(tasks_module, "SHIPPED_LISTS", path)


def _counting(calls):
    class Counted(TinyDomain):
        all_tasks = Domain.all_tasks

        def verifies(self, task):
            calls.append(task.task_id)
            return super().verifies(task)

    return Counted("alpha")


def test_a_shipped_list_is_trusted_and_each_task_is_verified_when_first_used(tmp_path, monkeypatch):
    from langgraph_mtl_experiments.tasks import VERIFIER_VERSION

    monkeypatch.setenv("MTL_HOME", str(tmp_path / "home"))
    calls: list[str] = []
    domain = _counting(calls)
    listed = ["alpha-0", "alpha-2", "alpha-3"]  # the machine that made the list dropped one
    _shipped(
        tmp_path,
        monkeypatch,
        verifier_version=VERIFIER_VERSION,
        data=domain.data_digest(),
        tasks=listed,
    )
    assert [t.task_id for t in domain.all_tasks()] == listed
    assert calls == []  # nothing screened up front
    (first,) = domain.tasks("all", limit=1)
    assert calls == [first.task_id]  # only the task handed out
    assert domain.tasks("all", limit=1) == [first]
    assert calls == [first.task_id]  # and once: the verdict is cached


@pytest.mark.parametrize("stale", ["verifier_version", "data"])
def test_a_shipped_list_of_another_verifier_or_other_data_is_screened_again(
    stale, tmp_path, monkeypatch
):
    from langgraph_mtl_experiments.tasks import VERIFIER_VERSION

    monkeypatch.setenv("MTL_HOME", str(tmp_path / "home"))
    calls: list[str] = []
    domain = _counting(calls)
    entry = {
        "verifier_version": VERIFIER_VERSION,
        "data": domain.data_digest(),
        "tasks": ["alpha-0"],
    }
    entry[stale] = "something else" if stale == "data" else VERIFIER_VERSION - 1
    _shipped(tmp_path, monkeypatch, **entry)
    assert [t.task_id for t in domain.all_tasks()] == [f"alpha-{i}" for i in range(4)]
    assert sorted(calls) == [f"alpha-{i}" for i in range(4)]  # every task screened here


def test_the_shipped_lists_name_this_verifier_and_the_pinned_data():
    from langgraph_mtl_experiments.tasks import SHIPPED_LISTS, VERIFIER_VERSION

    shipped = json.loads(SHIPPED_LISTS.read_text())
    for name in ("python", "rust", "verilog", "shell"):
        domain = get_domain(name)
        assert shipped[name]["verifier_version"] == VERIFIER_VERSION, name
        assert shipped[name]["data"] == domain.data_digest(), name
        assert len(shipped[name]["tasks"]) >= 90, name
