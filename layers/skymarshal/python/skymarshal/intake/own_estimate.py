"""A re-decision's flight, free of the estimate its own earlier plan gave it (issue 46 item 1).

A wait on an estimate the report did not state re-times the flight to that estimate. When the disruption is decided
again (`DisruptionRequest.redecides`: the cause cleared sooner, or not by the estimate's upper bound), that estimated
departure is the run's own guess, not a fact about the flight: every plan kept it as a floor ("never before the
flight's current estimate"), so a flight whose fog lifted an hour early still left at the guessed time. Read through
the overlay, the flight's estimate is released to the report's moment — never before its schedule, nor before its
crew can be ready: the latest report on the flight's roster (a report the earlier plan moved, a reserve it called)
plus the sign-on lead; a crew told to report later cannot be made to have reported already. Only when the row was
last changed by the very run being decided again; an estimate another run or the operation wrote stands. The tail's
later flights that run re-timed behind the wait (its knock-on) are released the same way (``released_later``): the
new plan's knock-on re-times them from the flight's new departure.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta

from ..data import schema as s
from ..data.overlay import Overlay, RowPatch
from ..models.common import iso_z
from ..models.fleet import AIRCRAFT_TYPES
from ..models.operational import CrewDuty, Flight
from ..rules.standby import REPORT_BEFORE_DEPARTURE
from .clearance import ON_THE_GROUND

RELEASED = "estimate_released"  # the overlay patch's fact: read back by the new plan's knock-on
# How far past the re-decision the tail's later flights are read for a release: the next day's return of a long haul
RELEASE_AHEAD = timedelta(hours=36)


def released_estimate(
    flight: Flight, overlay: Overlay, follows: str | None, now: datetime, crew: Sequence[CrewDuty]
) -> tuple[Flight, Overlay]:
    """`flight` and `overlay` with the flight's estimate released to `now` (never before its schedule, nor before
    its `crew` — its roster rows — can be ready) when the run `follows` (the one this run decides again) set it and
    the flight has not left; else both unchanged."""
    fields = _released(flight, follows, now, crew)
    if fields is None:
        return flight, overlay
    return flight.model_copy(update=fields), _with(overlay, [_patch(flight, fields)])


def released_later(
    flight: Flight,
    later: Sequence[Flight],
    overlay: Overlay,
    follows: str | None,
    now: datetime,
    crews: Callable[[str], Sequence[CrewDuty]],
) -> Overlay:
    """`overlay` with the estimates of the tail's `later` flights (after `flight`, as released) released likewise: the
    knock-on of the wait the run `follows` planned (the tail's later flights re-timed behind it) is no floor either —
    the new plan's knock-on re-times them from the flight's new departure (arbitration.rotation.plan.knock_on writes
    the release where it does not). In tail order, each never before the flight before it has landed and turned
    round (its estimate, released or standing). `crews`: a flight id's roster rows, read only for a flight that run
    re-timed."""
    patches, before = [], flight
    for f in sorted(later, key=lambda x: x.scheduled_departure):
        turned = before.arrival + timedelta(minutes=AIRCRAFT_TYPES[f.aircraft_type].min_turn_minutes)
        fields = _released(f, follows, now, crews(f.flight_id), turned) if f.updated_by_execution == follows else None
        if fields is not None:
            patches.append(_patch(f, fields))
            f = f.model_copy(update=fields)
        before = f
    return _with(overlay, patches) if patches else overlay


def _released(
    flight: Flight, follows: str | None, now: datetime, crew: Sequence[CrewDuty], turned: datetime | None = None
) -> dict | None:
    """The released estimate's fields (module docstring), never before `turned` (the aircraft ready after the flight
    before it), or None when the estimate stands."""
    if follows is None or flight.updated_by_execution != follows or flight.status not in ON_THE_GROUND:
        return None
    reports = [r.duty_start for r in crew if r.kind == "FLIGHT" and r.flight_id == flight.flight_id]
    ready = max([now, *(t + REPORT_BEFORE_DEPARTURE for t in reports), *([turned] if turned else [])])
    minutes = max(0, math.ceil((ready - flight.scheduled_departure).total_seconds() / 60))
    if minutes >= flight.delay_minutes:
        return None
    return {
        "estimated_departure": flight.scheduled_departure + timedelta(minutes=minutes),
        "estimated_arrival": flight.scheduled_arrival + timedelta(minutes=minutes),
        "delay_minutes": minutes,
    }


def _patch(flight: Flight, fields: dict) -> RowPatch:
    return RowPatch(
        table=s.FLIGHTS,
        key={"flight_id": flight.flight_id},
        fields={k: iso_z(v) if isinstance(v, datetime) else v for k, v in fields.items()},
        fact=RELEASED,
    )


def released_flight_ids(overlay: Overlay | None) -> set[str]:
    """The flights whose estimate `overlay` released (a re-decision's)."""
    return {str(p.key["flight_id"]) for p in (overlay.patches if overlay else ()) if p.fact == RELEASED}


def _with(overlay: Overlay, patches: list[RowPatch]) -> Overlay:
    return Overlay(patches=[*overlay.patches, *patches], additions=overlay.additions)
