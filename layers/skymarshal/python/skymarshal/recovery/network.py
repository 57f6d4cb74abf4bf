"""The solver's indexed view of an instance: dated flights with their status and estimated worth.

The pydantic Instance is the boundary; the solver works on these slotted records and integer indices
because it re-plans aircraft and passengers thousands of times within its time limit.
"""

from __future__ import annotations

import heapq
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Literal

from .checker import MAX_OUTBOUND_DELAY, flown_history
from .cost import CANCELLATION_COMPENSATION, TripFacts, billed_hours, compensation_band, trip_facts
from .crew_checks import crew_slack
from .flight_checks import CapacityTable, fixed_flight
from .model import LENIENT, MINUTES_PER_DAY, STRICT, Aircraft, Cabin, Instance, Itinerary, Rules

FlightStatus = Literal["fixed", "disrupted", "cancelled", "free"]


@dataclass(slots=True)
class DatedFlight:
    idx: int
    number: int
    day: int
    origin: str
    destination: str
    planned_departure: int
    duration: int
    previous: int
    planned_aircraft: str
    family: str
    status: FlightStatus
    required_departure: int | None  # fixed and disrupted flights leave exactly then
    passengers: int = 0
    cancel_worth: float = 0.0  # estimated passenger cost if the flight is cancelled
    delay_rate: float = 0.0  # estimated passenger cost per minute of delay
    booked: bool = False  # some itinerary has a leg on it (Rules.keep_unbooked keeps the others flying)
    ground_link: bool = False  # flown by a TranspCom "aircraft": fixed, and takes no airport slot
    crew_slack: int | None = None  # the most minutes it may leave late with its crews legal (None: no crew given)
    not_before: int = 0  # a held flight's earliest departure (Instance.held_until), minutes from day 0


def required_departure(f: DatedFlight) -> int:
    """The departure of a fixed or disrupted flight (build_network sets it for both statuses)."""
    assert f.required_departure is not None, f"{f.status} flight {f.number} on day {f.day} has no required departure"
    return f.required_departure


@dataclass(slots=True)
class Trip:
    """An itinerary with the facts the passenger planner and cost estimates need."""

    itinerary: Itinerary
    facts: TripFacts
    flights: list[int]  # dated-flight indices of the booked legs
    fixed_legs: int  # booked legs flown before the window opens (checker.flown_history, under the rules)
    cancel_cost: float  # per passenger, weighted (beta * cancellation + alpha * compensation)
    delay_rate: float  # per passenger and minute, weighted
    booked: list[tuple[int, Cabin]] = field(default_factory=list)  # (flight idx, cabin) as booked


@dataclass
class Network:
    instance: Instance
    flights: list[DatedFlight]
    by_key: dict[tuple[int, int], int]
    trips: list[Trip]
    capacity: CapacityTable
    rules: Rules = STRICT
    fixed_prefix: dict[str, list[int]] = field(default_factory=dict)  # aircraft -> its fixed/disrupted flights
    planned_rotation: dict[str, list[int]] = field(default_factory=dict)
    target_airport: dict[str, str] = field(default_factory=dict)  # where the plan leaves each aircraft
    # The greedy passenger planner seats trips in this order: partly flown ones, then by cancellation cost.
    seating_order: list[int] = field(default_factory=list)

    @property
    def aircraft(self) -> dict[str, Aircraft]:
        return self.instance.aircraft


def build_network(instance: Instance, rules: Rules = STRICT) -> Network:
    start = instance.config.window_start
    flights: list[DatedFlight] = []
    by_key: dict[tuple[int, int], int] = {}
    slack = crew_slack(instance)
    for ref, aircraft_id in instance.rotations:
        template = instance.flights[ref.number]
        key = (ref.number, ref.day)
        planned = ref.day * MINUTES_PER_DAY + template.departure
        status: FlightStatus
        required: int | None
        if key in instance.imposed_cancellations:
            status, required = "cancelled", None
        elif key in instance.imposed_delays:
            status, required = "disrupted", planned + instance.imposed_delays[key]
        elif fixed_flight(instance, ref.number, ref.day, aircraft_id):
            status, required = "fixed", planned
        else:
            status, required = "free", None
        by_key[key] = len(flights)
        flights.append(
            DatedFlight(
                idx=len(flights),
                number=ref.number,
                day=ref.day,
                origin=template.origin,
                destination=template.destination,
                planned_departure=planned,
                duration=template.duration,
                previous=template.previous,
                planned_aircraft=aircraft_id,
                family=instance.aircraft[aircraft_id].family,
                status=status,
                required_departure=required,
                ground_link=instance.aircraft[aircraft_id].ground_link,
                crew_slack=slack.get(key),
                not_before=planned + instance.held_until.get(key, 0),
            )
        )
    net = Network(
        instance=instance,
        flights=flights,
        by_key=by_key,
        trips=_trips(instance, by_key, rules),
        capacity=CapacityTable(instance),
        rules=rules,
    )
    net.seating_order = sorted(
        range(len(net.trips)), key=lambda t: (-net.trips[t].fixed_legs, -net.trips[t].cancel_cost)
    )
    _estimate_worth(net)
    _estimate_stranded_worth(net)
    rotations: dict[str, list[int]] = defaultdict(list)
    for f in flights:
        rotations[f.planned_aircraft].append(f.idx)
    for aircraft_id, aircraft in instance.aircraft.items():
        rotation = sorted(rotations.get(aircraft_id, []), key=lambda i: flights[i].planned_departure)
        net.planned_rotation[aircraft_id] = rotation
        # Flights before the window are history, delayed or not: the aircraft starts after them (a ground link's
        # flights are all fixed: it plans nothing).
        net.fixed_prefix[aircraft_id] = sorted(
            (
                i
                for i in rotation
                if flights[i].status == "fixed"
                or (flights[i].status == "disrupted" and flights[i].planned_departure < start)
            ),
            key=lambda i: required_departure(flights[i]),
        )
        net.target_airport[aircraft_id] = flights[rotation[-1]].destination if rotation else aircraft.initial_airport
    return net


def _trips(instance: Instance, by_key, rules: Rules) -> list[Trip]:
    cfg = instance.config
    trips = []
    for it in instance.itineraries:
        facts = trip_facts(instance, it)
        key = facts.reference_cabin + facts.haul
        cancellation = (cfg.outbound_cancellation if it.kind == "A" else cfg.inbound_cancellation)[key]
        compensation = it.price + CANCELLATION_COMPENSATION[compensation_band(facts.planned_minutes)]
        legs = [by_key[(leg.number, leg.day)] for leg in it.legs]
        fixed = len(flown_history(instance, it, rules))
        trips.append(
            Trip(
                itinerary=it,
                facts=facts,
                flights=legs,
                fixed_legs=fixed,
                cancel_cost=cfg.beta * cancellation + cfg.alpha * compensation,
                delay_rate=cfg.beta * cfg.delay_per_minute[key],
                booked=[(idx, leg.cabin) for idx, leg in zip(legs, it.legs)],
            )
        )
    return trips


def _estimate_worth(net: Network) -> None:
    """Per flight: what cancelling it or delaying it would cost its booked passengers (an estimate the
    aircraft planner trades against; the exact cost is computed on the full solution)."""
    for trip in net.trips:
        n = trip.itinerary.passengers
        for idx in trip.flights:
            f = net.flights[idx]
            f.passengers += n
            f.booked = True
            f.cancel_worth += n * trip.cancel_cost
            f.delay_rate += n * trip.delay_rate


def _estimate_stranded_worth(net: Network) -> None:
    """Passengers who must be re-routed whatever the plan: those whose connection the imposed delays broke
    before the window (strict reading: they wait at the connection airport) and those booked on a flight the
    disruption cancels. No booking names the flights that can take them on, so without this the planner sees
    those flights as emptier than they are: it cancels them (tiny: 105 AAA-CCC, then the trip is cancelled)
    or gives them a smaller tail (A07: the 155 passengers of the cancelled TLS-CDG 4650 wait for the next
    flights to Paris). Their worth moves from their booked legs to the planned schedule's earliest-arrival
    route from where they stand, the way booked legs carry their passengers'."""
    start = net.instance.config.window_start
    out: dict[str, list[DatedFlight]] = defaultdict(list)
    for f in net.flights:
        if f.status in ("free", "disrupted") and (f.required_departure or f.planned_departure) >= start:
            out[f.origin].append(f)
    for trip in net.trips:
        rest = trip.flights[trip.fixed_legs :]
        displaced = any(net.flights[i].status == "cancelled" for i in rest)
        broken = len(flown_history(net.instance, trip.itinerary, LENIENT)) > trip.fixed_legs
        if not (broken or displaced):
            continue  # not stranded (lenient rules, or an intact history) nor displaced
        if any(net.flights[i].status == "cancelled" for i in trip.flights[: trip.fixed_legs]):
            continue  # history cancelled under them: nothing carries them
        if trip.fixed_legs:
            last = net.flights[trip.flights[trip.fixed_legs - 1]]
            origin, ready = last.destination, required_departure(last) + last.duration + net.instance.min_connection
        else:
            first = net.flights[trip.flights[0]]
            origin, ready = first.origin, first.planned_departure
        ready = max(start, ready)
        deadline = net.instance.config.window_end
        if trip.itinerary.kind == "A":
            deadline = min(deadline, trip.facts.planned_arrival + MAX_OUTBOUND_DELAY[trip.facts.haul])
        n = trip.itinerary.passengers
        route = _earliest_route(out, origin, ready, trip.facts.destination, deadline, net.instance.min_connection)
        for sign, flights in ((-1, [net.flights[i] for i in rest] if displaced else []), (1, route)):
            for f in flights:
                f.passengers += sign * n
                f.cancel_worth += sign * n * trip.cancel_cost
                f.delay_rate += sign * n * trip.delay_rate


def _earliest_route(
    out: dict[str, list[DatedFlight]], origin: str, ready: int, destination: str, deadline: int, min_connection: int
) -> list[DatedFlight]:
    best, heap = {origin: ready}, [(ready, origin)]
    came_by: dict[str, DatedFlight] = {}
    while heap:
        time, airport = heapq.heappop(heap)
        if airport == destination:
            route = []
            while airport != origin:
                f = came_by[airport]
                route.append(f)
                airport = f.origin
            return route[::-1]
        if time > best[airport]:
            continue
        leave = time if airport == origin else time + min_connection
        for f in out.get(airport, ()):
            departure = f.required_departure or f.planned_departure
            arrival = departure + f.duration
            if departure >= leave and arrival <= deadline and arrival < best.get(f.destination, 1 << 60):
                best[f.destination], came_by[f.destination] = arrival, f
                heapq.heappush(heap, (arrival, f.destination))
    return []


def operating_cost(net: Network, flight: DatedFlight, aircraft_id: str) -> float:
    return net.instance.config.alpha * billed_hours(flight.duration) * net.aircraft[aircraft_id].cost_per_hour
