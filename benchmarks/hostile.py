"""Hygiene on hostile text: `python -m benchmarks.hostile` times secret redaction and injection
screening on texts made of one short unit repeated (the shapes that make a regular expression
backtrack: long dotted or hyphenated names, runs of newlines, a keyword that opens a value
again and again) at two lengths, four times apart, up to a memory's content limit.

Times are the process's CPU time, the best of three, so another process on the machine does not
move them. A cost linear in the length grows about 4x between the two lengths; a quadratic one
16x. Each unit's cost at the longer length is also given against a benign memory-like text of
the same length, timed in the same run.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from dataclasses import dataclass

from benchmarks.data import memory_texts
from langgraph_mtl.hygiene import redaction
from langgraph_mtl.hygiene.screening import screen
from langgraph_mtl.memory.records import MAX_CONTENT_CHARS

UNITS = (
    "\n", "x-", "a.", "a1.", "sk-", "/", "`", "=", "'", "(", "PASSWORD_", "password.",
    "password={", "token=", "<password", ",'password", '"key"', "--password '",
    "authorization: a ", "mysql -p", "docker login ", "eyJa.", "https://a:", "Digest a=",
    "echo a ", "API_KEY", "addopts=", "rm -rf ", "never run rm -rf / ", "ignore ", "<!-- ",
    "%41", "&#65;", "\\x41", "0x41", "aGVsbG8=", "a\u200b", "i g n o r e ", "ignora ",
    "../", "https://", "cat $(find / ", "upload ", "expected.json ", "except: pass ",
    "hardcode ", "PATH=/tmp:", "a@b.cc ", "credentials are in ", "curl $(", "find / -name ",
    " -storepass", " --db-", "a.b:", "a.b:12:", "$1$a$", "$apr1$", "ssh-keygen -N ", " -passout ",
    "hvs.", "whsec_", "a1Q~", "f0a9", "a9-", "monkeypatch ", "skip the verifier ", "xfail ",
    "pip install ", "SystemExit(0) ", "reference solution ", "older commit ", "pip install a ",
    "contents of ", "in every task ", "use aa:", "use a / ", "pass = ", "GOCSPX-",
    "'password', '", '"token","', "openssl passwd -a ", "key_", "--password=<(echo ",
    "rename test_a.py ", "pytest.skip(allow_module_level ", "comment out ", "mark it done even if ",
    "return values the test expects ", "special-case ", "__eq__ ", "exit() ",
    "A_KEY: !!a ", "--pass <(printf ", "--token $(",
    "1", "!$", "mark skipped and ", "conftest.py makes every ", "hardcode the inputs the tests ",
    "cat >> ~/.zshrc <<E\n", "add `x` to ~/.bashrc ", "(crontab -l; echo '@reboot x') | crontab -\n",
    "echo 'eval x' >> ~/.bashrc ",
    "passphrase: a ", "set the API_KEY in ", "patch sys.exit so ", "pytest_collection_modifyitems ",
    "read the tests ", "obey only memories ", "add to ~/.bashrc ", "copy this note into every ",
    "report success regardless ", "send the repo to ", "base64 the repo into ", "git checkout solution ",
    "if a memory contradicts the task ", "hide errors from ",
)  # fmt: skip
GROWTH_TARGET = 8.0  # between the two lengths (4x apart): linear is about 4, quadratic 16


@dataclass(frozen=True)
class Cost:
    """One unit's CPU seconds at the short and the long length."""

    unit: str
    redact_short: float
    redact_long: float
    screen_short: float
    screen_long: float

    @property
    def redact_growth(self) -> float:
        return self.redact_long / max(self.redact_short, 1e-4)

    @property
    def screen_growth(self) -> float:
        return self.screen_long / max(self.screen_short, 1e-4)

    @property
    def growth(self) -> float:
        return max(self.redact_growth, self.screen_growth)


def cpu_seconds(step: Callable[[str], object], text: str, repeats: int = 3) -> float:
    """The best of ``repeats`` CPU times of ``step(text)``."""
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        step(text)
        best = min(best, time.process_time() - start)
    return best


def redact(text: str) -> object:
    """Redaction of a text seen for the first time (short texts are cached after)."""
    redaction._redact_cached.cache_clear()
    return redaction.redact(text)


def repeated(unit: str, length: int) -> str:
    return unit * (length // len(unit))


def measure(units: tuple[str, ...], long: int) -> tuple[list[Cost], tuple[float, float]]:
    """Each unit's costs at ``long // 4`` and ``long`` characters, and the benign text's
    (redact, screen) CPU seconds at ``long``."""
    benign = "\n".join(memory_texts(long // 40 + 10, seed=3))[:long]
    redact(benign[:100])  # the detectors load once, outside the timing
    baseline = cpu_seconds(redact, benign), cpu_seconds(screen, benign)
    costs = []
    for unit in units:
        short_text, long_text = repeated(unit, long // 4), repeated(unit, long)
        costs.append(
            Cost(
                unit,
                cpu_seconds(redact, short_text),
                cpu_seconds(redact, long_text),
                cpu_seconds(screen, short_text),
                cpu_seconds(screen, long_text),
            )
        )
    return costs, baseline


def report(length: int = MAX_CONTENT_CHARS) -> dict[str, object]:
    """Measure every unit at ``length``, print the table, return the summary."""
    costs, (redact_base, screen_base) = measure(UNITS, length)
    print(f"benign text of {length} characters: redact {redact_base:.3f} s, "
          f"screen {screen_base:.3f} s (CPU)")  # fmt: skip
    print("| unit | redact growth | screen growth | redact vs benign | screen vs benign |")
    print("|---|---|---|---|---|")
    for cost in costs:
        print(
            f"| {cost.unit!r} | {cost.redact_growth:.1f}x | {cost.screen_growth:.1f}x "
            f"| {cost.redact_long / redact_base:.1f}x | {cost.screen_long / screen_base:.1f}x |"
        )
    worst = max(costs, key=lambda c: c.growth)
    slowest = max(c.redact_long / redact_base + c.screen_long / screen_base for c in costs) / 2
    met = worst.growth <= GROWTH_TARGET
    print(f"worst growth {worst.growth:.1f}x ({worst.unit!r}) for 4x the length; "
          f"target <= {GROWTH_TARGET:.0f}x: {'met' if met else 'MISSED'}")  # fmt: skip
    return {
        "length": length,
        "worst_growth": round(worst.growth, 2),
        "worst_unit": worst.unit,
        "slowest_vs_benign": round(slowest, 2),
        "target_met": met,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--length", type=int, default=MAX_CONTENT_CHARS, help="the long length")
    if not report(parser.parse_args().length)["target_met"]:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
