"""Flights a report describes rather than names ("all our London flights this evening", "A6-BLQ's flights today",
"every departure to Bahrain tomorrow morning"), on the seeded airline: found for the report's day through the GSIs
(intake/described_flights.py), one network disruption over exactly that set; a description no flight fits, or two
days for one set, is one line and nothing is written; a tail report without flight words stays the tail's flight.

The reports are the reading bench's (bench/reading/described.py): a tail's flights or the flights to, from, or to
or from a place, over the day or a part of it, every cause reported for several flights or a tail, every style —
generated, never a phrasing written for the test."""

from __future__ import annotations

import random
from datetime import time

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from test_named_flights import Store, run  # noqa: F401 (the Validate fixture)

from bench.reading.airline_view import AirlineView, view_of
from bench.reading.causes import CAUSES
from bench.reading.corpus import compose, reportable, reported_at_of, styles_for
from skymarshal.intake.described_flights import described_flights
from skymarshal.intake.flight_sets import PARTS_OF_DAY
from skymarshal.network.scope import is_named_set
from skymarshal.network.window_analysis import is_network
from skymarshal.workflow.steps.validate import InvalidDisruption

DESCRIBED = [c for c in CAUSES if reportable(c, "described")]
WORDS = {"destination": "every departure to {p}", "origin": "all flights out of {p}", "either": "all our {p} flights"}


@pytest.fixture(scope="module")
def view(airline) -> AirlineView:
    return view_of(airline)


def _report(view: AirlineView, seed: int, cause_index: int, style_index: int, contradiction=None):
    cause = DESCRIBED[cause_index % len(DESCRIBED)]
    styles = styles_for(cause, "described")
    style = styles[style_index % len(styles)]
    return compose(view, random.Random(seed), cause, "described", style, reported_at_of(view), "D1", contradiction)


@settings(max_examples=8, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31), cause=st.integers(0, 99), style=st.integers(0, 9))
def test_a_described_set_is_one_network_disruption_over_exactly_its_flights(view, run, seed, cause, style):  # noqa: F811
    report = _report(view, seed, cause, style)
    assume(report is not None)
    assert report is not None and len(report.truth.flights) >= 2
    disruption, _ = run(report.text, report.reported_at)
    assert set(disruption.scope.flights) == set(report.truth.flights), report.text
    assert disruption.family == report.truth.family, report.text
    assert is_named_set(disruption) and is_network(disruption)
    [fact] = [f for f in disruption.facts if f.name == "flights_described"]
    assert fact.source == "stated" and all(n in str(fact.value) for n in disruption.scope.flight_numbers)


@settings(max_examples=4, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31), cause=st.integers(0, 99), style=st.integers(0, 9))
def test_a_description_no_flight_fits_is_refused_in_one_line_and_nothing_is_written(view, run, seed, cause, style):  # noqa: F811
    report = _report(view, seed, cause, style, "description_matches_none")
    assume(report is not None)
    assert report is not None
    store = Store()
    with pytest.raises(InvalidDisruption) as refused:
        run(report.text, report.reported_at, store)
    assert "no flight" in str(refused.value) and "\n" not in str(refused.value), report.text
    assert not store.saved


@settings(max_examples=15, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    seed=st.integers(0, 2**31),
    end=st.sampled_from(sorted(WORDS)),
    part=st.sampled_from([None, *PARTS_OF_DAY]),
)
def test_the_set_is_every_flight_of_the_day_at_that_end_in_that_part(view, handle, seed, end, part):
    """Against the rows, with the reader's own bands (no margin): the GSI reads miss no flight and add none."""
    rng = random.Random(seed)
    day = rng.choice(view.days)
    place = rng.choice([a for a in view.served if a != "AUH"])
    ends = {"destination": ("destination",), "origin": ("origin",), "either": ("origin", "destination")}[end]
    expected = set()
    for f in view.by_day[day]:
        leaves = view.local_departure(f).time()
        start, until = PARTS_OF_DAY[part] if part else (time(0), None)
        to_operate = f.status in ("SCHEDULED", "DELAYED")
        if (
            to_operate
            and any(getattr(f, e) == place for e in ends)
            and start <= leaves
            and (until is None or leaves < until)
        ):
            expected.add(f.flight_id)
    text = f"{WORDS[end].format(p=place)} {f'in the {part} of' if part else 'on'} {day:%d %B %Y} are held by a strike"
    try:
        found = described_flights(text, handle, reported_at_of(view))
    except ValueError as refused:  # InvalidReport: nothing fits
        assert not expected, (text, str(refused))
        return
    assert found is not None and {f.flight_id for f in found.flights} == expected, text


def test_two_days_for_one_set_are_refused_naming_them(view, run):  # noqa: F811
    registration = view.by_day[view.days[1]][0].aircraft_registration
    store = Store()
    first, second = view.days[1], view.days[2]
    text = f"All flights operated by {registration} on {first:%d %B} and {second:%d %B} are delayed: hydraulic leak"
    with pytest.raises(InvalidDisruption, match="different days") as refused:
        run(text, reported_at_of(view), store)
    assert first.isoformat() in str(refused.value) and second.isoformat() in str(refused.value)
    assert not store.saved


def test_a_tail_report_without_flight_words_stays_the_tails_flight(view, run):  # noqa: F811
    day = view.days[1]
    registration, rows = next((r, rows) for (r, d), rows in view.by_tail_day.items() if d == day and len(rows) >= 2)
    disruption, _ = run(f"{registration} grounded on {day:%d %B} with a cracked windshield", reported_at_of(view))
    assert disruption.scope.kind == "tail" and disruption.scope.flights == [rows[0].flight_id]
    described, _ = run(f"{registration}'s flights on {day:%d %B}: cracked windshield", reported_at_of(view))
    assert described.scope.kind == "flight" and set(described.scope.flights) == {f.flight_id for f in rows}


@settings(max_examples=10, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31), twelve_hour=st.booleans())
def test_one_flight_described_by_its_local_time_and_place_is_that_flight(view, handle, seed, twelve_hour):
    """ "The 3:45 pm local to Bahrain": the one flight to that place leaving then (local at its origin); a clock
    that fits several is a question naming them, never a guess."""
    rng = random.Random(seed)
    day = rng.choice(view.days)
    flight = rng.choice([f for f in view.by_day[day] if f.status in ("SCHEDULED", "DELAYED")])
    leaves = view.local_departure(flight).time()
    clock = f"{leaves:%I:%M %p}".lstrip("0").lower() if twelve_hour else f"{leaves:%H%M}"
    text = f"The {clock} local to {flight.destination} on {day:%d %B %Y} is held: catering truck broke down"
    minutes = leaves.hour * 60 + leaves.minute

    def clock_near(f) -> bool:  # the clock each flight leaves by at its own origin
        at = view.local_departure(f).time()
        gap = abs(at.hour * 60 + at.minute - minutes)
        return min(gap, 24 * 60 - gap) <= 10

    near = [
        f
        for f in view.by_day[day]
        if f.destination == flight.destination and f.status in ("SCHEDULED", "DELAYED") and clock_near(f)
    ]
    if len(near) > 1:
        with pytest.raises(ValueError, match="name one"):
            described_flights(text, handle, reported_at_of(view))
        return
    found = described_flights(text, handle, reported_at_of(view))
    assert found is not None and [f.flight_id for f in found.flights] == [flight.flight_id], text
    assert "the flight to" in found.fact().value


def test_the_flight_alone_describes_nothing(view, handle):
    day = view.days[1]
    place = next(a for a in view.served if a != "AUH")
    assert described_flights(f"the flight to {place} on {day:%d %B %Y} is late", handle, reported_at_of(view)) is None


@settings(max_examples=10, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31))
def test_a_type_in_the_description_keeps_the_flights_of_that_type(view, handle, seed):
    """ "All A35K departures to X": that type's flights to X; a type that flies none there is the one line."""
    rng = random.Random(seed)
    day = rng.choice(view.days[1:])
    place = rng.choice([a for a in view.served if a != "AUH"])
    type_code = rng.choice(["A320", "A321", "B789", "B78X", "B77W", "A35K"])
    expected = {
        f.flight_id
        for f in view.by_day[day]
        if f.destination == place and f.aircraft_type == type_code and f.status in ("SCHEDULED", "DELAYED")
    }
    text = f"all {type_code} departures to {place} on {day:%d %B %Y} are held: fuel supplier strike"
    try:
        found = described_flights(text, handle, reported_at_of(view))
    except ValueError as refused:
        assert not expected and "no flight" in str(refused), (text, str(refused))
        return
    assert found is not None and {f.flight_id for f in found.flights} == expected, text
