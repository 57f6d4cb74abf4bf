"""Issue 30 item 3's invariant: disruptions executed one after another on the seeded airline (a sick crew member,
an outstation AOG, a mechanical failure at the hub, a delay), each through the whole state machine and approved,
leave every tail flying its flights in sequence and every crew chain an execution touched legal (the AUH fog closure
of 21 January's network plan too, in the fixed sequence), by the library's whole-airline check (``data.integrity.check_operation``) after each execution. Each example puts the airline back
(newest execution undone first) so the next starts from the seed."""

from __future__ import annotations

from datetime import date

from boto3.dynamodb.conditions import Key
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st
from integrity_helpers import assert_intact
from workflow_helpers import run_id

from skymarshal.data import schema as s
from skymarshal.models.operational import Flight
from skymarshal.workflow.execution.execute import undo
from skymarshal.workflow.models import ApprovalDecision
from skymarshal.workflow.tables import WorkflowTables

HUB = "AUH"
DAYS = (date(2027, 1, 21), date(2027, 1, 22))
KINDS = ("sick", "outstation_aog", "hub_mechanical", "delay")


def _report(kind: str, f: Flight) -> str:
    when = f"{f.flight_date:%B} {f.flight_date.day}th {f.flight_date.year}"
    return {
        "sick": f"The captain of {f.flight_number} on {when} called in sick two hours before departure",
        "outstation_aog": f"{f.flight_number} on {when}: aircraft AOG at {f.origin} with a hydraulic leak",
        "hub_mechanical": f"Flight {f.flight_number} on {when} had a mechanical failure",
        "delay": f"{f.flight_number} on {when} is delayed 90 minutes: late inbound aircraft",
    }[kind]


def _candidates(account) -> dict[str, list[Flight]]:
    """The seeded flights each kind of report can name: from the hub, or from an outstation, on the test days."""
    handle = account.handle()
    flights = [
        Flight.model_validate(r)
        for t in ("B789", "A320", "A321")
        for r in handle.query(s.FLIGHTS, Key("aircraft_type").eq(t), index=s.TYPE_DEPARTURE_INDEX)
    ]
    ok = sorted((f for f in flights if f.flight_date in DAYS and f.status == "SCHEDULED"), key=lambda f: f.flight_id)
    hub = [f for f in ok if f.origin == HUB]
    away = [f for f in ok if f.origin != HUB]
    return {"sick": hub, "outstation_aog": away, "hub_mechanical": hub, "delay": ok}


# no shrinking: each step is a whole run of the state machine (shrinking one failure took over five minutes). One
# random sequence a run beside the explicit one (each run draws another: the kinds are covered over runs, and the
# fixed sequence of the test below covers every kind but the delay every time); two took 424 s on this machine.
@settings(
    max_examples=1,
    deadline=None,
    phases=(Phase.explicit, Phase.reuse, Phase.generate),
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(st.lists(st.tuples(st.sampled_from(KINDS), st.integers(0, 10_000)), min_size=2, max_size=3))
@example([("sick", 0), ("sick", 0)])  # a second report on a flight the first plan cancelled: answered, not a crash
def test_disruptions_executed_in_sequence_leave_every_rotation_and_crew_chain_intact(wf, account, sequence):
    candidates = _candidates(account)
    executed: list[str] = []
    tables = WorkflowTables(account.resource(), account.naming)
    try:
        for kind, pick in sequence:
            flight = candidates[kind][pick % len(candidates[kind])]
            name = wf.start(_report(kind, flight), disruption_id=run_id(kind))["execution_name"]
            progress = wf.follow(name, timeout_s=600)
            # a report on a flight an earlier plan cancelled or moved is answered, never a crashed run
            assert progress.status != "FAILED", wf.describe(name).get("cause")
            if not progress.awaiting_approval:  # escalated or refused: nothing executes, nothing to check
                continue
            wf.decide(name, ApprovalDecision(action="approve", decided_by="Dana Duty", comment="sequence"))
            executed.append(name)
            assert wf.follow(name, timeout_s=600).status == "SUCCEEDED"
            assert_intact(account.handle())
    finally:
        for name in reversed(executed):
            undo(name, tables=tables)


DEMOS_THEN_MORE = (
    "Flight EY123 on January 20th 2027 had a mechanical failure",
    "EY101 on 21 January 2027 is delayed over four hours and the crew will run out of duty time",
    "Flight EY11 on January 22nd 2027: storm at Heathrow, crosswinds above limits",
)
# The AUH fog closure of 21 January (a network plan, last): the day whose plans once broke at the turn after
# EY170-20270120 flies A6-BLL into AUH (the rotation now starts at that inbound flight). The 22nd's closure is executed
# by tests/workflow/test_network_runs.py; the 03:00-06:00 closure of the 21st (bench.memory's) passed here too.
FOG = "Abu Dhabi airport is closed by fog from 14:00 to 17:00 UTC on January 21st"


def test_the_three_demos_a_sick_captain_an_outstation_aog_and_the_fog_closure_leave_the_airline_whole(wf, account):
    """The issue's sequence on one airline, the AUH fog closure's network plan last (planned from what the others
    left): each approved, executed, and the whole airline checked after it."""
    candidates = _candidates(account)
    reports = [
        *DEMOS_THEN_MORE,
        _report("sick", candidates["sick"][0]),
        _report("outstation_aog", candidates["outstation_aog"][-1]),  # a flight the earlier plans left alone
        FOG,
    ]
    executed: list[str] = []
    try:
        for report in reports:
            name = wf.start(report, disruption_id=run_id("seq"))["execution_name"]
            progress = wf.follow(name, timeout_s=600)
            assert progress.awaiting_approval, (report, progress.status, wf.describe(name).get("cause"))
            wf.decide(name, ApprovalDecision(action="approve", decided_by="Dana Duty", comment="sequence"))
            executed.append(name)
            assert wf.follow(name, timeout_s=600).status == "SUCCEEDED", report
            assert_intact(account.handle())
    finally:
        for name in reversed(executed):
            undo(name, tables=WorkflowTables(account.resource(), account.naming))
