"""A network plan's positioning ferries: the optimizer's empty flights as rows of the per-flight table, each its own
new flight (id `FERRY-<registration>-<YYYYmmddHHMM>`, UTC departure) with its own flight number, which Execute
writes as a Flights row and Messages announces with an ASM NEW (arbitration.actions.FerryAircraft, positioning)."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from ..models.airports import airport
from ..models.network_plan import FlightAction

NON_REVENUE_BLOCK = "9"  # 9000-9999: revenue numbers stay below (data.generator.network: +2000 per copy, up to 8xxx)


def ferry_flight_number(carrier: str, registration: str, origin: str, departure: datetime) -> str:
    """The ferry's number: the carrier, 9, the local departure's two-minute slot of the day at the origin (000-719)
    and the last letter of the tail's mark — `EY9510Q` for A6-EJQ leaving AUH 17:00 local.

    Why derived, and not one number for every ferry (EY9999 before): a flight is identified by its number and date
    (SSIM; the flights table's flight-number-date-index), so two ferries of one day under one number would be one
    flight to every schedule reader and message recipient. Derived rather than allocated: the plan, its messages and
    its execution must name the same number, with no counter to share. Unique per ferry and day: a tail leaves at
    most once in two minutes, so two ferries share a number on a local day only when tails whose marks end in the
    same letter leave the same origin time zone's clock slot; execution refuses that case (it checks the index,
    workflow.execution.ferry) rather than write a second flight under the number."""
    local = departure.astimezone(ZoneInfo(airport(origin).tz))
    slot = (local.hour * 60 + local.minute) // 2
    letter = next((c for c in reversed(registration.upper()) if "A" <= c <= "Z"), "F")
    return f"{carrier}{NON_REVENUE_BLOCK}{slot:03d}{letter}"


def positioning_row(
    registration: str,
    origin: str,
    destination: str,
    departure: datetime,
    arrival: datetime,
    carrier: str,
    aircraft_type: str,
) -> FlightAction:
    """The per-flight table's row of an empty positioning flight the optimizer added."""
    return FlightAction(
        flight_id=f"FERRY-{registration}-{departure:%Y%m%d%H%M}",
        flight_number=ferry_flight_number(carrier, registration, origin, departure),
        origin=origin,
        destination=destination,
        action="ferry",
        scheduled_departure=departure,
        scheduled_arrival=arrival,
        new_departure=departure,
        new_arrival=arrival,
        registration=registration,
        new_registration=registration,
        aircraft_type=aircraft_type,
        reason="empty positioning flight: brings the tail where the plan needs it",
    )
