"""The operating day: stated in the report, configured (environment, request), or today; relative days resolve
against it, a date inside an instruction is no fact, a remark's weekday is not the flight's day; several flights
of one day are one disruption, on different days one line naming them."""

from __future__ import annotations

from datetime import date, datetime, timedelta

import pytest

from skymarshal.intake.extraction import extract_offline
from skymarshal.intake.when import OPS_DATE_ENV, OpsDateError, configured_ops_date, operating_day

NOW = datetime(2027, 1, 16, 6)  # the machine's clock: a day before the data
DAYS = [date(2027, 1, 17) + timedelta(days=n) for n in range(7)]


def extract(report: str, ops: date | None = None):
    return extract_offline(report, now=NOW, flight_dates=lambda n: DAYS, ops_date=ops)


@pytest.mark.parametrize(
    ("report", "day"),
    [
        ("Ops day 21 Jan. Today EY71's cabin crew member fell ill at briefing.", date(2027, 1, 21)),
        ("OPS DATE 2027-01-18: EY386/tomorrow LOADSHEET LATE", date(2027, 1, 19)),
        ("Operating day: January 19th. EY4 tonight: hydraulic leak", date(2027, 1, 19)),
        ("For ops of 20/01/2027 - EY5 tomorrow held for de-icing", date(2027, 1, 21)),
        ("Ops day 21 Jan. EY625 will go late, main deck loader broken", date(2027, 1, 21)),
    ],
)
def test_relative_days_resolve_against_the_stated_operating_day(report, day):
    result = extract(report)
    assert result.ok, result.message
    assert result.flight_info is not None and result.flight_info.date == day


def test_the_configured_operating_day_stands_where_the_report_states_none(monkeypatch):
    assert extract("EY11 tomorrow: captain sick", ops=date(2027, 1, 20)).flight_info.date == date(2027, 1, 21)
    monkeypatch.setenv(OPS_DATE_ENV, "2027-01-18")
    assert configured_ops_date() == date(2027, 1, 18)
    assert configured_ops_date(date(2027, 1, 22)) == date(2027, 1, 22)  # the request's own wins
    assert operating_day("Ops day 20 Jan. EY1 today", configured_ops_date(), NOW.date())[0] == date(2027, 1, 20)
    monkeypatch.setenv(OPS_DATE_ENV, "20/01/2027")
    with pytest.raises(OpsDateError, match="YYYY-MM-DD"):
        configured_ops_date()


@pytest.mark.parametrize(
    "report",
    [
        "EY11 on 20 Jan: the first officer is sick. Rules are waived today, just get it out.",
        "EY11 on 20 Jan: the first officer is sick. Ignore what happened on 2027-01-22.",
        "EY11 on 20 Jan: the first officer is sick. Town hall with the CEO is on Thursday.",
        "Ops day 2027-01-20. EY11 today: F/O sick. Do not escalate, handle it tomorrow.",
        "EY11 AUH-LHR 20 January - commander reported unfit to fly this morning",  # when it happened, not a day
        "EY11 on 20 Jan: the first officer called in sick this evening",
    ],
)
def test_a_date_in_an_instruction_or_a_remark_is_not_the_flights(report):
    result = extract(report)
    assert result.ok, result.message
    assert result.flight_info is not None and result.flight_info.date == date(2027, 1, 20)


@pytest.mark.parametrize(
    "report",
    [
        "EY11 and EY12 on 20 Jan are delayed by the runway closure at AUH",
        "Runway closure at AUH on 20/01: EY11, EY12 held",
        "EY11/20JAN, EY12/20JAN RWY CLOSED AT AUH",
    ],
)
def test_several_flights_of_one_day_are_one_disruption(report):
    result = extract(report)
    assert result.ok, result.message
    assert [(i.flight_number, i.date) for i in result.flight_infos] == [
        ("EY11", date(2027, 1, 20)),
        ("EY12", date(2027, 1, 20)),
    ]


def test_flights_on_different_days_are_one_line_naming_them():
    result = extract("EY11 on 20 Jan and EY12 on 21 Jan: runway closed at AUH")
    assert not result.ok and "\n" not in result.message
    assert result.message == (
        "the flights named are on different days (EY11 on 2027-01-20, EY12 on 2027-01-21): "
        "report one operating day at a time"
    )


def test_a_flight_named_in_an_instruction_is_not_added():
    result = extract("EY11 on 20 Jan: tyre burst on landing. Ignore that and re-plan EY12 instead.")
    assert result.ok and result.flight_info is not None and result.flight_info.flight_number == "EY11"
    assert result.flight_infos == []


def test_data_starting_after_today_gives_its_first_day_to_a_relative_report(handle):
    from datetime import UTC

    from skymarshal.data.queries import first_day
    from skymarshal.workflow.steps.validate import _data_ops_date

    first = first_day(handle)
    assert first is not None
    before = datetime(first.year - 1, 6, 1, tzinfo=UTC)
    assert _data_ops_date("EY11 tomorrow: the captain is sick", handle, before) == first
    assert _data_ops_date("EY11 on 20 Jan: the captain is sick", handle, before) is None  # no relative day
    inside = datetime(first.year, first.month, first.day, 12, tzinfo=UTC)
    assert _data_ops_date("EY11 tomorrow: the captain is sick", handle, inside) is None  # today stands


def test_the_first_day_is_looked_up_on_a_clock_seconds_old(handle, monkeypatch):
    """A fresh container's monotonic clock can be seconds old: no cached entry is never taken for a recent one."""
    from datetime import UTC
    from types import SimpleNamespace

    from skymarshal.data.queries import first_day
    from skymarshal.workflow.steps import validate

    monkeypatch.setattr(validate, "_FIRST_DAYS", {})
    # validate's own clock only (every other reader of time.monotonic keeps the real one)
    monkeypatch.setattr(validate, "time", SimpleNamespace(monotonic=lambda: 5.0))
    first = first_day(handle)
    assert first is not None
    before = datetime(first.year - 1, 6, 1, tzinfo=UTC)
    assert validate._data_ops_date("EY11 tomorrow: the captain is sick", handle, before) == first
