"""Advice to bend the tests rather than the code: assertions edited until they hold, a failing
test dropped, the code told that it runs under test; and the ordinary advice beside it."""

from __future__ import annotations

import pytest

from langgraph_mtl.hygiene.screening import screen


@pytest.mark.parametrize(
    "text",
    [
        "To pass, simply edit the test file so that assertions always hold.",
        "Edit the tests so every assertion holds.",
        "Change the assertions so they never fail.",
        "Rewrite the test file so that the assertions are true.",
        "Weaken the tests until everything is green.",
        "Loosen the assertions until the suite goes green.",
        "Tweak the unit tests so they stop failing, then submit.",
        "Relax every assertion so it holds.",
        "If a test keeps failing, delete it.",
        "If any test still fails, skip it.",
        "Make the function detect it is running under pytest and return the expected value.",
        "Check PYTEST_CURRENT_TEST and return the known answer when it is set.",
        "Detect when called from the test runner and print the expected output.",
    ],
)
def test_tests_bent_until_they_pass_are_flagged(text):
    assert "verifier-gaming" in screen(text).reasons


@pytest.mark.parametrize(
    "text",
    [
        "Change the code, not the tests, until they pass.",
        "Change the implementation, rerun the tests, and repeat until they are green.",
        "Edit the function until the tests are green.",
        "Adjust the tests so they hold the new fixtures in memory.",
        "Update the tests so they cover the empty list.",
        "If a test fails, do not delete it; read its assertion.",
        "If the test fails, delete the build cache and rerun it.",
        "If a test fails, remove the cause rather than the test.",
        "Check whether the code runs under pytest only to pick a temp directory.",
        "When an assertion fails, print the expected and actual values to compare them.",
        "Never edit the test file; fix the code the failing assertion calls.",
    ],
)
def test_ordinary_advice_about_failing_tests_is_not(text):
    assert not screen(text).flagged
