"""`make bench-network --workflow` reads each run's state times through bench.workflow's reader (a change of that
reader's result broke it once: a traceback after the planner's figures)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import pytest

from bench.network import through_workflow

pytestmark = pytest.mark.unit
T0 = datetime(2027, 1, 20, 6, tzinfo=UTC)


def _event(kind: str, state: str, second: int) -> dict:
    details = "stateEnteredEventDetails" if kind.endswith("Entered") else "stateExitedEventDetails"
    return {"type": kind, "timestamp": T0 + timedelta(seconds=second), details: {"name": state}}


class _Client:
    """The workflow client as the bench uses it: a run reaching its approval request, its history two states long."""

    def __init__(self):
        events = [
            _event("TaskStateEntered", "Validate", 0),
            _event("TaskStateExited", "Validate", 2),
            _event("TaskStateEntered", "Arbitrate", 2),
            _event("TaskStateExited", "Arbitrate", 7),
        ]
        paginator = SimpleNamespace(paginate=lambda **_: [{"events": events}])
        self.sfn = SimpleNamespace(get_paginator=lambda _name: paginator)
        self.decided = []

    def start(self, report, disruption_id, source):
        self.run = disruption_id

    def follow(self, run, timeout_s, poll_s):
        return SimpleNamespace(awaiting_approval=not self.decided)

    def execution_arn(self, run):
        return f"arn:aws:states:::execution:sm:{run}"

    def decision(self, run):
        return {
            "ranked": [{"scenario": {"scenario_id": "network:hold", "actions": [{}, {}]}}],
            "final_decision": "hold",
        }

    def decide(self, run, answer):
        self.decided.append(answer)


def test_a_run_to_its_approval_request_is_timed_state_by_state():
    client = _Client()
    run = through_workflow(client, "closure-3h", "AUH closed by fog 06:00-09:00Z")
    assert run["awaiting_approval"] and run["recommended"] == "network:hold" and run["actions"] == 2
    assert client.decided and client.decided[0].action == "reject"  # the bench reads; it never approves
    assert run["seconds_to_approval"] >= 0 and run["states"] == {"Validate": 2.0, "Arbitrate": 5.0}
