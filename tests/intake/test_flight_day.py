"""A flight dated the telex way: its day of the month after a slash ("EY462/18") or a bare day/month right after
it ("EY16 19/1"); the flight number stays whole, and a day no month has is refused, never guessed."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from skymarshal.intake.dates import find_dates
from skymarshal.intake.flights import find_flights

numbers = st.integers(1, 999)
days = st.integers(1, 31)
tails = st.sampled_from([" AUH-LHR catering late", ": DCS down, +25", " LHR OVERBOOKING Y", ".A6BLK.LHR", ""])


def blanked(text: str) -> str:
    for d in find_dates(text):
        text = text[: d.start] + " " * (d.end - d.start) + text[d.end :]
    return text


@given(number=numbers, day=days, tail=tails, lower=st.booleans())
def test_the_day_after_a_slash_dates_the_flight(number: int, day: int, tail: str, lower: bool) -> None:
    text = f"EY{number}/{day}{tail}"
    text = text.lower() if lower else text
    found = find_dates(text)
    assert [(d.kind, d.month, d.day) for d in found] == [("yearless", None, day)], text
    assert [f.flight_number for f in find_flights(blanked(text))] == [f"EY{number}"]


@given(number=numbers, day=days, spaced=st.booleans())
def test_a_bare_day_month_after_the_flight_is_its_date(number: int, day: int, spaced: bool) -> None:
    text = f"MAN stn: {'ey ' if spaced else 'EY'}{number} {day}/1 mail accepted late"
    assert [(d.month, d.day) for d in find_dates(text)] == [(1, day)], text


def test_a_bare_day_month_elsewhere_is_no_date() -> None:
    assert [d.day for d in find_dates("ops 24/7, EY12 on 18 Jan")] == [18]


@given(number=numbers, day=st.integers(32, 99))
def test_a_day_no_month_has_is_refused(number: int, day: int) -> None:
    (found,) = find_dates(f"EY{number}/{day} AUH-LHR catering late")
    assert found.kind == "invalid" and f"/{day}" in (found.problem or "")


def test_an_aircraft_type_or_a_gate_before_a_slash_dates_nothing() -> None:
    """Only an airline designator (as flights.py reads one) before the digits makes '/DD' a flight's day."""
    for text in ("EY12 18JAN: swap to B787/9 ok", "EY12 on 18 Jan, gate B12/14 changed", "B787 19/1 swap done"):
        assert [d.day for d in find_dates(text)] in ([18], []), text
    assert [d.day for d in find_dates("G9 123/18 tech")] == [18]


@given(number=numbers, day=days)
def test_an_ordinal_alone_in_brackets_is_the_flights_day(number: int, day: int) -> None:
    suffix = {1: "st", 2: "nd", 3: "rd", 21: "st", 22: "nd", 23: "rd", 31: "st"}.get(day, "th")
    found = find_dates(f"EY{number} to Paris ({day}{suffix}) held at the gate")
    assert [(d.kind, d.day) for d in found] == [("yearless", day)]


def test_an_ordinal_before_a_noun_in_brackets_is_no_date() -> None:
    assert find_dates("EY12 held (2nd sector of the day)") == [] and find_dates("the (1st officer) is sick") == []


@given(day=st.integers(1, 28), word=st.sampled_from(["SN", "RA", "FG", "LH", "BA", "TS"]))
def test_a_day_glued_to_its_month_is_a_date_whatever_word_stands_before_it(day: int, word: str) -> None:
    """The report "ICN SN 19JAN 0130-0600 UTC": SN is snow (and a carrier's code); a day glued to a month is the ops style's
    date, never the number of a flight "SN 19" ("Etihad 12 Jan", spaced, stays the flight's)."""
    assert [(d.month, d.day) for d in find_dates(f"ICN {word} {day}JAN 0130-0600 UTC, RWY CLEARING")] == [(1, day)]
