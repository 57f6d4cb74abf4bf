"""The reader's stated duration and the cause's place, as several named flights need them: of several durations the
longest (a fact only makes the situation worse), a shorthand delay's bare count in minutes, and where something is
("fog over Abu Dhabi") before where a flight goes ("EY75 to Madrid")."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from skymarshal.intake.report import read_report

KNOWN = {"AUH", "MAD", "LHR", "FRA"}
NAMES = {"abu dhabi": "AUH", "madrid": "MAD", "london heathrow": "LHR", "frankfurt": "FRA"}


@given(
    first=st.integers(5, 600),
    second=st.integers(5, 600),
    unit=st.sampled_from(["minutes", "min", "mins"]),
    cause=st.sampled_from(["check-in queues are {a} {u} long", "the ramp has been shut for {a} {u}"]),
)
def test_of_two_stated_durations_the_longest_is_read(first, second, unit, cause):
    text = f"EY11 and EY15 on 20 Jan: {cause.format(a=first, u=unit)}. Looks like {second} {unit} late."
    reading = read_report(text)
    assert reading.duration_minutes is not None and reading.duration_minutes.value == max(first, second)


@given(minutes=st.integers(1, 999), lead=st.sampled_from(["DLA", "delayed", "delayed by", "DLA by"]))
def test_a_shorthand_delays_bare_count_is_minutes(minutes, lead):
    reading = read_report(f"EY11/20JAN RWY CLOSED AT AUH. {lead} {minutes}.")
    assert reading.duration_minutes is not None and reading.duration_minutes.value == minutes


@given(
    after=st.sampled_from(["19/01", "20 JAN", "2 flights", "15%", "12:30"]),
)
def test_a_number_after_delayed_that_is_no_duration_is_not_read(after):
    assert read_report(f"EY11 delayed {after} by the runway closure at AUH").duration_minutes is None


@given(
    place=st.sampled_from(["fog over Abu Dhabi (AUH)", "thick fog at AUH", "fog in Abu Dhabi"]),
    flight=st.sampled_from(["EY75 to Madrid", "EY75 AUH to MAD", "EY75 for Madrid"]),
    place_first=st.booleans(),
)
def test_the_causes_place_comes_before_a_flights_destination(place, flight, place_first):
    text = f"{place}: {flight} held" if place_first else f"{flight} on 19 Jan is held: {place}"
    reading = read_report(text, known_airports=KNOWN, city_codes=NAMES)
    assert reading.airport is not None and reading.airport.value == "AUH", text
