"""Issue 31: the aircraft at the origin that are grounded (AOG, in a check, unairworthy) are considered for a swap
and refused by validation — the duty manager's "what about the spare?" answered — while aircraft refused for any
other reason (busy with their own flights, elsewhere, out of range) stay out of the generated plans."""

from __future__ import annotations

from typing import get_args

from hypothesis import given
from hypothesis import strategies as st

from skymarshal.arbitration.plans.generator import grounded_at_origin
from skymarshal.rules.tail_swap_models import CabinPlan, SwapRefusal, SwapRefusalCode, TailSwapEligibility

GROUNDED = {"UNAVAILABLE", "NOT_AIRWORTHY"}


def probe(codes: set[str]) -> TailSwapEligibility:
    return TailSwapEligibility(
        registration="A6-BLT",
        aircraft_type="B789",
        flight_id="EY19-20270121",
        eligible=not codes,
        refusals=tuple(SwapRefusal(code=c, message=c) for c in sorted(codes)),  # type: ignore[arg-type]
        notes=(),
        station="AUH",
        ready_at=None,
        turn_margin_minutes=None,
        flights_to_give_up=(),
        cabin_plan=CabinPlan(booked={}, capacity={}, downgraded={}, upgraded={}, offloaded=0),
        findings=(),
    )


@given(st.sets(st.sampled_from(get_args(SwapRefusalCode))))
def test_only_an_aircraft_refused_for_being_grounded_is_shown_refused(codes):
    assert grounded_at_origin(probe(codes)) == (bool(codes) and codes <= GROUNDED)
