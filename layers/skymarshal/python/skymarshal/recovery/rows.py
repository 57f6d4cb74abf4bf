"""A solution as plain rows (the search costs and checks thousands of plans; only incumbents become pydantic).

`to_rows` writes a plan and its passenger lines in the official files' order: each aircraft's flights by
departure (new flights numbered past the instance's last), then the cancelled ones; itineraries by trip.
"""

from __future__ import annotations

from dataclasses import dataclass

from .aircraft_plan import Plan
from .model import MINUTES_PER_DAY, Cabin, ItineraryKind, Leg, Solution, SolutionFlight, SolutionItinerary
from .passengers import PassengerLine


@dataclass(slots=True, frozen=True)
class LegRow:
    number: int
    day: int
    cabin: Cabin


@dataclass(slots=True, frozen=True)
class FlightRow:
    number: int
    origin: str
    destination: str
    departure: int
    arrival: int
    previous: int
    day: int
    aircraft: str | None


@dataclass(slots=True, frozen=True)
class ItineraryRow:
    id: int
    kind: ItineraryKind
    price: float
    passengers: int
    legs: tuple[LegRow, ...]


@dataclass(slots=True, frozen=True)
class SolutionRows:
    """A solution as plain rows with the pydantic Solution's field names: the evaluator and the checker
    read either (model.SolutionView); the search costs thousands of these, and only incumbents become
    pydantic models."""

    flights: tuple[FlightRow, ...]
    itineraries: tuple[ItineraryRow, ...]

    def to_model(self) -> Solution:
        return Solution(
            flights=tuple(
                SolutionFlight.model_construct(**{k: getattr(f, k) for k in f.__slots__}) for f in self.flights
            ),
            itineraries=tuple(
                SolutionItinerary.model_construct(
                    id=i.id,
                    kind=i.kind,
                    price=i.price,
                    passengers=i.passengers,
                    legs=tuple(Leg.model_construct(number=leg.number, day=leg.day, cabin=leg.cabin) for leg in i.legs),
                )
                for i in self.itineraries
            ),
        )


def to_rows(plan: Plan, lines: list[PassengerLine]) -> SolutionRows:
    net = plan.net
    flights = []
    next_number = max(net.instance.flights) + 1
    for aircraft_id in net.aircraft:
        rows = [_flight_row(plan, idx, aircraft_id) for idx in plan.rotation[aircraft_id]]
        for ferry in plan.ferries[aircraft_id]:  # new flights: numbers nobody uses
            rows.append(
                FlightRow(
                    next_number,
                    ferry.origin,
                    ferry.destination,
                    ferry.departure,
                    ferry.departure + ferry.duration,
                    0,
                    ferry.departure // MINUTES_PER_DAY,
                    aircraft_id,
                )
            )
            next_number += 1
        flights.extend(sorted(rows, key=lambda r: r.departure))
    flights.extend(_flight_row(plan, f.idx, None) for f in net.flights if plan.aircraft_of[f.idx] is None)
    itineraries = []
    for line in sorted(lines, key=lambda ln: (ln.trip, not ln.legs)):
        it = net.trips[line.trip].itinerary
        legs = tuple(LegRow(net.flights[i].number, net.flights[i].day, c) for i, c in line.legs)
        itineraries.append(ItineraryRow(it.id, it.kind, it.price, line.passengers, legs))
    return SolutionRows(tuple(flights), tuple(itineraries))


def _flight_row(plan: Plan, idx: int, aircraft_id: str | None) -> FlightRow:
    f = plan.net.flights[idx]
    departure = plan.departure[idx] if aircraft_id else f.planned_departure
    return FlightRow(
        f.number, f.origin, f.destination, departure, departure + f.duration, f.previous, f.day, aircraft_id
    )
