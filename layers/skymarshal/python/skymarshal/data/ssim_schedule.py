"""An SSIM schedule as the flights table's rows, and the flights table as an SSIM schedule.

A flight leg record (type 3) holds a period of operation, the days of the week and a frequency; each date it
operates becomes one `Flight` row, keyed `<designator>-<local date at the origin>` like the generator's. SSIM
carries no aircraft registration, so the tail of each dated flight comes from a tail-assignment file (CSV:
`flight_id,registration`), which `export-ssim` writes beside the schedule. Distances are great-circle between
the stations (the airport reference), block time is the scheduled departure to arrival, seats come from the
aircraft configuration (bytes 173-192, e.g. `J28Y262`) or the type's default when the file leaves it blank.
"""

from __future__ import annotations

import csv
import io
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

from pydantic import ValidationError

from ..models.airports import UnknownAirport, airport, great_circle_km
from ..models.fleet import AIRCRAFT_TYPES
from ..models.operational import Cabin, Flight
from .ssim import (
    CARRIER_FIELDS,
    HEADER_FIELDS,
    LEG_FIELDS,
    RECORD_LENGTH,
    TITLE,
    TRAILER_FIELDS,
    Carrier,
    Leg,
    SsimFile,
    format_date,
    format_variation,
    leg_times,
)

# The fleet's ICAO type designators and the IATA codes an SSIM file spells them with.
IATA_TYPE: dict[str, str] = {"A320": "320", "A321": "321", "B789": "789", "B78X": "781", "B77W": "77W", "A35K": "351"}
ICAO_TYPE: dict[str, str] = {iata: icao for icao, iata in IATA_TYPE.items()}
CABIN_OF_CLASS: dict[str, str] = {"F": "F", "J": "J", "C": "J", "Y": "Y", "W": "Y"}  # W (premium economy) seats as Y
_CONFIG = re.compile(r"([A-Z])(\d{1,3})")


def expand_dates(period_from: date, period_to: date, weekdays: Iterable[int], every_weeks: int = 1) -> list[date]:
    """The dates a leg operates: inside the period, on its weekdays, every `every_weeks` weeks from the start."""
    days = set(weekdays)
    span = (period_to - period_from).days
    out = []
    for offset in range(span + 1):
        day = period_from + timedelta(days=offset)
        if day.isoweekday() in days and (offset // 7) % every_weeks == 0:
            out.append(day)
    return out


def capacity_of(configuration: str, icao_type: str) -> dict[str, int]:
    """Seats by cabin from an aircraft configuration; ValueError naming a class SkyMarshal does not seat."""
    if not configuration:
        return dict(AIRCRAFT_TYPES[icao_type].capacity)
    parts = _CONFIG.findall(configuration)
    if "".join(f"{c}{n}" for c, n in parts) != configuration:
        raise ValueError(f"{configuration!r} is not classes and seats (e.g. J28Y262)")
    seats: dict[str, int] = {}
    for cls, count in parts:
        if cls not in CABIN_OF_CLASS:
            raise ValueError(f"class {cls!r} is not one SkyMarshal seats ({', '.join(CABIN_OF_CLASS)})")
        seats[CABIN_OF_CLASS[cls]] = seats.get(CABIN_OF_CLASS[cls], 0) + int(count)
    return seats


def read_tails(text: str, name: str = "tails") -> tuple[dict[str, str], list[str]]:
    """`flight_id,registration` rows (a header line first) → the tail of each dated flight, and the problems."""
    rows = list(csv.reader(io.StringIO(text)))
    errors: list[str] = []
    if not rows or [c.strip() for c in rows[0]] != ["flight_id", "registration"]:
        return {}, [f"{name} line 1: (header): expected 'flight_id,registration'"]
    tails: dict[str, str] = {}
    for number, row in enumerate(rows[1:], start=2):
        if not row:
            continue
        if len(row) != 2 or not row[0].strip():
            errors.append(f"{name} line {number}: (row): expected flight_id,registration")
        elif not re.fullmatch(r"[A-Z0-9]{1,2}-[A-Z0-9]{3,5}", row[1].strip()):
            errors.append(f"{name} line {number}: registration: {row[1].strip()!r} is not a registration like A6-BLA")
        elif row[0].strip() in tails:
            errors.append(f"{name} line {number}: flight_id: {row[0].strip()} is given a tail twice")
        else:
            tails[row[0].strip()] = row[1].strip()
    return tails, errors


def _carrier_of(parsed: SsimFile, leg: Leg) -> Carrier:
    return next(c for c in reversed(parsed.carriers) if c.line < leg.line)


def flights_from_ssim(
    parsed: SsimFile, tails: dict[str, str], *, start: date | None = None, end: date | None = None
) -> tuple[list[Flight], list[str]]:
    """Every dated flight of the schedule whose local date is inside [start, end], and the problems (each
    `line N: field: problem`, the line of the leg record)."""
    flights: list[Flight] = []
    errors: list[str] = []
    first_line: dict[str, int] = {}
    for leg in parsed.legs:
        try:
            built = list(_dated_flights(leg, _carrier_of(parsed, leg), tails, start, end))
        except _LegRefused as exc:
            errors.append(f"line {leg.line}: {exc}")
            continue
        for flight in built:
            if flight.flight_id in first_line:
                errors.append(
                    f"line {leg.line}: flight_number: {flight.flight_number} on {flight.flight_date} is also "
                    f"line {first_line[flight.flight_id]}"
                )
                continue
            first_line[flight.flight_id] = leg.line
            flights.append(flight)
    return flights, errors


class _LegRefused(ValueError):
    def __init__(self, field: str, problem: str):
        super().__init__(f"{field}: {problem}")


def _dated_flights(
    leg: Leg, carrier: Carrier, tails: dict[str, str], start: date | None, end: date | None
) -> Iterator[Flight]:
    icao = ICAO_TYPE.get(leg.aircraft_type)
    if icao is None:
        raise _LegRefused(
            "aircraft_type", f"{leg.aircraft_type!r} is not a type of the fleet ({', '.join(sorted(ICAO_TYPE))})"
        )
    try:
        capacity = capacity_of(leg.configuration, icao)
        distance = round(great_circle_km(leg.departure_station, leg.arrival_station))
        origin_tz = ZoneInfo(airport(leg.departure_station).tz)
    except UnknownAirport as exc:
        raise _LegRefused("departure_station", f"{exc.code!r} is not an airport SkyMarshal knows") from None
    except ValueError as exc:
        raise _LegRefused("aircraft_configuration", str(exc)) from None
    missing: list[str] = []
    for day in expand_dates(leg.period_from, leg.period_to, leg.weekdays, leg.frequency_weeks):
        dep, arr = leg_times(leg, day)
        if carrier.time_mode == "L":  # local wall clock: UTC is the reading less the variation
            dep -= timedelta(minutes=leg.departure_variation_minutes)
            arr -= timedelta(minutes=leg.arrival_variation_minutes)
        dep, arr = dep.replace(tzinfo=UTC), arr.replace(tzinfo=UTC)
        flight_date = dep.astimezone(origin_tz).date()
        if (start and flight_date < start) or (end and flight_date > end):
            continue
        if arr <= dep:
            raise _LegRefused("aircraft_sta", f"arrives {arr:%Y-%m-%d %H:%MZ}, not after it departs {dep:%H:%MZ}")
        flight_id = f"{leg.designator}-{flight_date:%Y%m%d}" + (f"-L{leg.leg_sequence}" if leg.leg_sequence > 1 else "")
        if flight_id not in tails:
            missing.append(flight_id)
            continue
        try:
            yield Flight(
                flight_id=flight_id,
                flight_number=leg.designator,
                carrier=leg.airline,
                origin=leg.departure_station,
                destination=leg.arrival_station,
                flight_date=flight_date,
                scheduled_departure=dep,
                scheduled_arrival=arr,
                aircraft_registration=tails[flight_id],
                aircraft_type=icao,
                block_minutes=int((arr - dep).total_seconds() // 60),
                distance_km=distance,
                capacity=capacity,
            )
        except ValidationError as exc:
            first = exc.errors()[0]
            raise _LegRefused(".".join(str(p) for p in first["loc"]) or "(leg)", first["msg"]) from None
    if missing:
        raise _LegRefused(
            "registration",
            f"no tail for {len(missing)} dated flight(s), first {missing[0]}: give each a row in the tail file",
        )


# ----------------------------------------------------------------------------------------------- export


def _line(kind: str, spans: dict[str, tuple[int, int]], values: dict[str, str]) -> str:
    chars = [" "] * RECORD_LENGTH
    chars[0] = kind
    for name, text in values.items():
        start, end = spans[name]
        if len(text) != end - start + 1:
            text = text.ljust(end - start + 1)[: end - start + 1]
        chars[start - 1 : end] = text
    return "".join(chars)


def _configuration(capacity: Mapping[Cabin, int]) -> str:
    return "".join(f"{cabin}{capacity[cabin]}" for cabin in ("F", "J", "Y") if capacity.get(cabin))


def _variation_at(code: str, instant: datetime) -> int:
    offset = instant.astimezone(ZoneInfo(airport(code).tz)).utcoffset()
    return int(offset.total_seconds() // 60) if offset else 0


def _periods(days: Sequence[date]) -> Iterator[list[date]]:
    """Sorted dates cut into runs that one period of operation with days of the week expands to exactly."""
    run: list[date] = []
    for day in days:
        candidate = [*run, day]
        if run and expand_dates(run[0], day, {d.isoweekday() for d in candidate}) != candidate:
            yield run
            candidate = [day]
        run = candidate
    if run:
        yield run


def ssim_from_flights(
    flights: Sequence[Flight], *, created: date, title: str = "SKYMARSHAL SCHEDULE"
) -> tuple[str, str]:
    """The flights as an SSIM file (UTC time mode, one leg record per period of operation) and its tail file."""
    if not flights:
        raise ValueError("no flights to export")
    variants: dict[tuple[str, ...], list[date]] = defaultdict(list)
    for f in flights:
        dep, arr = f.scheduled_departure, f.scheduled_arrival
        variant = (
            f.carrier,
            f.flight_number,
            f.origin,
            f.destination,
            f"{dep:%H%M}",
            f"{arr:%H%M}",
            str((arr.date() - dep.date()).days),
            IATA_TYPE[f.aircraft_type],
            _configuration(f.capacity),
            format_variation(_variation_at(f.origin, dep)),
            format_variation(_variation_at(f.destination, arr)),
        )
        variants[variant].append(dep.date())
    legs: list[tuple[tuple[str, ...], list[date]]] = []
    for key, days in variants.items():
        legs.extend((key, run) for run in _periods(sorted(days)))
    legs.sort(key=lambda leg: (leg[0][0], int(leg[0][1][2:].rstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ")), leg[1][0]))
    carriers = sorted({f.carrier for f in flights})
    lines = [_line("1", HEADER_FIELDS, {"title": TITLE, "seasons": "1", "serial": "000001"})]
    for carrier in carriers:
        ivi: dict[str, int] = defaultdict(int)
        mine = [leg for leg in legs if leg[0][0] == carrier]
        lines.append(
            _line(
                "2",
                CARRIER_FIELDS,
                {
                    "time_mode": "U",
                    "airline": carrier,
                    "valid_from": format_date(min(run[0] for _, run in mine)),
                    "valid_to": format_date(max(run[-1] for _, run in mine)),
                    "created": format_date(created),
                    "title_of_data": title,
                    "release_date": format_date(created),
                    "schedule_status": "C",
                    "serial": f"{len(lines) + 1:06d}",
                },
            )
        )
        for key, run in mine:
            number = key[1]
            ivi[number] += 1
            if ivi[number] > 99:
                raise ValueError(f"{number} has more than 99 itinerary variations: SSIM numbers them 01-99")
            weekdays = {d.isoweekday() for d in run}
            lines.append(_leg_line(key, run, weekdays, ivi[number], len(lines) + 1))
        lines.append(
            _line(
                "5",
                TRAILER_FIELDS,
                {
                    "airline": carrier,
                    "release_date": format_date(created),
                    "check_serial": f"{len(lines):06d}",
                    "continuation": "E",
                    "serial": f"{len(lines) + 1:06d}",
                },
            )
        )
    tails = io.StringIO()
    writer = csv.writer(tails, lineterminator="\n")
    writer.writerow(["flight_id", "registration"])
    for f in sorted(flights, key=lambda f: f.flight_id):
        writer.writerow([f.flight_id, f.aircraft_registration])
    return "\n".join(lines) + "\n", tails.getvalue()


def _leg_line(key: tuple[str, ...], run: list[date], weekdays: set[int], ivi: int, serial: int) -> str:
    carrier, number, origin, destination, std, sta, arrival_days, iata_type, config, dep_var, arr_var = key
    digits = number[len(carrier) :]
    suffix = digits[-1] if digits[-1].isalpha() else ""
    digits = digits.rstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    return _line(
        "3",
        LEG_FIELDS,
        {
            "suffix": suffix or " ",
            "airline": carrier,
            "flight_number": f"{int(digits):04d}",
            "itinerary_variation": f"{ivi:02d}",
            "leg_sequence": "01",
            "service_type": "J",
            "period_from": format_date(run[0]),
            "period_to": format_date(run[-1]),
            "days_of_operation": "".join(str(d) if d in weekdays else " " for d in range(1, 8)),
            "departure_station": origin,
            "passenger_std": std,
            "aircraft_std": std,
            "departure_utc_variation": dep_var,
            "arrival_station": destination,
            "aircraft_sta": sta,
            "passenger_sta": sta,
            "arrival_utc_variation": arr_var,
            "aircraft_type": iata_type,
            "aircraft_configuration": config,
            "departure_date_variation": "0",
            "arrival_date_variation": arrival_days,
            "serial": f"{serial:06d}",
        },
    )
