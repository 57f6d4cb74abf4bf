"""The words that describe one flight rather than a set, as data and a small pure reading: a definite singular with
its clock time ("the 3:45 pm local", "the 0630 departure"); and the aircraft types written before a set's noun
("all A35K departures", "B777 (B77W) flights"). Used by intake/flight_sets.py; the fleet's types as OCC writes them
are models.fleet.TYPE_NAMES."""

from __future__ import annotations

import re
from datetime import time
from typing import Protocol

from ..models.fleet import TYPE_NAMES


class Words(Protocol):
    """A report's tokens: each one's words as written and in lower case ("." past either end)."""

    def word(self, i: int) -> str: ...

    def lower(self, i: int) -> str: ...


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


def type_bracket(tokens: Words, j: int) -> bool:
    """Is token j a bracket around an aircraft type ("B777 (B77W)")? Such a bracket ends nothing."""
    if tokens.word(j) == ")":
        return tokens.word(j - 2) == "(" and tokens.lower(j - 1) in TYPE_NAMES
    return tokens.word(j) == "(" and tokens.word(j + 2) == ")" and tokens.lower(j + 1) in TYPE_NAMES


def types_before(tokens: Words, i: int, around: int, breaks: frozenset[str]) -> tuple[frozenset[str], int | None]:
    """The aircraft types written just before the noun at token i ("all A35K departures", "our B77W flights") and
    the first of their tokens (None: no type). A type in brackets after another narrows it ("B777 (B77W)": the
    B77W only); types side by side are either ("A380 and B787")."""
    found: set[str] = set()
    first = None
    for j in range(i - 1, max(-1, i - around - 1), -1):
        if tokens.word(j) in breaks and not type_bracket(tokens, j):
            break
        if (codes := TYPE_NAMES.get(tokens.lower(j))) is None:
            continue
        if tokens.word(j - 1) == "(":  # the narrower name of the type written before the bracket
            outer = TYPE_NAMES.get(tokens.lower(j - 2), codes)
            found |= codes & outer or codes
            first = j - 2
            continue
        if tokens.word(j + 1) != "(" or first != j:  # a type already narrowed by its bracket is not widened
            found |= codes
        first = j
    return frozenset(found), first
