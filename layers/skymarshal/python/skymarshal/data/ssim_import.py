"""`data import-ssim` and `data export-ssim`: an airline's schedule file in and out of the flights table.

Import reads every record and every tail before writing anything; any problem refuses the whole file, one line
each (`line N: field: problem`), and nothing is written. The write is the JSON Lines import's (`import_write`):
upserts keyed by flight id, all or nothing, so importing the same file twice changes nothing the second time.
Export writes the synthetic airline's generated schedule (`ssim_schedule.ssim_from_flights`) and its tail file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from boto3.dynamodb.conditions import Key

from ..models.operational import Flight
from .import_checks import decode_utf8
from .import_write import Writer, snapshot, write_all_or_nothing
from .loader import upsert
from .quarantine import Parked, park
from .quarantine import now as quarantine_time
from .schema import BOOKINGS, FLIGHT_ID_INDEX, FLIGHTS, Naming
from .ssim_file import read_ssim
from .ssim_schedule import flights_from_ssim, read_tails
from .transfer import ImportReport

# What the flights table holds beyond the schedule: kept from the row already there (`keep_operational_state`).
OPERATIONAL_STATE = (
    "booked",
    "status",
    "estimated_departure",
    "estimated_arrival",
    "delay_minutes",
    "delay_reason",
    "diverted_to",
    "updated_by_execution",
)
# What an executed recovery changes on a flight besides its state (a tail swap): the recovery's stays.
RECOVERED = ("aircraft_registration", "aircraft_type", "capacity")


def read_schedule(
    path: Path,
    tails_path: Path | None,
    *,
    start: date | None = None,
    end: date | None = None,
    quarantine: bool = False,
) -> tuple[list[Flight], list[str], list[Parked]]:
    """The dated flights of an SSIM file with their tails, or every problem found (flights then unusable).

    With `quarantine`, a flight leg that cannot be read or built (a bad time, an unknown type or station, no tail)
    is parked with its reason and the other legs are kept; a file whose structure is broken (header, carrier,
    trailer, order, serial numbers, record length) or an unreadable tail file is still refused whole."""
    text, problem = decode_utf8(path)
    if text is None:
        return [], [str(problem)], []
    parsed, errors = read_ssim(text)
    lines = text.split("\n")
    parked = [p for p in errors if quarantine and _leg_problem(p, lines)]
    errors = [e for e in errors if e not in parked]
    tails: dict[str, str] = {}
    if tails_path is None:
        errors.append(f"{path.name}: registration: SSIM carries no tails; pass the tail file (flight_id,registration)")
    else:
        tails_text, tails_problem = decode_utf8(tails_path)
        if tails_text is None:
            errors.append(str(tails_problem))
        else:
            tails, tail_errors = read_tails(tails_text, tails_path.name)
            errors.extend(tail_errors)
    if errors:  # refused whole: the legs' own problems are said too
        return [], sorted(errors + parked, key=lambda e: (_line_of(e) if e.startswith("line ") else 10**9, e)), []
    flights, leg_errors = flights_from_ssim(parsed, tails, start=start, end=end)
    if quarantine:  # a refused leg gave no flight: the others stand
        parked += leg_errors
    else:
        errors = leg_errors
    if not errors and not flights:  # nothing to import: every problem is said, none parked
        errors = parked + [f"{path.name}: no flight operates between {start or 'the start'} and {end or 'the end'}"]
    at = quarantine_time()
    held = [
        Parked(
            source="ssim",
            file=str(path),
            line=_line_of(p),
            record=lines[_line_of(p) - 1].removesuffix("\r"),
            reason=p.split(": ", 1)[1],
            parked_at=at,
        )
        for p in parked
    ]
    return ([] if errors else flights), errors, ([] if errors else held)


_STRUCTURE = ("serial", "record_type", "(record)", "check_serial", "title")  # a broken file, not a bad leg


def _line_of(problem: str) -> int:
    return int(problem.split(":", 1)[0].removeprefix("line "))


def _leg_problem(problem: str, lines: list[str]) -> bool:
    """A problem of one flight leg's own values (or of a segment record of that leg), which quarantine may park."""
    number = _line_of(problem)
    field_name = problem.split(": ", 2)[1]
    return lines[number - 1][:1] in ("3", "4") and field_name not in _STRUCTURE


def import_ssim(
    path: Path,
    resource: Any,
    naming: Naming,
    *,
    tails_path: Path | None = None,
    start: date | None = None,
    end: date | None = None,
    park_in: Path | None = None,
    write: Writer = upsert,
) -> SsimImportReport:
    """Validate the whole schedule, then write every dated flight or none (ImportFailed: restored). With `park_in`
    (a quarantine folder) a bad flight leg is parked there with its reason and the rest is imported."""
    flights, errors, held = read_schedule(Path(path), tails_path, start=start, end=end, quarantine=park_in is not None)
    report = SsimImportReport(errors=errors)
    if not errors:
        existing = snapshot(resource, naming, FLIGHTS, flights)
        new = [f.flight_id for f in flights if existing.get((f.flight_id,)) is None]
        flights = keep_operational_state(flights, existing, booked_seats(resource, naming, new))
        report.written = write_all_or_nothing(resource, naming, {FLIGHTS: flights}, write=write)
        if park_in is not None:
            park(park_in, held)
            report.parked = held
    return report


@dataclass
class SsimImportReport(ImportReport):
    parked: list[Parked] = field(default_factory=list)  # legs set aside with their reasons (quarantine)


def booked_seats(resource: Any, naming: Naming, flight_ids: list[str]) -> dict[str, dict[str, int]]:
    """Seats held by cabin on each flight, counted from the bookings table (its flight-id index, one Query per
    flight): a schedule loaded after the bookings starts from what they hold, not from empty flights."""
    table = resource.Table(naming(BOOKINGS))
    seats: dict[str, dict[str, int]] = {}
    for flight_id in flight_ids:
        query: dict[str, Any] = {
            "IndexName": FLIGHT_ID_INDEX,
            "KeyConditionExpression": Key("flight_id").eq(flight_id),
            "ProjectionExpression": "cabin, #s",
            "ExpressionAttributeNames": {"#s": "status"},
        }
        while True:
            page = table.query(**query)
            for item in page["Items"]:
                if item.get("status") not in ("CANCELLED", "REBOOKED"):  # a seat given up is no seat held
                    cabins = seats.setdefault(flight_id, {})
                    cabins[item["cabin"]] = cabins.get(item["cabin"], 0) + 1
            if "LastEvaluatedKey" not in page:
                break
            query["ExclusiveStartKey"] = page["LastEvaluatedKey"]
    return seats


def keep_operational_state(
    flights: list[Flight],
    existing: dict[tuple[Any, ...], dict[str, Any] | None],
    booked: dict[str, dict[str, int]] | None = None,
) -> list[Flight]:
    """A schedule says when and on what a flight operates, not how it is booked or what happened to it today: a
    flight already in the table keeps its booked seats, status, estimates and delay (a re-import changes none),
    and one an executed recovery changed keeps the tail the recovery gave it; a new flight's seats are what the
    bookings hold (`booked`)."""
    kept = []
    for flight in flights:
        item = existing.get((flight.flight_id,))
        if item is None:
            seats = (booked or {}).get(flight.flight_id)
            kept.append(Flight.model_validate({**flight.model_dump(), "booked": seats}) if seats else flight)
            continue
        kept_fields = OPERATIONAL_STATE + (RECOVERED if item.get("updated_by_execution") else ())
        state = {k: item[k] for k in kept_fields if k in item}
        kept.append(Flight.model_validate({**flight.model_dump(), **state}))
    return kept


def tails_path(schedule: Path) -> Path:
    """Where the tail file of a schedule file is written and looked for by default."""
    return schedule.with_name(schedule.name + ".tails.csv")
