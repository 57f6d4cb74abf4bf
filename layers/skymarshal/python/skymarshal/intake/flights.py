"""Flight numbers in plain language: "EY123", "EY 123", "ey-123", "Etihad 123", "Etihad flight 123", "flight 123".

- ``CARRIER_NAMES``   airline names → IATA designators, as data (matched case-insensitively, longest first).
- ``find_flights``    every flight-number mention in a text, normalised ("EY0123" → "EY123"), with its span.
- ``normalise_flight_number``  one free-text flight number (an LLM's answer) → "EY123", or None.
- ``number_is_written``  does the prompt contain this flight's digits? (an LLM reading must be grounded)

A bare number ("flight 123") takes the operator's designator (``default_carrier``, EY unless configured).
Two-character designators are easy to confuse with words and type codes, so a code+digits token counts as a
flight only when it is plausibly one — see ``_is_designator``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

# Airline names → IATA designator. Names that are ordinary English words on their own ("United", "Delta",
# "Swiss") are listed only in their full form, so "united 2 crews" is not read as UA2.
CARRIER_NAMES: dict[str, str] = {
    "Etihad": "EY",
    "Etihad Airways": "EY",
    "Emirates": "EK",
    "Qatar Airways": "QR",
    "Qatar": "QR",
    "Lufthansa": "LH",
    "British Airways": "BA",
    "Air France": "AF",
    "KLM": "KL",
    "Turkish Airlines": "TK",
    "Turkish": "TK",
    "Saudia": "SV",
    "Saudi Arabian Airlines": "SV",
    "flydubai": "FZ",
    "fly dubai": "FZ",
    "Air Arabia": "G9",
    "Oman Air": "WY",
    "Gulf Air": "GF",
    "Kuwait Airways": "KU",
    "Royal Jordanian": "RJ",
    "Middle East Airlines": "ME",
    "EgyptAir": "MS",
    "Air India": "AI",
    "IndiGo": "6E",
    "Pakistan International Airlines": "PK",
    "PIA": "PK",
    "SriLankan Airlines": "UL",
    "Singapore Airlines": "SQ",
    "Cathay Pacific": "CX",
    "Qantas": "QF",
    "Virgin Atlantic": "VS",
    "Aer Lingus": "EI",
    "Iberia": "IB",
    "ITA Airways": "AZ",
    "Swiss International Air Lines": "LX",
    "Austrian Airlines": "OS",
    "Air Canada": "AC",
    "American Airlines": "AA",
    "Delta Air Lines": "DL",
    "United Airlines": "UA",
}

# Never a designator: flight level ("FL350") and runway ("RW27").
NOT_DESIGNATORS = frozenset({"FL", "RW"})

# Two-letter English words and OCC abbreviations that precede numbers ("ON 20", "AT 14", "FO 2", "AC 3"):
# followed by a space and digits they are read as words, never as a designator. Glued ("ME123") they
# still count, since no word is written that way.
WORDS_BEFORE_NUMBERS = frozenset(
    {
        "AM",
        "PM",
        "ON",
        "AT",
        "IN",
        "BY",
        "OF",
        "TO",
        "IS",
        "IT",
        "AS",
        "AN",
        "OR",
        "UP",
        "NO",
        "SO",
        "DO",
        "GO",
        "WE",
        "US",
        "MY",
        "BE",
        "HE",
        "ME",
        "IF",
        "OK",
        "ID",
        "OH",
        "HI",
        "VS",
        "PA",
        "TV",
        "ST",
        "ND",
        "RD",
        "TH",
        "MR",
        "MS",
        "DR",
        "NR",
        "FO",
        "CA",
        "CD",
        "AC",
    }
)

# Aircraft type codes look like code+digits ("A320" = "A3" + "20", "B789", "A35K", "A350-1000",
# "B787-9"): blanked out before flight numbers are looked for.
_AIRCRAFT_TYPE = re.compile(r"(?<![\w-])[AB]\d{2}[0-9A-Z](?:-\d{1,4}[A-Z]{0,3})?(?![\w-])", re.I)

# "EY123", "EY 123", "ey-123", "EY 0123", "G9 512", "EY123A" (operational suffix, upper case only).
# Not preceded by a word character or hyphen (so not inside "KEY123" or "A6-EY1"); the digits are not
# followed by more word characters, nor by ":30" / ".5" (a time or a decimal).
_CODE_NUMBER = re.compile(
    r"(?<![\w-])(?P<code>[A-Za-z][A-Za-z0-9]|[0-9][A-Za-z])"
    r"(?P<sep>[ ]?-[ ]?|\s?)"
    r"(?P<num>\d{1,4})(?P<suffix>[A-Z]?)(?![\w])(?![:.,]\d)"
)

# "flight 123", "flight no. 123", "flight number 123", "flt #123" — number only, default carrier.
_FLIGHT_WORD = r"(?:flight|flt)\.?"
_NUMBER_WORD = r"(?:(?:no|num)\.?\s*|number\s+|\#\s*)"
FLIGHT_LEAD = rf"(?<![\w-]){_FLIGHT_WORD}\s*{_NUMBER_WORD}?"
_BARE_NUMBER = re.compile(rf"{FLIGHT_LEAD}(?P<num>\d{{1,4}})(?![\w])(?![:.,]\d)", re.I)


def _name_lead() -> str:
    """ "Etihad ", "Etihad flight ", "Qatar Airways flight no. ", "Etihad's flight " — before the digits."""
    names = sorted(CARRIER_NAMES, key=len, reverse=True)  # longest first: "Etihad Airways" before "Etihad"
    alternatives = "|".join(r"\s+".join(map(re.escape, name.split())) for name in names)
    return rf"(?<![\w-])(?P<name>{alternatives})(?:['’]s)?\s+(?:{_FLIGHT_WORD}\s*)?{_NUMBER_WORD}?"


NAME_LEAD = _name_lead()
_NAME_NUMBER = re.compile(rf"{NAME_LEAD}(?P<num>\d{{1,4}})(?![\w])(?![:.,]\d)", re.I)
_NAME_TO_CODE = {" ".join(name.lower().split()): code for name, code in CARRIER_NAMES.items()}

Source = Literal["code", "name", "default", "llm"]


@dataclass(frozen=True)
class FlightMention:
    flight_number: str  # normalised: designator + number without leading zeros (+ suffix), "EY123"
    text: str  # as written, "ey-123"
    start: int
    end: int
    carrier_from: Source  # written designator, airline name, the operator's default, or an LLM's reading


def _is_designator(code: str, sep: str, known: set[str]) -> bool:
    """Is this two-character token, in front of digits, an airline designator?"""
    upper = code.upper()
    if upper in NOT_DESIGNATORS:
        return False
    if sep.strip() == "" and sep and upper in WORDS_BEFORE_NUMBERS:
        return False  # "on 20", "AT 14": a word then a number
    if upper in known:
        return True  # EY, ey, Ey — the operator and the airlines we name
    if any(ch.isdigit() for ch in upper):
        return False  # "A3"+"20", "B7"+"77": digit designators only when known (G9, 6E)
    return code.isupper()  # an unknown designator counts only when written in capitals ("XY123")


def _normalise(code: str, number: str, suffix: str = "") -> str | None:
    digits = number.lstrip("0")
    return f"{code.upper()}{digits}{suffix}" if digits else None  # "EY0" is not a flight


def _overlaps(start: int, end: int, taken: list[tuple[int, int]]) -> bool:
    return any(start < t_end and t_start < end for t_start, t_end in taken)


def known_designators(default_carrier: str) -> set[str]:
    return set(CARRIER_NAMES.values()) | {default_carrier.upper()}


def is_designator(code: str, sep: str = "", default_carrier: str = "EY") -> bool:
    """Is `code`, written `sep` before digits, an airline designator ("EY", "ey", "G9"; not "B7" of B787, "ON 20")?"""
    return _is_designator(code, sep, known_designators(default_carrier))


def find_flights(text: str, default_carrier: str = "EY") -> list[FlightMention]:
    """Every flight-number mention, in order of appearance; a mention inside a longer one is skipped
    ("Emirates flight 123" is EK123, not also the default carrier's "flight 123")."""
    known = known_designators(default_carrier)
    masked = _AIRCRAFT_TYPE.sub(lambda m: " " * len(m.group()), text)
    found: list[FlightMention] = []
    taken: list[tuple[int, int]] = []

    def add(start: int, end: int, number: str | None, source: Source) -> None:
        if number is None or _overlaps(start, end, taken):
            return
        taken.append((start, end))
        found.append(FlightMention(number, text[start:end], start, end, source))

    for m in _CODE_NUMBER.finditer(masked):
        if _is_designator(m["code"], m["sep"], known):
            add(m.start(), m.end(), _normalise(m["code"], m["num"], m["suffix"]), "code")
    for m in _NAME_NUMBER.finditer(masked):
        code = _NAME_TO_CODE[" ".join(m["name"].lower().split())]
        add(m.start(), m.end(), _normalise(code, m["num"]), "name")
    for m in _BARE_NUMBER.finditer(masked):
        add(m.start(), m.end(), _normalise(default_carrier, m["num"]), "default")
    found.sort(key=lambda f: f.start)
    return [f for i, f in enumerate(found) if not _retracted(text, f, found[i + 1] if i + 1 < len(found) else None)]


# A flight number the writer takes back for the next one: "EY404? no - sorry - EY406", "EY410/18 KUL? no — EY411",
# "EY404, sorry, EY406", "EY404 — correction: EY406". Only a correction word between the two (after a question mark,
# "no" as well), so a list ("EY101, EY102") or an alternative ("EY101 or EY102?") keeps both.
_CORRECTION = r"(?:sorry|correction|i mean|make that|should be|read|corrected to)"
_RETRACTION = re.compile(
    rf"^[^.!?\n]{{0,12}}?(?:\?[\s,\-–—:]*(?:no|nope|{_CORRECTION})|[\s,\-–—:(]*{_CORRECTION})\b[\s,\-–—:.!)]*"
    rf"(?:{_CORRECTION}\b[\s,\-–—:.!)]*)?$",
    re.I,
)


def _retracted(text: str, mention: FlightMention, after: FlightMention | None) -> bool:
    return after is not None and _RETRACTION.match(text[mention.end : after.start]) is not None


def normalise_flight_number(text: str | None, default_carrier: str = "EY") -> str | None:
    """One flight number written freely ("EY 123", "Etihad 123", "123") → "EY123"; None when the text
    holds none or several different ones."""
    if not text or not text.strip():
        return None
    stripped = text.strip()
    if re.fullmatch(r"#?\d{1,4}", stripped):
        return _normalise(default_carrier, stripped.lstrip("#"))
    numbers = {m.flight_number for m in find_flights(stripped, default_carrier)}
    if not numbers:
        # An unknown designator in lower case ("xy123") is accepted when it is the whole answer.
        whole = _CODE_NUMBER.fullmatch(stripped)
        if whole and not any(ch.isdigit() for ch in whole["code"]):
            return _normalise(whole["code"], whole["num"], whole["suffix"])
        return None
    return numbers.pop() if len(numbers) == 1 else None


def number_is_written(prompt: str, flight_number: str) -> bool:
    """Do the flight's digits appear in the prompt as a number of their own (leading zeros allowed)?
    An LLM's flight number that fails this was not read from the prompt."""
    number = re.fullmatch(r"[A-Z0-9]{2}(\d{1,4})[A-Z]?", flight_number)  # the digits after the designator
    if number is None:
        return False
    return re.search(rf"(?<!\d)0*{number.group(1)}(?!\d)", prompt) is not None


# What a flight number's designator part looks like when its digits come next: "EY ", "ey-", "flight ",
# "Etihad ". Used by the date reader so that "EY 1 January 1st" keeps the 1 for the flight.
_DESIGNATOR_BEFORE_DIGITS = re.compile(
    rf"(?:(?<![\w-])(?P<code>[A-Za-z][A-Za-z0-9]|[0-9][A-Za-z])(?P<sep>[ ]?-[ ]?|\s)"
    rf"|{FLIGHT_LEAD}|{NAME_LEAD})$",
    re.I,
)


def flight_ends_here(before: str, default_carrier: str = "EY") -> bool:
    """Does ``before`` end with a designator, "flight" or an airline name waiting for its digits?"""
    m = _DESIGNATOR_BEFORE_DIGITS.search(before[-80:])  # the longest lead ("… Airlines's flight number ") fits
    if m is None:
        return False
    return m["code"] is None or _is_designator(m["code"], m["sep"], known_designators(default_carrier))
