"""The reader under test, as `skymarshal analyze` runs it: Validate (workflow/steps.py) on one in-process emulated
account seeded once with the airline's tables the reading checks against. Offline (no model).

Validate is called directly, not through the state machine: the reading is all that is measured, and each
report costs milliseconds instead of a run. One run per flight is switched off for the bench (every report is
a new disruption, and a claim from an earlier report on the same flight would refuse the next one).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from skymarshal.data.generator import Airline

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
        from skymarshal.workflow.payloads import ArtifactStore

        self.handle = account.handle(None)
        self.tables = account.tables()
        self.store = ArtifactStore(BUCKET, account.client("s3"))

    def read(self, report: Report) -> Read:
        from skymarshal.workflow.steps import InvalidDisruption, validate

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
        scope_kind=scope.get("kind"),
        flights=list(scope.get("flights") or []),
        registration=scope.get("registration"),
        airport=scope.get("airport") or scope.get("airspace"),
        window_start=datetime.fromisoformat(window["start"]) if window.get("start") else None,
        window_end=datetime.fromisoformat(window["end"]) if window.get("end") else None,
    )


@contextmanager
def validate_reader(airline: Airline) -> Iterator[ValidateReader]:
    """Validate over an in-process account holding the airline's read tables (seeded once, ~5 s)."""
    os.environ["SKYMARSHAL_LLM_PROVIDER"] = "offline"
    os.environ["SKYMARSHAL_ONE_RUN_PER_FLIGHT"] = "0"
    os.environ.setdefault("POWERTOOLS_LOG_LEVEL", "ERROR")
    from skymarshal.local.emulator import in_process_account

    with in_process_account(airline, tables=READ_TABLES) as account:
        yield ValidateReader(account)
