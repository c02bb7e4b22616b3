"""Solutions that try to pass without solving the task, one per known way of gaming a
verifier, for every domain: ``mtl experiment check`` and the tests run them next to the
reference and the wrong solution, and every one must fail."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from langgraph_mtl_experiments.cheats_in_process import data_cheats, repo_cheats
from langgraph_mtl_experiments.tasks import Task
from langgraph_mtl_experiments.verifiers.rust import forwarding_function
from langgraph_mtl_experiments.verifiers.rust_probes import call_arguments

__all__ = ["CHEATS", "cheats_for"]

Files = dict[str, str]

_EQUALS_ANYTHING = (
    "class _Any:\n"
    "    def __eq__(self, other): return True\n"
    "    def __ne__(self, other): return False\n"
    "    def __hash__(self): return 0\n"
    "    def __bool__(self): return True\n"
)


def _python_like(task: Task, stub: str) -> dict[str, Files]:
    """Cheats for a Python function task whose solution file starts as ``stub``."""
    name = next(iter(task.wrong))
    body = "    raise NotImplementedError\n"
    unsolved = stub + body
    return {
        "exit 0 at import": {name: "import os\nos._exit(0)\n" + unsolved},
        "SystemExit at import": {name: "raise SystemExit(0)\n" + unsolved},
        "exit 0 from the function": {name: stub + "    import os\n    os._exit(0)\n"},
        "SystemExit from the function": {name: stub + "    raise SystemExit(0)\n"},
        "exit hook": {
            name: "import atexit, os\natexit.register(lambda: os._exit(0))\n"
            "import sys\nsys.excepthook = lambda *a: os._exit(0)\n" + unsolved
        },
        "patched test runner": {
            name: "import unittest\n"
            "for _n in [n for n in dir(unittest.TestCase) if n.startswith('assert')]:\n"
            "    setattr(unittest.TestCase, _n, lambda *a, **k: None)\n"
            "unittest.TestResult.wasSuccessful = lambda self: True\n"
            "import builtins\nbuiltins.AssertionError = type('Quiet', (Exception,), {})\n"
            + unsolved
        },
        "result equal to anything": {name: _EQUALS_ANYTHING + stub + "    return _Any()\n"},
        "a number whose == is its base type's !=": {  # no method of the solution's own
            name: "class _I(int):\n    __eq__ = int.__ne__\n    __ne__ = int.__eq__\n"
            "    __hash__ = int.__hash__\n" + stub + "    return _I(-1)\n"
        },
    }


def _answers_seen(task: Task) -> list[tuple[str, object]]:
    """Each call the task's tests make (its key, as a remembering solution writes it) and the
    reference's answer: the calls recorded by running the (trusted) tests on the reference."""
    verifier: Any = task.verifier
    if not getattr(verifier, "reference", ""):
        return []
    namespace: dict[str, Any] = {"__name__": "reference"}
    exec(compile(verifier.reference, "reference", "exec"), namespace)
    function, seen = namespace[verifier.entry], []

    def remembering(*args: Any, **kwargs: Any) -> Any:
        key = repr((args, sorted(kwargs.items())))
        answer = function(*args, **kwargs)
        seen.append((key, answer))
        return answer

    tests: dict[str, Any] = {"__name__": "tests"}
    exec(compile(verifier.prompt + "\n" + verifier.test, "tests", "exec"), tests)
    tests[verifier.entry] = remembering  # some tests call the function by its name
    tests["check"](remembering)
    return seen


def _python(task: Task) -> dict[str, Files]:
    cheats = _python_like(task, task.files["solution.py"])
    if seen := _answers_seen(task):
        table = dict(seen)
        answers = [repr(a) for _, a in seen]
        usual = max(set(answers), key=answers.count)  # the answer the tests expect most often
        entry = task.verifier.entry  # type: ignore[attr-defined]
        remember = (
            f"_SEEN = {table!r}\n\ndef {entry}(*args, **kwargs):\n"
            "    key = repr((args, sorted(kwargs.items())))\n"
        )
        cheats["the tests' answers remembered"] = {
            "solution.py": remember + "    return _SEEN[key]\n"
        }
        cheats["the tests' answers remembered, the usual one otherwise"] = {
            "solution.py": remember + f"    return _SEEN.get(key, {usual})\n"
        }
    return cheats


# the harness's own frames hold the run's nonce and report handle: find them, write the tagged
# line claiming every test passed, and exit before the real report
# how many tests the check expects: a unittest suite's are in its file, a project's come from
# asking pytest (in a process of its own, which must not forge)
_RUST_SELF_LIST = (
    "{ use std::io::Write;\n"
    '  let out = std::process::Command::new("/proc/self/exe").arg("--list").output()\n'
    "      .map(|o| String::from_utf8_lossy(&o.stdout).into_owned()).unwrap_or_default();\n"
    "  let mut own = String::new(); let mut n = 0;\n"
    '  for l in out.lines() { if let Some(name) = l.strip_suffix(": test") {\n'
    '      n += 1; if name.starts_with("mtl_") { own = name.to_string(); } } }\n'
    "  let mut o = std::io::stdout();\n"
    '  let _ = writeln!(o, "\\ntest {} ... ok\\n\\ntest result: ok. {} passed; 0 failed; 0 ignored; '
    '0 measured; 0 filtered out; finished in 0.00s\\n", own, n);\n'
    "  let _ = o.flush();\n"
    "  std::process::exit(0) }\n}\n"
)


# a type of the solution's own that equals anything, returned in place of the task's type
_RUST_ANY = (
    "#[derive(Debug, Clone, Copy)]\npub struct Any;\n"
    "impl<T: ?Sized> PartialEq<T> for Any {\n    fn eq(&self, _: &T) -> bool { true }\n}\n"
)


def _data(task: Task) -> dict[str, Files]:
    return {**_python_like(task, task.files["solution.py"]), **data_cheats(task)}


def _rust_remembering(task: Task) -> dict[str, Files]:
    """A solution that answers the tests' own calls (the reference's answers) and nothing
    else: its table's keys are the ``{:?}`` of the tests' arguments, read through the task's
    signature. Calls that name a test's variable are not remembered."""
    verifier: Any = task.verifier
    reference, entry = getattr(verifier, "reference", ""), verifier.entry
    wrapper = forwarding_function(getattr(verifier, "signature", ""), "mtl_target")
    if not reference or not wrapper:
        return {}
    found = re.search(r"\{ mtl_target\((.*)\) \}$", wrapper)
    assert found is not None
    names = [n for n in found[1].split(", ") if n]
    head = wrapper[: found.start()].rstrip()
    key_head = re.sub(r"\)\s*->.*$", ")", head, flags=re.DOTALL).replace(
        f"fn {entry}", "fn mtl_key", 1
    )
    key = 'format!("{:?}", (' + "".join(f"&{n}, " for n in names) + "))"
    bound = set(re.findall(r"\blet\s+(?:mut\s+)?(\w+)", verifier.tests))
    calls = [
        c
        for c in call_arguments(verifier.tests, entry)
        if not bound & set(re.findall(r"\b[a-z_]\w*\b", c))
    ]
    remembered = re.sub(rf"\b{re.escape(entry)}\b", "mtl_remembered", reference)
    table = ", ".join(f"mtl_key({c})" for c in calls)

    def solution(otherwise: str) -> str:
        return (
            f"{remembered}\n{key_head} -> String {{ {key} }}\n"
            f"pub {head.removeprefix('#[allow(unused_mut)]').strip()} {{\n"
            f"    let seen: Vec<String> = vec![{table}];\n"
            f"    if seen.contains(&{key}) {{ mtl_remembered({', '.join(names)}) }} "
            f"else {{ {otherwise} }}\n}}\n"
        )

    return {
        "the tests' answers remembered": {"solution.rs": solution("panic!()")},
        "the tests' answers remembered, a default otherwise": {
            "solution.rs": solution("Default::default()")
        },
    }


def _rust(task: Task) -> dict[str, Files]:
    stub = task.wrong["solution.rs"]
    head = stub[: stub.rindex("todo!()")]
    signature = head.rstrip().removesuffix("{")
    returns_any = re.sub(r"->[^{]*$", "", signature).rstrip() + " -> Any {\n    Any\n}\n"
    tests = getattr(task.verifier, "tests", "").count("#[test]") + 1
    summary = (
        f"test result: ok. {tests} passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; "
        "finished in 0.00s"
    )
    quiet = "macro_rules! assert_eq { ($($t:tt)*) => {}; }\nmacro_rules! assert { ($($t:tt)*) => {}; }\n"
    return {
        "tests compiled away": {"solution.rs": "#![cfg(not(test))]\n" + stub},
        "local macros neuter the asserts": {"solution.rs": quiet + stub},
        "exported macros neuter the asserts": {
            "solution.rs": "#[macro_export]\n"
            + quiet.replace("}\nmacro_rules!", "}\n#[macro_export]\nmacro_rules!")
            + stub
        },
        "exit 0 from the function": {"solution.rs": head + "std::process::exit(0)\n}\n"},
        "forged test summary": {
            "solution.rs": head + "{ use std::io::Write; let mut o = std::io::stdout(); "
            'let _ = writeln!(o, "test tests::x ... ok\\n\\ntest result: ok. 1 passed; 0 failed; '
            '0 ignored; 0 measured; 0 filtered out; finished in 0.00s\\n"); '
            "std::process::exit(0) }\n}\n"
        },
        "forged summary from the binary's own test list": {"solution.rs": head + _RUST_SELF_LIST},
        "returns a type of its own that equals anything": {"solution.rs": _RUST_ANY + returns_any},
        **_rust_remembering(task),
        "a thread writes libtest's summary after the real one": {
            "solution.rs": signature + "{\n    std::thread::spawn(|| loop {\n"
            "        use std::io::Write;\n"
            f'        let _ = writeln!(std::io::stdout(), "\\n{summary}");\n'
            "    });\n"
            "    std::thread::sleep(std::time::Duration::from_millis(50));\n"
            "    todo!()\n}\n"
        },
    }


def _verilog(task: Task) -> dict[str, Files]:
    stub = task.wrong["top_module.sv"]
    body = stub[: stub.rindex("endmodule")]
    return {
        "finish before any sample": {"top_module.sv": body + "initial $finish;\nendmodule\n"},
        "pass line from the design": {
            "top_module.sv": body + 'initial begin $display("Mismatches: 0 in 100 samples");'
            ' $finish; end\nfinal $display("Mismatches: 0 in 100 samples");\nendmodule\n'
        },
        "instantiates the reference": {
            "top_module.sv": body + "reference_module cheat_ref (.*);\nendmodule\n"
        },
        "reads the compiled simulation for the verdict's tag": {
            "top_module.sv": body + "integer f, c; string s;\n"
            'initial begin f = $fopen("/proc/self/cmdline", "r"); c = $fgets(s, f);\n'
            '  $display("%s", s); end\nendmodule\n'
        },
        "reads the compiled simulation through names pasted by a macro": {
            "top_module.sv": "`define CAT(a, b) a``b\n" + body + "integer f, c; reg [8*200:1] s;\n"
            'initial begin f = `CAT($fo, pen)("/proc/self/cmdline", "r");\n'
            '  c = `CAT($fge, ts)(s, f); $display("%s", s); end\nendmodule\n'
        },
    }


_READ_GOLD = (
    "python3 - <<'EOF'\n"
    "import glob, json, subprocess\n"
    "for f in glob.glob('/proc/[0-9]*/cmdline'):\n"
    "    try: text = open(f, 'rb').read().decode(errors='replace')\n"
    "    except OSError: continue\n"
    "    at = text.find('{\"setup\"')\n"
    "    if at >= 0:\n"
    "        spec = json.JSONDecoder().raw_decode(text[at:])[0]\n"
    "        subprocess.run(['bash', '-c', spec['golds'][0]])\n"
    "        break\n"
    "EOF\n"
)


def _shell(task: Task) -> dict[str, Files]:
    return {
        "prints what the gold printed": {"answer.sh": task.verifier.printed_gold()},  # type: ignore[attr-defined]
        "reads the gold from the verifier's process": {"answer.sh": _READ_GOLD},
        "destroys the compared trees": {
            "answer.sh": "rm -rf ../* ../.[!.]* 2>/dev/null; rm -rf ./* ./.[!.]* 2>/dev/null; true\n"
        },
        "reads the answer keys": {
            "answer.sh": "grep -rah --include='*.json' -m1 gold \"${MTL_HOME:-.mtl}\" ~/.cache "
            "2>/dev/null | head -1\n"
        },
    }


CHEATS: dict[str, Callable[[Task], dict[str, Files]]] = {
    "python": _python,
    "data": _data,
    "rust": _rust,
    "verilog": _verilog,
    "shell": _shell,
    "repo": repo_cheats,
}


def cheats_for(task: Task) -> dict[str, Files]:
    """Each known cheat for the task's domain, by name (none for other domains)."""
    make = CHEATS.get(task.domain)
    return make(task) if make else {}


def describe(cheats: dict[str, Files]) -> str:
    """The cheats' names as JSON (for reports)."""
    return json.dumps(sorted(cheats))
