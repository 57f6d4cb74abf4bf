"""The passengers a plan disrupts, grouped by what happens to them on each flight, with what each group is told."""

from __future__ import annotations

from collections.abc import Mapping

from ..arbitration.actions import DelayFlight, DivertFlight, RebookPassengers
from ..arbitration.models import Scenario
from ..models.operational import Flight
from .models import PassengerGroup


def _name(flight: Flight) -> str:
    return f"{flight.flight_number} {flight.origin}-{flight.destination} on {flight.scheduled_departure:%d %b}"


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
            groups.append(
                PassengerGroup(
                    flight_id=flight.flight_id,
                    flight_number=flight.flight_number,
                    change="delayed",
                    passengers=booked,
                    notification=f"{_name(flight)} now departs {action.new_departure:%H:%MZ} "
                    f"(was {flight.scheduled_departure:%H:%MZ}). We are sorry for the delay.",
                )
            )
        elif isinstance(action, DivertFlight) and booked:
            groups.append(
                PassengerGroup(
                    flight_id=flight.flight_id,
                    flight_number=flight.flight_number,
                    change="diverted",
                    passengers=booked,
                    notification=f"{_name(flight)} lands at {action.alternate} at {action.new_arrival:%H:%MZ}; "
                    f"onward travel to {flight.destination} is arranged.",
                )
            )
        elif isinstance(action, RebookPassengers):
            for onto, count in action.onto.items():
                target = flights.get(onto)
                if not count:
                    continue
                groups.append(
                    PassengerGroup(
                        flight_id=flight.flight_id,
                        flight_number=flight.flight_number,
                        change="rebooked",
                        passengers=count,
                        onto=target.flight_number if target else onto,
                        notification=f"{_name(flight)} is "
                        + ("cancelled" if flight.flight_id in cancelled else "changed")
                        + (
                            f": you are rebooked on {_name(target)}, departing {target.scheduled_departure:%H:%MZ}."
                            if target
                            else f": you are rebooked on {onto}."
                        ),
                    )
                )
            if action.interline:
                groups.append(
                    PassengerGroup(
                        flight_id=flight.flight_id,
                        flight_number=flight.flight_number,
                        change="interline",
                        passengers=action.interline,
                        onto="INTERLINE",
                        notification=f"{_name(flight)} is cancelled: we are booking you on another airline and "
                        "will send the new itinerary; hotel and meals are covered if you must wait overnight.",
                    )
                )
    return groups
