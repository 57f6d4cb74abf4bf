"""Issue 30 item 4, waiting for the rostered crew's minimum rest: executed, the crew's duty reports again at the time
the plan gives (the roster row re-keyed by its report), its sector at the flight's new times, and the crew rules find
each member legal for that re-timed duty itself (FDP from the new report, ORO.FTL.205)."""

from __future__ import annotations

from execution_helpers import copy_rows, run

from skymarshal.arbitration.actions import DelayFlight, RestCrew
from skymarshal.data import queries as q
from skymarshal.data.access import DataHandle
from skymarshal.models.common import iso_z
from skymarshal.rules.crew import evaluate_duty
from skymarshal.rules.rostered import rostered_duty


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
