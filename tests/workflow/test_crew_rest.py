"""Issue 30 item 4, waiting for the rostered crew's minimum rest: executed, the crew's duty reports again at the time
the plan gives (the roster row re-keyed by its report), its sector at the flight's new times, and the crew rules find
each member legal for that re-timed duty itself (FDP from the new report, ORO.FTL.205)."""

from __future__ import annotations

from datetime import timedelta

from boto3.dynamodb.conditions import Key
from execution_helpers import copy_rows, run
from reported import reported

from skymarshal.arbitration.actions import DelayFlight, RestCrew
from skymarshal.arbitration.arbitrator import arbitrate
from skymarshal.data import queries as q
from skymarshal.data import schema as s
from skymarshal.data.access import DataHandle
from skymarshal.models.common import iso_z
from skymarshal.rules.crew import evaluate_duty
from skymarshal.rules.rostered import rostered_duty
from skymarshal.workflow.steps.rounds import run_rounds


def test_a_rested_crew_reports_again_at_the_plans_time(decisions, account, blank_account):
    considered = [r.scenario for r in decisions["crew"].ranked] + [v.scenario for v in decisions["crew"].rejected]
    rested = next(s for s in considered if s.scenario_id.endswith(":rested"))
    rest = next(a for a in rested.actions if isinstance(a, RestCrew))
    delay = next(a for a in rested.actions if isinstance(a, DelayFlight) and a.flight_id == rest.flight_id)
    assert set(rested.crew_rested) == set(rest.reports) and rested.delay_minutes == delay.delay_minutes
    scenario = rested.model_copy(update={"actions": [delay, rest]})  # the flight and its crew, not the chain
    copy_rows(account, blank_account, scenario)
    report = run(blank_account, scenario)
    assert report.status == "executed", report.error
    handle = DataHandle(naming=blank_account.naming, resource=blank_account.resource())
    seats = {d.crew_id: d for d in q.crew_assignments(handle, rest.flight_id)}
    assert set(seats) == set(rest.reports)
    members = {m.crew_id: m for m in q.crew_members(account.handle(), sorted(seats))}
    for crew_id, at in rest.reports.items():
        seat = seats[crew_id]
        assert seat.duty_start == at and seat.duty_key.startswith(iso_z(at) + "#")
        assert seat.sector_departure == delay.new_departure and seat.moved_minutes == delay.delay_minutes
        duty = rostered_duty([seat], rest.flight_id)
        own = [f for f in evaluate_duty(members[crew_id], [seat], duty) if f.rule.startswith("crew.max_fdp")]
        assert own and all(f.status != "illegal" for f in own), own
    # the moved sectors are on the sector-day index at their new time, as stored: the board's Query a day finds them
    day = delay.new_departure.date().isoformat()
    indexed = handle.query(s.CREW_ROSTER, Key("sector_day").eq(day), index=s.SECTOR_DAY_INDEX)
    assert {r["crew_id"] for r in indexed if r["flight_id"] == rest.flight_id} == {
        c for c, d in seats.items() if d.kind == "FLIGHT"
    }


KTM_HOLD = "EY340 19JAN KTM: ground handling strike, departure held 3 hours"


def test_a_mid_duty_rest_executed_splits_the_duty_where_the_crew_stood_down(account, blank_account):
    """The AUH-KTM-AUH crew rests at KTM (tests/arbitration/test_rest_mid_duty.py): executed, the outbound's rows end
    their duty at the stand-down at KTM, and the return is a new duty from KTM at the new report, legal by the rules
    against the roster as written."""
    handle = account.handle()
    decision = arbitrate(
        run_rounds(KTM_HOLD, handle=handle, llm=None)[1],
        KTM_HOLD,
        handle=handle,
        llm=None,
        disruption=reported(handle, KTM_HOLD),
    )
    considered = [r.scenario for r in decision.ranked] + [v.scenario for v in decision.rejected]
    rested = next(s for s in considered if s.scenario_id.endswith(":rested"))
    rest = next(a for a in rested.actions if isinstance(a, RestCrew))
    delay = next(a for a in rested.actions if isinstance(a, DelayFlight) and a.flight_id == rest.flight_id)
    scenario = rested.model_copy(update={"actions": [delay, rest]})
    copy_rows(account, blank_account, scenario)  # with the rested crew's whole rosters: the outbound's rows too
    report = run(blank_account, scenario)
    assert report.status == "executed", report.error
    written = DataHandle(naming=blank_account.naming, resource=blank_account.resource())
    members = {m.crew_id: m for m in q.crew_members(handle, sorted(rest.reports))}
    for crew_id, at in rest.reports.items():
        rows = q.duty_history(written, crew_id, at - timedelta(days=2), at + timedelta(days=1))
        seat = next(r for r in rows if r.flight_id == rest.flight_id)
        flown = [r for r in rows if r.kind == "FLIGHT" and r.flight_id != rest.flight_id and r.duty_end <= at]
        outbound = max(flown, key=lambda r: r.duty_end)
        assert (outbound.duty_end, outbound.end_station, outbound.sectors) == (rest.stood_down_at, "KTM", 1)
        assert (seat.duty_start, seat.start_station, seat.sectors) == (at, "KTM", 1)
        assert seat.duty_id != outbound.duty_id
        findings = evaluate_duty(members[crew_id], rows, rostered_duty(rows, rest.flight_id))
        own = [f for f in findings if f.status == "illegal" and not f.rule.startswith("crew.rest_after")]
        assert not own, own
