"""A network disruption through the synthesized state machine (issue 17): "Abu Dhabi airport is closed by fog from
14:00 to 17:00 UTC on January 22nd" goes from Validate straight to Arbitrate, which plans the affected flights with
the network planner; the duty manager sees the per-flight table, may exclude a flight (re-validated), approves,
and Execute applies the plan as one grouped, compensated execution; Learn writes a history row per flight."""

from __future__ import annotations

from datetime import datetime

import pytest
from workflow_helpers import run_id

from skymarshal.workflow.models import ApprovalDecision

CLOSURE = "Abu Dhabi airport is closed by fog from 14:00 to 17:00 UTC on January 22nd"


def _at(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value.replace("Z", "+00:00")) if value else None


def _inside(moment: datetime | None, window: dict) -> bool:
    return moment is not None and _at(window["start"]) <= moment < _at(window["end"])


@pytest.fixture(scope="module")
def closure(wf):
    name = wf.start(CLOSURE, disruption_id=run_id("auh-fog"))["execution_name"]
    progress = wf.follow(name, timeout_s=600)
    assert progress.awaiting_approval, (progress.status, progress.current, wf.describe(name).get("cause"))
    return name


def test_the_recommended_plan_keeps_every_flight_out_of_the_closure_and_legally_crewed(wf, closure):
    decision = wf.decision(closure)
    network = decision["network"]
    window = network["restriction"]["window"]
    assert network["restriction"]["kind"] == "closure" and network["restriction"]["airport"] == "AUH"
    top = decision["ranked"][0]["scenario"]
    (validated,) = [p for p in network["plans"] if p["plan"]["plan_id"] == top["scenario_id"]]
    assert validated["rejections"] == [] and validated["flights_checked"] == len(validated["plan"]["actions"])
    for row in validated["plan"]["actions"]:
        if row["action"] == "cancel":
            continue
        assert not (row["origin"] == "AUH" and _inside(_at(row["new_departure"]), window)), row
        assert not (row["destination"] == "AUH" and _inside(_at(row["new_arrival"]), window)), row
    print(decision["final_decision"])
