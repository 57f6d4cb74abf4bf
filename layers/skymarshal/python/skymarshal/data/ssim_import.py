"""`data import-ssim` and `data export-ssim`: an airline's schedule file in and out of the flights table.

Import reads every record and every tail before writing anything; any problem refuses the whole file, one line
each (`line N: field: problem`), and nothing is written. The write is the JSON Lines import's (`import_write`):
upserts keyed by flight id, all or nothing, so importing the same file twice changes nothing the second time.
Export writes the synthetic airline's generated schedule (`ssim_schedule.ssim_from_flights`) and its tail file.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

from boto3.dynamodb.conditions import Key

from ..models.operational import Flight
from .import_checks import decode_utf8
from .import_write import Writer, snapshot, write_all_or_nothing
from .loader import upsert
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
    path: Path, tails_path: Path | None, *, start: date | None = None, end: date | None = None
) -> tuple[list[Flight], list[str]]:
    """The dated flights of an SSIM file with their tails, or every problem found (flights then unusable)."""
    text, problem = decode_utf8(path)
    if text is None:
        return [], [str(problem)]
    parsed, errors = read_ssim(text)
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
    if errors:
        return [], errors
    flights, errors = flights_from_ssim(parsed, tails, start=start, end=end)
    if not errors and not flights:
        errors.append(f"{path.name}: no flight operates between {start or 'the start'} and {end or 'the end'}")
    return ([] if errors else flights), errors


def import_ssim(
    path: Path,
    resource: Any,
    naming: Naming,
    *,
    tails_path: Path | None = None,
    start: date | None = None,
    end: date | None = None,
    write: Writer = upsert,
) -> ImportReport:
    """Validate the whole schedule, then write every dated flight or none (ImportFailed: restored)."""
    flights, errors = read_schedule(Path(path), tails_path, start=start, end=end)
    report = ImportReport(errors=errors)
    if not errors:
        existing = snapshot(resource, naming, FLIGHTS, flights)
        new = [f.flight_id for f in flights if existing.get((f.flight_id,)) is None]
        flights = keep_operational_state(flights, existing, booked_seats(resource, naming, new))
        report.written = write_all_or_nothing(resource, naming, {FLIGHTS: flights}, write=write)
    return report


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
