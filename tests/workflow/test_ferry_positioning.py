"""Issue 30 item 4(d): reserves positioned on a rescue aircraft's ferry are checked like any positioning — the ferry
leaves their station after they report and lands a connection before they report for the flight; otherwise the plan
is refused CREW_ILLEGAL naming why (pure: a hand-built plan, no AWS)."""

from __future__ import annotations

from datetime import timedelta

from gantt_helpers import rotation, scenario
from hypothesis import given
from hypothesis import strategies as st

from skymarshal.analysis.crew import REPORT_BEFORE_DEPARTURE
from skymarshal.arbitration.actions import FerryAircraft, ReassignCrew
from skymarshal.arbitration.crew.positioning import CONNECTION, on_the_ferry


def _plan(ferry_lands_before_report: int, ferry_origin: str = "AUH", reports_after_ferry_leaves: int = -60):
    f = rotation([90])[1]  # FRA-AUH: the rescued flight leaves the outstation
    plan = scenario("delay", f, delay=240)
    latest = plan.departure - REPORT_BEFORE_DEPARTURE - CONNECTION
    arrival = latest - timedelta(minutes=ferry_lands_before_report)
    departure = arrival - timedelta(hours=6)
    ferry = FerryAircraft(
        flight_id=f.flight_id, registration="A6-BLT", aircraft_type="B789", origin=ferry_origin, destination="FRA",
        departure=departure, arrival=arrival, crew={"CPT": "R9", "FO": "R8"}, crew_report_at=departure - timedelta(hours=1),
    )  # fmt: skip
    crew = ReassignCrew(
        flight_id=f.flight_id,
        replacements={"C1": "R1"},
        report_at=departure + timedelta(minutes=reports_after_ferry_leaves),
        positioning_ferry="AUH",
    )
    return plan.model_copy(update={"actions": [ferry, crew, *plan.actions]}), crew


@given(st.integers(-600, 600))
def test_the_ferry_must_land_a_connection_before_the_reserves_report(minutes):
    plan, crew = _plan(minutes)
    check, code = on_the_ferry(plan, crew)
    assert (code is None) == (minutes >= 0), check.message
    assert check.status == ("legal" if minutes >= 0 else "illegal")


def test_the_ferry_must_leave_from_the_reserves_station_after_they_report():
    plan, crew = _plan(30, ferry_origin="MCT")
    assert on_the_ferry(plan, crew)[1] == "CREW_ILLEGAL"
    plan, crew = _plan(30, reports_after_ferry_leaves=15)
    check, code = on_the_ferry(plan, crew)
    assert code == "CREW_ILLEGAL" and "before the reserves report" in check.message
