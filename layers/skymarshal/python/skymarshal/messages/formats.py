"""The texts of the messages, and the check each passes before it may leave.

ASM (SSIM Chapter 5, ad hoc schedule message), one sub-message per flight and date:

    ASM                       standard message identifier
    UTC                       time mode
    CNL WEAT                  action identifier, change reason (SSIM 2.6)
    EY123/20JAN27             flight identifier: designator / date
    J 789 .J28Y262 A6BLT      EQT and NEW: service type, IATA aircraft type, configuration, registration (the new one)
    AUH1700 DXB1755           NEW only: the leg, departure station and time, arrival station and time (UTC), /1 when
                              it lands the next day
    SI REPLACES A6BLA         supplementary information: the tail it replaces

A NEW is a flight the plan adds: a network plan's empty positioning ferry, service type P (SSIM Appendix C:
non-revenue, positioning/ferry), with its equipment and its one leg.

MVT (AHM 780), a delay or a diversion:

    MVT                       (DIV for a diversion)
    EY123/20.A6BLT.AUH        flight / day of month . registration . station of the movement
    ED200930                  estimated departure, day hours minutes (DIV: EA200930 MCT, estimated arrival there)
    DL41/0030                 AHM 730 delay code / duration HHMM (93 on a knock-on flight)
    SI ROOT CAUSE DL72        a knock-on delay's root cause
    SI SKYMARSHAL PLAN ...    supplementary information

Each builder returns the text; `problems_asm` and `problems_mvt` re-read a text by the grammar above and say what
breaks it (nothing: it may be sent).
"""

from __future__ import annotations

import re
from datetime import datetime

MONTHS = ("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC")

# SSIM 2.6 change reasons, by AHM 730 delay-code family (the first code of each range).
CHANGE_REASONS: tuple[tuple[int, str], ...] = (
    (11, "COMM"),  # passengers, baggage, cargo and mail
    (31, "HDLG"),  # aircraft and ramp handling
    (41, "TECH"),  # technical and aircraft equipment
    (51, "DAMA"),  # damage to aircraft
    (61, "CREW"),  # flight operations and crewing
    (71, "WEAT"),  # weather
    (81, "AIRS"),  # ATFM restrictions
    (85, "ARPT"),  # airport and governmental restrictions
    (91, "ROTA"),  # reactionary
    (97, "INDU"),  # industrial action
    (99, "OPER"),  # other
)

_DESIGNATOR = r"[A-Z0-9]{2}[A-Z]?\d{1,4}[A-Z]?"
_ASM = re.compile(
    rf"^ASM\nUTC\n(?P<action>CNL|EQT|NEW) (?P<reason>[A-Z]{{4}})\n(?P<flight>{_DESIGNATOR})/\d{{2}}(?:{'|'.join(MONTHS)})\d{{2}}"
    r"(?P<equipment>\n[A-Z] [A-Z0-9]{3} \.(?:[A-Z]\d{1,3})+(?: [A-Z0-9]{3,10})?)?"
    r"(?:\n(?P<origin>[A-Z]{3})(?P<std>\d{4}) (?P<destination>[A-Z]{3})(?P<sta>\d{4})(?:/1)?)?(?:\nSI [ -~]{1,64})*$"
)
_MVT = re.compile(
    rf"^(?P<kind>MVT|DIV)\n(?P<flight>{_DESIGNATOR})/(?P<day>0[1-9]|[12]\d|3[01])\.[A-Z0-9]{{3,6}}\.[A-Z]{{3}}\n"
    r"(?:ED(?P<ed>\d{6})|EA(?P<ea>\d{6}) [A-Z]{3})"
    r"(?:\nDL\d{2}/\d{4})?(?:\nSI [ -~]{1,64})*$"
)


def change_reason(delay_code: int) -> str:
    """The SSIM change reason of an AHM 730 delay code (its family's)."""
    return next(reason for first, reason in reversed(CHANGE_REASONS) if delay_code >= first)


def _date(at: datetime) -> str:
    return f"{at.day:02d}{MONTHS[at.month - 1]}{at.year % 100:02d}"


def _reg(registration: str) -> str:
    return registration.replace("-", "")


def asm_cancel(flight_number: str, departure: datetime, delay_code: int) -> str:
    return f"ASM\nUTC\nCNL {change_reason(delay_code)}\n{flight_number}/{_date(departure)}"


def asm_equipment(
    flight_number: str,
    departure: datetime,
    delay_code: int,
    iata_type: str,
    configuration: str,
    registration: str,
    replaced: str | None = None,
) -> str:
    """An EQT whose equipment element (service type, aircraft type, configuration, registration) is the aircraft
    that now flies it; the tail it replaces, for a person, in SI."""
    si = f"\nSI REPLACES {_reg(replaced)}" if replaced else ""
    return (
        f"ASM\nUTC\nEQT {change_reason(delay_code)}\n{flight_number}/{_date(departure)}\n"
        f"J {iata_type} .{configuration} {_reg(registration)}{si}"
    )


def asm_new(
    flight_number: str,
    departure: datetime,
    arrival: datetime,
    origin: str,
    destination: str,
    delay_code: int,
    iata_type: str,
    configuration: str,
    registration: str,
    service_type: str = "P",
) -> str:
    """A NEW for a flight the plan adds: its equipment element (service type, by default P: positioning/ferry) and
    its leg at UTC times, the arrival's date variation (/1) when it lands the next UTC day."""
    variation = "/1" if arrival.date() > departure.date() else ""
    return (
        f"ASM\nUTC\nNEW {change_reason(delay_code)}\n{flight_number}/{_date(departure)}\n"
        f"{service_type} {iata_type} .{configuration} {_reg(registration)}\n"
        f"{origin}{departure:%H%M} {destination}{arrival:%H%M}{variation}"
    )


def mvt_delay(
    flight_number: str,
    scheduled: datetime,
    registration: str,
    station: str,
    estimated: datetime,
    delay_code: int,
    root_code: int | None = None,
) -> str:
    """A delay MVT; a reactionary one (93) says its root cause's code in SI."""
    minutes = max(0, int((estimated - scheduled).total_seconds() // 60))
    si = f"\nSI ROOT CAUSE DL{root_code:02d}" if root_code is not None else ""
    return (
        f"MVT\n{flight_number}/{scheduled.day:02d}.{_reg(registration)}.{station}\n"
        f"ED{estimated:%d%H%M}\nDL{delay_code:02d}/{minutes // 60:02d}{minutes % 60:02d}{si}"
    )


def mvt_diversion(
    flight_number: str, scheduled: datetime, registration: str, station: str, alternate: str, at: datetime
) -> str:
    return (
        f"DIV\n{flight_number}/{scheduled.day:02d}.{_reg(registration)}.{station}\n"
        f"EA{at:%d%H%M} {alternate}\nSI DIVERTED TO {alternate}"
    )


def _day_time(text: str) -> str | None:
    day, hours, minutes = int(text[:2]), int(text[2:4]), int(text[4:])
    if not 1 <= day <= 31 or hours > 23 or minutes > 59:
        return f"{text} is not a day and time DDHHMM"
    return None


def _hours_minutes(text: str) -> str | None:
    if int(text[:2]) > 23 or int(text[2:]) > 59:
        return f"{text} is not a time HHMM"
    return None


def problems_asm(text: str) -> str | None:
    """None when the text is an ASM CNL, EQT or NEW by the grammar above, else what breaks it."""
    found = _ASM.match(text)
    if not found:
        return "not an ASM CNL/EQT/NEW: header, action and reason, flight/date, equipment line, leg (NEW), SI lines"
    action = found["action"]
    if action == "EQT" and found["equipment"] is None:
        return "an EQT names the new equipment"
    if action != "NEW" and found["origin"] is not None:
        return f"an ASM {action} carries no leg: only a NEW adds one"
    if action == "NEW":
        if found["equipment"] is None or found["origin"] is None:
            return "a NEW names its equipment and its leg"
        if found["origin"] == found["destination"]:
            return f"the leg {found['origin']}-{found['destination']} goes nowhere"
        return _hours_minutes(found["std"]) or _hours_minutes(found["sta"])
    return None


def problems_mvt(text: str) -> str | None:
    """None when the text is an MVT delay or DIV message by the grammar above, else what breaks it."""
    found = _MVT.match(text)
    if not found:
        return "not an MVT/DIV: header, flight/day.registration.station, ED or EA, DL code/duration, SI lines"
    return _day_time(found["ed"] or found["ea"])
