"""The words that describe one flight rather than a set, as data and a small pure reading: a definite singular with
its clock time ("the 3:45 pm local", "the 0630 departure"). Used by intake/flight_sets.py; the fleet's types as OCC
writes them are models.fleet.TYPE_NAMES."""

from __future__ import annotations

import re
from datetime import time

# One flight described, not a set: a singular noun made definite ("the morning Tbilisi flight", "the 0630 departure
# to Bahrain") or a clock time's "local" ("the 3:45 pm local to Bahrain"), with a place and a part of the day or a
# clock time (local at the origin) — "the flight" alone describes nothing.
ONE_NOUNS = frozenset({"flight", "departure", "service", "sector", "flt", "dep", "local"})
_THE_CLOCK = re.compile(
    r"\bthe\s+(?:(?P<h>[01]?\d|2[0-3])(?:[:.h](?P<m>[0-5]\d)|(?P<m4>[0-5]\d))?\s*(?P<ampm>[ap]\.?m\b\.?)?\s+)?"
    r"(?P<rest>[^.;:!?]*)$",
    re.I,
)


def the_clock(before_noun: str) -> tuple[int, tuple[time, ...]] | None:
    """In the words before a singular flight noun: where the "the" binding it starts, and the clock time written
    right after that "the" — either half of the day for "3:45", none when no clock is written; None when no "the"
    binds the noun or the clock is impossible ("13 pm")."""
    found = _THE_CLOCK.search(before_noun)
    if found is None:
        return None
    if not (found.group("m") or found.group("m4") or found.group("ampm")):
        return found.start(), ()
    hour, minute = int(found.group("h")), int(found.group("m") or found.group("m4") or 0)
    ampm = (found.group("ampm") or "").lower()[:1]
    if ampm and not 1 <= hour <= 12:
        return None
    if ampm:
        return found.start(), (time(hour % 12 + (12 if ampm == "p" else 0), minute),)
    if hour <= 12 and found.group("m") and not found.group("h").startswith("0"):  # "3:45": either half
        return found.start(), tuple(dict.fromkeys((time(hour % 12, minute), time(hour % 12 + 12, minute))))
    return found.start(), (time(hour, minute),)  # "0630", "15:45": a 24-hour clock
