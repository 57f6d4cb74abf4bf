"""rules.rotation: a rotation built in sequence has no break; moving, overlapping or grounding one flight gives
exactly the typed break that names it (hypothesis over random rotations)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from skymarshal.models.fleet import AIRCRAFT_TYPES
from skymarshal.models.operational import AircraftDay, Flight
from skymarshal.rules.rotation import availability_breaks, expected_day, rotation_breaks

AIRPORTS = ("AUH", "LHR", "FRA", "JFK", "BOM", "SYD")
TYPE = "B789"
TURN = AIRCRAFT_TYPES[TYPE].min_turn_minutes
START = datetime(2027, 1, 20, 2, tzinfo=UTC)


def _leg(n: int, origin: str, destination: str, departure: datetime, block: int) -> Flight:
    return Flight(
        flight_id=f"EY{n}-X",
        flight_number=f"EY{n}",
        carrier="EY",
        origin=origin,
        destination=destination,
        flight_date=departure.date(),
        scheduled_departure=departure,
        scheduled_arrival=departure + timedelta(minutes=block),
        aircraft_registration="A6-TST",
        aircraft_type=TYPE,
        block_minutes=block,
        distance_km=1000,
        capacity={"Y": 200},
    )


legs = st.lists(st.tuples(st.sampled_from(AIRPORTS), st.integers(60, 900), st.integers(0, 300)), min_size=1, max_size=8)


def _rotation(spec) -> list[Flight]:
    out, at, where = [], START, "AUH"
    for n, (to, block, slack) in enumerate(spec):
        to = to if to != where else "DXB"
        out.append(_leg(100 + n, where, to, at, block))
        at, where = at + timedelta(minutes=block + TURN + slack), to
    return out


@given(legs)
def test_a_rotation_flown_in_sequence_has_no_break(spec):
    flights = _rotation(spec)
    assert rotation_breaks("A6-TST", flights, start_station="AUH") == []
    days = [
        expected_day(
            AircraftDay(
                aircraft_registration="A6-TST",
                date=date(2027, 1, 20) + timedelta(days=d),
                aircraft_type=TYPE,
                status="IN_SERVICE",
                station="AUH",
                capacity={"Y": 200},
            ),
            flights,
            "AUH",
        )
        for d in range(4)
    ]
    assert availability_breaks(days, flights) == []


@given(legs.filter(lambda s: len(s) >= 2), st.data())
def test_a_flight_moved_earlier_than_the_turn_is_named(spec, data):
    flights = _rotation(spec)
    i = data.draw(st.integers(1, len(flights) - 1))
    previous, moved = flights[i - 1], flights[i]
    # still after the previous departure, so the order of the rotation stays and the break is this flight's
    early = previous.scheduled_arrival + timedelta(minutes=data.draw(st.integers(1 - previous.block_minutes, TURN - 1)))
    flights[i] = moved.model_copy(
        update={"estimated_departure": early, "estimated_arrival": early + timedelta(hours=1)}
    )
    codes = {(b.code, b.flight_id) for b in rotation_breaks("A6-TST", flights, start_station="AUH")}
    want = "OVERLAP" if early < previous.scheduled_arrival else "SHORT_TURN"
    assert (want, moved.flight_id) in codes


@given(legs.filter(lambda s: len(s) >= 2), st.data())
def test_a_flight_left_where_the_tail_is_not_is_a_wrong_station(spec, data):
    flights = _rotation(spec)
    i = data.draw(st.integers(0, len(flights) - 2))
    cancelled = flights[i].flight_id
    flights[i] = flights[i].model_copy(update={"status": "CANCELLED"})
    breaks = rotation_breaks("A6-TST", flights, start_station="AUH")
    assert any(b.code == "WRONG_STATION" and b.flight_id == flights[i + 1].flight_id for b in breaks), cancelled


@given(legs, st.data())
def test_a_reported_grounding_names_every_flight_inside_it_and_no_other(spec, data):
    flights = _rotation(spec)
    hours = data.draw(st.integers(0, 48))
    release = START + timedelta(hours=hours)
    breaks = rotation_breaks("A6-TST", flights, grounded_between=(START, release))
    assert {b.flight_id for b in breaks if b.code == "GROUNDED"} == {
        f.flight_id for f in flights if f.scheduled_departure < release
    }
