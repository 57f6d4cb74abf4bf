"""A report's facts as Validate reads them, for tests that call the arbitrator without the workflow: the flight the
report names (the offline extraction, then the flights table) and the report read against it; and EY123 as the
mechanical demo has it (delayed 35 min by a hydraulic fault), for tests that need one flight without the tables."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from skymarshal.data import queries as q
from skymarshal.intake.disruption_facts import report_disruption
from skymarshal.intake.extraction import extract_offline
from skymarshal.models.disruption import Disruption
from skymarshal.models.operational import Flight


def flight_of(handle, prompt: str) -> Flight:
    """The flight a report names, as Validate finds it."""
    info = extract_offline(
        prompt, flight_dates=lambda n: [f.flight_date for f in q.flights_by_number(handle, n)]
    ).flight_info
    assert info is not None, prompt
    flight = q.find_flight(handle, info.flight_number, info.date)
    assert flight is not None, prompt
    return flight


def decided(handle, prompt: str, now: datetime):
    """(flight, facts, overlay, decision) as the workflow reaches them: Validate's facts with the clearance, both
    rounds of the agents, the arbitrator — offline, at `now`."""
    from skymarshal.arbitration.arbitrator import arbitrate
    from skymarshal.intake.clearance import with_clearance
    from skymarshal.intake.disruption_facts import resolve_flight_report
    from skymarshal.workflow.steps.rounds import run_rounds

    flight = flight_of(handle, prompt)
    facts, overlay = resolve_flight_report(prompt, flight, handle, None)
    facts = with_clearance(facts, prompt, handle, now, flight)
    collation = run_rounds(prompt, handle=handle, llm=None, disruption=facts, overlay=overlay, now=now)[1]
    decision = arbitrate(collation, prompt, handle=handle.with_overlay(overlay), llm=None, disruption=facts, now=now)
    return flight, facts, overlay, decision


def reported(handle, prompt: str) -> Disruption:
    """The report about the flight it names, as facts (what the arbitrator takes the flight and its kind from)."""
    return report_disruption(prompt, flight_of(handle, prompt))


_DEP = datetime(2027, 1, 20, 10, 25, tzinfo=UTC)
EY123 = Flight(
    flight_id="EY123-20270120",
    flight_number="EY123",
    carrier="EY",
    origin="AUH",
    destination="FRA",
    flight_date=_DEP.date(),
    scheduled_departure=_DEP,
    scheduled_arrival=_DEP + timedelta(minutes=380),
    aircraft_registration="A6-BLQ",
    aircraft_type="B789",
    status="DELAYED",
    delay_minutes=35,
    delay_reason="TECHNICAL: hydraulic system fault",
    block_minutes=380,
    distance_km=4864,
    capacity={"J": 28, "Y": 271},
    booked={"J": 8, "Y": 81},
)
