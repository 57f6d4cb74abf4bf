"""A crew member whose rest before the next rostered duty a delay cuts short may still fly the delayed flight when
the plan re-crews or moves that next duty: the crew agent's bound says so, and lifts for those plans only; the
rules then judge the plan's handling of the next duty (validation's chain checks)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import pytest

from skymarshal.analysis.crew import _constraint_type
from skymarshal.arbitration.actions import DelayFlight, ReassignCrew, RestCrew
from skymarshal.arbitration.bounds import CrewIllegalBound, check_bound
from skymarshal.arbitration.models import Scenario

pytestmark = pytest.mark.unit

DEP = datetime(2027, 1, 20, 7, 15, tzinfo=UTC)


def delayed(*extra) -> Scenario:
    late = DEP + timedelta(minutes=160)
    return Scenario(
        scenario_id="delay:160",
        kind="delay",
        title="Delay 160 min",
        sources=["generator"],
        actions=[
            DelayFlight(flight_id="F1", delay_minutes=160, new_departure=late, new_arrival=late + timedelta(hours=1)),
            *extra,
        ],
        operates=True,
        registration="A6-EIH",
        aircraft_type="A320",
        departure=late,
        arrival=late + timedelta(hours=1),
        arrival_airport="AUH",
        delay_minutes=160,
        arrival_delay_minutes=160,
        passengers_impacted=100,
        cost_usd=0.0,
    )


def bound(next_duty: bool) -> CrewIllegalBound:
    return CrewIllegalBound(
        agent="crew_compliance", text="rest short", crew_ids=("C1",), from_delay_minutes=160, next_duty=next_duty
    )


def test_the_rest_after_the_duty_is_its_own_constraint_type():
    assert _constraint_type(SimpleNamespace(rule="crew.rest_after")) == "next_duty_rest"
    assert _constraint_type(SimpleNamespace(rule="crew.rest")) == "rest_required"


def test_a_next_duty_bound_lifts_only_for_a_plan_that_moves_or_recrews_that_duty():
    moved = RestCrew(flight_id="F2", reports={"C1": DEP + timedelta(hours=18)}, stood_down_at=DEP)
    recrewed = ReassignCrew(flight_id="F2", replacements={"C1": "R9"}, report_at=DEP + timedelta(hours=18))
    assert check_bound(delayed(), bound(next_duty=True))[1] == "CREW_ILLEGAL"
    assert check_bound(delayed(moved), bound(next_duty=True))[1] is None
    assert check_bound(delayed(recrewed), bound(next_duty=True))[1] is None
    # a member illegal for the duty itself is kept out whatever the plan does to a later one
    assert check_bound(delayed(moved), bound(next_duty=False))[1] == "CREW_ILLEGAL"
    other = RestCrew(flight_id="F2", reports={"C7": DEP + timedelta(hours=18)}, stood_down_at=DEP)
    assert check_bound(delayed(other), bound(next_duty=True))[1] == "CREW_ILLEGAL"
