"""A 12-hour clock time is read as the time it names ("9:05 pm" is 21:05, "12:30 am" is 00:30); one whose hour a
12-hour clock lacks is refused, never read."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from skymarshal.intake.clearance_words import stated_estimates
from skymarshal.intake.clock import impossible_time


@given(
    hour=st.integers(1, 12),
    minute=st.integers(0, 59),
    meridiem=st.sampled_from(["pm", "PM", " pm", " p.m.", "am", " AM", " a.m."]),
    zone=st.sampled_from(["", " local", " UTC"]),
)
def test_a_twelve_hour_time_is_read_as_the_time_it_names(hour: int, minute: int, meridiem: str, zone: str) -> None:
    text = f"EY317 on 18 Jan: aircraft AOG, release now expected {hour}:{minute:02d}{meridiem}{zone}."
    afternoon = "p" in meridiem.lower()
    expected = (hour % 12 + (12 if afternoon else 0), minute)
    clocks = [e.clock for e in stated_estimates(text) if e.base == "clock"]
    assert clocks == [expected], text
    assert impossible_time(text) is None


@given(hour=st.sampled_from([0, *range(13, 30)]), meridiem=st.sampled_from(["pm", " am", " p.m."]))
def test_a_twelve_hour_time_past_twelve_is_refused_not_read(hour: int, meridiem: str) -> None:
    text = f"EY317 on 18 Jan: aircraft AOG, release now expected {hour}:15{meridiem}."
    assert impossible_time(text) is not None, text
