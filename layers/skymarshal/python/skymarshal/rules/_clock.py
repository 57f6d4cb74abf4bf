"""Small time helpers shared by the rule modules: "h:mm" tables, bands that cross midnight, local time."""

from __future__ import annotations

from datetime import datetime, time
from zoneinfo import ZoneInfo

from ..models.common import as_utc as as_utc  # re-exported: the rule modules import it from here

MINUTES_PER_DAY = 24 * 60


def hm(text: str) -> int:
    """ "13:30" or "9:00" → minutes."""
    hours, minutes = text.split(":")
    return int(hours) * 60 + int(minutes)


def fmt_hm(minutes: float) -> str:
    """Minutes → "h:mm" (negative values keep their sign)."""
    sign = "-" if minutes < 0 else ""
    total = abs(round(minutes))
    return f"{sign}{total // 60}:{total % 60:02d}"


def minute_of_day(value: time) -> int:
    """Whole minutes since local midnight (seconds are truncated: 13:29:59 is still the 13:29 minute)."""
    return value.hour * 60 + value.minute


def in_band(minute: int, first: int, last: int) -> bool:
    """Is ``minute`` within [first, last] (both inclusive, table style "17:00–04:59"), crossing midnight?"""
    if first <= last:
        return first <= minute <= last
    return minute >= first or minute <= last


def local_time(at: datetime, tz: str) -> time:
    """Wall-clock time of the UTC instant ``at`` in the IANA zone ``tz``."""
    return as_utc(at).astimezone(ZoneInfo(tz)).time()


def minutes_between(start: datetime, end: datetime) -> int:
    """Whole minutes from start to end (negative if end is earlier), rounded towards minus infinity."""
    return int((as_utc(end) - as_utc(start)).total_seconds() // 60)
