"""Hand-built rows for the day-replay tests: a few flights on three tails, their crews, a short history."""

from __future__ import annotations

from datetime import datetime, timedelta

import row_builders
from row_builders import utc

from skymarshal.day.realize import DayState
from skymarshal.models.history import DisruptionRecord
from skymarshal.models.operational import Booking, CrewDuty, Flight


def flight(fid: str, number: str, origin: str, destination: str, dep: datetime, block: int, reg: str) -> Flight:
    return row_builders.flight(number, origin, destination, dep, block, reg, distance_km=4000, booked={}, flight_id=fid)


def booking(bid: str, fid: str, passenger: str, final: str, segment: int = 1, **kw) -> Booking:
    return row_builders.booking(
        bid, fid, final, pnr=f"PNR{passenger[-3:]}", passenger_id=passenger, segment=segment, fare_paid=400.0, **kw
    )


def crew(crew_id: str, f: Flight) -> CrewDuty:
    return row_builders.flight_duty(
        crew_id,
        f,
        duty_key=f"{f.scheduled_departure:%Y-%m-%dT%H:%M:%SZ}#x#{f.flight_id}",
        block_minutes=f.block_minutes,
        aircraft_type=f.aircraft_type,
        pilots_on_board=2,
    )


F1 = flight("F1", "EY21", "AUH", "FRA", utc(2027, 1, 20, 10), 360, "A6-BLA")
F2 = flight("F2", "EY22", "FRA", "AUH", utc(2027, 1, 20, 17, 30), 360, "A6-BLA")
F6 = flight("F6", "EY204", "AUH", "BOM", utc(2027, 1, 21, 0, 45), 180, "A6-BLC")
F7 = flight("F7", "EY206", "AUH", "BOM", utc(2027, 1, 21, 10), 180, "A6-BLD")
FLIGHTS = (F1, F2, F6, F7)


def state() -> DayState:
    bookings = [
        booking("B1", "F1", "P-001", "FRA"),
        booking("B2", "F2", "P-002", "BOM", onward_flight_id="F6"),
        booking("B3", "F6", "P-002", "BOM", segment=2, inbound_flight_id="F2"),
    ]
    flights = {f.flight_id: f for f in FLIGHTS}
    return DayState(
        flights=flights,
        bookings=bookings,
        crew_on={"F1": [crew("C1", F1)]},
        rosters={"C1": [crew("C1", F1)]},
        members={},
        original_tails={k: f.aircraft_registration for k, f in flights.items()},
        min_connection_minutes={"AUH": 60},
    )


def record(n: int, kind: str, f: Flight, hour: int, delay: int) -> DisruptionRecord:
    return DisruptionRecord(
        disruption_id=f"H{n:03d}",
        disruption_type=kind,
        occurred_at=utc(2026, 1 + n % 12, 1 + n % 27, hour),
        flight_number=f.flight_number,
        origin=f.origin,
        destination=f.destination,
        aircraft_type=f.aircraft_type,
        initial_delay_minutes=delay,
        recommended_action="delay",
        chosen_action="delay",
        overridden=False,
        outcome="on_plan",
        actual_delay_minutes=delay,
        passengers_affected=200,
        cost_usd=10000.0,
        summary="a past disruption",
    )


HISTORY = tuple(
    record(n, kind, f, 6 + n % 12, 30 + 17 * n)
    for n, (kind, f) in enumerate(
        (k, f) for k in ("mechanical", "crew", "weather", "atc", "other") for f in (F1, F2, F6, F7)
    )
)


def late(f: Flight, minutes: int, **update) -> Flight:
    """`f` estimated `minutes` late in the tables (its block kept), with any other field `update` gives."""
    by = timedelta(minutes=minutes)
    return f.model_copy(
        update={
            "estimated_departure": f.scheduled_departure + by,
            "estimated_arrival": f.scheduled_arrival + by,
            "delay_minutes": minutes,
            "status": "DELAYED",
            **update,
        }
    )
