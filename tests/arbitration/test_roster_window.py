"""A crew member's roster is read over whole UTC days: the year ORO.FTL.210 looks back and at least three days after
the moment asked about, one read (and one memo entry) per member and day. The arbitrator's memo is keyed by that
window: a roster read around one day never answers for a duty days later (it used to be keyed by the member alone,
so the first read's window answered every later one, without the later duties a rest check needs)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from skymarshal.analysis.crew import HISTORY_DAYS, roster_window
from skymarshal.arbitration.context import DisruptionContext
from skymarshal.data import queries as q

MOMENTS = st.datetimes(datetime(2026, 1, 1), datetime(2028, 12, 31), timezones=st.just(UTC))


@given(MOMENTS, st.integers(0, 24 * 60 - 1))
def test_the_window_covers_the_look_back_and_three_days_after_and_is_the_days(around, minute):
    start, end = roster_window(around)
    assert start <= around - timedelta(days=HISTORY_DAYS) and end >= around + timedelta(days=3)
    assert end - start == timedelta(days=HISTORY_DAYS + 4)
    same_day = around.replace(hour=0, minute=0, second=0, microsecond=0) + timedelta(minutes=minute)
    assert roster_window(same_day) == (start, end)


def _context(handle) -> DisruptionContext:
    """A context for its roster memo only (no flight or collation is read by it)."""
    ctx = DisruptionContext.__new__(DisruptionContext)
    ctx.handle, ctx._cache = handle, {}
    return ctx


def test_a_roster_read_around_one_day_does_not_answer_for_a_later_one(account):
    handle = account.handle()
    first = datetime(2027, 1, 20, 12, tzinfo=UTC)
    later = first + timedelta(days=3)
    flights = q.flights_at_airport(handle, "AUH", first + timedelta(days=4), first + timedelta(days=5))
    crew_id = next(a.crew_id for f in flights for a in q.crew_assignments(handle, f.flight_id))
    ctx = _context(handle)
    early = {r.duty_key for r in ctx.roster(crew_id, first)}
    late = {r.duty_key for r in ctx.roster(crew_id, later)}
    _, end = roster_window(first)
    assert late - early and all(key >= end.strftime("%Y-%m-%d") for key in late - early)
