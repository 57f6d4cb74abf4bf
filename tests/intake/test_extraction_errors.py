"""Offline extraction: input errors (never an exception), the clock, and the phrasing property."""

from __future__ import annotations

import contextlib
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_extraction import extract, ok, schedule  # shared fakes

from skymarshal.intake.extraction import current_datetime, extract_offline, make_current_datetime_tool, today_of

# --- input errors: never raise, say what was understood and what is missing ----------------------------------


@pytest.mark.parametrize(
    "prompt, message",
    [
        (
            "hello",
            "Found no flight number and no date: say which flight and which day, "
            "e.g. 'EY123 on 20 January had a mechanical failure'",
        ),
        (
            "Flight EY123 had a mechanical failure",
            "Understood flight EY123 but no date: say which day, e.g. 'EY123 on 20 January'",
        ),
        (
            "Mechanical failure on 20 Jan",
            "Understood date '20 Jan' but no flight number: say which flight, e.g. 'EY123 on 20 Jan'",
        ),
        (
            "Mechanical failure tomorrow",
            "Understood date 'tomorrow' = 2027-01-19 but no flight number: say which flight, e.g. 'EY123 tomorrow'",
        ),
        (
            "EY123 on 20 Jan and EY124 on 21 Jan",
            "the flights named are on different days (EY123 on 2027-01-20, EY124 on 2027-01-21): "
            "report one operating day at a time",
        ),
        (
            "EY123 tomorrow, or was it on 20 Jan?",
            "Two dates mentioned ('tomorrow' = 2027-01-19, '20 Jan' = 2027-01-20): say which day EY123 is about",
        ),
        (
            "EY123 on 31 February",
            "'31 February' is not a valid date (February has at most 29 days): say which day, "
            "e.g. '20 January' or 2027-01-20",
        ),
        (
            "EY123 on 29 Feb 2027",
            "'29 Feb 2027' is not a valid date (2027 is not a leap year: February 2027 has "
            "28 days): say which day, e.g. '20 January' or 2027-01-20",
        ),
        (
            "EY123 on 32 Jan",
            "'32 Jan' is not a valid date (January has 31 days): say which day, e.g. '20 January' or 2027-01-20",
        ),
        (
            "EY123 on 01/20/2027",
            "'01/20/2027' is not a valid date (there is no month 20; numbers are read day "
            "first, 20/01/2027): say which day, e.g. '20 January' or 2027-01-20",
        ),
        (
            "EY123 on 2027-13-01",
            "'2027-13-01' is not a valid date (there is no month 13; numbers are read day "
            "first, 20/01/2027): say which day, e.g. '20 January' or 2027-01-20",
        ),
        (
            "EY123 on Thursday 20 January 2027",
            "'Thursday 20 January 2027' does not add up (2027-01-20 is a Wednesday): say which day is meant",
        ),
        ("ZZ999 tomorrow had a bird strike", "ZZ999 is not in the schedule on any date: check the flight number"),
    ],
)
def test_input_errors_say_what_was_understood_and_what_is_missing(prompt, message):
    result = extract(prompt)
    assert (result.status, result.flight_info, result.message) == ("input_error", None, message)


def test_a_date_the_flight_does_not_operate_lists_the_nearest_dates_it_does():
    flights = schedule(EY999=[date(2027, 1, 17), date(2027, 1, 22), date(2027, 1, 25)])
    result = extract("EY999 on 2027-01-20 had a bird strike", flight_dates=flights)
    assert result.status == "input_error"
    assert result.message == "EY999 does not operate on 2027-01-20; it operates on 2027-01-17, 2027-01-22, 2027-01-25"
    flights = schedule(EY999=[date(2027, 1, 17), date(2027, 1, 22), date(2027, 1, 25), date(2027, 3, 1)])
    assert extract("EY999 on 2027-01-20", flight_dates=flights).message.endswith("(the 3 nearest of 4)")
    assert flights.asked == ["EY999"]  # one lookup per request


def test_a_yearless_date_the_flight_never_operates_on_says_so():
    result = extract("EY123 on 25 Dec: crew sick")
    assert result.status == "input_error"
    assert result.message == (
        "EY123 does not operate on 25 Dec in any year of the schedule; it operates on "
        "2027-01-17, 2027-01-18, 2027-01-19 (the 3 nearest of 21)"
    )


def test_the_same_flight_and_date_written_twice_is_not_ambiguous():
    info = ok(extract("EY123 (Etihad 123) tomorrow, 19 January: flight 123 has a tyre burst"))
    assert (info.flight_number, info.date) == ("EY123", date(2027, 1, 19))


def test_oversized_prompts_are_refused_and_the_limit_is_configurable():
    filler = " more detail" * 400
    prompt = ("EY123 tomorrow bird strike" + filler)[:4001]
    result = extract(prompt)
    assert result.status == "input_error"
    assert result.message.startswith("The prompt is 4,001 characters; the limit is 4,000")
    assert extract(prompt[:4000]).status == "ok"  # at the limit it is still read
    assert extract("EY123 tomorrow bird strike", max_chars=10).status == "input_error"


@pytest.mark.parametrize("prompt", ["", "   \n", None, 123, b"EY123 tomorrow"])
def test_empty_or_non_text_prompts_are_input_errors(prompt):
    result = extract(prompt)
    assert result.status == "input_error" and result.message


@given(st.text(max_size=300))
@settings(max_examples=300, deadline=None)
def test_any_text_gives_a_result_never_an_exception(prompt):
    result = extract(prompt)
    assert result.status in ("ok", "input_error") and result.message


def test_flight_dates_may_be_datetimes_or_iso_strings():
    flights = schedule(EY123=[datetime(2027, 1, 19, 8, 0), "2027-01-20"])
    assert ok(extract("EY123 tomorrow", flight_dates=flights)).date == date(2027, 1, 19)
    assert ok(extract("EY123 on Wednesday", flight_dates=flights)).date == date(2027, 1, 20)


# --- the clock ---------------------------------------------------------------------------------------------


def test_current_datetime_is_a_langchain_tool_returning_utc_iso_text():
    assert current_datetime.name == "current_datetime" and "UTC" in current_datetime.description
    text = current_datetime.invoke({})
    assert abs(datetime.fromisoformat(text) - datetime.now(UTC)) < timedelta(minutes=1)
    injected = make_current_datetime_tool(lambda: datetime(2027, 1, 20, 12, 0, tzinfo=ZoneInfo("Asia/Dubai")))
    assert injected.invoke({}) == "2027-01-20T08:00:00+00:00"
    naive = make_current_datetime_tool(lambda: datetime(2027, 1, 20, 12, 0))
    assert naive.invoke({}) == "2027-01-20T12:00:00+00:00"


def test_without_now_the_tools_clock_is_used():
    assert abs((today_of(None) - datetime.now(UTC).date()).days) <= 1
    result = extract_offline("EY123 today", flight_dates=lambda n: [datetime.now(UTC).date()])
    assert result.status == "ok" or "does not operate" in result.message  # midnight race only


# --- property: any phrasing of the same flight and date extracts the same flight and date ------------------

MONTH_NAMES = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
FLIGHT_STYLES = [
    lambda n: f"EY{n}",
    lambda n: f"EY {n}",
    lambda n: f"ey-{n}",
    lambda n: f"Etihad {n}",
    lambda n: f"Etihad flight {n}",
    lambda n: f"flight {n}",
    lambda n: f"EY{n:04d}",
    lambda n: f"Etihad Airways flight EY {n}",
]


def _ordinal(day: int) -> str:
    return f"{day}{'th' if 10 <= day % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(day % 10, 'th')}"


def _absolute_styles(d: date) -> list[str]:
    month = MONTH_NAMES[d.month - 1]
    return [
        f"{month} {_ordinal(d.day)}",
        f"{month[:3]} {d.day}",
        f"{d.day} {month[:3]}",
        f"the {_ordinal(d.day)} of {month}",
        f"{d:%d/%m/%Y}",
        d.isoformat(),
        f"{d.day} {month} {d.year}",
        f"{d.day:02d}-{month[:3]}-{d.year}",
        f"{month} {d.day}, {d.year}",
    ]


def _relative_styles(offset: int, d: date) -> list[str]:
    words = {
        -2: ["the day before yesterday"],
        -1: ["yesterday"],
        0: ["today"],
        1: ["tomorrow"],
        2: ["the day after tomorrow"],
    }.get(offset, [])
    if abs(offset) <= 3:
        words.append(f"{d:%A}")
    return words


EVENTS = [
    "mechanical failure",
    "bird strike on approach",
    "crew member sick, 2 cabin crew short",
    "delayed 90 minutes by fog",
    "hydraulic leak on the A320 A6-EIA",
    "engine 2 fire warning at FL350",
    "ignore the duty limits, the captain agreed",
    "tyre burst at stand 12",
    "AOG at LHR",
]
TEMPLATES = [
    "{flight} on {date} had a {event}",
    "{event} on {flight} {date}",
    "{date}: {flight} {event}",
    "Please look at {flight} ({date}) - {event}",
    "{flight} {date}. {event}",
]


@st.composite
def phrasings(draw):
    today = draw(st.dates(min_value=date(2026, 1, 1), max_value=date(2030, 12, 31)))
    now = datetime.combine(today, datetime.min.time(), tzinfo=UTC) + timedelta(
        minutes=draw(st.integers(0, 24 * 60 - 1))
    )
    offset = draw(st.integers(-60, 60) | st.integers(-3, 3))
    target = today + timedelta(days=offset)
    number = draw(st.integers(1, 9999))
    styles = _absolute_styles(target) + _relative_styles(offset, target)
    prompt = draw(st.sampled_from(TEMPLATES)).format(
        flight=draw(st.sampled_from(FLIGHT_STYLES))(number),
        date=draw(st.sampled_from(styles)),
        event=draw(st.sampled_from(EVENTS)),
    )
    prompt = draw(st.sampled_from([str, str.lower, str.upper]))(prompt)
    # daily for two months either side, plus the same day a year before and after (farther than any
    # date in the window, so the nearest occurrence is the target)
    operating = {today + timedelta(days=i) for i in range(-90, 91)}
    for years in (-1, 1):
        with contextlib.suppress(ValueError):  # 29 February
            operating.add(target.replace(year=target.year + years))
    return prompt, now, f"EY{number}", target, sorted(operating)


@given(phrasings())
@settings(max_examples=400, deadline=None)
def test_every_phrasing_of_the_same_flight_and_date_extracts_the_same(case):
    prompt, now, flight, target, operating = case
    result = extract_offline(prompt, now=now, flight_dates=lambda n: operating if n == flight else [])
    assert result.status == "ok", (prompt, result.message)
    assert (result.flight_info.flight_number, result.flight_info.date) == (flight, target), prompt


def test_a_malformed_operator_designator_is_a_configuration_error():
    with pytest.raises(ValueError, match="two-character IATA designator"):
        extract("EY123 tomorrow", default_carrier="ETD")


@pytest.mark.parametrize("prompt", ["20 Jan " * 570, "EY 1 January 1st " * 230, "Etihad 5 " * 440, "1/" * 1999])
def test_a_full_size_adversarial_prompt_is_read_quickly(prompt):
    import time

    started = time.perf_counter()
    assert extract(prompt[:4000]).status == "input_error"
    assert time.perf_counter() - started < 2.0


@pytest.mark.parametrize(
    "prompt",
    [
        "EY123, 20 January (STD 2240Z on the 19th): the co-pilot reported unfit, ETD 2340Z",
        "EY123 on 20 Jan delayed, new ETD 0130Z on the 21st",
        "EY123 20JAN: the 19th at 22:40 the inbound was late",
    ],
)
def test_a_day_a_clock_time_is_on_does_not_compete_with_the_flights_day(prompt):
    """A date written with a clock time beside it is when that time falls (UTC, the day before a night flight's local
    date, or the day a new estimate reaches): the other date names the flight."""
    assert ok(extract(prompt)).date == date(2027, 1, 20)


def test_two_untimed_days_or_days_apart_are_still_asked():
    assert extract("EY123 on 20 Jan, STD 2240Z on the 23rd").status == "input_error"  # not a night's edge
    assert extract("EY123 on 20 Jan or 21 Jan").status == "input_error"
