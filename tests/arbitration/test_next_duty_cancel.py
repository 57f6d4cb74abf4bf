"""A member's roster as a plan that cancels flights leaves it (arbitration/crew/next_duty_cancel.py): a duty every
flight of which the plan cancels is no duty — no report, no rest owed before it — and any other duty stays whole,
a partly cancelled one included (its crew still reports for what is left)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st
from row_builders import flight, flight_duty, utc

from skymarshal.arbitration.crew.next_duty_cancel import without_cancelled

pytestmark = pytest.mark.unit


@st.composite
def rosters(draw):
    """One member's roster: 1-4 duties of 1-3 sectors each, a day apart."""
    rows = []
    for d in range(draw(st.integers(1, 4))):
        start = utc(2027, 1, 20, 6) + timedelta(days=d)
        for s in range(draw(st.integers(1, 3))):
            f = flight(
                f"EY{100 + 10 * d + s}", dep=start + timedelta(hours=3 * s), block=120, reg="A6-EJK", type_code="A321"
            )
            rows.append(flight_duty("C1", f, duty_id=f"D{d}"))
    return rows


@given(rosters(), st.data())
def test_a_duty_goes_only_when_every_flight_of_it_is_cancelled(rows, data):
    flights = [r.flight_id for r in rows]
    cancelled = frozenset(data.draw(st.lists(st.sampled_from(flights), unique=True)))
    kept = without_cancelled(rows, cancelled)
    for duty in {r.duty_id for r in rows}:
        own = [r for r in rows if r.duty_id == duty]
        gone = all(r.flight_id in cancelled for r in own)
        assert [r for r in kept if r.duty_id == duty] == ([] if gone else own)


def test_nothing_cancelled_leaves_the_roster_as_it_is():
    rows = [flight_duty("C1", flight("EY1", dep=utc(2027, 1, 20, 6), reg="A6-EJK", type_code="A321"))]
    assert without_cancelled(rows, frozenset()) == rows
