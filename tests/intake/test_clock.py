"""An impossible time written in a report or an MVT is refused on one line naming it; every possible time, in
every written form, passes; numbers that are no times (weights, years, ratios, flight numbers) are left alone."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skymarshal.intake.clock import impossible_time
from skymarshal.intake.movement import MalformedMessage, read_movement

FORMS = (
    "EY343 18JAN ETD {hh}{mm}Z due to hydraulic leak",
    "EY343 on 18 Jan: new departure at {hh}:{mm}, slot",
    "EY343 18JAN CTOT {hh}{mm}",
    "EY343 18 Jan departure {hh}:{mm} UTC",
    "MVT EY343/18.A6EIA.AUH AD{hh}{mm}/0900",
    "AUH closed 18JAN {hh}{mm}-2300Z",
    "AUH closed 18JAN 0600-{hh}{mm}Z",
    "EY343 18JAN ED18{hh}{mm}",
)
valid = st.tuples(st.integers(0, 23), st.integers(0, 59))
invalid = st.one_of(
    st.tuples(st.integers(25, 99), st.integers(0, 59)), st.tuples(st.integers(0, 23), st.integers(60, 99))
)


def written(form: str, hour: int, minute: int) -> str:
    return form.format(hh=f"{hour:02d}", mm=f"{minute:02d}")


@given(form=st.sampled_from(FORMS), at=valid)
def test_a_possible_time_passes(form: str, at: tuple[int, int]) -> None:
    assert impossible_time(written(form, *at)) is None


@given(form=st.sampled_from(FORMS), at=invalid)
def test_an_impossible_time_is_one_line_naming_it(form: str, at: tuple[int, int]) -> None:
    hour, minute = at
    problem = impossible_time(written(form, hour, minute))
    assert problem is not None and "\n" not in problem
    assert f"{hour:02d}" in problem and f"{minute:02d}" in problem and "is not a time" in problem


@pytest.mark.parametrize(
    "text",
    [
        "EY343 18JAN fuel uplift to 5600 kg, DLA 20",
        "EY2575 on 18 Jan: bird strike",
        "load split 60:40 between holds",
        "crew out of hours, DLA 1:75 hrs",
        "A6-BLK in service since 1975, AOG",
        "ETD+0230",
        "EY343 18JAN fuel uplift short by 4500 L, DLA 20",  # litres, not 45:00 local
        "EY343 18JAN: 5600L fuel spill at stand",
        "EY343 18JAN defuel 3000 LT required, 2000-4000 L per bowser",
    ],
)
def test_numbers_that_are_no_times_are_left_alone(text: str) -> None:
    assert impossible_time(text) is None


@pytest.mark.parametrize(
    ("message", "named"),
    [
        ("MVT\nEY343/18.A6EIA.AUH\nAD2575/2590\nDL41/0130", "AD2575/2590"),
        ("MVT\nEY343/18.A6EIA.AUH\nAA1030/1075", "1075"),
        ("MVT\nEY343/18.A6EIA.AUH\nED181275", "181275"),
        ("MVT\nEY343/18.A6EIA.AUH\nAD0815/0830 EA2510 GYD", "2510"),
    ],
)
def test_an_mvt_with_an_impossible_time_is_malformed(message: str, named: str) -> None:
    with pytest.raises(MalformedMessage, match=named) as refused:
        read_movement(message)
    assert "\n" not in str(refused.value)


def test_an_mvt_with_possible_times_reads() -> None:
    moved = read_movement("MVT\nEY343/18.A6EIA.AUH\nAD0815/0830 EA1010 GYD\nDL41/0130")
    assert moved.delay_codes == (41,)


# The reader's own time forms: a window however its ends are written ("09h75 to 11h00", "between 1900 and
# 2575", "09.75-11.00 UTC"), a time after a word naming when the cause ends ("fit again 2575 local"), a 12-hour
# clock ("13pm"), and midnight written as 24:00 (a day runs 00:00-23:59; midnight is 0000).
READER_FORMS = (
    "AUH closed 18 Jan from {hh}h{mm} to 11h00 due to fog",
    "AUH closed 18 Jan between 0600 and {hh}{mm}",
    "AUH closed 18 Jan {hh}.{mm}-23.00 UTC",
    "EY343 on 18 Jan: captain sick, fit again {hh}{mm} local",
    "EY343 on 18 Jan: aircraft released by {hh}:{mm}",
)


@given(form=st.sampled_from(READER_FORMS), at=valid)
def test_a_possible_time_in_a_reader_form_passes(form: str, at: tuple[int, int]) -> None:
    assert impossible_time(written(form, *at)) is None


@given(form=st.sampled_from(READER_FORMS), at=invalid)
def test_an_impossible_time_in_a_reader_form_is_refused(form: str, at: tuple[int, int]) -> None:
    hour, minute = at
    problem = impossible_time(written(form, hour, minute))
    assert problem is not None and "\n" not in problem and "is not a time" in problem
    assert f"{minute:02d}" in problem


@given(hour=st.integers(0, 99), minute=st.integers(0, 99), form=st.sampled_from(FORMS + READER_FORMS))
def test_no_time_outside_the_day_is_ever_accepted(hour: int, minute: int, form: str) -> None:
    """The invariant: a written time passes if and only if it lies in 00:00-23:59 (24:00 included: refused)."""
    accepted = impossible_time(written(form, hour, minute)) is None
    assert accepted == (hour <= 23 and minute <= 59), written(form, hour, minute)


@given(hour=st.integers(0, 30), minute=st.integers(0, 75), meridiem=st.sampled_from(["am", "pm", " PM", " a.m."]))
def test_a_twelve_hour_time_runs_1_to_12(hour: int, minute: int, meridiem: str) -> None:
    text = f"EY343 on 18 Jan will now leave at {hour}:{minute:02d}{meridiem} local"
    assert (impossible_time(text) is None) == (1 <= hour <= 12 and minute <= 59), text


@pytest.mark.parametrize(
    "text",
    [
        "EY343 on 18 Jan departing at 13pm",
        "EY343 18JAN AUH closed 2200-2400Z",
        "EY343 on 18 Jan: new ETD 24:00",
    ],
)
def test_impossible_reader_times_are_named(text: str) -> None:
    problem = impossible_time(text)
    assert problem is not None and "\n" not in problem


@pytest.mark.parametrize(
    "text",
    [
        "EY343 on 18 Jan: between 100 and 175 passengers to rebook",
        "EY343 on 18 Jan: DLA between 100 and 130 min",
        "EY343 on 18 Jan: expected 180 pax to misconnect",
        "EY343 on 18 Jan: fuel between 1500 and 2575 kg short",
        "EY343 on 18 Jan: 2 PM crew",
    ],
)
def test_counts_in_reader_forms_are_no_times(text: str) -> None:
    assert impossible_time(text) is None


@pytest.mark.parametrize(
    ("message", "named"),
    [
        ("MVT\nEY343/18.A6EIA.AUH\nED181230\nNI182575", "182575"),
        ("MVT\nEY343/18.A6EIA.AUH\nAD0815/0830\nSI ETR 2575Z", "2575"),
        ("MVT\nEY343/18.A6EIA.AUH\nAD2400/0010", "2400"),
    ],
)
def test_every_time_of_an_mvt_is_checked(message: str, named: str) -> None:
    with pytest.raises(MalformedMessage, match=named) as refused:
        read_movement(message)
    assert "\n" not in str(refused.value)
