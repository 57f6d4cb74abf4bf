"""The reader under test, as `skymarshal analyze` runs it: Validate (workflow/steps/validate.py) on one in-process emulated
account seeded once with the airline's tables the reading checks against. Offline (no model).

Validate is called directly, not through the state machine: the reading is all that is measured, and each
report costs milliseconds instead of a run. The airport queries (two GSI range queries per call, several calls per
airport report) are answered from the same rows in memory: moto filters a hub's week of flights in ~0.4 s a query,
which would make the bench minutes long for data access, not reading. `in_memory_airports=False` keeps them in moto. One run per flight is switched off for the bench (every report is
a new disruption, and a claim from an earlier report on the same flight would refuse the next one).
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from datetime import datetime, timedelta
from typing import Any
from unittest.mock import patch

from skymarshal.data.generator import Airline
from skymarshal.models.operational import Flight

from .truth import Read, Report

# What the reading reads: the schedule, airports, roster and crew, work orders, the fleet's days, weather.
READ_TABLES = (
    "flights",
    "AirportReference",
    "CrewRoster",
    "CrewMembers",
    "MaintenanceWorkOrders",
    "AircraftAvailability",
    "Weather",
)


class ValidateReader:
    def __init__(self, account: Any):
        from skymarshal.local.emulator import BUCKET
        from skymarshal.workflow.aws.s3 import S3Objects
        from skymarshal.workflow.payloads import ArtifactStore

        self.handle = account.handle(None)
        self.tables = account.tables()
        self.store = ArtifactStore(BUCKET, S3Objects(account.client("s3")))

    def read(self, report: Report) -> Read:
        from skymarshal.workflow.steps.validate import InvalidDisruption, validate

        name = f"reading-{report.report_id}"
        payload = {
            "disruption_id": name,
            "prompt": report.text,
            "source": "bench",
            "reported_at": report.reported_at.isoformat(),
        }
        try:
            state = validate(payload, execution_name=name, handle=self.handle, tables=self.tables, store=self.store)
        except InvalidDisruption as exc:
            return Read(refused=True, message=str(exc))
        except Exception as exc:  # a crash is the reader's bug, counted apart, never a refusal
            return Read(refused=True, crashed=True, message=f"{type(exc).__name__}: {exc}")
        return read_of(state["request"]["disruption"])


def read_of(disruption: dict[str, Any]) -> Read:
    scope = disruption.get("scope") or {}
    window = disruption.get("window") or {}
    return Read(
        refused=False,
        family=disruption.get("family"),
        code=disruption.get("iata_delay_code"),
        unsure=[u["code"] for u in disruption.get("unsure") or []],
        scope_kind=scope.get("kind"),
        flights=list(scope.get("flights") or []),
        registration=scope.get("registration"),
        airport=scope.get("airport") or scope.get("airspace"),
        window_start=datetime.fromisoformat(window["start"]) if window.get("start") else None,
        window_end=datetime.fromisoformat(window["end"]) if window.get("end") else None,
    )


def flights_at_airport_in_memory(flights: list[Flight]):
    """`queries.flights_at_airport` over the seeded rows: departures from or arrivals at the airport in [start,
    end), by departure time, as the two GSI queries give them (Validate writes no flight, so the rows stay)."""
    departing: dict[str, list[Flight]] = defaultdict(list)
    arriving: dict[str, list[Flight]] = defaultdict(list)
    for f in flights:
        departing[f.origin].append(f)
        arriving[f.destination].append(f)

    def flights_at_airport(handle: Any, iata: str, start: datetime, end: datetime) -> list[Flight]:
        last = end - timedelta(seconds=1)  # the GSI query's `between` on whole seconds, as queries.py asks it
        found = {f.flight_id: f for f in departing[iata] if start <= f.scheduled_departure <= last}
        found |= {f.flight_id: f for f in arriving[iata] if start <= f.scheduled_arrival <= last}
        return sorted(found.values(), key=lambda f: (f.scheduled_departure, f.flight_id))

    return flights_at_airport


@contextmanager
def validate_reader(airline: Airline, in_memory_airports: bool = True) -> Iterator[ValidateReader]:
    """Validate over an in-process account holding the airline's read tables (seeded once, ~5 s)."""
    os.environ["SKYMARSHAL_LLM_PROVIDER"] = "offline"
    os.environ["SKYMARSHAL_ONE_RUN_PER_FLIGHT"] = "0"
    os.environ.setdefault("POWERTOOLS_LOG_LEVEL", "ERROR")
    from skymarshal.data import queries
    from skymarshal.local.emulator import in_process_account

    rows = [f for f in airline.tables["flights"] if isinstance(f, Flight)]
    with ExitStack() as stack:
        account = stack.enter_context(in_process_account(airline, tables=READ_TABLES))
        if in_memory_airports:
            stack.enter_context(patch.object(queries, "flights_at_airport", flights_at_airport_in_memory(rows)))
        yield ValidateReader(account)
