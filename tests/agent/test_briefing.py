"""What the agent is shown of a workspace before it acts: the lines and functions the task's
output leads to, the workspace's own files, never a file linked from outside it."""

from __future__ import annotations

from big_repo import BUG_LINE


def test_the_files_a_test_imports_are_the_workspaces_own_modules(tmp_path):
    from langgraph_mtl.agent.workspace import imported_files

    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "core.py").write_text("")
    (tmp_path / "src" / "lib").mkdir(parents=True)
    (tmp_path / "src" / "lib" / "__init__.py").write_text("")
    (tmp_path / "test_x.py").write_text(
        "import os\nimport pytest\nfrom pkg.core import f\nfrom . import rel\nimport lib\n"
    )
    assert imported_files(tmp_path, "test_x.py") == [
        "pkg/core.py",
        "src/lib/__init__.py",
    ]
    (tmp_path / "broken.py").write_text("def (:\n")
    assert imported_files(tmp_path, "broken.py") == []
    assert imported_files(tmp_path, "missing.py") == []


def _project(tmp_path):
    (tmp_path / "words").mkdir()
    helpers = "".join(f"def helper_{i}(x):\n    return x\n\n\n" for i in range(300))
    (tmp_path / "words" / "__init__.py").write_text(
        helpers + "def singularize(word):\n    if word == 'kine':\n        return 'kine'\n"
        "    return word.rstrip('s')\n"
    )
    for i in range(6):
        (tmp_path / "words" / f"extra_{i}.py").write_text(f"def extra_{i}():\n    pass\n")
    (tmp_path / "test_words.py").write_text(
        "import words\n\n\ndef test_singularize():\n    assert words.singularize('kine') == 'cow'\n"
    )
    return tmp_path


FAILING_TEST = (
    "    def test_singularize():\n"
    ">       assert words.singularize('kine') == 'cow'\n"
    "E       AssertionError: assert 'kine' == 'cow'\n\n"
    "test_words.py:5: AssertionError\n"
    "Fix the bug so that `python -m pytest -x -q test_words.py` passes."
)


def test_a_failure_pointing_only_at_a_test_shows_the_project_function_it_names(tmp_path):
    from langgraph_mtl.agent.briefing import describe_workspace

    root = _project(tmp_path)
    shown = describe_workspace(root, FAILING_TEST)
    assert "The project's code the task's output names:" in shown
    start = 1201  # singularize's line in words/__init__.py
    assert f"words/__init__.py, lines {start}-{start + 3} (singularize):" in shown
    assert f"{start + 1}|     if word == 'kine':" in shown
    assert "helper_0" not in shown  # the function, not the start of the file
    # an output naming many of the project's functions has no lead: none is shown
    broad = FAILING_TEST + "\nE   extra_0, extra_1, extra_2 and extra_3 should be curried"
    assert "The project's code the task's output names" not in describe_workspace(root, broad)
    # a traceback into the project's code is shown as it is; no name search then
    pointed = FAILING_TEST.replace("test_words.py:5:", f"words/__init__.py:{start + 2}:")
    assert "The project's code the task's output names" not in describe_workspace(root, pointed)


def test_names_in_files_already_shown_whole_are_not_shown_again(tmp_path):
    from langgraph_mtl.agent.briefing import describe_workspace

    (tmp_path / "solution.py").write_text("def singularize(word):\n    return word\n")
    shown = describe_workspace(tmp_path, "Implement `singularize` in solution.py.")
    assert "The project's code the task's output names" not in shown
    assert "def singularize(word):" in shown  # the file itself, shown whole


def test_the_briefing_never_shows_a_file_linked_from_outside_the_workspace(tmp_path):
    from langgraph_mtl.agent.briefing import describe_workspace

    secret = tmp_path / "secret.py"
    secret.write_text("def singularize(word):\n    KEY = 'hunter2-outside'\n    return word\n")
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "leak.py").symlink_to(secret)
    (ws / "notes.txt").symlink_to(secret)
    (ws / "test_words.py").write_text("import leak\n")
    shown = describe_workspace(ws, "leak.py:2: in singularize\ntest_words.py:1: AssertionError")
    assert "hunter2-outside" not in shown
    assert "leak.py" not in shown.split("Where the task")[0]  # not even listed


def test_a_link_a_command_made_to_a_host_file_is_never_read_for_the_memory(tmp_path):
    from langgraph_mtl.agent.workspace import changed_files, file_hashes

    host = tmp_path / "host-credentials"
    host.write_text("aws_secret = hunter2-on-the-host\n")
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "fix.py").write_text("x = 1\n")
    before = file_hashes(ws)
    (ws / "creds.txt").symlink_to(host)  # what `ln -s ~/... creds.txt` leaves behind
    (ws / "fix.py").write_text("x = 2\n")
    assert changed_files(ws, before) == {"fix.py": "x = 2\n"}
    assert "creds.txt" not in file_hashes(ws)


def test_a_traceback_with_absolute_paths_points_into_the_workspace_only_inside_it(repo):
    from langgraph_mtl.agent.briefing import last_pointed_file

    inside_it = f'  File "{repo}/big.py", line {BUG_LINE}, in clamp\n'
    outside = f'  File "/usr/lib/python3/big.py", line {BUG_LINE}, in clamp\n'
    assert last_pointed_file(inside_it, repo) == "big.py"
    assert last_pointed_file(outside, repo) is None
    assert last_pointed_file(inside_it + f'  File "{repo}/test_big.py", line 2\n', repo) == "big.py"


def test_the_briefing_lists_only_the_workspaces_own_files(tmp_path):
    from langgraph_mtl.agent.briefing import describe_workspace

    for name in ("solution.py", "__pycache__/solution.py", "node_modules/a.js", ".git/HEAD"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x = 1\n")
    shown = describe_workspace(tmp_path, "Fix solution.py.")
    assert "solution.py" in shown
    assert "__pycache__" not in shown and "node_modules" not in shown and ".git" not in shown
