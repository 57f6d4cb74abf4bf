"""A run that fails or is aborted frees its flight at once (issue 48 item 5), in every way a run can end.

A step made to fail past its retries (the local adapter's `wrap` raises in place of the handler) goes to the state
machine's failure path (infra/workflow_failures.py): Learn records RUN_FAILED and releases the claim, the execution
ends FAILED. A run stopped from outside (ABORTED: no Catch runs) is found by the next claim on the flight, which
takes it over (workflow/runs/flight_claims.py). Either way a new report of EY123 is accepted at once — not refused
with FLIGHT_RUN_IN_PROGRESS for the 90 minutes of the claim's lapse.
"""

from __future__ import annotations

import time
import uuid

import pytest

from skymarshal.local import workflow as local_workflow
from skymarshal.workflow.models import ApprovalDecision
from skymarshal.workflow.runs import flight_claims as fc

DEMO = "Flight EY123 on January 20th had a mechanical failure"
FLIGHT = {"flight_id": "EY123-20270120", "flight_number": "EY123", "flight_date": "2027-01-20"}
CLAIM = {"PK": f"FLIGHTRUN#{FLIGHT['flight_id']}", "SK": "CLAIM"}


class InjectedFault(RuntimeError):
    """What the failing step raises: a bug, not a transient Lambda error, so no Retry repeats it."""


@pytest.fixture
def claims(wf, account, monkeypatch):
    monkeypatch.setenv("SKYMARSHAL_ONE_RUN_PER_FLIGHT", "1")
    checkpoints = account.resource().Table(account.naming("Checkpoints"))
    checkpoints.delete_item(Key=CLAIM)
    yield checkpoints
    checkpoints.delete_item(Key=CLAIM)  # the session replays EY123
    local_workflow.registry().wrap = None


def _fail_in(function: str, phase: str | None = None) -> None:
    """The named step (its logical id contains `function`; an agent round's Collate also by phase) raises."""

    def wrap(name, handler, event):
        if function in name and (phase is None or event.get("phase") == phase):
            raise InjectedFault(f"injected failure in {function} ({phase or 'any phase'})")
        return handler(event, local_workflow._Context(name))

    local_workflow.registry().wrap = wrap


def _a_new_report_is_accepted(account, checkpoints) -> None:
    """Validate's own claim, for a second disruption of the flight, right now: accepted, not refused."""
    held = checkpoints.get_item(Key=CLAIM, ConsistentRead=True).get("Item")
    assert held is not None, "the run never claimed its flight"
    fc.claim(
        **FLIGHT,
        disruption_id=f"next-{uuid.uuid4().hex[:6]}",
        execution_name=f"next-{uuid.uuid4().hex[:6]}",
        run_seconds=1800,
        tables=account.tables(),
    )


@pytest.mark.parametrize(
    ("function", "phase", "then_approve"),
    [
        ("Collate", "initial", False),  # the initial round
        ("Collate", "revision", False),  # the revision round
        ("RequestApproval", None, False),  # the approval
        ("Execute", None, True),  # the execution
    ],
    ids=["initial-round", "revision-round", "approval", "execution"],
)
def test_a_run_failing_in_each_phase_frees_its_flight_at_once(wf, account, claims, function, phase, then_approve):
    _fail_in(function, phase)
    name = wf.start(DEMO, disruption_id=f"fail-{function.lower()}-{uuid.uuid4().hex[:6]}")["execution_name"]
    progress = wf.follow(name, timeout_s=900)
    if then_approve:
        assert progress.awaiting_approval, (progress.status, wf.describe(name).get("cause"))
        wf.decide(name, ApprovalDecision(action="approve", decided_by="Dana Duty"))
        progress = wf.follow(name, timeout_s=600)
    described = wf.describe(name)
    assert progress.status == "FAILED" and described["error"] == "RunFailed", described
    held = claims.get_item(Key=CLAIM, ConsistentRead=True)["Item"]
    assert held["execution_name"] == name and held["status"] == "released"  # Learn released it
    history = wf.sfn.get_execution_history(executionArn=wf.execution_arn(name), maxResults=1000)["events"]
    entered = [e["stateEnteredEventDetails"]["name"] for e in history if "stateEnteredEventDetails" in e]
    assert "Escalate: run failed" in entered and "Record failed run" in entered
    _a_new_report_is_accepted(account, claims)


def test_an_aborted_run_gives_its_flight_to_the_next_report(wf, account, claims):
    """StopExecution runs no Catch: the next claim finds the holder ABORTED and takes the flight."""
    name = wf.start(DEMO, disruption_id=f"abort-{uuid.uuid4().hex[:6]}")["execution_name"]
    deadline = time.monotonic() + 600
    while claims.get_item(Key=CLAIM, ConsistentRead=True).get("Item") is None:  # Validate has claimed it
        assert time.monotonic() < deadline
        time.sleep(0.2)
    wf.sfn.stop_execution(executionArn=wf.execution_arn(name), error="Aborted", cause="test")
    while wf.describe(name)["status"] == "RUNNING":  # moto stops its interpreter thread at the next state
        assert time.monotonic() < deadline
        time.sleep(0.2)
    assert wf.describe(name)["status"] == "ABORTED"
    with pytest.raises(fc.FlightClaimed):  # without a look at the holder's execution the claim stands...
        fc.claim(
            **FLIGHT,
            disruption_id="blind",
            execution_name="blind",
            run_seconds=60,
            tables=account.tables(),
            execution_status=lambda _: None,
        )
    _a_new_report_is_accepted(account, claims)  # ...with it, the ended run gives way at once
    taken = claims.get_item(Key=CLAIM, ConsistentRead=True)["Item"]
    assert taken["replaced"] == name and taken["replaced_status"] == "ABORTED"
