"""The flight and reads the clearance tests share (test_clearance.py, test_clearance_history.py): a MCT-AUH flight,
a disruption of a code on it, its clearance read from a report, and a past case of the airline's record."""

from __future__ import annotations

from datetime import datetime, timedelta

from row_builders import flight, utc

from skymarshal.intake.clearance import with_clearance
from skymarshal.models.disruption import Disruption, Fact, Scope
from skymarshal.models.history import DisruptionRecord

STD = utc(2027, 1, 20, 10)
NOW = utc(2027, 1, 20, 6)
FLIGHT = flight(dep=STD, origin="MCT", destination="AUH", block=90)


def disruption_of(code: int, scope: Scope | None = None, facts: list[Fact] | None = None, **kw) -> Disruption:
    scope = scope or Scope(kind="flight", flight_numbers=[FLIGHT.flight_number], flights=[FLIGHT.flight_id])
    return Disruption.of_code(code, scope=scope, facts=facts or [], **kw)


def clears_of(report: str, code: int = 41, now: datetime = NOW, f=FLIGHT):
    d = with_clearance(disruption_of(code), report, None, now, f)  # type: ignore[arg-type]
    assert d.clears is not None
    return d


def past_record(i: int, minutes: int, station: str = "MCT", kind: str = "mechanical", action: str = "delay"):
    return DisruptionRecord(
        disruption_id=f"H-{i}",
        disruption_type=kind,
        occurred_at=utc(2026, 6, 1) + timedelta(days=i),
        flight_number="EY100",
        origin=station,
        destination="AUH",
        aircraft_type="A320",
        initial_delay_minutes=minutes,
        recommended_action=action,
        chosen_action=action,
        overridden=False,
        outcome="on_plan",
        actual_delay_minutes=minutes,
        passengers_affected=100,
        cost_usd=1000.0,
        summary="a past case",
    )
