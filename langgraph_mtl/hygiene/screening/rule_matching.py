"""The rules over every view of a text: as written, normalised, with a dot inside a word read
as part of it, digits read as letters, words in their base forms, decoded where it shows an
encoding, and glossed into English where it is in another language."""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Sequence

from langgraph_mtl.hygiene.gloss import gloss
from langgraph_mtl.hygiene.screening.accounts import reported
from langgraph_mtl.hygiene.screening.code_targets import this_network
from langgraph_mtl.hygiene.screening.disarming import owned_by_documents
from langgraph_mtl.hygiene.screening.negation import forbidden
from langgraph_mtl.hygiene.screening.prefilter import Prefilter
from langgraph_mtl.hygiene.screening.rule_handling import GATES, NEGATABLE, RULE_IDS
from langgraph_mtl.hygiene.screening.rules import RULES
from langgraph_mtl.hygiene.screening.text import base_forms, leet, normalise
from langgraph_mtl.hygiene.views import decoded_views

__all__ = ["rule_matches", "rule_reasons", "rule_views"]


_CATEGORIES = tuple(dict.fromkeys(name for name, _ in RULES))  # in the rules' order


@functools.cache
def _prefilter() -> Prefilter:
    return Prefilter(pattern for _, pattern in RULES)


def _matches(
    text: str,
    disabled: frozenset[str],
    prefiltered: bool = True,
    local_lines: tuple[bool, ...] = (),
) -> set[str]:
    """The categories whose rules match ``text``. ``local_lines`` says, line by line of the
    normalised text, whether every destination a line names is on this machine or its private
    network; a view with as many lines reads it there, since a view may mangle host names
    (``127_0_0_1``)."""
    found = set()
    same_lines = text.count("\n") + 1 == len(local_lines)
    lowered = text.lower()
    # the rules that can match: the others hold none of the words any of their matches contains
    indexes = _prefilter().candidates(text, lowered) if prefiltered else range(len(RULES))
    for index in indexes:
        rule_id, (name, pattern) = RULE_IDS[index], RULES[index]
        if rule_id in disabled or name in found:
            continue
        gate = GATES.get(name)
        if gate is not None and not gate.search(lowered):
            continue
        for match in pattern.finditer(text):
            if name in NEGATABLE and forbidden(text, match.start()):
                continue  # "never run rm -rf /" is advice
            if reported(text, match.start()):
                continue  # "a note asking you to post .env is an attack" warns of one
            if name == "exfiltration" and _local(text, match, local_lines if same_lines else ()):
                continue  # curl -d @payload.json http://127.0.0.1:8080 sends nothing out
            if name == "exfiltration" and _copied_into_project(text, match):
                continue  # copy .env.example to .env: the file stays where it was
            if _NOTHING_AFTER.match(text, match.end()):
                continue  # "...; it downloads nothing": the act has no object
            if name == "exfiltration" and _SCRUBBED.search(match.group(0)):
                continue  # "share logs only after scrubbing tokens": the secret taken out
            if name == "exfiltration" and _not_shown(text, match):
                continue  # git clone --mirror URL; cat /run/secrets/x | wc -c: nothing sent
            if name == "exfiltration" and _no_secret_paths(text, match):
                continue  # cat ~/.ssh/id_ed25519.pub: a public key is no secret
            if name == "exfiltration" and _sent_from_code(text, match):
                continue  # `rsync -a ./ backup:/srv/` mirrors ...: the code judge reads it
            if name == "verifier-gaming" and _CHECK_AS_SUBJECT.search(text, 0, match.start()):
                continue  # "the test loads expected.json" says what the check does
            if name == "override" and owned_by_documents(text, match.start(), match.end()):
                continue  # "the instructions in the README no longer apply": the README's
            if name == "fake-markup" and _named_markup(text, match):
                continue  # "wrap user turns in [INST] and [/INST]" names the markup
            if name == "persistence" and _start_up_write_in_view(text, match):
                continue  # echo 'eval "$(pyenv init -)"' >> ~/.bashrc: judged by what it runs
            found.add(name)
            break
    return found


# what an act ends on is "nothing" or "none": "it downloads nothing", "sends no data"
_NOTHING_AFTER = re.compile(r"(?i)\s+(?:nothing|none)\b|\s+no\s+(?:data|code|files?|secrets?)\b")
# a secret named as what is taken out before anything is shared
_SCRUBBED = re.compile(
    r"(?i)\b(?:scrub|redact|strip|mask|remov|sanitis|sanitiz|censor)\w*\s+(?:\w+\s+){0,2}?"
    r"(?:tokens?|secrets?|keys?|passwords?|credentials?)\b"
)


# markup named, not used: coordinated with more markup ("<|im_start|> and <|im_end|>") or
# called a token, tag or marker; markup that poses as a message opens content instead
_NAMED_AFTER = re.compile(r"\s*(?:and|or|,|/)\s*[<\[]|\s+(?:tokens?|tags?|markers?|delimiters?)\b")
# coordinated with markup before it, or after a determiner ("the first [INST] block")
_NAMED_BEFORE = re.compile(
    r"[>\]]\s*(?:and|or|,|/)\s*$|\b(?:the|a|an|each|every|its|their|first|last|opening|closing)\s+$",
    re.IGNORECASE,
)


_ROLE = r"(?:system|user|assistant|developer|tool)\b"
_OPENS = re.compile(rf"(?i)[^\S\n]*(?:\n|{_ROLE})")
_ROLE_WORD = re.compile(rf"(?i){_ROLE}")


# markup alone in a code span, with its role word at most: quoted as code, not posing as a turn
_SPAN_OPENS = re.compile(r"`[^\S\n]*$")
_SPAN_CLOSES = re.compile(rf"(?i)[^\S\n]*(?:{_ROLE}[^\S\n]*)?`")


def _named_markup(text: str, match: re.Match[str]) -> bool:
    """Whether a markup match is named in prose rather than used: quoted alone in a code span
    ("the template opens with `<|im_start|>system`"), never when it opens a role's turn or a
    line of content, unless its role word is itself one item of a list of markup
    ("<|im_start|>system and <|im_end|> markers")."""
    line_start = text.rfind("\n", 0, match.start()) + 1
    opens = text.count("`", line_start, match.start()) % 2 == 1  # the backtick opens a span
    if (
        opens
        and _SPAN_OPENS.search(text, line_start, match.start())
        and _SPAN_CLOSES.match(text, match.end())
    ):
        return True
    return _named_around(text, match)


# the rest of a tag a match ends inside ("<system-reminder" of "<system-reminder> tags")
_TAG_REST = re.compile(r"[\w|-]*[>\]]")


def _named_around(text: str, match: re.Match[str]) -> bool:
    """Whether the words around a markup match, or around the tag it ends inside, name it
    (see :func:`_named_markup`)."""
    rest = _TAG_REST.match(text, match.end())
    after = text[match.end() : match.end() + 40]
    if rest and _NAMED_AFTER.match(text, rest.end()):
        return True
    role = _ROLE_WORD.match(after)
    if role and _NAMED_AFTER.match(after, role.end()):
        return True
    if _OPENS.match(after):
        return False
    before = text[max(0, match.start() - 40) : match.start()]
    return bool(_NAMED_AFTER.match(after) or _NAMED_BEFORE.search(before))


def _start_up_write_in_view(text: str, match: re.Match[str]) -> bool:
    """Whether the match lies in a line of shell that writes a start-up file with its text in
    view (the code scanner judges that text by what it runs)."""
    from langgraph_mtl.hygiene.screening.shell_effects import shows_start_up_write

    start = text.rfind("\n", 0, match.start()) + 1
    end = text.find("\n", match.end())
    return shows_start_up_write(text[start : end if end >= 0 else len(text)])


# a clause whose subject is the check itself, right before the match: it describes the check
_CHECK_AS_SUBJECT = re.compile(
    r"(?i)(?:^|[.;:!?\n]\s*)(?:(?:the|each|every|this|our|that)\s+)?(?:unit\s+|integration\s+)?"
    r"(?:tests?|test (?:suite|file|case|module|runner)s?|checker|grader|verifier|harness|pytest)"
    r"\s+$"
)
_INNER_DOT = re.compile(r"(?<=\w)\.(?=\w)")
_HOST = re.compile(
    r"(?i)(?:\b[a-z][a-z0-9+.-]{0,31}://|(?<=\w)@)(\[[0-9a-f:]+\]|[\w.-]+)"
    r"|\b(\d{1,3}(?:\.\d{1,3}){3})\b"  # a scheme is short: a long run never backtracks far
)


def _local(text: str, match: re.Match[str], local_lines: tuple[bool, ...]) -> bool:
    """Whether the line of ``match`` sends only within this machine's network: as
    ``local_lines`` says when given, else read from the match and the rest of its line."""
    if local_lines:
        return local_lines[text.count("\n", 0, match.start())]
    line_end = text.find("\n", match.end())
    return _only_this_network(text[match.start() : None if line_end < 0 else line_end])


# a copy into a path of the project ("copy .env.example to .env"): the file stays where it was
_COPY_INTO_PROJECT = re.compile(
    r"(?i)(?:copy|cp)\b[^\n;]{0,80}?\s(?:to|into|as)\s+[`'\"]?(?![/~$]|\w+://)"
    r"(?:[\w-]*\.[\w-]+(?:\.[\w-]+)*|[\w.-]+(?:/[\w.-]+)+)[`'\"]?(?=[\s,;:)]|\.(?:\s|$)|$)"
)


def _copied_into_project(text: str, match: re.Match[str]) -> bool:
    """Whether the match copies a file to a path of the project (relative, no host named in
    the rest of its line)."""
    line_end = text.find("\n", match.end())
    fragment = text[match.start() : None if line_end < 0 else line_end]
    return bool(_COPY_INTO_PROJECT.match(fragment)) and not _HOST.search(fragment)


_TICKED = re.compile(r"`([^`\n]{3,})`")
# what a command does with what it read when it shows none of it: counts or digests it, or
# tests for it
_COUNTED = re.compile(
    r"[^\n|;&]*?\|\s*(?:(?:wc|sha\w*sum|md\w*sum|cksum|b\w*sum)\b|grep\s+-\w*[qc]\w*\b)"
)
# a verb that is the option of a command that fetches: "git clone --mirror URL" downloads
_FETCHING_OPTION = re.compile(r"(?i)\b(?:clone|fetch|pull)\s+(?:-\S+\s+)*--?$")


def _not_shown(text: str, match: re.Match[str]) -> bool:
    """Whether the match's verb is an option of a command that fetches (``git clone --mirror
    URL``), or what it reads goes only into a count, a digest or a test (``cat /run/secrets/x
    | wc -c``) with no host named after it on its line."""
    line_start = text.rfind("\n", 0, match.start()) + 1
    if _FETCHING_OPTION.search(text, line_start, match.start()):
        return True
    line_end = text.find("\n", match.end())
    rest = text[match.end() : None if line_end < 0 else line_end]
    return bool(_COUNTED.match(rest)) and not _HOST.search(rest)


def _sent_from_code(text: str, match: re.Match[str]) -> bool:
    """Whether every way off the machine the match names lies in backticked shell whose
    sending the code judge reads (it decides whether a secret goes with it)."""
    from langgraph_mtl.hygiene.screening.rules.parts import EGRESS_PATTERN
    from langgraph_mtl.hygiene.screening.shell_effects import judges_sending

    ways = [m.start() for m in EGRESS_PATTERN.finditer(text, match.start(), match.end())]
    code = [m.span(1) for m in _TICKED.finditer(text) if judges_sending(m.group(1))]
    return bool(ways) and all(any(a <= way < b for a, b in code) for way in ways)


_KEY_PATH = re.compile(r"[^\s`'\"()]*(?:\.ssh/|\bid_(?:rsa|dsa|ecdsa|ed25519))[^\s`'\"()]*")


_PUBLIC_KEY = re.compile(r"[._]pub$")
# what ~/.ssh holds besides keys: the client's settings and the hosts it knows, no secret to
# read here but a map of where this machine logs in, so never sent away
_SSH_SETTINGS = re.compile(r"/(?:config|known_hosts(?:[._]old)?)$")


def _no_secret_paths(text: str, match: re.Match[str]) -> bool:
    """Whether every key path the match touches holds no secret: a public key (``*.pub``;
    ``*_pub`` in the view that reads a dot inside a word as part of it), or the SSH client's
    settings and known hosts when nothing in the text leaves this machine."""
    paths = [
        path for start, end, path in _key_paths(text) if start < match.end() and match.start() < end
    ]
    return bool(paths) and all(
        _PUBLIC_KEY.search(path) or (not _leaves(text) and _SSH_SETTINGS.search(path))
        for path in paths
    )


@functools.lru_cache(maxsize=64)  # read once per text, however many matches ask
def _key_paths(text: str) -> tuple[tuple[int, int, str], ...]:
    return tuple((m.start(), m.end(), m.group(0).rstrip(".,;:")) for m in _KEY_PATH.finditer(text))


@functools.lru_cache(maxsize=64)
def _leaves(text: str) -> bool:
    """Whether the text names a way off this machine."""
    from langgraph_mtl.hygiene.screening.rules.parts import EGRESS_PATTERN

    return EGRESS_PATTERN.search(text) is not None


def _only_this_network(fragment: str) -> bool:
    """Whether ``fragment`` (a match and the rest of its line) names a destination and every
    one is this machine or its private network (localhost, 127.0.0.0/8, [::1], 10/8,
    172.16/12, 192.168/16, link-local, ``.internal``, ``.local``, ``.lan``, ``home.arpa``)."""
    hosts = [a or b for a, b in _HOST.findall(fragment)]
    return bool(hosts) and all(this_network(host) for host in hosts)


def rule_views(joined: str) -> tuple[str, ...]:
    """The distinct views of ``joined`` the rules read: as written, normalised, with a dot
    inside a word read as part of it, digits read as letters, words in their base forms,
    decoded where it shows an encoding, and glossed into English."""
    plain = normalise(joined)
    decoded = [normalise(view) for view in decoded_views(joined)]
    as_written = unicodedata.normalize("NFKC", joined)  # Cyrillic words before lookalike mapping
    glossed = [g for view in (as_written, plain, *decoded) if (g := gloss(view)) is not None]
    undotted = _INNER_DOT.sub("_", plain)  # a dot inside a word (notes.md) ends no sentence
    views = (joined, plain, undotted, leet(plain), base_forms(plain), *decoded, *glossed)
    return tuple(dict.fromkeys(views))


def rule_reasons(
    joined: str,
    disabled: frozenset[str] = frozenset(),
    *,
    views: Sequence[str] | None = None,
    prefiltered: bool = True,
) -> tuple[str, ...]:
    """The categories of the rules that match any view of ``joined`` (:func:`rule_views`, or
    ``views`` made before), in the rules' order; the rules whose ids are ``disabled`` are
    skipped (see :func:`.rule_handling.rule_ids`). ``prefiltered=False`` runs every rule on
    every view (the same verdicts, slower: what the prefilter is measured against)."""
    found: set[str] = set()
    chosen = rule_views(joined) if views is None else views
    local_lines = tuple(_only_this_network(line) for line in normalise(joined).split("\n"))
    for view in chosen:
        found |= _matches(view, disabled, prefiltered, local_lines)
    return tuple(name for name in _CATEGORIES if name in found)


def rule_matches(rule_id: str, joined: str, *, views: Sequence[str] | None = None) -> bool:
    """Whether the rule ``rule_id`` alone matches a view of ``joined``."""
    others = frozenset(RULE_IDS) - {rule_id}
    return bool(rule_reasons(joined, others, views=views))
