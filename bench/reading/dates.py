"""A day and a time written every common way an OCC writes them (day first where numeric, as the house does)."""

from __future__ import annotations

import random
from datetime import date, datetime

MONTH_NAMES = (
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
)


def _ordinal(day: int) -> str:
    suffix = "th" if 11 <= day % 100 <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
    return f"{day}{suffix}"


def day_forms(d: date) -> list[str]:
    """The day in full words, abbreviated, numeric (day first) and ISO."""
    month, mon = MONTH_NAMES[d.month - 1], MONTH_NAMES[d.month - 1][:3]
    return [
        f"{d.day} {mon}",
        f"{d.day} {month}",
        f"{d.day} {month} {d.year}",
        f"{month} {_ordinal(d.day)}",
        f"{mon} {d.day}",
        f"{_ordinal(d.day)} of {month}",
        f"{d.day:02d}/{d.month:02d}/{d.year}",
        f"{d.day:02d}.{d.month:02d}.{d.year}",
        f"{d:%Y-%m-%d}",
        f"{d.day:02d}/{d.month:02d}/{d.year % 100:02d}",
        f"{d:%a} {d.day} {mon}",
        f"{d.day}-{mon}",
    ]


def short_day_forms(d: date) -> list[str]:
    """The day as logs and telexes write it: 20JAN, 20JAN27, 2027-01-20."""
    mon = MONTH_NAMES[d.month - 1][:3].upper()
    return [f"{d.day:02d}{mon}", f"{d.day:02d}{mon}{d.year % 100:02d}", f"{d:%Y-%m-%d}"]


def written_day(rng: random.Random, d: date, short: bool = False) -> str:
    return rng.choice(short_day_forms(d) if short else day_forms(d))


def clock(rng: random.Random, at: datetime) -> str:
    """A UTC time of day: 14:00 or 1400."""
    return rng.choice((f"{at:%H:%M}", f"{at:%H%M}"))


def mvt_time(at: datetime) -> str:
    """An MVT estimate: day of month, hours and minutes (ED201530)."""
    return f"{at:%d%H%M}"
