"""A month name is a month only where a date can stand: "may" followed by what only follows the verb is the
verb ("on January 22nd may not be able to land" is 22 January), whatever the case, the date's form or the month
before it; a real May date (year, number, punctuation, a noun after it) stays May."""

from __future__ import annotations

import calendar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skymarshal.intake.date_context import _MODAL_NEXT
from skymarshal.intake.dates import RELATIVE_DAYS, WEEKDAYS, find_dates

OTHER_MONTHS = [calendar.month_name[m] for m in range(1, 13) if m != 5]
ORDINAL = {1: "st", 2: "nd", 3: "rd", 21: "st", 22: "nd", 23: "rd", 31: "st"}
case = st.sampled_from([str, str.upper, str.lower])


def ordinal(day: int) -> str:
    return f"{day}{ORDINAL.get(day, 'th')}"


@given(
    month=st.sampled_from(OTHER_MONTHS),
    day=st.integers(1, 28),
    follower=st.sampled_from(sorted(_MODAL_NEXT)),
    form=st.sampled_from(["{month} {day}", "{month} {ord}", "{ord} of {month}", "{day} {month}"]),
    cased=case,
)
def test_may_before_a_verb_is_no_month(month: str, day: int, follower: str, form: str, cased) -> None:
    date_text = form.format(month=month, day=day, ord=ordinal(day))
    text = cased(f"EY12 on {date_text} may {follower} be able to land in time")
    found = find_dates(text)
    assert [(d.month, d.day) for d in found] == [(list(calendar.month_name).index(month), day)], text


@given(
    day=st.integers(1, 31),
    tail=st.sampled_from([" 2027", ": fog at LHR", ", fog", " AUH-LHR", "", " due to fog", " departure delayed"]),
    cased=case,
)
def test_a_may_date_stays_may(day: int, tail: str, cased) -> None:
    text = cased(f"EY12 on {day} May{tail}")
    assert [(d.month, d.day) for d in find_dates(text)] == [(5, day)], text


# Any word at all after "may" (not only those the verb list names): a day already written after another month
# is that month's, so "may" after it can never take it ("on January 22nd may well be unable to land").
_DATE_WORDS = {*WEEKDAYS, *RELATIVE_DAYS, "the"}  # a weekday or "tomorrow" after it is a date of its own
_ANY_WORD = st.from_regex(r"[a-z]{2,12}", fullmatch=True).filter(lambda w: w not in _DATE_WORDS)


@given(
    month=st.sampled_from(OTHER_MONTHS),
    day=st.integers(1, 28),
    follower=_ANY_WORD,
    form=st.sampled_from(["{month} {day}", "{month} {ord}", "{month} the {ord}"]),
    cased=case,
)
def test_a_day_written_after_a_month_is_never_mays(month: str, day: int, follower: str, form: str, cased) -> None:
    date_text = form.format(month=month, day=day, ord=ordinal(day))
    text = cased(f"EY12 on {date_text} may {follower} be unable to land")
    found = find_dates(text)
    assert [(d.month, d.day) for d in found] == [(list(calendar.month_name).index(month), day)], text


@given(day=st.integers(1, 28), follower=_ANY_WORD, form=st.sampled_from(["{day} may", "{ord} may", "may {day}"]))
def test_a_lowercase_may_in_a_cased_report_is_the_verb(day: int, follower: str, form: str) -> None:
    """Month names are proper nouns: in a report that uses capitals, "may" written in lowercase is the verb."""
    written = form.format(day=day, ord=ordinal(day))
    text = f"Flight EY12 on {written} {follower} be late into LHR"
    assert all(d.month != 5 for d in find_dates(text)), text


@given(day=st.integers(1, 28), follower=_ANY_WORD)
def test_a_capitalised_may_in_a_cased_report_is_the_month(day: int, follower: str) -> None:
    text = f"Flight EY12 on {day} May {follower} fog at LHR"
    assert [(d.month, d.day) for d in find_dates(text)] == [(5, day)], text


@pytest.mark.parametrize(
    "text",
    [
        "EY12 on January 22nd may well be unable to land",
        "EY12 on Jan 22 may now be cancelled",
        "EY12 on January the 22nd MAY ALSO DIVERT",
        "ey12 on january 22nd may struggle to land",
    ],
)
def test_the_issue_reports_read_22_january(text: str) -> None:
    assert [(d.month, d.day) for d in find_dates(text)] == [(1, 22)], text
