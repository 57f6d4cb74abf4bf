"""What execution records beyond a plan's decisions: every tail whose flights the plan moves gets its
AircraftAvailability rows re-derived (RepositionFleet), not only the disrupted flight's own tail."""

from __future__ import annotations

from datetime import timedelta
from types import SimpleNamespace

import pytest
import row_builders
from row_builders import bare_context, utc

from skymarshal.arbitration.actions import CancelFlight, DelayFlight, RepositionFleet, RestCrew
from skymarshal.arbitration.context import DisruptionContext
from skymarshal.arbitration.memo_keys import FlightRead
from skymarshal.arbitration.plans.generator import with_operation_records
from skymarshal.models.disruption import Disruption, Scope

STD = utc(2027, 1, 20, 6, 40)
OWN = row_builders.flight("EY320", "RUH", "AUH", STD, block=120, reg="A6-EJF", type_code="A320", flight_id="F1")
# the crew's next duty, on another tail, leaves at 23:40Z: re-timed by 30 min it leaves after midnight UTC
NEXT_DUTY = row_builders.flight(
    "EY353", "AUH", "CAI", utc(2027, 1, 20, 23, 40), block=215, reg="A6-EJB", type_code="A320", flight_id="F9"
)


def _ctx() -> DisruptionContext:
    cause = Disruption(
        iata_delay_code=85,
        family="atfm_airport_government",
        cause="security",
        scope=Scope(kind="flight", flights=["F1"]),
    )
    # nothing is read: the handle only carries the report's (empty) overlay
    ctx = bare_context(
        OWN, cause, now=STD - timedelta(hours=2), handle=SimpleNamespace(overlay=SimpleNamespace(additions=[]))
    )
    ctx.memo(FlightRead("F9"), lambda: NEXT_DUTY)  # as next_duty_retime read it
    return ctx


def _delay(f, minutes: int) -> DelayFlight:
    dep = f.scheduled_departure + timedelta(minutes=minutes)
    return DelayFlight(
        flight_id=f.flight_id,
        delay_minutes=minutes,
        new_departure=dep,
        new_arrival=dep + timedelta(minutes=f.block_minutes),
    )


def _repositioned(actions) -> list[str]:
    plan = with_operation_records(_ctx(), row_builders.bare_scenario(actions))
    (reposition,) = [a for a in plan.actions if isinstance(a, RepositionFleet)]
    return reposition.registrations


def test_a_plan_on_its_own_tail_repositions_that_tail_alone():
    assert _repositioned([_delay(OWN, 245)]) == ["A6-EJF"]


@pytest.mark.parametrize("moved", ["delay", "cancel"])
def test_a_next_duty_moved_on_another_tail_repositions_that_tail_too(moved):
    """Bad day seed 3, E005: EY320's 245-min wait re-timed its crews' next duties (EY353 and two more, late
    evening flights of other tails) past midnight UTC; only EY320's tail was repositioned, so AircraftAvailability
    kept those tails at their destinations on the 21st while their flights left them at AUH."""
    other = _delay(NEXT_DUTY, 30) if moved == "delay" else CancelFlight(flight_id="F9", reason="no crew")
    rest = RestCrew(flight_id="F9", reports={"C1": NEXT_DUTY.scheduled_departure}, stood_down_at=STD)
    assert _repositioned([_delay(OWN, 245), other, rest]) == ["A6-EJB", "A6-EJF"]
