"""How an OCC writes in a hurry, read as it means: a flight number taken back for the next one is not a flight of the
report ("EY404? no - sorry - EY406"), a list or an alternative keeps both; a bare day/month after the flight and its
station or route is the flight's date ("ey336 hyd 18/1"); a part annunciated as disagreeing, due for changing, or
past its consumption limit is an aircraft defect (AHM 730 41), whatever the part and however it is written."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skymarshal.intake.cause import read_cause
from skymarshal.intake.dates import find_dates
from skymarshal.intake.flights import find_flights
from skymarshal.intake.normalise import normalise
from skymarshal.models.disruption import family_of

pytestmark = pytest.mark.unit
TAKEN_BACK = ["? no - sorry - ", "? no — ", "? sorry, ", ", sorry, ", " — correction: ", " (should be ", ", I mean "]
KEPT = [", ", " and ", " + ", " or ", " then ", "? ", "/"]


@given(
    wrong=st.integers(1, 999),
    right=st.integers(1, 999),
    between=st.sampled_from(TAKEN_BACK),
    day=st.sampled_from(["", "/18", "/18 KUL"]),
)
def test_a_flight_number_taken_back_is_not_read(wrong, right, between, day):
    text = f"EY{wrong}{day}{between}EY{right} 19JAN: DCS down, +30"
    assert [f.flight_number for f in find_flights(text)] == [f"EY{right}"]


@given(first=st.integers(1, 999), second=st.integers(1, 999), between=st.sampled_from(KEPT))
def test_a_list_or_an_alternative_keeps_every_flight(first, second, between):
    text = f"EY{first}{between}EY{second} 19JAN held at the gate"
    assert [f.flight_number for f in find_flights(text)] == [f"EY{first}", f"EY{second}"]


@pytest.mark.parametrize(
    ("text", "day", "month"),
    [
        ("ey336 hyd 18/1 - BR/haze, vis 800m", 18, 1),
        ("EY462 AUH-MEL 18/1: bags late", 18, 1),
        ("EY12 LHR 3/2 fuel truck late", 3, 2),
    ],
)
def test_a_day_and_month_after_the_flight_and_its_station_date_the_flight(text, day, month):
    assert [(d.day, d.month) for d in find_dates(text)] == [(day, month)]


def test_a_word_between_the_flight_and_a_fraction_is_no_station():
    assert find_dates("EY16 all 24/7 desks closed") == []


@given(
    part=st.sampled_from(["FLAP", "No. 3 wheel", "LH MLG brake unit", "#2 engine", "nose wheel steering", "slat"]),
    wrong=st.sampled_from(
        ["DISAGREE on taxi out", "needs changing", "change required", "requires a change", "to be changed"]
    ),
    lead=st.sampled_from(["EY26 LHR 19JAN:", "EY390/18 ATH A6-EJC", "Flight EY12 on 19 January -"]),
    upper=st.booleans(),
)
def test_a_part_disagreeing_or_due_for_changing_is_an_aircraft_defect(part, wrong, lead, upper):
    text = f"{lead} {part} {wrong}. ETD TBA."
    first = read_cause(normalise(text.upper() if upper else text)).first
    assert first is not None and family_of(first.code) == "technical", (text, first)


@pytest.mark.parametrize(
    "text",
    [
        "EY424 18JAN A6-ETB: non-routine borescope inspection required on ENG 2. ETR 2000Z",
        "EY424 18JAN: high oil consumption on engine 2, engineers investigating. ETD 1400Z",
    ],
)
def test_an_engine_inspection_or_its_consumption_trend_is_technical(text):
    first = read_cause(normalise(text)).first
    assert first is not None and family_of(first.code) == "technical", first
