"""An aircraft reported running late through its day by its own rotation (AHM 730 93), the registration the subject,
is the tail's disruption at its first flight — not one network disruption holding each later flight at a stated
delay (intake/tail_facts.running_late). A set the report describes stays the set; another cause with the same words
is no knock-on. Phrasings written here, on the seeded airline's tails (hypothesis over them)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_named_flights import Store, run  # noqa: F401 (the Validate fixture)

from skymarshal.intake.tail_facts import running_late
from skymarshal.models.operational import Flight

REPORTED = datetime(2027, 1, 20, 23, 0, tzinfo=UTC)
DAY = datetime(2027, 1, 21, tzinfo=UTC)
KNOCK_ON = [
    "{tail} running about an hour behind all day on {day}, knock-on from its first rotation.",
    "{tail} is running 45 min late for the rest of {day}, consequential from the inbound.",
    "{tail} {day} late rotation all day (consequential), every sector behind",
]


@pytest.fixture(scope="module")
def rotations(airline) -> list[list[Flight]]:
    """Tails with two flights or more on 21 January, each in departure order."""
    by_tail: dict[str, list[Flight]] = {}
    for f in airline.tables["flights"]:
        if isinstance(f, Flight) and f.flight_date == DAY.date():
            by_tail.setdefault(f.aircraft_registration, []).append(f)
    found = [sorted(v, key=lambda f: f.scheduled_departure) for _, v in sorted(by_tail.items()) if len(v) >= 2]
    assert found
    return found


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pick=st.integers(0, 10_000), form=st.sampled_from(KNOCK_ON))
def test_an_aircraft_running_late_is_the_tail_s_at_its_first_flight(rotations, run, pick, form):  # noqa: F811
    day = rotations[pick % len(rotations)]
    report = form.format(tail=day[0].aircraft_registration, day="21JAN")
    disruption, overlay = run(report, REPORTED)
    assert disruption.scope.kind == "tail" and disruption.iata_delay_code == 93, report
    assert disruption.scope.flights == [day[0].flight_id]
    held = {str(p.key.get("flight_id")) for p in overlay.patches if p.table == "flights"}
    assert held <= {day[0].flight_id}  # the later flights' delays are the plans' to compute


def test_a_named_first_flight_of_a_late_aircraft_is_the_tail_s(rotations, run):  # noqa: F811
    first = rotations[0][0]
    report = f"{first.aircraft_registration} running an hour late for the rest of 21JAN, starting with {first.flight_number} (knock-on)"
    disruption, _ = run(report, REPORTED)
    assert (disruption.scope.kind, disruption.scope.flights) == ("tail", [first.flight_id])


@pytest.mark.parametrize(
    ("report", "late"),
    [
        ("A6-BLA running about 40 min behind, late inbound aircraft", True),
        ("A6-BLA 21JAN late rotation all day, aircraft late from previous sector", True),
        # a set described: the set, not the tail
        ("the whole A6-BLA rotation will go late as the aircraft is coming in late from its previous sector", False),
        # the same words with another cause: no knock-on
        ("A6-BLA running late, hydraulic leak found at the walk-round", False),
        # the registration not the one running
        ("late inbound aircraft, swap to A6-BLA considered", False),
    ],
)
def test_running_late_needs_the_knock_on_and_the_aircraft_as_subject(report, late):
    assert running_late(report) is late
