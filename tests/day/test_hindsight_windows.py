"""The hindsight's model reads the stream's windows as the day's judge reads them (day/hindsight_windows.py), so the
bound plans against the day it is then scored by: a clock hour the window touches holds the judge's slots and our
movements outside the window; the backlog after it is metered too; a tail's outage starts, for the model, once the
flight in the air when it began has landed."""

from __future__ import annotations

from datetime import timedelta

from day_rows import flight, state, utc
from hypothesis import given, settings
from hypothesis import strategies as st

from skymarshal.day.hindsight_windows import hour_limits, outage
from skymarshal.day.realize import realize
from skymarshal.day.stream import StreamEvent


def _window(start, end, *, closes: bool, station: str = "AUH", **kw) -> StreamEvent:
    return StreamEvent(
        event_id="W1", at=start - timedelta(hours=2), holds="station", family="weather", cause="weather",
        history_type="weather", station=station, start=start, end=end, closes=closes, report="AUH fog", **kw,
    )  # fmt: skip


def _hub_departures(tables, *times):
    for i, (hour, minute) in enumerate(times):
        tail = f"A6-BM{chr(65 + i)}"
        tables.flights[f"X{i}"] = flight(f"X{i}", f"EY9{i}", "AUH", "MCT", utc(2027, 1, 20, hour, minute), 60, tail)


def test_a_closure_from_ten_past_leaves_the_hours_earlier_movements_and_meters_its_backlog():
    tables = state()  # F1 leaves AUH at 10:00
    _hub_departures(tables, (14, 0), (14, 5), (14, 20), (15, 30), (16, 40), (16, 50))
    limits = hour_limits(tables, _window(utc(2027, 1, 20, 14, 10), utc(2027, 1, 20, 16, 20), closes=True))
    departures = {limit.start.hour: limit.departures_per_hour for limit in limits}
    # 14:00: the two before the closure; 15:00 none; 16:00 the two after it reopens (the judge's slots start at the
    # next hour); after it, as long as it lasted, our busiest scheduled hour (three, 14:00's) beside what is scheduled then
    assert departures == {14: 2, 15: 0, 16: 2, 17: 3, 18: 3}
    assert all(limit.end - limit.start == timedelta(hours=1) for limit in limits)


@settings(max_examples=40, deadline=None)
@given(start=st.integers(0, 59), minutes=st.integers(30, 300), closes=st.booleans())
def test_the_judges_departures_fit_every_hour_the_model_meters(start, minutes, closes) -> None:
    """The day as the judge flies it (`realize`, queued flights at their slots) never has more departures in a clock
    hour than the model allows there, and every hour the window touches is metered."""
    tables = state()
    _hub_departures(tables, (13, 50), (14, 0), (14, 5), (14, 20), (15, 30), (16, 40), (16, 50), (18, 15))
    begins = utc(2027, 1, 20, 14, start)
    window = _window(begins, begins + timedelta(minutes=minutes), closes=closes)
    limits = {limit.start: limit.departures_per_hour for limit in hour_limits(tables, window)}
    hour = begins.replace(minute=0)
    while hour < window.end:
        assert hour in limits
        hour += timedelta(hours=1)
    flown = [t.departure for fid, t in realize(tables, [window]).items() if tables.flights[fid].origin == "AUH"]
    for hour, allowed in limits.items():
        assert sum(hour <= t < hour + timedelta(hours=1) for t in flown) <= allowed, hour


def test_a_cut_at_an_airport_declaring_its_rate_is_held_flight_by_flight_not_metered_by_the_hour():
    """At LHR the judge queues our flights with every airline's (ration-by-schedule): their waits are the model's
    holds (`declared_waits`), and an hourly limit beside them would count the same queue twice."""
    tables = state()
    cut = _window(utc(2027, 1, 20, 10), utc(2027, 1, 20, 12), closes=False, station="LHR")
    assert hour_limits(tables, cut) == []
    closed = cut.model_copy(update={"closes": True})
    assert hour_limits(tables, closed) != []  # a closure holds every airport the same way


def test_an_outage_starts_for_the_model_once_the_flight_in_the_air_has_landed():
    tables = state()
    defect = StreamEvent(
        event_id="E1", at=utc(2027, 1, 20, 12), holds="tail", family="technical", code=41, cause="technical",
        history_type="mechanical", flight_id="F2", flight_number="EY22", registration="A6-BLA",
        start=utc(2027, 1, 20, 12), end=utc(2027, 1, 20, 20), report="A6-BLA windshield cracked",
    )  # fmt: skip
    timings = realize(tables, [])  # F1 in the air AUH-FRA 10:00-16:00
    assert outage(tables, timings, defect).start == utc(2027, 1, 20, 16)
    on_ground = defect.model_copy(update={"start": utc(2027, 1, 20, 17)})
    assert outage(tables, timings, on_ground).start == utc(2027, 1, 20, 17)
