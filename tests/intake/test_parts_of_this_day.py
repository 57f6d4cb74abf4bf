"""A part of this day ("this morning", "this evening's EY5") is the operating day's, for a flight as for a tail; beside
another day the report states, it says when something happened, not a second day for the flight."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from skymarshal.intake.extraction_core import extract_offline

OPS = date(2027, 2, 3)
PARTS = st.sampled_from(["this morning", "This afternoon", "this evening"])


def _flight_dates(_number: str) -> list[date]:
    return [OPS + timedelta(days=i) for i in range(-2, 4)]


def _day(text: str) -> date | None:
    found = extract_offline(text, now=datetime(2027, 2, 3, 2, tzinfo=UTC), ops_date=OPS, flight_dates=_flight_dates)
    return found.flight_info.date if found.ok and found.flight_info else None


@given(part=PARTS, possessive=st.booleans())
def test_a_part_of_this_day_is_the_operating_day(part, possessive) -> None:
    text = f"{part}'s EY77 from Muscat is held, tug broken" if possessive else f"EY77 {part} from Muscat is held"
    assert _day(text) == OPS, text


@given(part=PARTS, stated=st.sampled_from(["on 5 Feb", "5FEB", "tomorrow"]))
def test_beside_a_stated_day_it_is_when_something_happened(part, stated) -> None:
    expected = date(2027, 2, 5) if "5" in stated else OPS + timedelta(days=1)
    assert _day(f"EY77 {stated}: {part.lower()} the first officer reported sick") == expected
