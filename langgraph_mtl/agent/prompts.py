"""What the agent is told: the system message of each action protocol, the planning request
and the focused calls that write a file or an edit. Module constants, so they can be read and
overridden in one place."""

from __future__ import annotations

__all__: list[str] = []  # used within the agent package only

SUBMIT_WORD = "submit"

PLAN_INSTRUCTION = (
    "You are a careful coding agent. Before acting, write a short plan: 3 or 4 numbered steps "
    "saying which files you will read, write or change and how you will check that they work "
    "(which command, on which examples). Do not solve the task or write code in the plan."
)
PLAN_HEADER = "Your plan (nothing is done yet: carry it out one action at a time):"
SYSTEM_TEMPLATE = (
    "You are a careful coding agent. You work in the task's workspace, which is the current "
    "directory: use relative paths.\n\n{protocol}"
)

JSON_INSTRUCTIONS = """\
Work in the workspace one action at a time. Each reply is one JSON action:
- {"action": "write_file", "path": ...} writes a whole new or short file (you are then asked
  for its complete content): use it for the code the task asks you to write;
- {"action": "view", "path": ..., "start": N, "end": M} shows lines N-M of a file with their
  numbers (without a range: a short file whole, a long one as an outline);
- {"action": "search", "query": ..., "path": ...} finds files and lines holding a text;
- {"action": "edit", "path": ...} changes part of an existing file (you are then asked for the
  exact lines to replace and their replacement): use it to fix a long file;
- {"action": "run", "command": ...} runs one shell command and shows you its output;
- {"action": "submit"} ends the task: once you have run your code and seen it work."""

TOOLS_INSTRUCTIONS = (
    "Use the tools one call per turn: view_file and search_files to read, write_file for new "
    "or short files, edit_file to change part of an existing file, bash to run commands and "
    "check your work, submit when the task is done and checked."
)

PROTOCOL_INSTRUCTIONS = f"""\
Work in the workspace with shell commands, ONE command per reply. Each reply: one or two
sentences of reasoning, then exactly one fenced block holding the command, for example:
```bash
ls -la
```
You will get the command's output back. Create files with shell commands (for example
`cat > file.py << 'EOF'` ... `EOF`). `view FILE 10-40` shows numbered lines of a file and
`search TEXT` finds files and lines holding a text. To change part of an existing file, reply
with its path on one line and then one or more blocks:
<<<<<<< SEARCH
(the exact lines now in the file)
=======
(the lines that replace them)
>>>>>>> REPLACE
Check your work by running it. When the task is done, reply with a block containing only:
```bash
{SUBMIT_WORD}
```"""

NEXT_HINT = {
    "json": "Next action?",
    "text": "Reply with one ```bash block: the next command, or only `submit` if the task is done.",
}

WRITER_SYSTEM = "You are a careful programmer. Answer with code only."
CHECKED = "The check the task names, run after the change: `{command}`"
CHECK_PASSED = "The check the task names passes, so the task is done: the run ends here."
CONTENT_REQUEST = "Reply with the complete content of `{path}` in one fenced code block."
EDIT_REQUEST = (
    "Change `{path}` with one or more SEARCH/REPLACE blocks and nothing else. Each block:\n"
    "<<<<<<< SEARCH\n(lines copied exactly from the file below, enough to be unique)\n"
    "=======\n(the lines that replace them)\n>>>>>>> REPLACE\n"
    "For example, to change one line:\n"
    "<<<<<<< SEARCH\n    if count > limit:\n=======\n    if count >= limit:\n>>>>>>> REPLACE\n"
    "(Or give the whole corrected function in a code block: it replaces the function of the "
    "same name.)"
)
LINES_REQUEST = (
    "Reply with the new content of lines {start}-{end} of `{path}` (every line of that range, "
    "changed as needed) in one fenced code block."
)
NOT_APPLIED = (
    "Your last change of `{path}` was not applied: {said}\nDo not give the same lines again: "
    "make the change the output calls for."
)
EMPTY_WRITE = "the content given for {path} was empty, so nothing was written"
SAME_FILE = (
    "That is exactly what {path} holds now, and the run shows it is not right yet. Reply with "
    "the corrected complete file in one fenced code block: change what the output shows is "
    "wrong."
)
CUT_OFF = (
    "the content of {path} was cut off at the length limit, so it was not written: write a "
    "shorter file, or edit the part that must change"
)
NOT_CODE = (
    "the reply for {path} was words, not code ({error}), so nothing was written: reply with "
    "the file's complete code in one fenced block"
)

PROTECTED = "[refused] {path} is protected in this task" + (
    " ({name}: files such as the tests that check "
    "the work must stay as they are), so nothing was changed. Change the code they test."
)
