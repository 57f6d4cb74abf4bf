"""A set of flights a report describes instead of naming: "all our London flights this evening", "A6-BLQ's flights
today", "every departure to Bahrain tomorrow morning", "the sectors operated by A6-EID", "arrivals from Cairo
tonight".

Read by the parts of such a phrase, not one pattern per phrasing: a noun for flights (flights, departures,
arrivals, sectors, services, legs, rotation; FLTS, DEPS, ARRS) that is plural or quantified ("every departure"),
bound to what picks the set — a registration ("A6-BLQ's", "operated by A6-BLQ"), a place before the noun ("our
London flights": to or from it; a route, "AUH-BOM flights", "every AUH to BOM departure": its two ends) or after a
preposition that gives the direction ("to", "into", "bound for" → its destination; "from", "out of", "ex" → its
origin; "at", "via", "to and from" → either end; an arrival "at" a place is its destination, a departure "at" one its
origin) — and a part of the day ("this evening", "tomorrow morning",
"tonight", "afternoon departures"), in the local time the flight leaves; an aircraft type before the noun ("all A35K
departures") keeps that type's. A definite singular with a place and a clock time or part of the day ("the 3:45 pm
local to Bahrain", "the morning Tbilisi flight") describes one flight (intake/described_words.py). A greeting ("Good
morning team,", "Evening OCC,") is no part of the day. Instructing sentences are blanked first: they describe nothing.

Pure: the places are matched against the airports a caller says the airline serves; the data is read elsewhere
(intake/described_flights.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import time
from typing import Literal

from .dates import find_dates
from .described_words import ONE_NOUNS, the_clock, type_bracket, types_before
from .report import REGISTRATION
from .sentences import blank_instructions

Direction = Literal["origin", "destination", "either"]
PlaceCodes = Callable[[str], set[str]]  # words → the served airports they name (empty: no place)

# Nouns for flights, singular → plural forms (any case); a quantified singular ("every departure") counts too.
SET_NOUNS: dict[str, str] = {
    "flight": "flights",
    "local": "locals",  # "the 3:45 pm local": OCC's word for a departure by its local time (one flight only)
    "departure": "departures",
    "arrival": "arrivals",
    "sector": "sectors",
    "service": "services",
    "leg": "legs",
    "rotation": "rotations",
    "flt": "flts",
    "dep": "deps",
    "arr": "arrs",
}
_PLURALS = frozenset(SET_NOUNS.values())
_KIND = {"departure": "departures", "dep": "departures", "arrival": "arrivals", "arr": "arrivals"}
QUANTIFIERS = frozenset({"all", "every", "each", "our", "any", "both", "remaining", "whole", "entire"})
# Prepositions after the noun and the end of the flight they name; `None`: by the noun (an arrival "at" a place
# arrives there, a departure "at" one leaves it; a plain flight "at" one touches it).
DIRECTIONS: dict[str, Direction | None] = {
    "to": "destination",
    "into": "destination",
    "for": "destination",
    "towards": "destination",
    "bound for": "destination",
    "inbound to": "destination",
    "from": "origin",
    "out of": "origin",
    "ex": "origin",
    "leaving": "origin",
    "outbound from": "origin",
    "at": None,
    "in": None,
    "via": "either",
    "through": "either",
    "serving": "either",
    "to and from": "either",
    "to/from": "either",
    "from/to": "either",
    "from and to": "either",
    "in and out of": "either",
    "into and out of": "either",
}
BY_TAIL = frozenset({"on", "of", "for", "by", "with", "using", "operated by", "flown by"})
TAIL_WORDS = frozenset({"aircraft", "tail", "a/c", "reg", "registration", "ship"})
# Parts of the day, in the local time a flight leaves (start inclusive, end exclusive; midnight ends the day).
PARTS_OF_DAY: dict[str, tuple[time, time | None]] = {
    "morning": (time(4), time(12)),
    "afternoon": (time(12), time(17)),
    "evening": (time(17), None),
}
_PART_WORDS = {"morning": "morning", "afternoon": "afternoon", "evening": "evening", "night": "evening"}
# Words that bind a part of the day to the report's day ("this evening", "tomorrow morning", "on Tuesday night").
_PART_BINDERS = frozenset(
    {"this", "tomorrow", "today", "in", "during", "late", "early", "the", "tomorrow's", "today's", "sat"}
    | {f"{d}day" for d in ("mon", "tues", "wednes", "thurs", "fri", "satur", "sun")}
    | {"mon", "tue", "wed", "thu", "fri", "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct"}
    | {"nov", "dec", "january", "february", "march", "april", "june", "july", "august", "september", "october"}
    | {"november", "december"}
)
# Words about the day that may stand between a noun and its qualifiers ("flights to Bahrain tomorrow morning").
# "night" naming a maintenance or crew event, not a part of the day ("night check", "night stop", "night shift").
_NIGHT_NOUNS = frozenset({"chk", "check", "checks", "stop", "stops", "shift", "maintenance", "mx"})
_DAY_WORDS = _PART_BINDERS | set(_PART_WORDS) | {"on", "of", "tonight", "tonight's", "next"}
# Words, with the slash abbreviations kept whole; any other slash separates ("ALL MUC FLTS/19JAN", "TO BAH/21JAN").
_TOKEN = re.compile(r"(?i:a/c|f/o|s/o|u/s|c/a|to/from|from/to)(?![\w/])|[A-Za-z0-9][\w'’-]*|[.,;:!?()]")
_BREAK = frozenset(".,;:!?()")
_DAY_OF_MONTH = re.compile(r"\d{1,2}(?:st|nd|rd|th)?|\d{1,2}[a-z]{3}\d{0,2}")  # "21st evening", "21jan morning"
# "A6-BLQ is AOG, all its flights": the one tail named ("his flights" are a crew member's, no tail's set)
_POSSESSIVE = frozenset({"its"})
AROUND = 5  # words before the noun its quantifier, tail or place may stand in; after it, AROUND + 3


@dataclass(frozen=True)
class Constraint:
    """One end of a described flight: `codes` the airports, `end` which end of the flight must be one of them."""

    end: Direction
    codes: frozenset[str]
    words: str


@dataclass(frozen=True)
class FlightSet:
    """One described set: the words and their span, the tail, the places and the parts of the day picking it."""

    words: str
    span: tuple[int, int]
    noun: tuple[int, int]  # the flight noun's span: it names the subject, not a cause ("rotation", "services")
    registration: str | None = None
    places: tuple[Constraint, ...] = ()
    parts: tuple[str, ...] = ()  # keys of PARTS_OF_DAY; none: the whole day
    types: frozenset[str] = frozenset()  # the fleet's type codes it flies with ("all A35K departures"); none: any
    one: bool = False  # one flight described ("the morning Tbilisi flight"): several fitting is a question
    clocks: tuple[time, ...] = ()  # its local departure time, either of them ("3:45": 03:45 or 15:45)

    @property
    def by_place(self) -> bool:
        return bool(self.places)


@dataclass
class _Tokens:
    text: str
    items: list[tuple[str, int, int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.items = [(m.group(0), m.start(), m.end()) for m in _TOKEN.finditer(self.text)]

    def word(self, i: int) -> str:
        return self.items[i][0] if 0 <= i < len(self.items) else "."

    def lower(self, i: int) -> str:
        return self.word(i).lower().replace("’", "'")


def _noun(word: str) -> tuple[str, bool] | None:
    """(the noun's singular, plural?) for a flight noun, else None."""
    w = word.lower()
    if w in SET_NOUNS:
        return w, False
    for single, plural in SET_NOUNS.items():
        if w == plural:
            return single, True
    return None


def _registration(word: str) -> str | None:
    found = REGISTRATION.match(word)
    return found.group(1) if found else None


def _place(tokens: _Tokens, first: int, last: int, place_codes: PlaceCodes) -> set[str]:
    """The served airports the words first..last-1 name exactly, none across a break."""
    if first < 0 or any(tokens.word(j) in _BREAK for j in range(first, last)):
        return set()
    return place_codes(" ".join(tokens.word(j) for j in range(first, last)))


def _place_at(tokens: _Tokens, start: int, place_codes: PlaceCodes) -> tuple[set[str], int] | None:
    """The longest place (up to three words) starting at token `start`, and the token after it."""
    for n in (3, 2, 1):
        if codes := _place(tokens, start, start + n, place_codes):
            return codes, start + n
    return None


def _phrase(tokens: _Tokens, i: int, table: dict[str, Direction | None] | frozenset[str]) -> tuple[str, int] | None:
    """The longest phrase of `table` starting at token i (up to four words) and the token after it."""
    for n in (4, 3, 2, 1):
        phrase = " ".join(tokens.lower(j) for j in range(i, i + n))
        if phrase in table:
            return phrase, i + n
    return None


def _end_of(phrase: str, noun: str) -> Direction:
    end = DIRECTIONS[phrase]
    if end is not None:
        return end
    kind = _KIND.get(noun)
    return "destination" if kind == "arrivals" else "origin" if kind == "departures" else "either"


def _after(tokens: _Tokens, i: int, noun: str, place_codes: PlaceCodes) -> tuple[str | None, list[Constraint], int]:
    """The tail and places bound after the noun at token i ("to Bahrain", "operated by A6-BLQ", "to and from
    London", "to Bahrain and Kuwait"), and the last token read."""
    registration, places, last, j = None, list[Constraint](), i, i + 1
    while j <= i + AROUND + 3 and (tokens.word(j) not in _BREAK or _listed(tokens, j, places, place_codes)):
        if (tail := _phrase(tokens, j, BY_TAIL)) is not None:
            k = tail[1] + (tokens.lower(tail[1]) in TAIL_WORDS)
            if (reg := _registration(tokens.word(k))) is not None:
                registration, last, j = reg, k, k + 1
                continue
        direction = _phrase(tokens, j, DIRECTIONS)
        if direction is None and _listed(tokens, j, places, place_codes):  # "to HKG, PVG and NRT": the same end
            direction = (next(p for p, e in DIRECTIONS.items() if e == places[-1].end), j + 1)
        place = _place_at(tokens, direction[1], place_codes) if direction else None
        if direction is not None and place is not None:
            codes, j = place
            words = " ".join(tokens.word(x) for x in range(direction[1], j))
            places.append(Constraint(_end_of(direction[0], noun), frozenset(codes), words))
            last = j - 1
            continue
        word = tokens.lower(j)
        if not (word in _DAY_WORDS or any(c.isdigit() for c in word)):
            break  # the words after the set are the report's, not the set's ("ALL FLTS TO BAH 21JAN SS AT AUH")
        j += 1
    return registration, places, last


def _listed(tokens: _Tokens, j: int, places: list[Constraint], place_codes: PlaceCodes) -> bool:
    """Is token j the "and", "or" or comma of a list of places after one already read ("to HKG, PVG or NRT")?"""
    return bool(places) and tokens.lower(j) in ("and", "or", ",") and _place_at(tokens, j + 1, place_codes) is not None


def _before(
    tokens: _Tokens, i: int, place_codes: PlaceCodes, the_tail: str | None
) -> tuple[str | None, list[Constraint], bool, int]:
    """The tail, the place and a quantifier bound before the noun at token i ("all our London flights", "A6-BLQ's
    flights", "every departure"), and the first token read."""
    registration, places, quantified, first = None, list[Constraint](), False, i
    for j in range(i - 1, max(-1, i - AROUND - 1), -1):
        word = tokens.lower(j)
        if tokens.word(j) in _BREAK and not type_bracket(tokens, j):
            break
        if word in QUANTIFIERS:
            quantified, first = True, j
        elif (reg := _registration(tokens.word(j))) is not None or (word in _POSSESSIVE and the_tail):
            registration, first = reg or the_tail, j
    end = i - 1 if tokens.lower(i - 1) in _PART_WORDS else i  # "our Bahrain evening flights"
    if registration is None and (route := _route_before(tokens, end, place_codes)) is not None:
        ends, first_of_route = route
        return registration, ends, quantified, min(first, first_of_route)
    for n in (3, 2, 1):
        if registration is None and (codes := _place(tokens, end - n, end, place_codes)):
            words = " ".join(tokens.word(x) for x in range(end - n, end))
            noun = _noun(tokens.word(i))  # "CDG departures" leave it, "Cairo arrivals" land there
            places.append(Constraint(_end_of("at", noun[0]) if noun else "either", frozenset(codes), words))
            first = min(first, end - n)
            break
    return registration, places, quantified, first


def _route_before(tokens: _Tokens, end: int, place_codes: PlaceCodes) -> tuple[list[Constraint], int] | None:
    """A route just before the noun, origin first ("AUH-BOM departures", "every AUH to BOM departure", "our Abu
    Dhabi to Bahrain flights"): both ends bound, and the first token read; None where the words are no route."""
    word = tokens.word(end - 1)
    if "-" in word and _registration(word) is None:  # one token: "AUH-BOM" ("A6-BLQ" is a tail)
        halves = word.split("-")
        if len(halves) == 2 and (a := place_codes(halves[0])) and (b := place_codes(halves[1])):
            return [
                Constraint("origin", frozenset(a), halves[0]),
                Constraint("destination", frozenset(b), halves[1]),
            ], (end - 1)
    for n_dest in (3, 2, 1):  # "AUH to BOM": the destination just before the noun
        if not (b := _place(tokens, end - n_dest, end, place_codes)):
            continue
        link = end - n_dest - 1
        if tokens.lower(link) != "to":
            continue
        for n_origin in (3, 2, 1):
            if a := _place(tokens, link - n_origin, link, place_codes):
                origin = " ".join(tokens.word(x) for x in range(link - n_origin, link))
                destination = " ".join(tokens.word(x) for x in range(end - n_dest, end))
                return [
                    Constraint("origin", frozenset(a), origin),
                    Constraint("destination", frozenset(b), destination),
                ], link - n_origin
    return None


def parts_of_day(text: str) -> tuple[str, ...]:
    """The parts of the day the report speaks of ("this evening", "tonight", "tomorrow morning", "morning
    flights"), in the order written; a greeting ("Good morning", "Evening OCC,") is none."""
    plain = blank_instructions(text)
    tokens = _Tokens(plain)
    dates = [m.end for m in find_dates(plain)]
    found: list[str] = []
    for i, (word, at, _) in enumerate(tokens.items):
        w = word.lower().replace("\u2019", "'")
        w = w.removesuffix("'s") if w != "tonight's" else w  # "this morning's EY310": the morning's flight
        after_date = any(
            0 <= at - end <= 3 and plain[end:at].strip() in ("", ",") for end in dates
        )  # "21 Jan, evening"
        bound = after_date or tokens.lower(i - 1) in _PART_BINDERS or _DAY_OF_MONTH.fullmatch(tokens.lower(i - 1))
        if w in ("tonight", "tonight's"):
            part = "evening"
        elif w == "night":  # "tomorrow night", never "21JAN NIGHT CHK" (a night check) nor "night stop"
            if tokens.lower(i - 1) not in _PART_BINDERS or tokens.lower(i + 1) in _NIGHT_NOUNS:
                continue  # "TOMORROW NIGHT CHK": tomorrow's night check, not tomorrow's night flights
            part = "evening"
        elif w in _PART_WORDS and (bound or _noun(tokens.word(i + 1)) is not None):
            part = _PART_WORDS[w]
        else:
            continue
        if part not in found:
            found.append(part)
    return tuple(found)


def flight_sets(text: str, place_codes: PlaceCodes) -> list[FlightSet]:
    """Every set of flights the report describes (see the module docstring), in the order written."""
    plain = blank_instructions(text)
    tokens = _Tokens(plain)
    parts = parts_of_day(text)
    tails = {m.group(1) for m in REGISTRATION.finditer(plain)}
    the_tail = next(iter(tails)) if len(tails) == 1 else None
    sets: list[FlightSet] = []
    for i, (word, _, _) in enumerate(tokens.items):
        noun = _noun(word)
        if noun is None:
            continue
        single, plural = noun
        reg_before, before, quantified, first = _before(tokens, i, place_codes, the_tail)
        reg_after, after, last = _after(tokens, i, single, place_codes)
        registration = reg_before or reg_after
        one = not (plural or quantified or (single == "rotation" and registration))
        clocks: tuple[time, ...] = ()
        if one:
            definite = _definite(plain, tokens, i)
            if definite is None or not (before or after) or not (definite[1] or parts):
                continue
            first, clocks = min(first, definite[0]), definite[1]
        elif single == "local":
            continue
        types, typed_from = types_before(tokens, i, AROUND, _BREAK)
        if registration is None and not before and not after:
            continue  # "all flights" alone picks no set: the airport's or nobody's
        first = min(first, typed_from) if typed_from is not None else first
        span = (tokens.items[first][1], tokens.items[last][2])
        sets.append(
            FlightSet(
                words=" ".join(plain[span[0] : span[1]].split()),
                span=span,
                noun=tokens.items[i][1:],
                registration=registration,
                places=(*before, *after),
                parts=() if clocks else parts,
                types=types,
                one=one,
                clocks=clocks,
            )
        )
    return sets


def _definite(plain: str, tokens: _Tokens, i: int) -> tuple[int, tuple[time, ...]] | None:
    """For the singular noun at token i: the token of the "the" that makes it one flight (within AROUND words, in
    its sentence) and the clock time written right after it (none: ()); None when no "the" binds it, or when the
    noun is a clock's "local" and no clock stands before it (intake/described_words.py)."""
    if tokens.lower(i) not in ONE_NOUNS:
        return None
    start = max(0, i - AROUND - 3)  # a clock's colon and am/pm are tokens of their own
    found = the_clock(plain[tokens.items[start][1] : tokens.items[i][1]])
    if found is None or (tokens.lower(i) == "local" and not found[1]):
        return None
    at = tokens.items[start][1] + found[0]
    return next(j for j in range(start, i) if tokens.items[j][1] >= at), found[1]


__all__ = ["PARTS_OF_DAY", "Constraint", "FlightSet", "flight_sets", "parts_of_day"]
