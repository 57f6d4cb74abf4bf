"""The workflow fixtures (`wf`, `calls`, `restore`) live in tests/conftest.py, shared with tests/api; here the
arbitrator's decisions on the three demo situations that the execution tests (test_execution_*.py) carry out."""

from __future__ import annotations

import pytest
from reported import reported

from skymarshal.arbitration.arbitrator import ArbitratorConfig, arbitrate
from skymarshal.workflow.steps.rounds import run_rounds

EXECUTION_DEMO = {
    "mechanical": "Flight EY123 on January 20th 2027 had a mechanical failure",
    "crew": "EY101 on 21 January 2027 is delayed over four hours and the crew will run out of duty time",
    "weather": "Flight EY11 on January 22nd 2027: storm at Heathrow, crosswinds above limits",
}


@pytest.fixture(scope="session")
def decisions(account):
    """Read only: the tests take a scenario and copy it (`model_copy`) to change it."""
    handle = account.handle()
    return {
        name: arbitrate(
            run_rounds(prompt, handle=handle, llm=None)[1],
            prompt,
            handle=handle,
            llm=None,
            disruption=reported(handle, prompt),
            # every valid plan listed, not the top three: the tests carry out one plan of each kind (EY123's
            # cancellation ranks below its swap and the exchanges)
            config=ArbitratorConfig(top_n=50),
        )
        for name, prompt in EXECUTION_DEMO.items()
    }
