"""A swap to an aircraft that would have to give up its own flights is refused (CONFLICTING_FLIGHTS) unless the plan
gives every one of those flights to another tail — an exchange (plans/exchange.py), whose two rotations the rotation
check then judges; any other refusal stands whatever the plan gives away."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_grounded_spares import probe

from skymarshal.arbitration.actions import SwapAircraft
from skymarshal.arbitration.models import Scenario
from skymarshal.arbitration.validation.scenario import _swap_refusals
from skymarshal.rules.tail_swap_models import SwapRefusal

pytestmark = pytest.mark.unit
OWN = ["EY862-20270121", "EY863-20270122", "EY878-20270122"]


def plan(given_away: list[str]) -> Scenario:
    actions = [
        SwapAircraft(flight_id=f, from_registration="A6-BLT", to_registration="A6-BLA", to_aircraft_type="B789")
        for f in given_away
    ]
    return Scenario(
        scenario_id="tail_swap:A6-BLT:exchange",
        kind="tail_swap",
        title="Swap to A6-BLT",
        sources=["generator"],
        actions=actions,
        operates=True,
        registration="A6-BLT",
        aircraft_type="B789",
        departure=None,
        arrival=None,
        arrival_airport="LHR",
        delay_minutes=0,
        arrival_delay_minutes=0,
        passengers_impacted=0,
        cost_usd=0.0,
    )


@given(
    st.lists(st.sampled_from(OWN), min_size=1, unique=True),
    st.lists(st.sampled_from(OWN), unique=True),
    st.sets(st.sampled_from(["NOT_AIRWORTHY", "WRONG_STATION", "OUT_OF_RANGE"])),
)
def test_only_the_flights_given_away_lift_the_conflict(conflicting, given_away, others):
    result = probe({"CONFLICTING_FLIGHTS", *others}).model_copy(
        update={
            "flights_to_give_up": tuple(conflicting),
            "refusals": tuple(SwapRefusal(code=c, message=c) for c in sorted({"CONFLICTING_FLIGHTS", *others})),
        }
    )
    left = {r.code for r in _swap_refusals(plan(given_away), result)}
    assert left >= others  # nothing else is lifted
    assert ("CONFLICTING_FLIGHTS" in left) == (not set(conflicting) <= set(given_away))
