"""A report's facts as Validate reads them, for tests that call the arbitrator without the workflow: the flight the
report names (the offline extraction, then the flights table) and the report read against it."""

from __future__ import annotations

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


def reported(handle, prompt: str) -> Disruption:
    """The report about the flight it names, as facts (what the arbitrator takes the flight and its kind from)."""
    return report_disruption(prompt, flight_of(handle, prompt))
