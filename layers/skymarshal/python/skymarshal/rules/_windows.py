"""Worst-window arithmetic for cumulative limits ("60 h in any 7 consecutive days").

A cumulative limit is met when EVERY window of the given length that contains part of the proposed duty is
under the limit. Rolling windows are searched exactly: the load of a window ending at t is piecewise
linear in t, so its maximum is at a breakpoint (an interval edge, or an edge plus the window length).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Literal
from zoneinfo import ZoneInfo

_EPSILON = timedelta(seconds=1)


@dataclass(frozen=True)
class Span:
    start: datetime
    end: datetime
    amount: float  # prorated loads: credit factor per minute (1.0, 0.25); lump loads: minutes credited


@dataclass(frozen=True)
class WindowLoad:
    minutes: float
    window_start: datetime
    window_end: datetime


def _minutes(at: datetime) -> float:
    return at.timestamp() / 60.0


def _instant(minutes: float) -> datetime:
    return datetime.fromtimestamp(minutes * 60.0, tz=UTC)


def max_prorated_load(spans: Iterable[Span], focus: Span, window: timedelta) -> WindowLoad:
    """Largest ``sum(amount × minutes inside the window)`` over rolling windows touching ``focus``.

    ``focus`` is included in the load. Used for duty/FDP hours: only the part of a duty inside the window
    counts. Times are epoch minutes inside the search (datetime arithmetic is the slow part otherwise).
    """
    length = window.total_seconds() / 60.0
    lo, hi = _minutes(focus.start), _minutes(focus.end) + length
    items = [(_minutes(i.start), _minutes(i.end), i.amount) for i in (*spans, focus)]
    items = [i for i in items if i[1] > lo - length and i[0] < hi]  # can touch a window ending in [lo, hi]
    # As the window's end moves right, an item adds `amount` per minute while the end is inside it and
    # removes it while the window's start is inside it: the load is piecewise linear between these points.
    events: dict[float, float] = {}
    for start, end, amount in items:
        for point, delta in ((start, amount), (end, -amount), (start + length, -amount), (end + length, amount)):
            if lo < point <= hi:
                events[point] = events.get(point, 0.0) + delta
    load = sum(amount * max(0.0, min(e, lo) - max(s, lo - length)) for s, e, amount in items)
    slope = sum(amount for s, e, amount in items if s <= lo < e) - sum(
        amount for s, e, amount in items if s + length <= lo < e + length
    )
    best_load, best_end, at = load, lo, lo
    for point in sorted(events):
        load += slope * (point - at)
        at = point
        if load > best_load + 1e-9:
            best_load, best_end = load, point
        slope += events[point]
    return WindowLoad(max(best_load, 0.0), _instant(best_end - length), _instant(best_end))


def max_lump_load(spans: Iterable[Span], focus: Span, window: timedelta) -> WindowLoad:
    """Largest ``sum(amount)`` of the spans overlapping a rolling window that overlaps ``focus``.

    A span touching the window counts in full (conservative). Used for flight time, whose minutes are
    known per duty but not when inside it they were flown.
    """
    length, epsilon = window.total_seconds() / 60.0, _EPSILON.total_seconds() / 60.0
    f0, f1 = _minutes(focus.start), _minutes(focus.end)
    items = [(_minutes(i.start), _minutes(i.end), i.amount) for i in (*spans, focus)]
    items = [i for i in items if i[1] > f0 - length and i[0] < f1 + length]
    best_load, best_end = -1.0, f0 + epsilon
    for item_start, _, _ in items:
        end = max(item_start, f0) + epsilon  # a window's load only rises just after a start
        if end >= f1 + length:
            continue
        start = end - length
        load = sum(amount for s, e, amount in items if s < end and e > start)
        if load > best_load:
            best_load, best_end = load, end
    return WindowLoad(best_load, _instant(best_end - length), _instant(best_end))


def calendar_lump_load(
    spans: Iterable[Span], focus: Span, period: Literal["year", "12_months"], tz: str = "UTC"
) -> WindowLoad:
    """Largest ``sum(amount)`` over calendar windows (local to ``tz``) that overlap ``focus``.

    ``year``: the calendar year(s) the focus touches. ``12_months``: every run of 12 consecutive
    calendar months that includes a month the focus touches.
    """
    zone = ZoneInfo(tz)
    items = [*spans, focus]
    first, last = focus.start.astimezone(zone), focus.end.astimezone(zone)
    windows: list[tuple[datetime, datetime]] = []
    if period == "year":
        for year in range(first.year, last.year + 1):
            windows.append((datetime(year, 1, 1, tzinfo=zone), datetime(year + 1, 1, 1, tzinfo=zone)))
    else:
        first_index = first.year * 12 + first.month - 1
        last_index = last.year * 12 + last.month - 1
        for index in range(first_index - 11, last_index + 1):
            windows.append((_month_start(index, zone), _month_start(index + 12, zone)))
    minutes = [(_minutes(i.start), _minutes(i.end), i.amount) for i in items]
    best: WindowLoad | None = None
    for start, end in windows:
        w0, w1 = _minutes(start), _minutes(end)
        load = sum(amount for s, e, amount in minutes if s < w1 and e > w0)
        if best is None or load > best.minutes:
            best = WindowLoad(load, start, end)
    assert best is not None
    return best


def _month_start(index: int, zone: ZoneInfo) -> datetime:
    return datetime(index // 12, index % 12 + 1, 1, tzinfo=zone)
