"""Execute's pre-write re-check sees the flights as a plan leaves them (workflow.execution.integrity.applied): a swap
onto a tail of another type of the same group carries the new tail's type, so the turn after it is held to the type
that flies it (an A321's flight on an A320 turns in the A320's time, not the A321's). Property (hypothesis): the
applied swap's flight has the registration and type the swap names, and nothing else changes."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from skymarshal.arbitration.actions import SwapAircraft
from skymarshal.models.operational import Flight
from skymarshal.rules.rotation import rotation_breaks
from skymarshal.workflow.execution.integrity import applied

DAY = datetime(2027, 1, 22, 17, 45, tzinfo=UTC)


def flight(n: int, origin: str, destination: str, dep: datetime, minutes: int, reg: str, kind: str) -> Flight:
    return Flight(
        flight_id=f"EY{n}-20270122", flight_number=f"EY{n}", carrier="EY", origin=origin, destination=destination,
        flight_date=dep.date(), scheduled_departure=dep, scheduled_arrival=dep + timedelta(minutes=minutes),
        aircraft_registration=reg, aircraft_type=kind, block_minutes=minutes, distance_km=2000,
        capacity={"J": 8, "Y": 150},
    )  # fmt: skip


@given(st.sampled_from(["A320", "A321"]), st.integers(0, 120))
def test_a_swapped_flight_carries_the_new_tails_type(to_type, later):
    out = flight(379, "AUH", "BAH", DAY, 235, "A6-EJC", "A321")
    back = flight(380, "BAH", "AUH", DAY + timedelta(minutes=235 + 45 + later), 260, "A6-EJC", "A321")
    swaps = [
        SwapAircraft(
            flight_id=f.flight_id, from_registration="A6-EJC", to_registration="A6-EIG", to_aircraft_type=to_type
        )
        for f in (out, back)
    ]
    after = applied({f.flight_id: f for f in (out, back)}, swaps, "EY")
    assert {(f.aircraft_registration, f.aircraft_type) for f in after.values()} == {("A6-EIG", to_type)}
    assert [f.model_dump(exclude={"aircraft_registration", "aircraft_type"}) for f in after.values()] == [
        f.model_dump(exclude={"aircraft_registration", "aircraft_type"}) for f in (out, back)
    ]
    # a 45-min turn is the A320's minimum and short of the A321's 50
    short = [b.code for b in rotation_breaks("A6-EIG", list(after.values())) if b.code == "SHORT_TURN"]
    assert short == ([] if to_type == "A320" or later >= 5 else ["SHORT_TURN"])
