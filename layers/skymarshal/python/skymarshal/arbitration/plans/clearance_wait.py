"""Waiting for the cause to clear is always a plan (issue 46): from the disruption's estimate of when its cause clears
(``Disruption.clears``: an aircraft's release, a crew member available, a station reopening, a CTOT, the flight
released — stated, from the airline's history, or policy), the flight waits until the estimate and until its upper
bound. Each wait is an ordinary delay: the generator builds it with ``operate`` (the rotation's knock-on, the crew
chain, its cost) and validation checks it like every other plan (crew duty at the delayed times, curfews, the tail's
release at risk after the estimate). Nothing here decides legality.

The clearance's time is when the cause ends; the flight leaves then, except after a crew member becomes available:
the crew reports at that time and the flight leaves one report-to-off-blocks later (the operator's sign-on lead,
``analysis.crew.REPORT_BEFORE_DEPARTURE``) — unless the estimate is a departure already (``Clearance.departs``).
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta

from ...analysis.crew import REPORT_BEFORE_DEPARTURE
from ...models.disruption import Clearance
from ...models.operational import Flight
from ..models import WaitOnClearance

STEP_MINUTES = 5  # a wait is planned to the next five minutes, as every generated delay (generator._delays)


def departs_after(clears: Clearance, at: datetime) -> datetime:
    """The earliest off-blocks once the cause has cleared at `at`: at once, or a sign-on lead after a crew member
    becomes available (they report then; ORO.FTL.105 counts the FDP from that report) — unless the estimate is
    itself a departure (an ETD, a stated delay), which already holds the lead."""
    return at + REPORT_BEFORE_DEPARTURE if clears.kind == "crew_available" and not clears.departs else at


def ready_from(clears: Clearance | None) -> datetime | None:
    """The earliest off-blocks the cause may allow (its estimate's low percentile, a history estimate only): what a
    called-out reserve is readied for, so that the flight leaves when the cause clears sooner than expected (the
    decision is then taken again: ``cause_hold``) instead of waiting on its new crew's report."""
    if clears is None or clears.earliest is None:
        return None
    return departs_after(clears, clears.earliest)


def delay_to(flight: Flight, departure: datetime) -> int:
    """Minutes from the schedule to `departure`, up to the next step, never before the flight's current estimate."""
    minutes = math.ceil((departure - flight.scheduled_departure).total_seconds() / 60)
    stepped = math.ceil(minutes / STEP_MINUTES) * STEP_MINUTES
    return max(flight.delay_minutes, stepped, 0)


def clearance_waits(flight: Flight, clears: Clearance | None) -> dict[int, WaitOnClearance]:
    """The waits the estimate makes a plan, by delay (minutes from the schedule): until the estimate and until its
    upper bound (one wait when they fall on the same minute; the estimate's when a bound is no later)."""
    if clears is None:
        return {}
    out: dict[int, WaitOnClearance] = {}
    for at, bound in ((clears.expected, False), (clears.latest, True)):
        delay = delay_to(flight, departs_after(clears, at))
        if delay not in out:
            until = flight.scheduled_departure + timedelta(minutes=delay)
            out[delay] = WaitOnClearance(until=until, clears=clears, bound=bound)
    return out


def annotated(scenario, waits: dict[int, WaitOnClearance]):
    """The delay plan with the wait it is (the estimate, its source, the re-decision point) in its record and title;
    any other plan unchanged."""
    wait = waits.get(scenario.delay_minutes) if scenario.kind == "delay" and scenario.operates else None
    if wait is None or scenario.waits is not None:
        return scenario
    return scenario.model_copy(update={"waits": wait, "title": f"{scenario.title}: {wait.describe()}"})
