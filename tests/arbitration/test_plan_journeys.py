"""arbitration.plans.journeys: a cancellation's passengers on their earliest ways home, read through the GSIs once
per decision (the reads replaced by an in-memory network here: no AWS), the disruption's own facts respected."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import pytest
import row_builders
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skymarshal.arbitration.plans import journeys as ways
from skymarshal.models.operational import Booking

T0 = datetime(2027, 1, 20, tzinfo=UTC)


def flight(fid, origin, destination, dep_h, block_h=3.0, reg="A6-AAA", booked=0, status="SCHEDULED"):
    return row_builders.flight(
        fid.split("-")[0],
        origin,
        destination,
        dep=T0 + timedelta(hours=dep_h),
        block=int(block_h * 60),
        reg=reg,
        type_code="A320",
        distance_km=2000,
        flight_id=fid,
        capacity={"J": 10, "Y": 100},
        booked={"Y": booked},
        status=status,
    )


def booking(n, fid, final, onward=None, cabin="Y"):
    return Booking(
        booking_id=f"B{n}",
        pnr=f"PNR{n:03d}",
        flight_id=fid,
        passenger_id=f"P{n}",
        passenger_name="Test Passenger",
        cabin=cabin,
        final_destination=final,
        onward_flight_id=onward,
        fare_paid=300.0,
    )


CANCELLED = flight("EY346-0120", "AMM", "AUH", 6, reg="A6-BAD")
NETWORK = [
    CANCELLED,
    flight("EY346-0121", "AMM", "AUH", 30, reg="A6-BAD"),  # the same flight tomorrow
    flight("EY348-0120", "AMM", "AUH", 11, reg="A6-BBB", booked=95),  # 15 free (5 Y + 10 J)
    flight("EY352-0120", "AMM", "AUH", 14, reg="A6-CCC"),
    flight("EY11-0120", "AUH", "LHR", 16, block_h=7.5, reg="A6-DDD"),
    flight("EY19-0120", "AUH", "LHR", 22, block_h=7.5, reg="A6-EEE"),
]


@pytest.fixture
def ctx(monkeypatch):
    reads = []
    network = list(NETWORK)  # a test may put another network in its place

    def departures(handle, iata, start, end):
        reads.append(("departures", iata))
        return [f for f in network if f.origin == iata and start <= f.scheduled_departure < end]

    def arrivals(handle, iata, start, end):
        reads.append(("arrivals", iata))
        return [f for f in network if f.destination == iata and start <= f.scheduled_arrival < end]

    monkeypatch.setattr(ways.q, "departures", departures)
    monkeypatch.setattr(ways.q, "arrivals", arrivals)
    monkeypatch.setattr(
        ways.q, "get_flight", lambda handle, fid: next((f for f in network if f.flight_id == fid), None)
    )
    monkeypatch.setattr(
        ways.q, "flights_by_id", lambda handle, ids: {f.flight_id: f for f in network if f.flight_id in set(ids)}
    )
    cache: dict = {}
    context = SimpleNamespace(
        flight=CANCELLED,
        handle=None,
        now=T0,
        weather_window=None,
        tail_grounded=True,
        release_at=None,
        memo=lambda key, compute: cache[key] if key in cache else cache.setdefault(key, compute()),
        memoised=lambda key: key in cache,
        read_profiles=lambda iatas: {},
        reads=reads,
        network=network,
    )
    return context


def test_the_cancelled_flights_passengers_go_home_the_same_day_through_any_flight_number(ctx):
    bookings = [booking(i, CANCELLED.flight_id, "AUH") for i in range(20)]
    bookings += [booking(100 + i, CANCELLED.flight_id, "LHR", onward="EY11-0120") for i in range(3)]
    found = ways.reaccommodation(ctx, [CANCELLED], {CANCELLED.flight_id: bookings})[CANCELLED.flight_id]
    legs = sorted((j.flight_ids, j.passengers) for j in found.journeys)
    # the three connecting to LHR are protected: first on EY348 and on to LHR on EY11 (lands 23:30 against 16:00)
    assert legs == [
        (("EY348-0120",), 12),
        (("EY348-0120", "EY11-0120"), 3),
        (("EY352-0120",), 8),
    ]
    assert all("EY346-0121" not in j.flight_ids for j in found.journeys) and not found.unplaced
    connecting = next(j for j in found.journeys if len(j.legs) == 2)
    assert connecting.flight_ids[-1] == "EY11-0120" and connecting.delay_minutes == 0  # their own onward flight kept
    rebook = ways.journeys(found)
    assert sum(j.passengers for j in rebook) == 23 and all("|" not in j.party for j in rebook)


def test_reads_are_memoised_per_decision(ctx):
    bookings = {CANCELLED.flight_id: [booking(1, CANCELLED.flight_id, "AUH")]}
    ways.reaccommodation(ctx, [CANCELLED], bookings)
    first = list(ctx.reads)
    ways.reaccommodation(ctx, [CANCELLED], bookings)
    assert ctx.reads == first  # the second scenario of the decision reads nothing again


def test_the_grounded_tail_and_the_weather_window_take_nobody_home(ctx):
    assert ways.unusable(ctx, NETWORK[1])  # A6-BAD is grounded with no release: not tomorrow either
    ctx.release_at = T0 + timedelta(hours=20)
    assert not ways.unusable(ctx, NETWORK[1])
    ctx.weather_window = ("AUH", T0 + timedelta(hours=13), T0 + timedelta(hours=18))
    assert ways.unusable(ctx, NETWORK[2])  # EY348 lands at AUH at 14:00, inside the window
    assert ways.unusable(ctx, NETWORK[4])  # EY11 leaves AUH at 16:00, inside the window
    assert not ways.unusable(ctx, NETWORK[5])


def test_the_horizon_is_the_end_of_the_next_local_day():
    assert ways.horizon(CANCELLED) == datetime(2027, 1, 21, 21, tzinfo=UTC)  # midnight in Amman (UTC+3 all year)


def test_the_cancellation_records_the_journeys_and_is_costed_with_their_minutes_and_nights(ctx):
    from skymarshal.arbitration.plans.cancellation import INTERLINE_DELAY_MINUTES, cancelled

    bookings = [booking(i, CANCELLED.flight_id, "AUH") for i in range(130)]  # 15 + 110 seats the same day
    ctx.bookings, ctx.disruption_type, ctx.cause = bookings, "mechanical", "technical"
    gone = cancelled(ctx, [CANCELLED], "test")
    rebook = gone.actions[1]
    assert {tuple(j.flights): j.passengers for j in rebook.journeys} == {
        ("EY348-0120",): 15,
        ("EY352-0120",): 110,  # J seats too: an upgrade before a day's wait
    }  # tomorrow's EY346 flies the grounded tail (no release): the other 5 go to partners
    assert rebook.onto == {"EY348-0120": 15, "EY352-0120": 110} and rebook.interline == 5
    same_day = 15 * (14 - 9) * 60 + 110 * (17 - 9) * 60  # EY348 lands 14:00, EY352 17:00; due 09:00
    assert gone.passenger_minutes == same_day + 5 * INTERLINE_DELAY_MINUTES
    assert gone.overnight == 5  # only the partners' passengers wait over the night
    assert sum(c.hotel_passengers for c in gone.care) == 5


def test_a_three_flight_way_home_is_found_reading_the_fewer_stations_for_its_middle_flight(ctx):
    """AMM-BAH-DOH-MCT: the middle flight BAH-DOH is read from the arrivals at DOH (the one station a last flight
    leaves) rather than the departures of every station the first flights reach."""
    three = [
        flight("GF1-0120", "AMM", "BAH", 8),
        flight("GF3-0120", "AMM", "KWI", 8),
        flight("GF5-0120", "AMM", "CAI", 8),
        flight("QR7-0120", "BAH", "DOH", 12),
        flight("WY9-0120", "DOH", "MCT", 16),
    ]
    ctx.network[:] = three
    bookings = {CANCELLED.flight_id: [booking(1, CANCELLED.flight_id, "MCT")]}
    found = ways.reaccommodation(ctx, [CANCELLED], bookings)[CANCELLED.flight_id]
    assert [j.flight_ids for j in found.journeys] == [("GF1-0120", "QR7-0120", "WY9-0120")]
    assert sorted(ctx.reads) == [("arrivals", "DOH"), ("arrivals", "MCT"), ("departures", "AMM")]


# --- a late landing's passengers walked to their final destinations (the ranking's day cost, issue 46 item 3) ---

FEEDER = NETWORK[2]  # EY348 AMM-AUH lands 14:00; EY11 on to LHR leaves 16:00, EY19 22:00 (default MCT 60)


def _landed(ctx, late_minutes: int, moved=None):
    rows = [booking(i, FEEDER.flight_id, "AUH") for i in range(4)]
    rows += [booking(10 + i, FEEDER.flight_id, "LHR", onward="EY11-0120") for i in range(3)]
    return ways.landing(ctx, FEEDER, rows, FEEDER.scheduled_arrival + timedelta(minutes=late_minutes), moved or {})


def test_a_connection_made_costs_its_passengers_only_the_onward_flights_delay(ctx):
    landed = _landed(ctx, 30)  # 14:30 + 60 ≤ 16:00
    assert (landed.minutes, landed.stranded, landed.unplaced) == (4 * 30, 0, 0)
    moved = _landed(ctx, 30, {"EY11-0120": NETWORK[4].departure + timedelta(minutes=45)})
    assert moved.minutes == 4 * 30 + 3 * 45  # the plan re-times the onward flight too: its delay is theirs


def test_a_connection_missed_costs_the_next_direct_flight_home_from_the_connection(ctx):
    assert _landed(ctx, 60).minutes == 4 * 60  # 15:00 + 60 = 16:00: made at the MCT exactly
    landed = _landed(ctx, 90)  # 15:30 + 60 > 16:00: EY11 missed, EY19 at 22:00 lands 05:30 against 23:30
    assert landed.minutes == 4 * 90 + 3 * 360 and landed.unplaced == 0
    assert landed.stranded == 3  # EY19 leaves at 02:00 Abu Dhabi time: a night at the connection
    assert ctx.reads == [("departures", "AUH")]  # one read of the connecting airport's departures, nothing else
    held = _landed(ctx, 90, {"EY11-0120": NETWORK[4].departure + timedelta(minutes=40)})
    assert held.minutes == 4 * 90 + 3 * 40  # EY11 re-timed to 16:40 by the plan: made (15:30 + 60), 40 late


def test_a_connection_missed_with_no_own_flight_home_is_left_to_the_caller(ctx):
    ctx.network.remove(NETWORK[5])  # no later flight to LHR in the horizon: a partner's, counted by day_cost
    landed = _landed(ctx, 90)
    assert (landed.minutes, landed.unplaced) == (4 * 90, 3)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(first=st.integers(0, 600), later=st.integers(0, 600))
def test_landing_later_never_costs_the_passengers_less(ctx, first, later):
    from skymarshal.arbitration.plans.cancellation import INTERLINE_DELAY_MINUTES

    def counted(landed):  # as day_cost counts it: one no own flight takes home goes on a partner the next day
        return landed.minutes + landed.unplaced * INTERLINE_DELAY_MINUTES

    early, late = sorted((first, later))
    assert counted(_landed(ctx, early)) <= counted(_landed(ctx, late))
