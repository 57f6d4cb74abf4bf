"""The offline reading of a report's cause, scope, window and severity (the disruption model's raw facts).

Deterministic: a cause table of word patterns → IATA AHM 730 delay codes (most specific first: "bird
strike" before an industrial "strike", a crew rotation before crew sickness), a registration, an airport by
IATA code or by the city names the airline serves, a crew position, a UTC time window and a stated duration.
Every reading keeps the span of the words it came from, so the console can show where each fact was read.
Nothing here is checked against the data: Validate resolves the scope (the flight operates, the tail exists,
the crew position is on that flight) and refuses a contradiction.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta

from ..models.airports import UnknownAirport, airport
from ..models.disruption import DELAY_CODES, ScopeKind

# (pattern, delay code, fact name). Patterns are whole-word, case-insensitive; the first match wins.
CAUSES: tuple[tuple[str, int, str], ...] = (
    (
        r"bird[- ]?strike|lightning strike|struck by lightning|hail damage|heavy landing|tail strike",
        51,
        "aircraft_damage",
    ),
    (
        r"(?:truck|vehicle|tug|stairs|jet ?bridge|air ?bridge|ground equipment)\b.{0,20}\b(?:struck|hit|collided with"
        r"|damaged)|struck by (?:a |the )?(?:truck|vehicle|tug)|ground damage",
        52,
        "aircraft_damage",
    ),
    (r"de-?icing", 75, "de_icing"),
    (
        r"(?:atc|atfm|air traffic)\b.{0,40}\b(?:destination|arrival)|(?:destination|arrival)\b.{0,40}\b(?:atc|atfm)"
        r"|flow control\b.{0,30}\bdestination|(?:arrival|landing) slot",
        83,
        "atfm_regulation",
    ),
    (
        r"atc|atfm|air traffic control|flow control|flow regulation|slot (?:delay|restriction|regulation)|ctot"
        r"|(?:departure|take-?off) slot",
        81,
        "atfm_regulation",
    ),
    (r"crew rotation|awaiting (?:the )?(?:inbound )?crew", 95, "crew_rotation"),
    (
        r"late inbound|late arrival of the inbound|aircraft rotation|knock-on|behind on the inbound"
        r"|inbound (?:aircraft|flight) (?:is |was )?(?:late|delayed)",
        93,
        "aircraft_rotation",
    ),
    (
        r"(?:captain|first officer|second officer|co-?pilot|pilot|flight deck crew|commander)\b.{0,60}\b"
        r"(?:sick|ill|unwell|no[- ]show|unavailable|missing|did not report|injured|unfit)"
        r"|(?:sick|ill|unwell|unavailable|missing|no[- ]show)\b.{0,30}\b(?:captain|first officer|second officer|pilot)",
        64,
        "crew_unavailable",
    ),
    (
        r"duty time|duty limits?|fdp|flight time limitations?|ftl|(?:crew|pilots?)\b.{0,30}\b(?:timed? ?out|out of hours)",
        64,
        "crew_duty_limit",
    ),
    (
        r"(?:cabin crew|flight attendant|purser|cabin manager|steward(?:ess)?)\b.{0,60}\b"
        r"(?:sick|ill|unwell|no[- ]show|unavailable|missing|did not report|injured|short)",
        67,
        "crew_unavailable",
    ),
    (
        r"fog|thunderstorms?|storm|snow(?:fall|storm)?|blizzard|freezing rain|sandstorm|dust ?storm|low visibility"
        r"|crosswinds?|high winds?|gusts?|typhoon|hurricane|volcanic ash",
        71,
        "weather",
    ),
    (
        r"runway (?:closure|closed|works)|airport (?:is |was )?closed|closure of|capacity (?:cut|reduction|reduced)"
        r"|closed",
        87,
        "airport_restriction",
    ),
    (
        r"(?:high|hi|main deck|container|pallet)[- ]loader|loader\b.{0,30}\b(?:broke|broken|failed|u/s)"
        r"|loading equipment",
        33,
        "loading_equipment",
    ),
    (
        r"(?:dangerous goods|hazmat|consignment|cargo)\b.{0,60}\b(?:incorrectly|improperly|badly) packed"
        r"|inadequate(?:ly)? packed|packing of (?:the )?cargo",
        24,
        "cargo_packing",
    ),
    (r"dangerous goods|hazmat", 21, "cargo_documentation"),
    (r"ambulift|wheelchairs?|reduced mobility|prm", 19, "reduced_mobility"),
    (
        r"disruptive passengers?|unruly passengers?|passengers? (?:was |were )?offloaded|offload(?:ed|ing)? "
        r"(?:a |the )?passengers?|missing passengers?|boarding (?:will run|is running|running|delayed|late)",
        15,
        "boarding",
    ),
    (
        r"(?:scheduled |maintenance )?check\b.{0,40}\boverrun(?:ning|s)?|maintenance overrun"
        r"|late release from (?:the )?(?:hangar|maintenance)",
        42,
        "scheduled_maintenance",
    ),
    (
        r"mechanical|technical (?:fault|problem|issue|failure)|fault|failure|defect|aog|inoperative|inop|"
        r"engine|hydraulic|avionics|landing gear|apu|leak|warning light|inspection|failed|no[- ]go item"
        r"|unserviceable|u/s|cracked|windshield|windscreen|weather radar|transceiver|pressure controller|bleed",
        41,
        "aircraft_defect",
    ),
    (
        r"industrial action|walk-?out|(?:staff|pilots?'?|controllers?'?|union|general) strike|on strike",
        98,
        "industrial_action",
    ),
    (
        r"security (?:alert|check|threat|incident|search)|bomb threat|drone sighting|drones? (?:seen|sighted)",
        85,
        "security",
    ),
    (r"baggage|luggage", 18, "baggage"),
    (r"catering", 37, "catering"),
    (r"fuel(?:ling)?|refuel", 36, "fuelling"),
    (r"cargo|freight", 22, "cargo"),
)

POSITIONS: tuple[tuple[str, str], ...] = (
    (r"captain|commander", "CAPTAIN"),
    (r"first officer|co-?pilot", "FIRST_OFFICER"),
    (r"second officer|cruise relief pilot|relief pilot", "SECOND_OFFICER"),
    (r"purser|cabin manager", "PURSER"),
    (r"cabin crew|flight attendant|steward(?:ess)?", "CABIN"),
)
REGISTRATION = re.compile(r"\b([A-Z0-9]{1,2}-[A-Z0-9]{3,5})\b")
IATA_WORD = re.compile(r"\b([A-Z]{3})\b")
TIME = r"(\d{1,2})[:h.]?(\d{2})"
WINDOW = re.compile(rf"\b(?:from|between)\s+{TIME}\s*(?:z|utc)?\s*(?:to|until|till|and|-|–)\s*{TIME}\s*(z|utc)?", re.I)
NUMBER_WORDS = {
    w: n
    for n, w in enumerate(
        ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"], start=1
    )
}
DURATION = re.compile(rf"\b(\d{{1,4}}|{'|'.join(NUMBER_WORDS)})[- ]?(minutes?|mins?|min|hours?|hrs?|h)\b", re.I)
NOT_AIRPORTS = {"ATC", "UTC", "AOG", "MEL", "APU", "ETA", "ETD", "STD", "STA", "FIR", "NOT", "THE", "AND", "FOR"}


# A sentence telling the system what to do ("ignore crew duty limits", "disregard the curfew") describes no
# disruption: it is left out before the prompt is typed, so injected words cannot change the type.
_INSTRUCTION = re.compile(
    r"\b(?:ignore|disregard|forget|override|bypass|waive|pretend|skip|do not apply|don['’]t apply)\b", re.I
)
_SENTENCES = re.compile(r"(?<=[.!?;:,])\s+|\n+|\s+(?:but|and then)\s+")


def described(prompt: str) -> str:
    """The prompt without its instruction-like sentences."""
    return " ".join(part for part in _SENTENCES.split(prompt or "") if not _INSTRUCTION.search(part))


def _instructions_blanked(text: str) -> str:
    """The text with each instruction-like sentence replaced by spaces: offsets still point into the report."""
    out, at = [], 0
    for sep in [*_SENTENCES.finditer(text), None]:
        end = sep.start() if sep else len(text)
        part = text[at:end]
        out.append(" " * len(part) if _INSTRUCTION.search(part) else part)
        if sep:
            out.append(sep.group(0))
            at = sep.end()
    return "".join(out)


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
    registration: Reading | None = None
    airport: Reading | None = None
    crew_position: Reading | None = None
    window: tuple[time, time] | None = None
    window_words: Reading | None = None
    duration_minutes: Reading | None = None
    notes: list[str] = field(default_factory=list)

    def scope_kind(self, has_flight: bool) -> ScopeKind | None:
        """The narrowest scope the report names: a crew member on a flight, a flight, a tail, an airport."""
        if self.crew_position is not None and has_flight:
            return "crew_member"
        if has_flight:
            return "flight"
        if self.registration is not None:
            return "tail"
        if self.airport is not None:
            return "airspace" if self.fact == "atfm_regulation" else "airport"
        return None

    def window_on(self, day: date) -> tuple[datetime, datetime] | None:
        """The stated window on a UTC day (an end before the start runs past midnight)."""
        if self.window is None:
            return None
        start = datetime.combine(day, self.window[0], UTC)
        end = datetime.combine(day, self.window[1], UTC)
        return start, end if end > start else end + timedelta(days=1)


def _search(pattern: str, text: str) -> re.Match[str] | None:
    return re.search(rf"\b(?:{pattern})\b", text, re.I | re.S)


def _reading(m: re.Match[str], value: str | int, group: int = 0) -> Reading:
    return Reading(value=value, span=m.span(group), words=m.group(group))


def read_cause(text: str) -> tuple[int, str, Reading] | None:
    """The first cause in the table the report matches: (AHM 730 code, fact name, the words). Sentences that
    instruct ("ignore crew duty limits") describe no cause and are not read."""
    text = _instructions_blanked(text)
    for pattern, code, fact in CAUSES:
        m = _search(pattern, text)
        if m is not None:
            if code == 71 and _search(r"destination|arrival|land|landing|approach|divert\w*", text):
                code = 72  # weather at the destination station
            return code, fact, _reading(m, DELAY_CODES[code])
    return None


def read_airport(text: str, known: set[str]) -> Reading | None:
    """An IATA code the airline serves, or the report's city name of one (`known` maps both to codes)."""
    for m in IATA_WORD.finditer(text):
        code = m.group(1)
        if code in known and code not in NOT_AIRPORTS:
            return _reading(m, code, 1)
    return None


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
        for alias in {name, city, city.split()[0], name.split()[-1]} if name and city else set():
            if len(alias) >= 5:
                candidates.setdefault(alias, set()).add(code)
    return {alias: next(iter(found)) for alias, found in candidates.items() if len(found) == 1}


def read_report(
    text: str, known_airports: set[str] | None = None, city_codes: dict[str, str] | None = None
) -> ReportReading:
    """Everything the offline parser reads from a report; `city_codes` maps lower-case city names to IATA."""
    reading = ReportReading(text=text)
    cause = read_cause(text)
    if cause is not None:
        reading.cause_code, reading.fact, reading.cause = cause
    if (m := REGISTRATION.search(text)) is not None:
        reading.registration = _reading(m, m.group(1), 1)
    reading.airport = read_airport(text, known_airports or set())
    if reading.airport is None and city_codes:
        for city, code in sorted(city_codes.items(), key=lambda kv: -len(kv[0])):
            if (m := _search(re.escape(city), text)) is not None:
                reading.airport = _reading(m, code)
                break
    for pattern, position in POSITIONS:
        if (m := _search(pattern, text)) is not None:
            reading.crew_position = _reading(m, position)
            break
    if (m := WINDOW.search(text)) is not None:
        h1, m1, h2, m2 = (int(g) for g in m.groups()[:4])
        if h1 < 24 and h2 < 24 and m1 < 60 and m2 < 60:
            reading.window = (time(h1, m1), time(h2, m2))
            reading.window_words = _reading(m, f"{h1:02d}:{m1:02d}-{h2:02d}:{m2:02d}")
        if not m.group(5):
            reading.notes.append("window times read as UTC (no time zone stated)")
    if (m := DURATION.search(text)) is not None:
        word, unit = m.group(1).lower(), m.group(2).lower()
        amount = NUMBER_WORDS[word] if word in NUMBER_WORDS else int(word)
        reading.duration_minutes = _reading(m, amount * 60 if unit.startswith("h") else amount)
    return reading
