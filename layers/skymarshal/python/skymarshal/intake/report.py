"""The offline reading of a report's cause, scope, window and severity (the disruption model's raw facts).

The report is normalised first (normalise.py: abbreviations written out, control characters dropped), its
instructing sentences blanked (sentences.py), and its cause read from the AHM 730 lexicon (lexicon.py, cause.py)
with a confidence. Beside the cause: a registration, the airports it names (by IATA code, by the name or city of an
airport the airline serves), a crew position, an airspace, a UTC time window and a stated duration. Every reading
keeps the span of the report's words it came from, so the console can show where each fact was read.
Nothing here is checked against the data: Validate resolves the scope (the flight operates, the tail exists, the
crew position is on that flight) and refuses a contradiction.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from ..models.airport_names import ENGLISH_NAMES
from ..models.airports import UnknownAirport, airport
from ..models.corrections import MEMBER_CAUSES
from ..models.disruption import DELAY_CODES, ScopeKind
from .cause import read_cause
from .crew_member import named_position
from .normalise import ABBREVIATIONS, Normalised, normalise
from .sentences import blank_instructions, described

__all__ = ["REGISTRATION", "Reading", "ReportReading", "airport_names", "described", "read_report"]

# ICAO nationality marks (Annex 7) a registration starts with: one letter, or two characters, then a hyphen.
_MARKS_ONE = "BCDFGIMNZ"
_MARKS_TWO = (
    "A2|A3|A4|A5|A6|A7|A8|A9|AP|C2|C3|C5|C6|C9|CC|CN|CP|CS|CU|CX|D2|D4|D6|DQ|E3|E5|E7|EC|EI|EK|EP|ER|ES|"
    "ET|EW|EX|EY|EZ|H4|HA|HB|HC|HH|HI|HK|HL|HP|HR|HS|HZ|J2|J3|J5|J6|J7|J8|JA|JU|JY|LN|LV|LX|LY|LZ|OB|OD|"
    "OE|OH|OK|OM|OO|OY|P2|P4|PH|PJ|PK|PP|PR|PS|PT|PU|PZ|RA|RP|S2|S5|S7|S9|SE|SP|ST|SU|SX|T7|T8|T9|TC|TF|"
    "TG|TI|TJ|TL|TN|TR|TS|TT|TU|TY|TZ|UK|UN|UR|V2|V3|V4|V5|V6|V7|V8|VH|VN|VP|VQ|VT|XA|XB|XC|XT|XU|XY|YA|"
    "YI|YJ|YK|YL|YN|YR|YS|YU|YV|Z3|ZA|ZK|ZP|ZS"
)
REGISTRATION = re.compile(rf"(?<![\w-])((?:{_MARKS_TWO}|[{_MARKS_ONE}])-[A-Z0-9]{{3,5}})(?![\w-])")
IATA_WORD = re.compile(r"\b([A-Z]{3})\b")
TIME = r"(\d{1,2})[:h.]?(\d{2})"
_ZONES = r"z|utc|gmt|lt|local(?:\s+time)?"  # a window's clock: UTC, or the airport's local time ("0330 local")
_ZONE = rf"\s*(?:{_ZONES})?"
WINDOW = re.compile(
    rf"(?<![\w:/.-])(?:(?:from|between)\s+)?{TIME}{_ZONE}\s*(?:to|until|till|and|through|-|–)\s*{TIME}\s*({_ZONES})?"
    r"(?![\w/]|:\d)",
    re.I,
)
NUMBER_WORDS = {
    w: n
    for n, w in enumerate(
        ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"], start=1
    )
}
DURATION = re.compile(
    rf"(?<![\w.:/])(\d{{1,4}}|{'|'.join(NUMBER_WORDS)}|an|a|half an)\s*-?\s*(minutes?|mins?|min|hours?|h)(?:\s*(\d{{1,2}})\b)?"
    r"(?![\w/])",
    re.I,
)
PLUS_MINUTES = re.compile(
    r"(?:estimated departure|estimated arrival|slot\w*|delay\w*|delayed)\s*\+\s*(\d{1,3})\b", re.I
)
# A delay's bare count ("DLA 120", "delayed by 45."): minutes in OCC shorthand, never a date, a time or a count of
# something else ("delayed 19/01", "delayed 20 JAN", "delayed 2 flights")
DELAY_COUNT = re.compile(r"\bdelay(?:ed)?\s+(?:by\s+)?(\d{1,3})(?![\d/:]|\.\d|\s*(?:%|[a-z]))", re.I)
# Three-letter words that are never airports in a report (abbreviations, units, zones)
NOT_AIRPORTS = {"ATC", "UTC", "AOG", "APU", "ETA", "ETD", "STD", "STA", "FIR", "NOT", "THE", "AND", "FOR", "ILS", "DCS"}
ABBREVIATED = {k.upper() for k in ABBREVIATIONS if len(k) == 3 and k.isalpha()} | {"MEL"}
_PLACE_BEFORE = re.compile(r"\b(?:at|in|over|from|to|via|near|ex|into|for)\s+$", re.I)
_ROUTE = re.compile(r"[A-Z]{3}-[A-Z]{3}\b")
# Right after a code, a part of an airport makes it the airport ("HYD RUNWAYS ARE SHUT", "ISB TERMINAL"), also as
# what it lost ("HYD HAS LOST ITS ILS")
_FACILITY_AFTER = re.compile(
    r"\s+(?:(?:has\s+|had\s+)?lost\s+(?:its|the)\s+)?"
    r"(?:runways?|rwys?|airport|terminal|apron|tower|taxiways?|ils|fire\s+cover|approach\s+lights?)\b",
    re.I,
)
# Right before an airport: words that make it a movement's end, not where something is ("the late inbound from
# Jeddah", "to Abu Dhabi", "diverted to Muscat")
MOVEMENT = re.compile(
    r"\b(?i:from|to|into|via|ex|towards|for)\s+(?:(?!(?i:at|in|over|near)\b)[A-Z][\w.'’-]*\s+){0,2}\(?$"
    # a bag's or a passenger's destination, not the flight's: "bags tagged AMM instead of BEY"
    r"|\b(?i:tagged|labell?ed|instead\s+of|rather\s+than|final\s+destination)\s+(?:(?i:to|for)\s+)?$"
    # where connecting passengers checked in: "through-checked at BLR" is their journey's start, not the flight's
    r"|\b(?i:checked(?:[\s-]+in)?)\s+(?i:at)\s+$"
    # the feeder's end in brackets after its number and state: "the late EY473 (SIN)" (the report's own flight
    # with a wrong end in brackets stays a place, refused against its route)
    r"|\b(?i:late|delayed|cancel+ed|diverted)\s+[A-Z0-9]{2}\s?\d{1,4}[A-Z]?\s*\(\s*$"
)
# "the late Singapore arrival", "the Jeddah inbound": a flight from there, not something at that place
ARRIVAL_BEFORE = re.compile(r"\bthe\s+(?:(?:late|delayed)(?:[\s-]running)?\s+)?$", re.I)
ARRIVAL_AFTER = re.compile(r"\s+(?:arrival|inbound)\b", re.I)
AIRSPACE = re.compile(
    r"\b((?:(?!the\b|The\b|THE\b)[A-Z][A-Za-z]+\s){1,2}(?:FIR|UIR|airspace|AIRSPACE|ACC|CTA)|(?:FIR|UIR)\s+[A-Z][A-Za-z]+)\b"
)


@dataclass(frozen=True)
class Reading:
    """One thing read from the report, with the words it was read from."""

    value: str | int
    span: tuple[int, int]
    words: str


@dataclass
class ReportReading:
    """What the report says, before any check against the data."""

    text: str
    cause_code: int | None = None
    cause: Reading | None = None
    fact: str | None = None  # the cause's fact name, e.g. "crew_unavailable"
    causes: list[tuple[str, int, Reading]] = field(default_factory=list)  # every cause read: (fact, code, words)
    confidence: float = 0.0  # how sure the cause is (cause.py)
    registration: Reading | None = None
    airport: Reading | None = None  # the first place named (else the first airport) among those it can be about
    airports: list[Reading] = field(default_factory=list)  # every airport named, in order
    places: list[Reading] = field(default_factory=list)  # those it names as a place, not a movement's end
    airspace: Reading | None = None
    crew_position: Reading | None = None
    crew_group: bool = False  # the position names the cabin crew as a group ("2 cabin crew short"), no one member
    crew_count: Reading | None = None  # how many members of the position it says ("short by 2")
    window: tuple[time, time] | None = None
    window_words: Reading | None = None
    window_local: bool = False  # the window written in the airport's local time ("0330 local to 0930 local")
    duration_minutes: Reading | None = None
    notes: list[str] = field(default_factory=list)

    def scope_kind(self, has_flight: bool) -> ScopeKind | None:
        """The narrowest scope the report names: a crew member on a flight, a flight, a tail, an airport. A crew
        member named as the one asking for something that is not the crew's cause (the commander's extra fuel, 62;
        a security search, 69) is no scope: nobody is taken off the flight for it."""
        crews = self.cause_code is None or self.cause_code in MEMBER_CAUSES
        if self.crew_position is not None and not self.crew_group and has_flight and crews:
            return "crew_member"
        if has_flight:
            return "flight"
        if self.registration is not None:
            return "tail"
        if self.airport is not None:
            return "airspace" if self.airspace is not None else "airport"
        return None

    def window_on(self, day: date, zone: ZoneInfo | None = None) -> tuple[datetime, datetime] | None:
        """The stated window on `day` in UTC (an end before the start runs past midnight): a window written in local
        time is that day's in `zone` (the airport's), converted; without a zone it is read as UTC."""
        if self.window is None:
            return None
        clock = zone if self.window_local and zone is not None else UTC
        start = datetime.combine(day, self.window[0], clock)
        end = datetime.combine(day, self.window[1], clock)
        end = end if end > start else end + timedelta(days=1)
        return start.astimezone(UTC), end.astimezone(UTC)


def _reading(m: re.Match[str], value: str | int, group: int = 0) -> Reading:
    return Reading(value=value, span=m.span(group), words=m.group(group))


def _from_normalised(norm: Normalised, m: re.Match[str], value: str | int) -> Reading:
    span = norm.source(*m.span())
    return Reading(value=value, span=span, words=norm.original[span[0] : span[1]])


def airport_names(codes: set[str]) -> dict[str, str]:
    """Lower-case names a report may use for the airports `codes`: the airport's own name without "Airport" or
    "International", and its city where the city has only one of them (London has three: named, not guessed)."""
    candidates: dict[str, set[str]] = {}
    for code in sorted(codes):
        try:
            info = airport(code)
        except UnknownAirport:
            continue
        name = " ".join(re.sub(r"\b(?:international|intl|airport)\b", "", info.name, flags=re.I).split()).lower()
        city = " ".join(info.city.replace("-", " ").split()).lower()
        # the full name and city, and their first and last words when long enough to be names ("Frankfurt",
        # "Heathrow"), never "New" or "Abu"
        # the whole city or name from four letters ("Doha", "Malé"), a single word of it from five
        english = {n.lower() for n in ENGLISH_NAMES.get(code, ())}  # "Delhi" for New Delhi's airport
        for alias in {name, city, city.split()[0], name.split()[-1]} | english if name and city else set():
            if len(alias) >= (4 if alias in (name, city) or alias in english else 5):
                candidates.setdefault(folded(alias), set()).add(code)
    return {alias: next(iter(found)) for alias, found in candidates.items() if len(found) == 1}


def folded(text: str) -> str:
    """The text with accents taken off letter by letter ("Malé" → "Male"), its length and offsets kept."""
    return "".join((unicodedata.normalize("NFKD", ch)[:1] or ch) if ord(ch) > 127 else ch for ch in text)


def read_airports(text: str, known: set[str], city_codes: dict[str, str] | None) -> list[Reading]:
    """Every airport the report names that `known` holds, by IATA code or by a name in `city_codes`, in order. A code
    that is also an abbreviation ("HYD": Hyderabad, or hydraulic) is an airport only where it stands as a place: after
    "at", "in", "over", "from", "to", in a route ("HYD-AUH") or before a part of an airport ("HYD RUNWAYS"). A registration's letters are never an airport."""
    text = REGISTRATION.sub(lambda m: " " * len(m.group(0)), folded(text))
    found: dict[tuple[int, int], Reading] = {}
    for m in IATA_WORD.finditer(text):
        code = m.group(1)
        if code not in known or code in NOT_AIRPORTS:
            continue
        placed = (
            _PLACE_BEFORE.search(text[: m.start()])
            or _ROUTE.match(text, max(0, m.start() - 4))
            or _FACILITY_AFTER.match(text, m.end())
        )
        if code in ABBREVIATED and not (placed or _ROUTE.match(text, m.start())):
            continue
        found[m.span(1)] = _reading(m, code, 1)
    for city, code in sorted((city_codes or {}).items(), key=lambda kv: -len(kv[0])):
        for m in re.finditer(rf"(?<![\w-]){re.escape(city)}(?![\w])", text, re.I):
            if not any(a < m.end() and m.start() < b for a, b in found):
                found[m.span()] = _reading(m, code)
    return [found[span] for span in sorted(found)]


def airport_zone(code: str) -> ZoneInfo | None:
    """The airport's time zone (the world reference), None for a code it does not hold."""
    try:
        return ZoneInfo(airport(code).tz)
    except (UnknownAirport, KeyError):
        return None


def written_windows(text: str) -> list[re.Match[str]]:
    """Every pair of clock times the reader takes for a window, possible or not (intake/clock.py refuses the
    impossible ones before any reading): date phrases are blanked first, so "2027-01-19" is no window."""
    from .dates import find_dates

    masked = text
    for d in find_dates(text):
        masked = masked[: d.start] + " " * (d.end - d.start) + masked[d.end :]
    return list(WINDOW.finditer(masked))


def _window(reading: ReportReading, text: str) -> None:
    for m in written_windows(text):
        h1, m1, h2, m2 = (int(g) for g in m.groups()[:4])
        if h1 < 24 and h2 < 24 and m1 < 60 and m2 < 60 and (h1, m1) != (h2, m2):
            reading.window = (time(h1, m1), time(h2, m2))
            reading.window_words = _reading(m, f"{h1:02d}:{m1:02d}-{h2:02d}:{m2:02d}")
            reading.window_local = re.search(r"\b(?:lt|local)\b|\dlt\b", m.group(0), re.I) is not None
            if not reading.window_local and not m.group(5) and not re.search(r"z|utc|gmt", m.group(0), re.I):
                reading.notes.append("window times read as UTC (no time zone stated)")
            return


def _minutes(m: re.Match[str]) -> int:
    word, unit = m.group(1).lower(), m.group(2).lower()
    amount = {"an": 1, "a": 1}.get(word) or NUMBER_WORDS.get(word) or (0 if word == "half an" else int(word))
    minutes = 30 if word == "half an" else amount * 60 if unit.startswith("h") else amount
    if unit.startswith("h") and m.group(3):
        minutes += int(m.group(3))
    return minutes


def _duration(reading: ReportReading, norm: Normalised) -> None:
    """The stated duration; of several ("queues over an hour long ... 180 min late") the longest: a fact only makes
    the situation worse, and the shorter may time something else."""
    text = blank_instructions(norm.text)
    stated = [(_minutes(m), m) for m in DURATION.finditer(text)]
    if stated:
        minutes, longest = max(stated, key=lambda x: x[0])
        reading.duration_minutes = _from_normalised(norm, longest, minutes)
    elif (plus := PLUS_MINUTES.search(text) or DELAY_COUNT.search(text)) is not None:
        reading.duration_minutes = _from_normalised(norm, plus, int(plus.group(1)))


def _movement_end(plain: str, span: tuple[int, int]) -> bool:
    """An airport named as a movement's end ("from Jeddah", "the late Singapore arrival"), not where something is."""
    before, after = plain[max(0, span[0] - 60) : span[0]], plain[span[1] : span[1] + 12]
    arrival_from = ARRIVAL_BEFORE.search(before) is not None and ARRIVAL_AFTER.match(after) is not None
    return arrival_from or MOVEMENT.search(before) is not None


def read_report(
    text: str, known_airports: set[str] | None = None, city_codes: dict[str, str] | None = None
) -> ReportReading:
    """Everything the offline parser reads from a report; `city_codes` maps lower-case city names to IATA."""
    reading = ReportReading(text=text)
    norm = normalise(text)
    plain = blank_instructions(text)
    cause = read_cause(norm)
    reading.confidence = cause.confidence
    for found in cause.found:
        reading.causes.append((found.fact, found.code, Reading(DELAY_CODES[found.code], found.span, found.words)))
    if cause.first is not None:
        first = cause.first
        reading.cause_code, reading.fact = first.code, first.fact
        reading.cause = Reading(DELAY_CODES[first.code], first.span, first.words)
    if (m := REGISTRATION.search(plain)) is not None:
        reading.registration = _reading(m, m.group(1), 1)
    if (m := AIRSPACE.search(plain)) is not None:
        reading.airspace = _reading(m, " ".join(m.group(1).split()), 1)
    airspace = reading.airspace.span if reading.airspace else (0, 0)
    reading.airports = [  # "Muscat FIR" names an airspace, not Muscat's airport
        a
        for a in read_airports(plain, known_airports or set(), city_codes)
        if not airspace[0] <= a.span[0] < airspace[1]
    ]
    reading.places = [a for a in reading.airports if not _movement_end(plain, a.span)]
    # where something is ("fog over Abu Dhabi") before where a flight goes ("EY75 to Madrid"): the cause's place
    named = reading.places or reading.airports
    reading.airport = named[0] if named else None
    normalised_plain = blank_instructions(norm.text)
    if (crew := named_position(norm, normalised_plain, {code for _, code, _ in reading.causes})) is not None:
        reading.crew_position = _from_normalised(norm, crew.match, crew.position)
        reading.crew_group = not crew.one
        if crew.count_words is not None and crew.count is not None:
            span = norm.source(*crew.count_words)
            reading.crew_count = Reading(crew.count, span, norm.original[span[0] : span[1]])
    _window(reading, plain)
    _duration(reading, norm)
    return reading
