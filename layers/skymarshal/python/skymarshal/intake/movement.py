"""An IATA movement message (MVT, MVA or DIV, AHM 780) as it arrives on the bus or in a file, read by a maintained
parser (mvt-parser, MIT, from PyPI) into the elements a disruption needs:

    DIV                       message type (COR or REV may follow)
    EY123/20.A6BLA.AUH        flight / day of month . registration . station of the movement
    AD0815/0830 EA1010 MCT    actual off-blocks/airborne, estimated arrival at the airport diverted to
    DL72/0045                 AHM 730 delay code(s) and duration(s) HHMM
    DR72                      the diversion's reason (AHM 730 code)
    ED200945                  estimated departure, day and time (MVT of a delayed flight)
    SI FOG AT FRA             supplementary information

A message the parser refuses, or one whose delay or diversion code is not an AHM 730 code, a DL element with more
durations than codes, or a DIV naming no airport it diverted to, is malformed: one line naming what is wrong
(`MalformedMessage`), and the feed parks it (the Trigger's dead-letter queue) and goes on. Free text that only
contains an MVT-like line is the report reader's (intake/mvt.py), not this module's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from mvt_parser import MVTParseError, MVTParser

from ..models.disruption import DELAY_CODES
from .clock import clock_problem, impossible_time

_HEADER = re.compile(r"^\s*(MVT|MVA|DIV)(?:\s+(?:COR|REV))?\s*$", re.M | re.I)
# Lines the parser reads whole by their first letters; every other body line is space-separated tokens.
_WHOLE_LINES = ("SI", "DR", "FR", "RR", "PX", "DLA", "DL", "EDL", "NI")
_AIRPORT = re.compile(r"^[A-Z]{3}$")
_DAY_TIME = re.compile(r"^(?:(\d{2}))?(\d{2})(\d{2})$")
MAX_MESSAGE_CHARS = 2000  # a movement message is a few short lines


class MalformedMessage(ValueError):
    """The message cannot be read as a movement; the message says what is wrong, on one line."""


@dataclass(frozen=True)
class Movement:
    kind: str  # MVT, MVA or DIV
    flight_number: str  # as the schedule writes it: no leading zeros ("EY0123" → "EY123")
    day_of_month: int
    station: str  # the airport of the movement (the flight line's)
    registration: str | None = None  # as written, without its hyphen ("A6BLA")
    delay_codes: tuple[int, ...] = ()
    delay_minutes: tuple[int, ...] = ()  # one per code when given
    estimated_departure: tuple[int | None, int, int] | None = None  # (day of month or None, hour, minute)
    diverted_to: str | None = None
    diversion_code: int | None = None
    supplementary: str = ""

    @property
    def first_code(self) -> int | None:
        return self.diversion_code if self.kind == "DIV" and self.diversion_code else next(iter(self.delay_codes), None)


def is_movement_message(text: str) -> bool:
    """The text is a movement message: its first line is the MVT, MVA or DIV header."""
    first = next((line for line in text.splitlines() if line.strip()), "")
    return _HEADER.match(first) is not None


def _code(written: str, element: str) -> int:
    if not re.fullmatch(r"\d{2}", written) or int(written) not in DELAY_CODES:
        raise MalformedMessage(f"{element}{written}: {written!r} is not an IATA AHM 730 delay code")
    return int(written)


def _minutes(hhmm: str) -> int:
    hours, minutes = int(hhmm[:2]), int(hhmm[2:])
    if minutes > 59:
        raise MalformedMessage(f"delay duration {hhmm}: minutes past 59 (HHMM)")
    return hours * 60 + minutes


def _estimate(value: str | None) -> tuple[int | None, int, int] | None:
    if not value:
        return None
    found = _DAY_TIME.match(value)
    if found is None or _time_problem(value):  # check_times has refused it already, on one line naming it
        raise MalformedMessage(f"estimated departure {value}: not a day and time (DDHHMM or HHMM)")
    day, hour, minute = found.groups()
    return (int(day) if day else None, int(hour), int(minute))


# The time elements a movement carries (AHM 780): actual off-blocks/airborne, actual touchdown/on-blocks, and
# the estimates. Each is HHMM or DDHHMM; the parser takes any digits, so "AD2575/2590" (25:75) would pass.
_TIME_ELEMENTS = (
    ("actual_departure", "AD"),
    ("actual_arrival", "AA"),
    ("estimated_departure", "ED"),
    ("estimated_arrival", "EA"),
    ("estimated_onblock", "EB"),
    ("estimated_takeoff", "EO"),
    ("next_info", "NI"),
    ("crew_report_time", "CRT"),
)


def _time_problem(value: str) -> str | None:
    """Why a written HHMM or DDHHMM is no movement time (None when it is one): the report's clock check
    (intake/clock.py), and a movement's times run 0000-2359 (no 2400 for midnight)."""
    if _DAY_TIME.match(value) is None:
        return "not HHMM or DDHHMM"
    if value[-4:-2] == "24":
        return "there is no hour 24 in a movement (0000-2359)"
    return clock_problem(value)


def _written_times(element: object) -> list[str]:
    if element is None:
        return []
    if isinstance(element, str):
        return [element]
    return [t for t in (getattr(element, "primary", None), getattr(element, "secondary", None)) if t]


def check_times(parsed: object) -> None:
    """Raise MalformedMessage naming the first impossible time in the message's time elements, on every leg."""
    holders = [parsed, *(getattr(parsed, "legs", None) or [])]
    for holder in holders:
        for attribute, element in _TIME_ELEMENTS:
            value = getattr(holder, attribute, None)
            written = _written_times(value)
            for time in written:
                problem = _time_problem(time)
                if problem:
                    raise MalformedMessage(f"{element}{'/'.join(written)}: {time} is not a time ({problem})")


def _shielded(lines: list[str]) -> tuple[str, dict[str, str]]:
    """The message with each airport of a token line replaced by a stand-in: mvt-parser 1.0.0 reads a token by its
    first letters before asking whether it is an airport, so "EA1010 EDI" or "EA1010 ADD" (Edinburgh, Addis Ababa)
    would be read as an estimate and a departure time. A three-letter word is never a time element (those carry
    digits), so the stand-ins change nothing else; they are put back after parsing."""
    stand_ins: dict[str, str] = {}
    out = lines[:2]
    for line in lines[2:]:
        if line.startswith(_WHOLE_LINES):
            out.append(line)
            continue
        tokens = []
        for token in line.split():
            if _AIRPORT.match(token):
                stand_in = f"Q{chr(65 + len(stand_ins) // 26)}{chr(65 + len(stand_ins) % 26)}"
                stand_ins[stand_in] = token
                token = stand_in
            tokens.append(token)
        out.append(" ".join(tokens))
    return "\n".join(out), stand_ins


def read_movement(text: str) -> Movement:
    """The message's elements. Raises MalformedMessage (one line) for anything the parser or AHM 730 refuses."""
    if len(text) > MAX_MESSAGE_CHARS:
        raise MalformedMessage(f"the message is {len(text):,} characters: a movement message is at most 2,000")
    if not is_movement_message(text):
        raise MalformedMessage("not a movement message: the first line must be MVT, MVA or DIV")
    lines = [" ".join(line.split()) for line in text.upper().splitlines() if line.strip()]
    shielded, stand_ins = _shielded(lines)
    try:
        parsed = MVTParser().parse(shielded)
    except MVTParseError as exc:
        raise MalformedMessage(
            f"the {lines[0].split()[0]} message is malformed: {' '.join(str(exc).split())}"
        ) from None
    check_times(parsed)
    if problem := impossible_time(" ".join(parsed.supplementary_info)):  # SI is read as a report is: checked so
        raise MalformedMessage(f"SI {problem}")
    if len(stand_ins) > 26 * 26:
        raise MalformedMessage(f"the {lines[0].split()[0]} message names {len(stand_ins)} airports: not a movement")
    diverted_to = stand_ins.get(parsed.destination_airport or "", parsed.destination_airport)
    codes: list[int] = []
    minutes: list[int] = []
    for delay in parsed.delays:
        if len(delay.durations) > len(delay.reason_codes):
            raise MalformedMessage(f"DL{'/'.join(delay.reason_codes + delay.durations)}: more durations than codes")
        codes += [_code(c, "DL") for c in delay.reason_codes]
        minutes += [_minutes(d) for d in delay.durations]
    diversion = _code(parsed.diversion_reason, "DR") if parsed.diversion_reason else None
    if parsed.message_type == "DIV" and not diverted_to:
        raise MalformedMessage("the DIV message names no airport diverted to (EA HHMM XXX)")
    return Movement(
        kind=parsed.message_type,
        flight_number=re.sub(r"(?<=^[A-Z0-9]{2})0+(?=\d)", "", parsed.flight_number),
        day_of_month=int(parsed.scheduled_day),
        station=parsed.airport_of_movement or "",
        registration=parsed.aircraft_registration,
        delay_codes=tuple(codes),
        delay_minutes=tuple(minutes),
        estimated_departure=_estimate(parsed.estimated_departure),
        diverted_to=diverted_to if parsed.message_type == "DIV" else None,
        diversion_code=diversion,
        supplementary=" ".join(parsed.supplementary_info),
    )
