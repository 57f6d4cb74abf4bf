"""An empty ferry of a rescue aircraft (or a diverted flight's continuation): how long it takes and the duty its
crew flies — company policy beside the crew rules (``rules.crew`` checks the duty), shared by the plans the
arbitrator builds and the hindsight's rescue (``day.rescue``)."""

from __future__ import annotations

import math
from datetime import datetime, timedelta

from ..models.airports import great_circle_km
from ..models.fleet import AIRCRAFT_TYPES
from .crew import ProposedDuty
from .standby import CALL_OUT

FERRY_PREPARATION = timedelta(minutes=90)  # company policy: call out the ferry crew, fuel and prepare the spare
FERRY_TAXI_MINUTES = 30  # taxi out and in
FERRY_REPORT_BEFORE = timedelta(minutes=60)  # company policy: report for a ferry (no passengers to board)
FERRY_RANKS = ("CPT", "FO")


def ferry_departure(decided_at: datetime) -> datetime:
    """The earliest a rescue aircraft's ferry leaves after the decision: the spare prepared, and its crew called out
    from standby (CALL_OUT) to report FERRY_REPORT_BEFORE it (company policy, both)."""
    return max(decided_at + FERRY_PREPARATION, decided_at + CALL_OUT + FERRY_REPORT_BEFORE)


def ferry_minutes(origin: str, destination: str, aircraft_type: str) -> int:
    """Block minutes of an empty ferry: great-circle distance at the type's cruise speed, plus taxi."""
    return FERRY_TAXI_MINUTES + math.ceil(
        great_circle_km(origin, destination) / AIRCRAFT_TYPES[aircraft_type].cruise_kmh * 60
    )


def ferry_number(flight_number: str) -> str:
    """The ferry's flight number: the rescued flight's with the suffix F (a non-revenue positioning leg)."""
    return (flight_number[:-1] if flight_number[-1].isalpha() else flight_number) + "F"


def ferry_duty(
    origin: str, destination: str, aircraft_type: str, departure: datetime, arrival: datetime
) -> ProposedDuty:
    """A one-sector duty flying an aircraft empty from `origin` to `destination` (a rescue aircraft's ferry)."""
    return ProposedDuty(
        report=departure - FERRY_REPORT_BEFORE,
        fdp_end=arrival,
        sectors=1,
        aircraft_type=aircraft_type,
        start_station=origin,
        end_station=destination,
        block_minutes=int((arrival - departure).total_seconds() // 60),
        label=f"ferry {origin}-{destination}",
    )
