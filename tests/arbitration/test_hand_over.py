"""The rest of the rotation handed over (arbitration/plans/hand_over.py): a flight held so long at an outstation that
its tail would fly the rest of its day late hands its next flights at the hub to another aircraft of the type that
is free there — a spare takes them as scheduled; an aircraft between two of its own flights takes them and the late
tail flies its next flights instead; nobody free at the hub, or a delay that leaves the later flights on time, and
there is no hand-over. Whatever it builds leaves both rotations flyable in sequence."""

from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from row_builders import aircraft_day, bare_context, flight, utc

from skymarshal.arbitration.actions import DelayFlight, SwapAircraft
from skymarshal.arbitration.memo_keys import TailRead, WorkOrdersRead
from skymarshal.arbitration.plans import hand_over as module
from skymarshal.arbitration.rotation.plan import planned, retimed
from skymarshal.data import queries as q
from skymarshal.models.disruption import Disruption, Scope
from skymarshal.models.fleet import AIRCRAFT_TYPES
from skymarshal.rules.rotation import rotation_breaks

pytestmark = pytest.mark.unit
LATE, OTHER = "A6-EJK", "A6-EJQ"
TURN = timedelta(minutes=AIRCRAFT_TYPES["A321"].min_turn_minutes)
HELD = flight("EY362", "ISB", "AUH", utc(2027, 1, 20, 2, 5), block=185, reg=LATE, type_code="A321")
OUT = flight("EY389", "AUH", "BOM", utc(2027, 1, 20, 6, 15), block=240, reg=LATE, type_code="A321")
BACK = flight("EY390", "BOM", "AUH", utc(2027, 1, 20, 11, 5), block=250, reg=LATE, type_code="A321")
EVENING = flight("EY357", "AUH", "CAI", utc(2027, 1, 20, 17, 30), block=230, reg=LATE, type_code="A321")


def own_out_and_back(leaves, reg=OTHER):
    """An out-and-back of `reg` from AUH leaving at `leaves`, back 4 h 10 min later."""
    out = flight("EY501", "AUH", "KWI", leaves, block=120, reg=reg, type_code="A321")
    back = flight("EY502", "KWI", "AUH", leaves + timedelta(minutes=170), block=120, reg=reg, type_code="A321")
    return [out, back]


def context(monkeypatch, other_flights, *, other_at="AUH", landed=(), booked=None):
    """The held flight's decision with every read answered from these rows: the late tail's day, the other
    aircraft's (at `other_at` at the start of the day), the arrivals at AUH."""
    cause = Disruption(
        iata_delay_code=85,
        family="atfm_airport_government",
        cause="security",
        scope=Scope(kind="flight", flights=[HELD.flight_id]),
    )
    ctx = bare_context(
        HELD, cause, rotation=[HELD, OUT, BACK, EVENING], now=HELD.scheduled_departure - timedelta(minutes=90)
    )
    later = [x.model_copy(update={"booked": booked}) if booked else x for x in (OUT, BACK, EVENING)]
    ctx.memo(TailRead(LATE), lambda: [HELD, *later])
    ctx.memo(TailRead(OTHER), lambda: list(other_flights))
    for reg in (LATE, OTHER):
        ctx.memo(WorkOrdersRead(reg), lambda: [])
    monkeypatch.setattr(q, "arrivals", lambda handle, station, low, high: list(landed))
    day = aircraft_day(OTHER, "A321", station=other_at, status="SPARE" if not other_flights else "IN_SERVICE")
    monkeypatch.setattr(q, "fleet_of_type", lambda handle, type_code, on: [day])
    return ctx


def test_a_spare_at_the_hub_flies_the_out_and_back_as_scheduled(monkeypatch):
    handed = module.hand_over(context(monkeypatch, []), 190)
    assert handed is not None and handed.tail == OTHER
    assert [x.flight_number for x in handed.taken] == ["EY389", "EY390"] and handed.given == ()
    assert [a for a in handed.actions if isinstance(a, DelayFlight)] == []  # nobody else leaves late
    assert {a.flight_id: a.to_registration for a in handed.actions if isinstance(a, SwapAircraft)} == {
        OUT.flight_id: OTHER,
        BACK.flight_id: OTHER,
    }


def test_an_aircraft_between_its_own_flights_swaps_blocks_with_the_late_tail(monkeypatch):
    own = own_out_and_back(utc(2027, 1, 20, 10))  # it leaves AUH at 10:00Z: the late tail is back by then
    handed = module.hand_over(context(monkeypatch, own), 190)
    assert handed is not None and handed.given == tuple(own)
    assert handed.added_minutes == 0  # both blocks leave on time
    moved = {a.flight_id: a.to_registration for a in handed.actions if isinstance(a, SwapAircraft)}
    assert moved == {OUT.flight_id: OTHER, BACK.flight_id: OTHER, own[0].flight_id: LATE, own[1].flight_id: LATE}


@pytest.mark.parametrize("other_at", ["DXB"])
def test_nobody_at_the_hub_no_hand_over(monkeypatch, other_at):
    assert module.hand_over(context(monkeypatch, [], other_at=other_at), 190) is None


def test_a_hand_over_that_spares_less_than_the_swap_costs_is_not_offered(monkeypatch):
    slack = int((OUT.scheduled_departure - HELD.scheduled_arrival - TURN).total_seconds() // 60)
    # 15 minutes of knock-on on the out-and-back: worth a swap with full flights, not with five passengers on each
    assert module.hand_over(context(monkeypatch, []), slack + 15) is not None
    assert module.hand_over(context(monkeypatch, [], booked={"Y": 5}), slack + 15) is None


def test_a_delay_the_next_flight_absorbs_needs_no_hand_over(monkeypatch):
    slack = int((OUT.scheduled_departure - HELD.scheduled_arrival - TURN).total_seconds() // 60)
    assert module.hand_over(context(monkeypatch, []), slack) is None


@settings(max_examples=60, deadline=None)
@given(
    delay=st.integers(30, 900),
    leaves=st.one_of(st.none(), st.integers(4 * 60, 20 * 60)),  # the other aircraft's own out-and-back, if any
)
def test_whatever_it_hands_over_both_rotations_fly_and_the_next_flight_leaves_sooner(delay, leaves):
    own = [] if leaves is None else own_out_and_back(utc(2027, 1, 20) + timedelta(minutes=leaves))
    with pytest.MonkeyPatch.context() as patched:
        ctx = context(patched, own)
        handed = module.hand_over(ctx, delay)
        late_arrival = HELD.scheduled_arrival + timedelta(minutes=delay)
        if late_arrival + TURN <= OUT.scheduled_departure:
            assert handed is None
        if handed is None:
            return
        for reg, sequence in planned(ctx, [retimed(HELD, delay), *handed.actions]).items():
            assert [b for b in rotation_breaks(reg, sequence) if b.continuity] == [], reg
    moved = [a for a in handed.actions if isinstance(a, DelayFlight)]
    assert all(a.delay_minutes >= 0 for a in moved)  # nothing leaves before its schedule
    times = {a.flight_id: a.new_departure for a in moved}
    first = handed.taken[0]
    assert times.get(first.flight_id, first.scheduled_departure) < late_arrival + TURN  # sooner than the late tail
