"""One disruption per flight at a time, through the state machine: a second report of EY123 on the 20th while
the first waits for its duty manager is refused at Validate (no agent runs), naming the first; once that run is
rejected the flight is free; once a plan is executed the flight is held, and a new report is refused."""

from __future__ import annotations

import uuid

import pytest

from skymarshal.local import workflow as local_workflow
from skymarshal.workflow.models import ApprovalDecision

DEMO = "Flight EY123 on January 20th had a mechanical failure"
AGAIN = "EY123 on 20 January 2027: hydraulic fault reported again by the station"
FLIGHT_ID = "EY123-20270120"


def _id(tag: str) -> str:
    return f"f-{tag}-{uuid.uuid4().hex[:6]}"


@pytest.fixture
def claims_on(wf, account, monkeypatch):
    monkeypatch.setenv("SKYMARSHAL_ONE_RUN_PER_FLIGHT", "1")
    monkeypatch.setenv("SKYMARSHAL_FLIGHT_HOLD_MINUTES", "360")
    checkpoints = account.resource().Table(account.naming("Checkpoints"))
    checkpoints.delete_item(Key={"PK": f"FLIGHTRUN#{FLIGHT_ID}", "SK": "CLAIM"})
    yield
    checkpoints.delete_item(Key={"PK": f"FLIGHTRUN#{FLIGHT_ID}", "SK": "CLAIM"})  # the session replays EY123


@pytest.fixture
def agent_calls():
    seen: list[str] = []

    def record(name, handler, event):
        seen.append(name)
        return handler(event, local_workflow._Context(name))

    local_workflow.registry().wrap = record
    yield seen
    local_workflow.registry().wrap = None


def _refused(wf, prompt: str, agent_calls: list[str]) -> str:
    agent_calls.clear()
    name = wf.start(prompt, disruption_id=_id("second"))["execution_name"]
    progress = wf.follow(name, timeout_s=300)
    described = wf.describe(name)
    assert progress.status == "FAILED" and described["error"] == "InvalidDisruption", described
    assert not [n for n in agent_calls if n.startswith("FunctionsAgent")]  # refused before any agent ran
    return described["cause"]


def test_a_second_run_for_a_flight_is_refused_while_the_first_runs_and_after_it_recovers(
    wf, claims_on, agent_calls, restore
):
    first = wf.start(DEMO, disruption_id=_id("first"))["execution_name"]
    assert wf.follow(first, timeout_s=600).awaiting_approval
    cause = _refused(wf, AGAIN, agent_calls)
    assert f"FLIGHT_RUN_IN_PROGRESS: EY123 on 2027-01-20: run {first} is already handling it; follow or answer" in cause

    wf.decide(
        first, ApprovalDecision(action="reject", decided_by="Dana Duty", comment="test over")
    )  # nothing executed: flight freed
    assert wf.follow(first).status == "SUCCEEDED"
    second = wf.start(AGAIN, disruption_id=_id("again"))["execution_name"]
    assert wf.follow(second, timeout_s=600).awaiting_approval
    wf.decide(second, ApprovalDecision(action="approve", decided_by="Dana Duty"))
    restore.append(second)
    assert wf.follow(second).status == "SUCCEEDED"
    assert wf.output(second)["outcome"]["status"] == "executed"

    cause = _refused(wf, DEMO, agent_calls)  # EY123 already swapped: no second swap
    assert (
        f"FLIGHT_RECENTLY_RECOVERED: EY123 on 2027-01-20: run {second} recovered it from the same cause; a new report of it is accepted after"
        in (cause)
    )
