"""IATA SSIM Chapter 7 records (the airline schedule exchange file): 200-byte fixed-width lines, read strictly.

Record types (byte 1): 1 header, 2 carrier, 3 flight leg, 4 segment data, 5 trailer; a line of zeros pads a
block and is skipped. Each field is a (start, end) byte range as the manual numbers them (1-based, inclusive),
kept as data below. A record that breaks the layout is refused as `line N: field: problem` — every problem in the
file at once, and nothing read from a file that has one (an import writes all of it or none).

Why our own reader: on PyPI `ssim` 0.3.0 is GPL-3.0 and unmaintained since 2019; `ssim-parser` 1.1.0 does not
import (NameError in parser.py) and skips bad lines silently; `rustyssim` 0.6.2 returns record types 2-4 as a
Polars frame (a 22 MB wheel plus Polars in the Lambda layer) with no line numbers to refuse a record by.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict

RECORD_LENGTH = 200
TITLE = "AIRLINE STANDARD SCHEDULE DATA SET"
MONTHS = ("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC")

# (start, end) byte positions, 1-based and inclusive, as SSIM Chapter 7 numbers them.
HEADER_FIELDS: dict[str, tuple[int, int]] = {"title": (2, 35), "seasons": (41, 41), "serial": (195, 200)}
CARRIER_FIELDS: dict[str, tuple[int, int]] = {
    "time_mode": (2, 2),
    "airline": (3, 5),
    "season": (11, 13),
    "valid_from": (15, 21),
    "valid_to": (22, 28),
    "created": (29, 35),
    "title_of_data": (36, 64),
    "release_date": (65, 71),
    "schedule_status": (72, 72),
    "creation_time": (191, 194),
    "serial": (195, 200),
}
LEG_FIELDS: dict[str, tuple[int, int]] = {
    "suffix": (2, 2),
    "airline": (3, 5),
    "flight_number": (6, 9),
    "itinerary_variation": (10, 11),
    "leg_sequence": (12, 13),
    "service_type": (14, 14),
    "period_from": (15, 21),
    "period_to": (22, 28),
    "days_of_operation": (29, 35),
    "frequency_rate": (36, 36),
    "departure_station": (37, 39),
    "passenger_std": (40, 43),
    "aircraft_std": (44, 47),
    "departure_utc_variation": (48, 52),
    "departure_terminal": (53, 54),
    "arrival_station": (55, 57),
    "aircraft_sta": (58, 61),
    "passenger_sta": (62, 65),
    "arrival_utc_variation": (66, 70),
    "arrival_terminal": (71, 72),
    "aircraft_type": (73, 75),
    "booking_designators": (76, 95),
    "aircraft_configuration": (173, 192),
    "departure_date_variation": (193, 193),
    "arrival_date_variation": (194, 194),
    "serial": (195, 200),
}
SEGMENT_FIELDS: dict[str, tuple[int, int]] = {
    "airline": (3, 5),
    "flight_number": (6, 9),
    "itinerary_variation": (10, 11),
    "leg_sequence": (12, 13),
    "board_point_indicator": (29, 29),
    "off_point_indicator": (30, 30),
    "data_element": (31, 33),
    "board_point": (34, 36),
    "off_point": (37, 39),
    "data": (40, 194),
    "serial": (195, 200),
}
TRAILER_FIELDS: dict[str, tuple[int, int]] = {
    "airline": (3, 5),
    "release_date": (6, 12),
    "check_serial": (188, 193),
    "continuation": (194, 194),
    "serial": (195, 200),
}

_HHMM = re.compile(r"^([01]\d|2[0-3])[0-5]\d$")
_VARIATION = re.compile(r"^[+-](0\d|1[0-4])[0-5]\d$")
_DAYS = re.compile(r"^[1 ][2 ][3 ][4 ][5 ][6 ][7 ]$")
_FLIGHT_NUMBER = re.compile(r"^ *\d{1,4}$")
_AIRLINE = re.compile(r"^[A-Z0-9]{2}[A-Z ]?$")
_STATION = re.compile(r"^[A-Z]{3}$")
_DATE_VARIATION = "0123456789A"  # A: the day before


class SsimProblem(ValueError):
    """One field of one record that breaks the layout (the message is `field: problem`)."""

    def __init__(self, field: str, problem: str):
        super().__init__(f"{field}: {problem}")


class _Record(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    line: int
    serial: int


class Carrier(_Record):
    time_mode: Literal["U", "L"]  # the leg times are UTC, or local with the UTC variation beside them
    airline: str
    valid_from: date
    valid_to: date
    created: date | None = None


class Leg(_Record):
    suffix: str = ""
    airline: str
    flight_number: int
    itinerary_variation: int
    leg_sequence: int
    service_type: str
    period_from: date
    period_to: date
    weekdays: frozenset[int]  # ISO weekdays the leg operates, 1 = Monday
    frequency_weeks: int  # 1 weekly, 2 fortnightly
    departure_station: str
    aircraft_std: str  # HHMM
    departure_variation_minutes: int
    arrival_station: str
    aircraft_sta: str
    arrival_variation_minutes: int
    aircraft_type: str  # IATA three-character code
    configuration: str  # e.g. "J28Y262"; empty when the file gives none
    departure_day_offset: int  # days from the period's date (A = -1)
    arrival_day_offset: int

    @property
    def designator(self) -> str:
        return f"{self.airline.strip()}{self.flight_number}{self.suffix}"


class Segment(_Record):
    airline: str
    flight_number: int
    itinerary_variation: int
    leg_sequence: int
    data_element: int
    board_point: str
    off_point: str
    data: str


class Trailer(_Record):
    airline: str
    check_serial: int
    continuation: Literal["C", "E"]


class SsimFile(BaseModel):
    model_config = ConfigDict(frozen=True)

    carriers: list[Carrier]
    legs: list[Leg]
    segments: list[Segment]


def field(line: str, span: tuple[int, int]) -> str:
    return line[span[0] - 1 : span[1]]


def ssim_date(text: str, name: str) -> date:
    """DDMMMYY, e.g. 20JAN27 (years 00-99 are 2000-2099)."""
    if len(text) != 7 or not text[:2].isdigit() or text[2:5] not in MONTHS or not text[5:].isdigit():
        raise SsimProblem(name, f"{text.strip()!r} is not a date DDMMMYY (e.g. 20JAN27)")
    try:
        return date(2000 + int(text[5:]), MONTHS.index(text[2:5]) + 1, int(text[:2]))
    except ValueError:
        raise SsimProblem(name, f"{text!r} is not a day of the calendar") from None


def format_date(day: date) -> str:
    return f"{day.day:02d}{MONTHS[day.month - 1]}{day.year % 100:02d}"


def _time(text: str, name: str) -> str:
    if not _HHMM.match(text):
        raise SsimProblem(name, f"{text.strip()!r} is not a time HHMM from 0000 to 2359")
    return text


def _variation(text: str, name: str) -> int:
    """±HHMM from UTC, in minutes."""
    if not _VARIATION.match(text):
        raise SsimProblem(name, f"{text.strip()!r} is not a UTC variation ±HHMM (e.g. +0400)")
    minutes = int(text[1:3]) * 60 + int(text[3:])
    return minutes if text[0] == "+" else -minutes


def format_variation(minutes: int) -> str:
    sign = "+" if minutes >= 0 else "-"
    return f"{sign}{abs(minutes) // 60:02d}{abs(minutes) % 60:02d}"


def _day_offset(text: str, name: str) -> int:
    if text not in _DATE_VARIATION or len(text) != 1:
        raise SsimProblem(name, f"{text!r} is not a date variation (0-9, or A for the day before)")
    return -1 if text == "A" else int(text)


def _serial(line: str, spans: dict[str, tuple[int, int]]) -> int:
    text = field(line, spans["serial"])
    if not text.isdigit():
        raise SsimProblem("serial", f"{text.strip()!r} is not a six-digit record serial number")
    return int(text)


def _station(text: str, name: str) -> str:
    if not _STATION.match(text):
        raise SsimProblem(name, f"{text.strip()!r} is not a three-letter IATA station code")
    return text


def parse_carrier(line: str, number: int) -> Carrier:
    get = {name: field(line, span) for name, span in CARRIER_FIELDS.items()}
    if get["time_mode"] not in ("U", "L"):
        raise SsimProblem("time_mode", f"{get['time_mode']!r} is neither U (UTC) nor L (local time)")
    if not _AIRLINE.match(get["airline"]):
        raise SsimProblem("airline", f"{get['airline'].strip()!r} is not an airline designator")
    valid_from, valid_to = ssim_date(get["valid_from"], "valid_from"), ssim_date(get["valid_to"], "valid_to")
    if valid_to < valid_from:
        raise SsimProblem("valid_to", f"{valid_to} is before the validity's start {valid_from}")
    created = ssim_date(get["created"], "created") if get["created"].strip() else None
    return Carrier(
        line=number,
        serial=_serial(line, CARRIER_FIELDS),
        time_mode=get["time_mode"],
        airline=get["airline"].strip(),
        valid_from=valid_from,
        valid_to=valid_to,
        created=created,
    )


def parse_leg(line: str, number: int) -> Leg:
    get = {name: field(line, span) for name, span in LEG_FIELDS.items()}
    if not _AIRLINE.match(get["airline"]):
        raise SsimProblem("airline", f"{get['airline'].strip()!r} is not an airline designator")
    if not _FLIGHT_NUMBER.match(get["flight_number"]) or int(get["flight_number"]) == 0:
        raise SsimProblem("flight_number", f"{get['flight_number'].strip()!r} is not a flight number 1-9999")
    for name in ("itinerary_variation", "leg_sequence"):
        if not get[name].isdigit():
            raise SsimProblem(name, f"{get[name].strip()!r} is not two digits")
    period_from = ssim_date(get["period_from"], "period_from")
    period_to = ssim_date(get["period_to"], "period_to")
    if period_to < period_from:
        raise SsimProblem("period_to", f"{period_to} is before the period's start {period_from}")
    if not _DAYS.match(get["days_of_operation"]) or not get["days_of_operation"].strip():
        raise SsimProblem(
            "days_of_operation", f"{get['days_of_operation']!r} is not days 1-7 in place (e.g. '1 3 5 7')"
        )
    if get["frequency_rate"] not in (" ", "1", "2"):
        raise SsimProblem("frequency_rate", f"{get['frequency_rate']!r} is not blank (weekly) or 2 (fortnightly)")
    for name in ("passenger_std", "passenger_sta"):  # not kept (the aircraft's times are), but a record's own
        _time(get[name], name)
    if not get["aircraft_type"].strip() or not get["aircraft_type"].isalnum():
        raise SsimProblem("aircraft_type", f"{get['aircraft_type'].strip()!r} is not an IATA aircraft type code")
    return Leg(
        line=number,
        serial=_serial(line, LEG_FIELDS),
        suffix=get["suffix"].strip(),
        airline=get["airline"].strip(),
        flight_number=int(get["flight_number"]),
        itinerary_variation=int(get["itinerary_variation"]),
        leg_sequence=int(get["leg_sequence"]),
        service_type=get["service_type"],
        period_from=period_from,
        period_to=period_to,
        weekdays=frozenset(int(c) for c in get["days_of_operation"] if c != " "),
        frequency_weeks=2 if get["frequency_rate"] == "2" else 1,
        departure_station=_station(get["departure_station"], "departure_station"),
        aircraft_std=_time(get["aircraft_std"], "aircraft_std"),
        departure_variation_minutes=_variation(get["departure_utc_variation"], "departure_utc_variation"),
        arrival_station=_station(get["arrival_station"], "arrival_station"),
        aircraft_sta=_time(get["aircraft_sta"], "aircraft_sta"),
        arrival_variation_minutes=_variation(get["arrival_utc_variation"], "arrival_utc_variation"),
        aircraft_type=get["aircraft_type"],
        configuration=get["aircraft_configuration"].strip(),
        departure_day_offset=_day_offset(get["departure_date_variation"], "departure_date_variation"),
        arrival_day_offset=_day_offset(get["arrival_date_variation"], "arrival_date_variation"),
    )


def parse_segment(line: str, number: int) -> Segment:
    get = {name: field(line, span) for name, span in SEGMENT_FIELDS.items()}
    if not _FLIGHT_NUMBER.match(get["flight_number"]):
        raise SsimProblem("flight_number", f"{get['flight_number'].strip()!r} is not a flight number")
    for name in ("itinerary_variation", "leg_sequence", "data_element"):
        if not get[name].isdigit():
            raise SsimProblem(name, f"{get[name].strip()!r} is not a number")
    return Segment(
        line=number,
        serial=_serial(line, SEGMENT_FIELDS),
        airline=get["airline"].strip(),
        flight_number=int(get["flight_number"]),
        itinerary_variation=int(get["itinerary_variation"]),
        leg_sequence=int(get["leg_sequence"]),
        data_element=int(get["data_element"]),
        board_point=_station(get["board_point"], "board_point"),
        off_point=_station(get["off_point"], "off_point"),
        data=get["data"].rstrip(),
    )


def parse_trailer(line: str, number: int) -> Trailer:
    get = {name: field(line, span) for name, span in TRAILER_FIELDS.items()}
    if not get["check_serial"].isdigit():
        raise SsimProblem("check_serial", f"{get['check_serial'].strip()!r} is not a record serial number")
    if get["continuation"] not in ("C", "E"):
        raise SsimProblem("continuation", f"{get['continuation']!r} is neither C (continued) nor E (end)")
    return Trailer(
        line=number,
        serial=_serial(line, TRAILER_FIELDS),
        airline=get["airline"].strip(),
        check_serial=int(get["check_serial"]),
        continuation=get["continuation"],
    )


def leg_times(leg: Leg, day: date) -> tuple[datetime, datetime]:
    """The leg's aircraft departure and arrival on the period's `day`, as naive wall-clock readings in the
    file's time mode (the caller applies the UTC variation in local mode)."""
    from datetime import timedelta

    dep = datetime.combine(day, datetime.strptime(leg.aircraft_std, "%H%M").time())
    arr = datetime.combine(day, datetime.strptime(leg.aircraft_sta, "%H%M").time())
    return dep + timedelta(days=leg.departure_day_offset), arr + timedelta(days=leg.arrival_day_offset)
