"""A plan refused at Execute because the operation changed under it is decided again, through the synthesized
state machine on EY123: another decision takes the spare the approved swap was to use, Execute's re-check refuses
the swap (nothing written), the run goes back to Arbitrate on the tables as they now are and to the duty manager,
whose second approval is executed — one run, each attempt its own execution record, the audit chain whole."""

from __future__ import annotations

import json
from datetime import timedelta

from workflow_helpers import to_approval

from skymarshal.data import schema as s
from skymarshal.data.integrity import fleet_flights
from skymarshal.models.operational import Flight
from skymarshal.workflow.execution.records import run_record
from skymarshal.workflow.models import ApprovalDecision
from skymarshal.workflow.steps.attempts import attempt_id
from skymarshal.workflow.tables import WorkflowTables


def _flights(account):
    return account.resource().Table(account.naming(s.FLIGHTS))


def _take_spare(account, swap: dict) -> tuple[str, str]:
    """Another flight of the spare's type leaving EY123's origin within two hours of it, moved onto the spare as
    another run's executed swap would: (its id, its own tail)."""
    ey123 = Flight.model_validate(_flights(account).get_item(Key={"flight_id": swap["flight_id"]})["Item"])
    legs = fleet_flights(account.handle(), ey123.departure - timedelta(hours=2), ey123.departure + timedelta(hours=2))
    taken = next(
        f
        for tail, fs in sorted(legs.items())
        if tail not in (swap["to_registration"], ey123.aircraft_registration)
        for f in fs
        if f.aircraft_type == swap["to_aircraft_type"] and f.origin == ey123.origin
    )
    _flights(account).update_item(
        Key={"flight_id": taken.flight_id},
        UpdateExpression="SET aircraft_registration = :t",
        ExpressionAttributeValues={":t": swap["to_registration"]},
    )
    return taken.flight_id, taken.aircraft_registration


def test_a_swap_whose_spare_was_taken_is_decided_again_and_the_second_approval_executed(wf, account, restore):
    name = to_approval(wf, "redecide")
    restore.append(name)
    rank1 = wf.decision(name)["ranked"][0]["scenario"]
    swaps = [a for a in rank1["actions"] if a.get("to_registration")]
    assert swaps, f"EY123's first answer is a tail swap: {rank1['scenario_id']}"
    taken, its_tail = _take_spare(account, swaps[0])
    try:
        wf.decide(name, ApprovalDecision(action="approve", decided_by="Dana Duty"))
        again = wf.follow(name, timeout_s=600)
        assert again.awaiting_approval, (again.status, again.current, wf.describe(name).get("cause"))
        summary = json.loads(wf.pending(name)["decision"])
        assert summary["attempt"] == 2 and rank1["scenario_id"] in summary["excluded"]
        assert summary["redecided_after"].startswith(f"the plan approved ({rank1['scenario_id']}) could not be")
        assert "ROTATION_BROKEN" in summary["redecided_after"]
        decided_again = wf.decision(name)
        assert decided_again["final_decision"].startswith(f"Decided again: {summary['redecided_after']}.")
        second = decided_again["ranked"][0]["scenario"]
        assert swaps[0]["to_registration"] not in json.dumps(second["actions"])  # the spare is flying now

        wf.decide(name, ApprovalDecision(action="approve", decided_by="Dana Duty"))
        assert wf.follow(name, timeout_s=600).status == "SUCCEEDED"
        output = wf.output(name)
        assert output["execution"]["status"] == "executed" and output["execution"]["attempt"] == 2
        assert output["outcome"]["status"] == "executed"
        record = run_record(wf.disruption_id(name), tables=WorkflowTables(account.resource(), account.naming))
        assert record is not None and record["execution_name"] == attempt_id(name, 2)
        assert record["scenario_id"] == second["scenario_id"]
        assert wf.verify(name).ok
    finally:
        _flights(account).update_item(
            Key={"flight_id": taken},
            UpdateExpression="SET aircraft_registration = :t",
            ExpressionAttributeValues={":t": its_tail},
        )
