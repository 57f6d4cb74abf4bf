"""A re-decision's flight, free of the estimate its own earlier plan gave it (issue 46 item 1).

A wait on an estimate the report did not state re-times the flight to that estimate. When the disruption is decided
again (`DisruptionRequest.redecides`: the cause cleared sooner, or not by the estimate's upper bound), that estimated
departure is the run's own guess, not a fact about the flight: every plan kept it as a floor ("never before the
flight's current estimate"), so a flight whose fog lifted an hour early still left at the guessed time. Read through
the overlay, the flight's estimate is released to the report's moment — never before its schedule, nor before its
crew can be ready: the latest report on the flight's roster (a report the earlier plan moved, a reserve it called)
plus the sign-on lead; a crew told to report later cannot be made to have reported already. Only when the row was
last changed by the very run being decided again; an estimate another run or the operation wrote stands.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import datetime, timedelta

from ..data import schema as s
from ..data.overlay import Overlay, RowPatch
from ..models.common import iso_z
from ..models.operational import CrewDuty, Flight
from ..rules.standby import REPORT_BEFORE_DEPARTURE
from .clearance import ON_THE_GROUND


def released_estimate(
    flight: Flight, overlay: Overlay, follows: str | None, now: datetime, crew: Sequence[CrewDuty]
) -> tuple[Flight, Overlay]:
    """`flight` and `overlay` with the flight's estimate released to `now` (never before its schedule, nor before
    its `crew` — its roster rows — can be ready) when the run `follows` (the one this run decides again) set it and
    the flight has not left; else both unchanged."""
    if follows is None or flight.updated_by_execution != follows or flight.status not in ON_THE_GROUND:
        return flight, overlay
    reports = [r.duty_start for r in crew if r.kind == "FLIGHT" and r.flight_id == flight.flight_id]
    ready = max([now, *(t + REPORT_BEFORE_DEPARTURE for t in reports)])
    minutes = max(0, math.ceil((ready - flight.scheduled_departure).total_seconds() / 60))
    if minutes >= flight.delay_minutes:
        return flight, overlay
    fields = {
        "estimated_departure": flight.scheduled_departure + timedelta(minutes=minutes),
        "estimated_arrival": flight.scheduled_arrival + timedelta(minutes=minutes),
        "delay_minutes": minutes,
    }
    patch = RowPatch(
        table=s.FLIGHTS,
        key={"flight_id": flight.flight_id},
        fields={k: iso_z(v) if isinstance(v, datetime) else v for k, v in fields.items()},
        fact="estimate_released",
    )
    return flight.model_copy(update=fields), Overlay(patches=[*overlay.patches, patch], additions=overlay.additions)
