"""The three demo disruptions analysed once per session (both rounds, offline), for the arbitrator tests."""

from __future__ import annotations

import pytest

from skymarshal.workflow.steps.rounds import run_rounds

DEMO_PROMPTS = {
    "mechanical": "Flight EY123 on January 20th 2027 had a mechanical failure",
    "crew_timeout": "EY101 on 21 January 2027 is delayed over four hours and the crew will run out of duty time",
    "weather": "Flight EY11 on January 22nd 2027: storm at Heathrow, crosswinds above limits",
}


@pytest.fixture(scope="session")
def demo_collations(account) -> dict[str, tuple[str, dict]]:
    """situation → (prompt, revised collation)."""
    handle = account.handle()
    return {name: (prompt, run_rounds(prompt, handle=handle, llm=None)[1]) for name, prompt in DEMO_PROMPTS.items()}
