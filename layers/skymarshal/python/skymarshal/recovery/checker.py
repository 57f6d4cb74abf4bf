"""Feasibility checker: every constraint of the ROADEF 2009 problem, one typed Violation per breach.

Messages follow the official solution checker's wording (SolutionValidationChecker spec) so a report
can be read against it. Each check is a generator over one concern; `check` chains them. `Rules` (model.py)
names the readings the texts leave open; the strict one is the default.
"""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from collections.abc import Iterator
from typing import Literal

from pydantic import BaseModel

from .cost import all_trip_facts
from .model import MINUTES_PER_DAY, STRICT, Instance, Rules, Solution, SolutionFlight

MIN_CONNECTION = 30  # minutes; the shortest connection in every instance's planned itineraries
MAX_OUTBOUND_DELAY = {"D": 18 * 60, "C": 18 * 60, "I": 36 * 60}

ViolationKind = Literal[
    "missing_flight",
    "duplicate_flight",
    "flight_changed",
    "departs_early",
    "new_flight_invalid",
    "new_flight_cancelled",
    "fixed_flight_changed",
    "disrupted_flight_changed",
    "imposed_cancellation_ignored",
    "after_recovery_end",
    "unknown_aircraft",
    "initial_position",
    "rotation_continuity",
    "turn_round",
    "transit",
    "range",
    "swap_family",
    "unavailability",
    "maintenance_position",
    "maintenance_flying_limit",
    "departure_capacity",
    "arrival_capacity",
    "cabin_capacity",
    "itinerary_unknown",
    "itinerary_changed",
    "passenger_count",
    "cancelled_flight_taken",
    "itinerary_continuity",
    "connection_time",
    "itinerary_origin",
    "departs_before_original",
    "max_delay",
    "final_destination",
    "fixed_itinerary_part",
    "unbooked_flight_cancelled",
]


class Violation(BaseModel):
    kind: ViolationKind
    message: str


def _v(kind: ViolationKind, message: str) -> Violation:
    return Violation(kind=kind, message=message)


def _when(instance: Instance, day: int) -> str:
    return instance.date_of(day).isoformat()


def check(instance: Instance, solution: Solution, rules: Rules = STRICT) -> list[Violation]:
    """All violations of the solution under the rules' readings; empty means feasible."""
    by_key = {(f.number, f.day): f for f in solution.flights}
    return [
        *check_flights(instance, solution),
        *check_rotations(instance, solution),
        *check_airport_capacity(instance, solution),
        *check_cabin_capacity(instance, solution, by_key),
        *check_itineraries(instance, solution, by_key, rules),
    ]


def planned_departure(instance: Instance, number: int, day: int) -> int:
    return day * MINUTES_PER_DAY + instance.flights[number].departure


def imposed_departure(instance: Instance, number: int, day: int) -> int:
    """When a flight the plan cannot change leaves: as planned, plus the disruption's delay if any."""
    return planned_departure(instance, number, day) + instance.imposed_delays.get((number, day), 0)


def booked_flights(instance: Instance) -> frozenset[tuple[int, int]]:
    return frozenset((leg.number, leg.day) for it in instance.itineraries for leg in it.legs)


def unbooked_cancellations(instance: Instance, solution: Solution) -> list[Violation]:
    """Planned flights nobody booked that the plan cancels (the disruption's own cancellations excepted).

    Not part of `check`: reduced airport capacities leave some of them no slot at all (A05: CDG-ORY shuttles
    on the second day), so Rules.keep_unbooked is a ranking (fewest of these first), and this is its measure.
    """
    booked = booked_flights(instance)
    return [
        _v(
            "unbooked_flight_cancelled",
            f"Flight {f.number} on {_when(instance, f.day)} cancelled although no itinerary books it",
        )
        for f in solution.flights
        if f.aircraft is None
        and (f.number, f.day) not in booked
        and (f.number, f.day) not in instance.imposed_cancellations
    ]


def check_flights(instance: Instance, solution: Solution) -> Iterator[Violation]:
    """Flight-level rules: planned flights kept as scheduled, fixed and disrupted flights, new flights."""
    planned = {(ref.number, ref.day): aircraft for ref, aircraft in instance.rotations}
    start, end = instance.config.window_start, instance.config.window_end
    seen = Counter((f.number, f.day) for f in solution.flights)
    for key, count in seen.items():
        if count > 1:
            yield _v("duplicate_flight", f"Flight {key[0]} operated more than once on {_when(instance, key[1])}")
    for key in planned.keys() - seen.keys():
        yield _v("missing_flight", f"Planned flight {key[0]} on {_when(instance, key[1])} missing from the solution")
    for f in solution.flights:
        key, when = (f.number, f.day), _when(instance, f.day)
        if key not in planned:
            yield from _check_new_flight(instance, f, when)
            continue
        template = instance.flights[f.number]
        if (f.origin, f.destination) != (template.origin, template.destination):
            yield _v("flight_changed", f"Origin/destination changed on flight {f.number} on {when}")
        if f.arrival - f.departure != template.duration:
            yield _v("flight_changed", f"Duration changed on flight {f.number} on {when}")
        if f.previous != template.previous:
            yield _v("flight_changed", f"Flight {f.number} linked flight changed on {when}")
        scheduled = planned_departure(instance, *key)
        if f.departure < scheduled:
            yield _v("departs_early", f"Flight {f.number} departing before planned departure time on {when}")
        if key in instance.imposed_cancellations:
            if f.aircraft is not None:
                yield _v("imposed_cancellation_ignored", f"Cancelled flight {f.number} not respected on {when}")
        elif key in instance.imposed_delays:
            yield from _check_imposed(f, planned[key], scheduled + instance.imposed_delays[key], "disrupted", when)
        elif scheduled < start:
            yield from _check_imposed(f, planned[key], scheduled, "fixed", when)
        elif f.aircraft is not None and f.arrival > end:
            yield _v("after_recovery_end", f"Arrival flight {f.number} on {when} after the end of recovery period")


def _check_new_flight(instance: Instance, f: SolutionFlight, when: str) -> Iterator[Violation]:
    if f.aircraft is None:
        yield _v("new_flight_cancelled", f"Cancellation of newly created flight {f.number} on {when}")
        return
    route = instance.routes.get((f.origin, f.destination))
    if f.number in instance.flights or f.previous != 0 or route is None or f.arrival - f.departure != route.duration:
        yield _v("new_flight_invalid", f"Duration problem on newly created flight {f.number} on {when}")
    if f.arrival > instance.config.window_end or f.departure < instance.config.window_start:
        yield _v("after_recovery_end", f"Arrival flight {f.number} on {when} after the end of recovery period")


def _check_imposed(f: SolutionFlight, aircraft: str, departure: int, what: str, when: str) -> Iterator[Violation]:
    kind = "disrupted_flight_changed" if what == "disrupted" else "fixed_flight_changed"
    if f.aircraft is None:
        yield _v(kind, f"{what.capitalize()} flight {f.number} cancelled on {when}")
        return
    if f.departure != departure:
        yield _v(kind, f"Departure/arrival time changed on {what} flight {f.number} on {when}")
    if f.aircraft != aircraft:
        yield _v(kind, f"Operating aircraft changed on {what} flight {f.number} on {when}")


def rotations_of(solution: Solution) -> dict[str, list[SolutionFlight]]:
    rotations: dict[str, list[SolutionFlight]] = defaultdict(list)
    for f in solution.flights:
        if f.aircraft is not None:
            rotations[f.aircraft].append(f)
    for flights in rotations.values():
        flights.sort(key=lambda f: f.departure)
    return rotations


def check_rotations(instance: Instance, solution: Solution) -> Iterator[Violation]:
    """Aircraft rules: position, continuity, ground times, range, family, unavailability, maintenance."""
    planned = {(ref.number, ref.day): aircraft for ref, aircraft in instance.rotations}
    for aircraft_id, flights in rotations_of(solution).items():
        aircraft = instance.aircraft.get(aircraft_id)
        if aircraft is None:
            yield _v("unknown_aircraft", f"Aircraft {aircraft_id} doesnt exist in original fleet")
            continue
        if flights[0].origin != aircraft.initial_airport:
            yield _v("initial_position", f"Wrong initial position for aircraft {aircraft_id}")
        for before, after in itertools.pairwise(flights):
            when = _when(instance, after.day)
            if before.destination != after.origin or after.departure < before.arrival:
                yield _v(
                    "rotation_continuity",
                    f"Rotation continuity problem on aircraft {aircraft_id} "
                    f"(flights {before.number} and {after.number})",
                )
            elif after.previous == before.number and after.previous != 0:
                if after.departure - before.arrival < aircraft.transit:
                    yield _v(
                        "transit",
                        f"Transit time violated on flight {after.number} on {when} operated by aircraft {aircraft_id}",
                    )
            elif after.departure - before.arrival < aircraft.turn_round:
                yield _v(
                    "turn_round",
                    f"Turn-round time violated on flight {after.number} on {when} operated by aircraft {aircraft_id}",
                )
        for f in flights:
            when = _when(instance, f.day)
            if f.arrival - f.departure > aircraft.range:
                yield _v("range", f"Range violated on flight {f.number} on {when} operated by aircraft {aircraft_id}")
            original = planned.get((f.number, f.day))
            if original and original != aircraft_id and instance.aircraft[original].family != aircraft.family:
                yield _v(
                    "swap_family",
                    f"Swap incompatibility on flight {f.number} on {when} (families of original "
                    f"aircraft {original} and solution aircraft {aircraft_id} differ)",
                )
        for block in instance.unavailabilities:
            if block.aircraft == aircraft_id and any(
                f.departure < block.end and f.arrival > block.start for f in flights
            ):
                yield _v("unavailability", f"Breakdown unavailability of aircraft {aircraft_id} is violated")
        if aircraft.maintenance:
            yield from _check_maintenance(instance, aircraft, flights)


def _check_maintenance(instance, aircraft, flights: list[SolutionFlight]) -> Iterator[Violation]:
    slot = aircraft.maintenance
    if any(f.departure < slot.end and f.arrival > slot.start for f in flights):
        yield _v(
            "maintenance_position",
            f"Aircraft {aircraft.id} leaves before end of maintenance or arrives after its start",
        )
    before = [f for f in flights if f.arrival <= slot.start]
    where = before[-1].destination if before else aircraft.initial_airport
    if where != slot.airport:
        yield _v("maintenance_position", f"Maintenance position not respected for aircraft {aircraft.id}")
    if sum(f.arrival - f.departure for f in before) > slot.flying_limit:
        yield _v("maintenance_flying_limit", f"Max flying time before maintenance violated for aircraft {aircraft.id}")


class CapacityTable:
    """Movements allowed per airport, direction and clock hour of the recovery window.

    Inside a reduced window of alt_airports.csv the reduced figure binds. Elsewhere the daily figure of
    airports.csv binds, except that an hour the original plan already fills beyond it keeps the plan's
    count: the planned schedules exceed the daily figures (B01 in 60 hours), so the daily figures cannot
    be hard limits on their own, and a plan that never adds movements to such an hour is safe under
    either reading.
    """

    def __init__(self, instance: Instance):
        self.instance = instance
        self.planned: Counter = Counter()
        for ref, _ in instance.rotations:
            if ref.day * MINUTES_PER_DAY + instance.flights[ref.number].departure >= 0:
                template = instance.flights[ref.number]
                departure = ref.day * MINUTES_PER_DAY + template.departure
                self.planned[(template.origin, "D", departure - departure % 60)] += 1
                arrival = departure + template.duration
                self.planned[(template.destination, "A", arrival - arrival % 60)] += 1
        self._cache: dict[tuple[str, str, int], int] = {}

    def allowed(self, airport: str, kind: str, hour: int) -> int:
        key = (airport, kind, hour)
        if key not in self._cache:
            self._cache[key] = self._allowed(airport, kind, hour)
        return self._cache[key]

    def _allowed(self, airport: str, kind: str, hour: int) -> int:
        pick = 0 if kind == "D" else 1
        for reduced in self.instance.reduced_capacities:
            if reduced.airport == airport and reduced.window.start <= hour < reduced.window.end:
                return (reduced.window.departures, reduced.window.arrivals)[pick]
        airport_data = self.instance.airports.get(airport)
        minute = hour % MINUTES_PER_DAY
        for window in airport_data.daily if airport_data else ():
            if window.start <= minute < window.end:
                return max((window.departures, window.arrivals)[pick], self.planned[(airport, kind, hour)])
        return 10**6  # an airport without a capacity line is not limited

    def in_window(self, moment: int) -> bool:
        return self.instance.config.window_start <= moment < self.instance.config.window_end


def movements_per_hour(instance: Instance, solution: Solution) -> Counter:
    """(airport, 'D'|'A', hour start) -> operated movements, for hours inside the recovery window."""
    start, end = instance.config.window_start, instance.config.window_end
    counts: Counter = Counter()
    for f in solution.flights:
        if f.aircraft is None:
            continue
        for airport, kind, moment in ((f.origin, "D", f.departure), (f.destination, "A", f.arrival)):
            if start <= moment < end:
                counts[(airport, kind, moment - moment % 60)] += 1
    return counts


def check_airport_capacity(instance: Instance, solution: Solution) -> Iterator[Violation]:
    table = CapacityTable(instance)
    for (airport, kind, hour), count in sorted(movements_per_hour(instance, solution).items()):
        if count > table.allowed(airport, kind, hour):
            what = "Departure" if kind == "D" else "Arrival"
            yield _v(
                "departure_capacity" if kind == "D" else "arrival_capacity",
                f"{what} capacity violated at airport {airport} on {_when(instance, hour // MINUTES_PER_DAY)} "
                f"(hour {hour % MINUTES_PER_DAY // 60:02d}:00, {count} movements)",
            )


def check_cabin_capacity(instance: Instance, solution: Solution, by_key) -> Iterator[Violation]:
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
            yield _v(
                "cabin_capacity",
                f"{names[cabin]} cabin capacity exceeded on flight {number} on "
                f"{_when(instance, day)} operated by aircraft {f.aircraft}",
            )


def check_itineraries(instance: Instance, solution: Solution, by_key, rules: Rules = STRICT) -> Iterator[Violation]:
    """Passenger rules per itinerary line, then passenger counts per itinerary."""
    original = {it.id: it for it in instance.itineraries}
    carried: Counter = Counter()
    for line in solution.itineraries:
        it = original.get(line.id)
        if it is None:
            yield _v("itinerary_unknown", f"Itinerary {line.id} is not in itineraries.csv")
            continue
        carried[line.id] += line.passengers
        if line.kind != it.kind or line.price != it.price:
            yield _v("itinerary_changed", f"Wrong type for itinerary {line.id}")
        if line.legs:
            yield from _check_itinerary_line(instance, it, line, by_key, rules)
    for it in instance.itineraries:
        if carried[it.id] != it.passengers:
            yield _v("passenger_count", f"Incorrect number of passengers reaccomodated on itinerary {it.id}")


def flown_history(instance: Instance, itinerary, rules: Rules = STRICT) -> list[tuple[int, int]]:
    """The booked legs already flown when the window opens: those leaving before it, up to the first one
    the disruption cancelled (from there on the trip is re-accommodated like any other). Under the strict
    reading it also ends before a connection the imposed delays broke: the passengers missed that leg and
    wait at the connection airport for the window to open."""
    start, history, arrival = instance.config.window_start, [], None
    for leg in itinerary.legs:
        key = (leg.number, leg.day)
        if planned_departure(instance, *key) >= start or key in instance.imposed_cancellations:
            break
        departure = imposed_departure(instance, *key)
        if rules.connections == "strict" and arrival is not None and departure - arrival < MIN_CONNECTION:
            break
        history.append(key)
        arrival = departure + instance.flights[leg.number].duration
    return history


def _check_itinerary_line(instance: Instance, it, line, by_key, rules: Rules) -> Iterator[Violation]:
    flights = [by_key.get((leg.number, leg.day)) for leg in line.legs]
    for leg, f in zip(line.legs, flights):
        if f is None or f.aircraft is None:
            yield _v("cancelled_flight_taken", f"Cancelled flight {leg.number} is taken on itinerary {it.id}")
            return
    start = instance.config.window_start
    # Lenient reading: a connection whose second leg left before the window is history, not checked.
    exempt_before = start if rules.connections == "lenient" else -(1 << 60)
    for a, b in itertools.pairwise(flights):
        if a.destination != b.origin:
            yield _v(
                "itinerary_continuity",
                f"Arrival of flight {a.number} and departure of flight {b.number} differ on itinerary {it.id}",
            )
        elif b.departure - a.arrival < MIN_CONNECTION and b.departure >= exempt_before:
            yield _v(
                "connection_time",
                f"Connection time not respected between flight {a.number} and flight {b.number} on itinerary {it.id}",
            )
    facts = all_trip_facts(instance)[it.id]
    first_leg = instance.flights[it.legs[0].number]
    if flights[0].origin != first_leg.origin:
        yield _v("itinerary_origin", f"Itinerary {it.id} origin in the solution doesnt match the origin in the input")
    if flights[0].departure < planned_departure(instance, it.legs[0].number, it.legs[0].day):
        yield _v("departs_before_original", f"Itinerary {it.id} departs before its original departure date")
    fixed = flown_history(instance, it, rules)
    if fixed and [(leg.number, leg.day) for leg in line.legs[: len(fixed)]] != fixed:
        yield _v("fixed_itinerary_part", f"Fixed part of itinerary {it.id} missing flight(s)")
    elif any(f.departure < start for f in flights[len(fixed) :]):
        yield _v(
            "fixed_itinerary_part",
            f"Itinerary {it.id} re-accommodated on a flight that left before the recovery period",
        )
    if flights[-1].destination != facts.destination:
        if it.kind == "A":
            yield _v("final_destination", f"Final destination problem on itinerary {it.id}")
    elif it.kind == "A" and flights[-1].arrival - facts.planned_arrival > MAX_OUTBOUND_DELAY[facts.haul]:
        yield _v("max_delay", f"Violation of max delay on itinerary {it.id}")
