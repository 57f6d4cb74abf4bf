"""The words that describe one flight or narrow a set of them, as data and small pure readings: a definite singular
with its clock time ("the 3:45 pm local", "the 0630 departure") and the fleet's types as OCC writes them ("A35K",
"777", "Dreamliner"). Used by intake/flight_sets.py."""

from __future__ import annotations

import re
from datetime import time

from ..models.fleet import AIRCRAFT_TYPES

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


# A type as OCC writes it, to the fleet's codes (models.fleet): its code, the maker's model, the family.
TYPE_WORDS: dict[str, frozenset[str]] = {
    **{code.lower(): frozenset({code}) for code in AIRCRAFT_TYPES},
    **{w: frozenset({"B77W"}) for w in ("b777", "777", "77w", "b777-300er", "777-300er", "b773")},
    **{w: frozenset({"B789", "B78X"}) for w in ("b787", "787", "dreamliner", "dreamliners")},
    **{w: frozenset({"B789"}) for w in ("787-9", "b787-9")},
    **{w: frozenset({"B78X"}) for w in ("787-10", "b787-10", "78x")},
    **{w: frozenset({"A35K"}) for w in ("a350", "350", "a350-1000", "a351")},
    **{w: frozenset({"A320", "A321"}) for w in ("a32x", "a320s", "narrowbody", "narrowbodies", "narrow-body")},
}
