"""Issue 46 item 4, executed: a plan flying without a sick cabin crew member releases that member's sectors, calls
nobody out, and leaves every rotation and crew chain intact."""

from __future__ import annotations

from integrity_helpers import assert_intact
from reported import flight_of

from skymarshal.arbitration.arbitrator import arbitrate
from skymarshal.data import queries as q
from skymarshal.intake.disruption_facts import resolve_flight_report
from skymarshal.workflow.execution.execute import execute
from skymarshal.workflow.steps.rounds import run_rounds
from skymarshal.workflow.tables import WorkflowTables

REPORT = "EY124/21JAN27 FRA-AUH C/A UNWELL, STOOD DOWN. DLA 155."


def test_executing_it_releases_the_sick_members_sectors_and_leaves_every_chain_intact(account, restore):
    handle = account.handle()
    flight = flight_of(handle, REPORT)
    facts, overlay = resolve_flight_report(REPORT, flight, handle, None)
    collation = run_rounds(REPORT, handle=handle, llm=None, disruption=facts, overlay=overlay)[1]
    decision = arbitrate(collation, REPORT, handle=handle.with_overlay(overlay), llm=None, disruption=facts)
    (sick,) = [str(f.value) for f in facts.facts if f.name == "crew_unavailable" and f.source == "data"]
    (plan,) = [r.scenario for r in decision.ranked if r.scenario.crew_stood_down]
    before = {d.crew_id for d in q.crew_assignments(account.handle(), flight.flight_id)}
    name = f"short-{flight.flight_number}"
    restore.append(name)
    report = execute(plan, execution_id=name, tables=WorkflowTables(account.resource(), account.naming))
    assert report.status == "executed", report.error
    after = {d.crew_id for d in q.crew_assignments(account.handle(), flight.flight_id)}
    assert after == before - {sick}  # the rest fly as rostered, nobody called out
    assert_intact(account.handle(), plan)
