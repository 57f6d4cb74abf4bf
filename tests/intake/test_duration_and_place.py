"""The reader's stated duration and the cause's place, as several named flights need them: of several durations the
longest (a fact only makes the situation worse), a shorthand delay's bare count in minutes, and where something is
("fog over Abu Dhabi") before where a flight goes ("EY75 to Madrid"); a window's four-digit times are no year
("19JAN 1900-2200Z"), and a code that is also an abbreviation is the airport before a part of one ("HYD RUNWAYS")."""

from __future__ import annotations

from datetime import time

from hypothesis import assume, given
from hypothesis import strategies as st

from skymarshal.intake.dates import find_dates
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


@given(
    start=st.integers(0, 22),
    length=st.integers(1, 6),
    day=st.integers(1, 28),
    zone=st.sampled_from(["Z", "", " UTC"]),
)
def test_a_window_in_four_digit_times_after_a_date_is_no_year(start, length, day, zone):
    end = min(23, start + length)
    assume(end > start)
    text = f"{day:02d}JAN {start:02d}00-{end:02d}00{zone}: ISB TERMINAL EVACUATED, NO MOVEMENTS"
    reading = read_report(text, known_airports={"ISB"})
    assert reading.window == (time(start), time(end)), text
    assert all(d.year is None for d in find_dates(text)), text


@given(
    facility=st.sampled_from(
        ["RUNWAYS ARE SHUT", "RWY CLOSED", "TERMINAL EVACUATED", "airport closed", "APRON FLOODED"]
    )
)
def test_an_ambiguous_code_before_a_part_of_an_airport_is_the_airport(facility):
    reading = read_report(f"20JAN 0400-0530Z HYD {facility}", known_airports={"HYD"})
    assert reading.airport is not None and reading.airport.value == "HYD"
    assert read_report("EY335/20JAN HYD LEAK, A/C AOG", known_airports={"HYD"}).airport is None
