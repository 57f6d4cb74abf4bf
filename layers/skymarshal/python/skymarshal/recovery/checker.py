"""Feasibility checker: `check` chains the aircraft-side checks (flight_checks.py) and the passenger ones here."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator, Mapping

from .cost import all_trip_facts
from .crew_checks import check_crews
from .flight_checks import (
    Violation,
    check_airport_capacity,
    check_flights,
    check_rotations,
    date_text,
    imposed_departure,
    planned_departure,
    violation,
)
from .model import ROADEF_MIN_CONNECTION, STRICT, FlightView, Instance, Itinerary, ItineraryView, Rules, SolutionView

MIN_CONNECTION = ROADEF_MIN_CONNECTION  # the instances' own (Instance.min_connection reads it per instance)
MAX_OUTBOUND_DELAY = {"D": 18 * 60, "C": 18 * 60, "I": 36 * 60}

FlightsByKey = Mapping[tuple[int, int], FlightView]  # (number, day) -> the solution's line


def check(instance: Instance, solution: SolutionView, rules: Rules = STRICT) -> list[Violation]:
    """All violations of the solution under the rules' readings; empty means feasible."""
    by_key = {(f.number, f.day): f for f in solution.flights}
    return [
        *check_flights(instance, solution),
        *check_rotations(instance, solution),
        *check_airport_capacity(instance, solution),
        *check_cabin_capacity(instance, solution, by_key),
        *check_itineraries(instance, solution, by_key, rules),
        *check_crews(instance, solution),
    ]


def booked_flights(instance: Instance) -> frozenset[tuple[int, int]]:
    return frozenset((leg.number, leg.day) for it in instance.itineraries for leg in it.legs)


def unbooked_cancellations(instance: Instance, solution: SolutionView) -> list[Violation]:
    """Planned flights nobody booked that the plan cancels (the disruption's own cancellations excepted).

    Not part of `check`: reduced airport capacities leave some of them no slot at all (A05: CDG-ORY shuttles
    on the second day), so Rules.keep_unbooked is a ranking (fewest of these first), and this is its measure.
    """
    booked = booked_flights(instance)
    return [
        violation(
            "unbooked_flight_cancelled",
            f"Flight {f.number} on {date_text(instance, f.day)} cancelled although no itinerary books it",
        )
        for f in solution.flights
        if f.aircraft is None
        and (f.number, f.day) not in booked
        and (f.number, f.day) not in instance.imposed_cancellations
    ]


def check_cabin_capacity(instance: Instance, solution: SolutionView, by_key: FlightsByKey) -> Iterator[Violation]:
    load: Counter = Counter()
    for line in solution.itineraries:
        for leg in line.legs:
            load[(leg.number, leg.day, leg.cabin)] += line.passengers
    names = {"F": "First", "B": "Business", "E": "Eco"}
    for (number, day, cabin), passengers in sorted(load.items()):
        f = by_key.get((number, day))
        if f is None or f.aircraft is None or f.aircraft not in instance.aircraft:
            continue  # reported as a cancelled or unknown flight taken
        if passengers > instance.aircraft[f.aircraft].seats[cabin]:
            yield violation(
                "cabin_capacity",
                f"{names[cabin]} cabin capacity exceeded on flight {number} on "
                f"{date_text(instance, day)} operated by aircraft {f.aircraft}",
            )


def check_itineraries(
    instance: Instance, solution: SolutionView, by_key: FlightsByKey, rules: Rules = STRICT
) -> Iterator[Violation]:
    """Passenger rules per itinerary line, then passenger counts per itinerary."""
    original = {it.id: it for it in instance.itineraries}
    carried: Counter = Counter()
    for line in solution.itineraries:
        it = original.get(line.id)
        if it is None:
            yield violation("itinerary_unknown", f"Itinerary {line.id} is not in itineraries.csv")
            continue
        carried[line.id] += line.passengers
        if line.kind != it.kind or line.price != it.price:
            yield violation("itinerary_changed", f"Wrong type for itinerary {line.id}")
        if line.legs:
            yield from _check_itinerary_line(instance, it, line, by_key, rules)
        elif fixed := flown_history(instance, it, rules):
            yield _fixed_part_missing(it, fixed)
    for it in instance.itineraries:
        if carried[it.id] != it.passengers:
            yield violation("passenger_count", f"Incorrect number of passengers reaccomodated on itinerary {it.id}")


def flown_history(instance: Instance, itinerary: Itinerary, rules: Rules = STRICT) -> list[tuple[int, int]]:
    """The booked legs already flown when the window opens: those leaving before it (with their imposed delay:
    the official checker asks a trip whose first leg was delayed into the window to reach its destination),
    up to the first one the disruption cancelled (from there on the trip is re-accommodated like any other). Under the strict
    reading it also ends before a connection the imposed delays broke: the passengers missed that leg and
    wait at the connection airport for the window to open."""
    start = instance.config.window_start
    history: list[tuple[int, int]] = []
    arrival: int | None = None
    for leg in itinerary.legs:
        key = (leg.number, leg.day)
        departure = imposed_departure(instance, *key)  # a leg delayed into the window is not history
        if departure >= start or key in instance.imposed_cancellations:
            break
        if rules.connections == "strict" and arrival is not None and departure - arrival < instance.min_connection:
            break
        history.append(key)
        arrival = departure + instance.flights[leg.number].duration
    return history


def _fixed_part_missing(it: Itinerary, fixed: list[tuple[int, int]]) -> Violation:
    """Passengers who flew part of their trip before the window cannot be cancelled: every line of the
    itinerary starts with those legs (official solution checker, checkItinerary)."""
    numbers = " ".join(str(number) for number, _ in fixed)
    return violation("fixed_itinerary_part", f"Fixed part of itinerary {it.id} missing flight(s) {numbers}")


def _check_itinerary_line(
    instance: Instance, it: Itinerary, line: ItineraryView, by_key: FlightsByKey, rules: Rules
) -> Iterator[Violation]:
    flights: list[FlightView] = []
    for leg in line.legs:
        f = by_key.get((leg.number, leg.day))
        if f is None or f.aircraft is None:
            yield violation("cancelled_flight_taken", f"Cancelled flight {leg.number} is taken on itinerary {it.id}")
            return
        flights.append(f)
    start = instance.config.window_start
    # Lenient reading: a connection whose second leg left before the window is history, not checked.
    exempt_before = start if rules.connections == "lenient" else -(1 << 60)
    for a, b in itertools.pairwise(flights):
        if a.destination != b.origin:
            yield violation(
                "itinerary_continuity",
                f"Arrival of flight {a.number} and departure of flight {b.number} differ on itinerary {it.id}",
            )
        elif b.departure - a.arrival < instance.min_connection and b.departure >= exempt_before:
            yield violation(
                "connection_time",
                f"Connection time not respected between flight {a.number} and flight {b.number} on itinerary {it.id}",
            )
    facts = all_trip_facts(instance)[it.id]
    first_leg = instance.flights[it.legs[0].number]
    if flights[0].origin != first_leg.origin:
        yield violation(
            "itinerary_origin", f"Itinerary {it.id} origin in the solution doesnt match the origin in the input"
        )
    if flights[0].departure < planned_departure(instance, it.legs[0].number, it.legs[0].day):
        yield violation("departs_before_original", f"Itinerary {it.id} departs before its original departure date")
    fixed = flown_history(instance, it, rules)
    if fixed and [(leg.number, leg.day) for leg in line.legs[: len(fixed)]] != fixed:
        yield _fixed_part_missing(it, fixed)
    elif any(f.departure < start for f in flights[len(fixed) :]):
        yield violation(
            "fixed_itinerary_part",
            f"Itinerary {it.id} re-accommodated on a flight that left before the recovery period",
        )
    if flights[-1].destination != facts.destination:
        # Every line ends at the destination, outbound or inbound, except where part of the trip was flown
        # before the window: those passengers may stop where the recovery leaves them (costed as a cancelled
        # trip); the official checker then reports no destination.
        if not fixed:
            yield violation("final_destination", f"Final destination problem on itinerary {it.id}")
    elif it.kind == "A" and flights[-1].arrival - facts.planned_arrival > MAX_OUTBOUND_DELAY[facts.haul]:
        yield violation("max_delay", f"Violation of max delay on itinerary {it.id}")
