"""A tail exchange re-times each tail's new sequence (arbitration/plans/exchange.py): a flight never leaves before its
schedule, its current estimate, the tail's ready time (the first) or the previous arrival plus the type's minimum
turn-round, and leaves at the first of those moments; only flights it makes later are re-timed."""

from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st
from row_builders import flight, utc

from skymarshal.arbitration.rotation.plan import retimed_sequence
from skymarshal.models.fleet import AIRCRAFT_TYPES

pytestmark = pytest.mark.unit
START = utc(2027, 1, 21, 6)
TURN = timedelta(minutes=AIRCRAFT_TYPES["A35K"].min_turn_minutes)


@st.composite
def sequences(draw):
    """An out-and-back sequence of 1-5 flights of one tail, gaps between them of 0-6 h, some already late."""
    out, at = [], START + timedelta(minutes=draw(st.integers(0, 600)))
    for i in range(draw(st.integers(1, 5))):
        block = draw(st.integers(45, 600))
        late = draw(st.sampled_from([0, 0, 30, 120]))
        origin, destination = ("AUH", "CDG") if i % 2 == 0 else ("CDG", "AUH")
        x = flight(f"EY{100 + i}", origin, destination, dep=at, block=block, reg="A6-XWA", type_code="A35K")
        if late:
            x = x.model_copy(
                update={
                    "delay_minutes": late,
                    "estimated_departure": at + timedelta(minutes=late),
                    "estimated_arrival": at + timedelta(minutes=block + late),
                }
            )
        out.append(x)
        at += timedelta(minutes=block) + timedelta(minutes=draw(st.integers(0, 360)))
    return out


@given(sequences(), st.integers(-120, 900))
def test_each_flight_leaves_at_the_first_moment_its_tail_allows(sequence, ready_after):
    ready = START + timedelta(minutes=ready_after)
    retimed = {a.flight_id: a for a in retimed_sequence(sequence, ready)}
    free = ready
    for x in sequence:
        earliest = max(x.departure, x.scheduled_departure, free)
        a = retimed.get(x.flight_id)
        leaves = a.new_departure if a else x.departure
        assert leaves == earliest
        assert (a is not None) == (earliest > x.departure)  # only a flight made later is re-timed
        if a:
            assert a.delay_minutes == (leaves - x.scheduled_departure) // timedelta(minutes=1)
            assert a.new_arrival - a.new_departure == x.scheduled_arrival - x.scheduled_departure
        free = leaves + (x.scheduled_arrival - x.scheduled_departure) + TURN
