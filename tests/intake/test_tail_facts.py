"""A report naming an aircraft by its registration and no flight number: the tail's first departure that day
(from the airport the report names), found through the aircraft-registration GSI; one line otherwise."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from skymarshal.data import queries as q
from skymarshal.intake.airport_facts import InvalidReport
from skymarshal.intake.disruption_facts import resolve_flight_report
from skymarshal.intake.tail_facts import tail_flight, tail_scope
from skymarshal.models.airports import airport

NOW = datetime(2026, 11, 24, 18, 0, tzinfo=UTC)
DAY = date(2027, 1, 21)


@pytest.fixture
def rotation(handle):
    """A tail with at least two flights on DAY, in departure order."""
    start = datetime(2027, 1, 21, tzinfo=UTC)
    flights = q.flights_at_airport(handle, "AUH", start, start + timedelta(days=1))
    for first in flights:
        day = [
            f
            for f in q.rotation(
                handle, first.aircraft_registration, start - timedelta(days=1), start + timedelta(days=2)
            )
            if f.flight_date == DAY
        ]
        if len(day) >= 2:
            return sorted(day, key=lambda f: f.scheduled_departure)
    pytest.fail("no tail with two flights on 21 January in the seeded airline")


def test_the_tail_s_first_departure_that_day_is_the_flight(handle, rotation):
    tail = rotation[0].aircraft_registration
    flight = tail_flight(f"{tail} has a cracked windshield on January 21st, replacement needed", handle, NOW)
    assert flight == rotation[0]
    disruption, _ = resolve_flight_report(f"{tail} has a cracked windshield on January 21st", flight, handle, NOW)
    assert disruption.iata_delay_code == 41 and disruption.scope.registration == tail
    assert disruption.scope.flights == [flight.flight_id]
    assert tail_scope(disruption).scope.kind == "tail" and tail_scope(disruption).summary().startswith("cracked")


def test_a_named_airport_picks_the_tail_s_departure_from_it(handle, rotation):
    second = rotation[1]
    tail, city = second.aircraft_registration, airport(second.origin).city
    flight = tail_flight(f"{tail} grounded in {city} on January 21st with a cracked windshield", handle, NOW)
    assert flight is not None and flight.origin == second.origin
    assert flight == min((f for f in rotation if f.origin == second.origin), key=lambda f: f.scheduled_departure)


@pytest.mark.parametrize(
    ("report", "words"),
    [
        ("A6-ZZZ has a cracked windshield on January 21st", "A6-ZZZ has no flight on 2027-01-21"),
        ("{tail} has a cracked windshield", "no day"),
    ],
)
def test_an_unknown_tail_or_no_day_is_one_line(handle, rotation, report, words):
    with pytest.raises(InvalidReport, match=words):
        tail_flight(report.format(tail=rotation[0].aircraft_registration), handle, NOW)


def test_a_report_without_a_registration_is_not_a_tail_report(handle):
    assert (
        tail_flight("Abu Dhabi airport is closed by fog from 14:00 to 17:00 UTC on January 22nd", handle, NOW) is None
    )
