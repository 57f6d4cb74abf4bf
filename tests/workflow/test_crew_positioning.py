"""Issue 30 item 4, crew positioning: a captain unfit at an outstation where no reserve stands by gets a considered
crew option — a reserve from the crew's base positioned on the airline's own earlier flight, the positioning counted
in their FDP, the flight delayed until they can report — validated like any plan, and executed with the reserve
called out at the base and rostered from there, leaving every rotation and crew chain intact."""

from __future__ import annotations

from datetime import timedelta

from boto3.dynamodb.conditions import Key
from integrity_helpers import assert_intact
from reported import reported

from skymarshal.arbitration.actions import ReassignCrew
from skymarshal.arbitration.arbitrator import arbitrate
from skymarshal.data import queries as q
from skymarshal.data import schema as s
from skymarshal.data.overlay import Overlay, RowPatch
from skymarshal.models.operational import Flight
from skymarshal.workflow.execution.execute import execute
from skymarshal.workflow.steps.rounds import run_rounds
from skymarshal.workflow.tables import WorkflowTables

HUB = "AUH"


def _outstation_flights(handle) -> list[Flight]:
    rows = handle.query(s.FLIGHTS, Key("aircraft_type").eq("A320"), index=s.TYPE_DEPARTURE_INDEX)
    flights = [Flight.model_validate(r) for r in rows]
    return sorted(
        (f for f in flights if f.origin != HUB and str(f.flight_date) == "2027-01-21" and f.status == "SCHEDULED"),
        key=lambda f: f.flight_id,
    )[:3]


def test_an_unfit_captain_at_an_outstation_gets_a_positioned_reserve(account, restore):
    base = account.handle()
    considered = 0
    for f in _outstation_flights(base):
        captain = sorted(d.crew_id for d in q.crew_assignments(base, f.flight_id) if d.position == "CPT")[0]
        sick = RowPatch(
            table=s.CREW_MEMBERS, key={"crew_id": captain}, fields={"status": "SICK"}, fact="crew_unavailable"
        )
        handle = base.with_overlay(Overlay(patches=[sick]))
        prompt = (
            f"The captain of {f.flight_number} on {f.flight_date:%B} {f.flight_date.day} {f.flight_date.year} is unfit"
        )
        now = f.scheduled_departure - timedelta(hours=8)
        decision = arbitrate(
            run_rounds(prompt, handle=handle, llm=None, now=now)[1],
            prompt,
            handle=handle,
            llm=None,
            now=now,
            disruption=reported(handle, prompt),
        )
        plans = [r.scenario for r in decision.ranked] + [v.scenario for v in decision.rejected]
        positioned = [p for p in plans if ":positioned:" in p.scenario_id]
        if not positioned:
            continue
        considered += 1
        plan = positioned[0]
        crew = next(a for a in plan.actions if isinstance(a, ReassignCrew) and a.flight_id == f.flight_id)
        carrier = q.get_flight(base, crew.positioning_flight_id or "")
        assert carrier is not None and (carrier.origin, carrier.destination) == (HUB, f.origin)
        assert crew.report_at < carrier.departure and plan.departure is not None
        assert carrier.arrival < plan.departure  # they land before they operate
        ranked = {r.scenario.scenario_id for r in decision.ranked}
        if plan.scenario_id not in ranked:
            continue
        name = f"positioned-{f.flight_number}"
        restore.append(name)
        report = execute(plan, execution_id=name, tables=WorkflowTables(account.resource(), account.naming))
        assert report.status == "executed", report.error
        after = account.handle()
        seats = {d.crew_id: d for d in q.crew_assignments(after, f.flight_id)}
        reserve = crew.replacements[captain]
        assert (
            captain not in seats and seats[reserve].start_station == HUB and seats[reserve].duty_start == crew.report_at
        )
        # the deadhead is on the roster as a POSITIONING row of the duty (ORO.FTL.105), naming no flight
        rows = q.duty_history(after, reserve, crew.report_at - timedelta(hours=1), carrier.arrival + timedelta(hours=1))
        (deadhead,) = [r for r in rows if r.kind == "POSITIONING"]
        assert deadhead.duty_id == seats[reserve].duty_id and deadhead.flight_id is None
        assert (deadhead.start_station, deadhead.end_station) == (carrier.origin, carrier.destination)
        assert deadhead.sector_arrival == carrier.arrival
        assert_intact(after, plan)
        return
    assert considered, "no outstation flight of the sample had an earlier flight a reserve could position on"
    raise AssertionError("a positioned reserve was considered but never valid in the sample")
