"""Worst-window arithmetic for cumulative limits ("60 h in any 7 consecutive days").

A cumulative limit is met when EVERY window of the given length that contains part of the proposed duty is
under the limit. Rolling windows are searched exactly: the load of a window ending at t is piecewise
linear in t, so its maximum is at a breakpoint (an interval edge, or an edge plus the window length).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Iterable, Literal
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


def _overlap_minutes(a0: datetime, a1: datetime, b0: datetime, b1: datetime) -> float:
    seconds = (min(a1, b1) - max(a0, b0)).total_seconds()
    return max(0.0, seconds / 60.0)


def max_prorated_load(spans: Iterable[Span], focus: Span, window: timedelta) -> WindowLoad:
    """Largest ``sum(amount × minutes inside the window)`` over rolling windows touching ``focus``.

    ``focus`` is included in the load. Used for duty/FDP hours: only the part of a duty inside the window
    counts.
    """
    items = [*spans, focus]
    lo, hi = focus.start, focus.end + window
    candidates = {lo, hi}
    for item in items:
        for point in (item.start, item.end, item.start + window, item.end + window):
            if lo <= point <= hi:
                candidates.add(point)
    best: WindowLoad | None = None
    for end in sorted(candidates):
        start = end - window
        load = sum(i.amount * _overlap_minutes(start, end, i.start, i.end) for i in items)
        if best is None or load > best.minutes:
            best = WindowLoad(load, start, end)
    assert best is not None
    return best


def max_lump_load(spans: Iterable[Span], focus: Span, window: timedelta) -> WindowLoad:
    """Largest ``sum(amount)`` of the spans overlapping a rolling window that overlaps ``focus``.

    A span touching the window counts in full (conservative). Used for flight time, whose minutes are
    known per duty but not when inside it they were flown.
    """
    items = [*spans, focus]
    best: WindowLoad | None = None
    for item in items:
        end = max(item.start, focus.start) + _EPSILON  # a window's load only rises just after a start
        if end >= focus.end + window:
            continue
        start = end - window
        load = sum(i.amount for i in items if i.start < end and i.end > start)
        if best is None or load > best.minutes:
            best = WindowLoad(load, start, end)
    assert best is not None
    return best


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
    best: WindowLoad | None = None
    for start, end in windows:
        load = sum(i.amount for i in items if i.start < end and i.end > start)
        if best is None or load > best.minutes:
            best = WindowLoad(load, start, end)
    assert best is not None
    return best


def _month_start(index: int, zone: ZoneInfo) -> datetime:
    return datetime(index // 12, index % 12 + 1, 1, tzinfo=zone)
