"""The passengers a plan disrupts, grouped by what happens to them on each flight, with what each group is told."""

from __future__ import annotations

from collections.abc import Mapping

from ..arbitration.actions import DelayFlight, DivertFlight, RebookPassengers
from ..arbitration.models import Scenario
from ..models.operational import Flight
from .models import PassengerChange, PassengerGroup


def _name(flight: Flight) -> str:
    return f"{flight.flight_number} {flight.origin}-{flight.destination} on {flight.scheduled_departure:%d %b}"


def _group(
    flight: Flight, change: PassengerChange, passengers: int, text: str, onto: str | None = None
) -> PassengerGroup:
    return PassengerGroup(
        flight_id=flight.flight_id,
        flight_number=flight.flight_number,
        change=change,
        passengers=passengers,
        onto=onto,
        notification=text,
    )


def _rebooked(
    flight: Flight, action: RebookPassengers, flights: Mapping[str, Flight], cancelled: bool
) -> list[PassengerGroup]:
    what = "cancelled" if cancelled else "changed"
    groups = []
    for onto, count in action.onto.items():
        target = flights.get(onto)
        if not count:
            continue
        seat = f"{_name(target)}, departing {target.scheduled_departure:%H:%MZ}" if target else onto
        text = f"{_name(flight)} is {what}: you are rebooked on {seat}."
        groups.append(_group(flight, "rebooked", count, text, target.flight_number if target else onto))
    if action.interline:
        text = (
            f"{_name(flight)} is {what}: we are booking you on another airline and will send the new itinerary; "
            "hotel and meals are covered if you must wait overnight."
        )
        groups.append(_group(flight, "interline", action.interline, text, "INTERLINE"))
    return groups


def passenger_groups(scenario: Scenario, flights: Mapping[str, Flight], cancelled: set[str]) -> list[PassengerGroup]:
    """Delayed (a flight that still operates, later), rebooked onto each flight, placed on another carrier, diverted."""
    groups: list[PassengerGroup] = []
    for action in scenario.actions:
        flight = flights.get(action.flight_id)
        if flight is None:
            continue
        booked = sum(flight.booked.values())
        if (
            isinstance(action, DelayFlight)
            and action.delay_minutes > 0
            and action.flight_id not in cancelled
            and booked
        ):
            text = (
                f"{_name(flight)} now departs {action.new_departure:%H:%MZ} "
                f"(was {flight.scheduled_departure:%H:%MZ}). We are sorry for the delay."
            )
            groups.append(_group(flight, "delayed", booked, text))
        elif isinstance(action, DivertFlight) and booked:
            text = (
                f"{_name(flight)} lands at {action.alternate} at {action.new_arrival:%H:%MZ}; "
                f"onward travel to {flight.destination} is arranged."
            )
            groups.append(_group(flight, "diverted", booked, text))
        elif isinstance(action, RebookPassengers):
            groups.extend(_rebooked(flight, action, flights, flight.flight_id in cancelled))
    return groups
