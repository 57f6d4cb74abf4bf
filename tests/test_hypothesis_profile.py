"""Property tests judge what an example does, never how fast: tests/conftest.py loads the "skymarshal" profile
(no per-example deadline) for the whole suite, and no test sets a deadline of its own."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import settings

TESTS = Path(__file__).resolve().parent
A_DEADLINE = re.compile(r"deadline\s*=\s*(?!None\b)[\w.(]")


def test_the_suite_runs_under_the_profile_with_no_deadline():
    assert settings._current_profile == "skymarshal"
    assert settings().deadline is None


def test_no_test_sets_a_deadline_of_its_own():
    found = [
        f"{path.relative_to(TESTS)}:{number}"
        for path in sorted(TESTS.rglob("*.py"))
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if "settings" in line and A_DEADLINE.search(line)
    ]
    assert not found, found
