"""Aircraft-side feasibility checks (flights, rotations, maintenance, airport capacity) and the Violation type."""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from typing import Literal

from pydantic import BaseModel

from .model import MINUTES_PER_DAY, Aircraft, FlightView, Instance, Maintenance, SolutionView

ViolationKind = Literal[
    "missing_flight",
    "duplicate_flight",
    "flight_changed",
    "departs_early",
    "new_flight_invalid",
    "new_flight_linked",
    "new_flight_cancelled",
    "new_flight_forbidden",
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
    "crew_duty",
    "crew_position",
    "crew_connection",
]


class Violation(BaseModel):
    """One breach; messages follow the official solution checker's wording (SolutionValidationChecker spec)."""

    kind: ViolationKind
    message: str


def violation(kind: ViolationKind, message: str) -> Violation:
    return Violation(kind=kind, message=message)


def date_text(instance: Instance, day: int) -> str:
    return instance.date_of(day).isoformat()


def planned_departure(instance: Instance, number: int, day: int) -> int:
    return day * MINUTES_PER_DAY + instance.flights[number].departure


def imposed_departure(instance: Instance, number: int, day: int) -> int:
    """When a flight the plan cannot change leaves: as planned, plus the disruption's delay if any."""
    return planned_departure(instance, number, day) + instance.imposed_delays.get((number, day), 0)


def fixed_flight(instance: Instance, number: int, day: int, aircraft: str) -> bool:
    """A planned flight the plan may not touch: it leaves before the window (history), or a ground link flies
    it (model.GROUND_LINK_MODEL; the official checker reports "Fixed flight N cancelled" for those)."""
    return planned_departure(instance, number, day) < instance.config.window_start or (
        instance.aircraft[aircraft].ground_link
    )


def check_flights(instance: Instance, solution: SolutionView) -> Iterator[Violation]:
    """Flight-level rules: planned flights kept as scheduled, fixed and disrupted flights, new flights."""
    planned = {(ref.number, ref.day): aircraft for ref, aircraft in instance.rotations}
    end = instance.config.window_end
    seen = Counter((f.number, f.day) for f in solution.flights)
    for key, count in seen.items():
        if count > 1:
            yield violation(
                "duplicate_flight", f"Flight {key[0]} operated more than once on {date_text(instance, key[1])}"
            )
    for key in planned.keys() - seen.keys():
        yield violation(
            "missing_flight", f"Planned flight {key[0]} on {date_text(instance, key[1])} missing from the solution"
        )
    for f in solution.flights:
        key, when = (f.number, f.day), date_text(instance, f.day)
        if key not in planned:
            yield from _check_new_flight(instance, f, when)
            continue
        template = instance.flights[f.number]
        if (f.origin, f.destination) != (template.origin, template.destination):
            yield violation("flight_changed", f"Origin/destination changed on flight {f.number} on {when}")
        if f.arrival - f.departure != template.duration:
            yield violation("flight_changed", f"Duration changed on flight {f.number} on {when}")
        if f.previous != template.previous:
            yield violation("flight_changed", f"Flight {f.number} linked flight changed on {when}")
        scheduled = planned_departure(instance, *key)
        if f.departure < scheduled:
            yield violation("departs_early", f"Flight {f.number} departing before planned departure time on {when}")
        elif f.aircraft is not None and f.departure < scheduled + instance.held_until.get(key, 0):
            yield violation("departs_early", f"Flight {f.number} departing before its hold ends on {when}")
        if key in instance.imposed_cancellations:
            if f.aircraft is not None:
                yield violation("imposed_cancellation_ignored", f"Cancelled flight {f.number} not respected on {when}")
        elif key in instance.imposed_delays:
            yield from _check_imposed(f, planned[key], scheduled + instance.imposed_delays[key], "disrupted", when)
        elif fixed_flight(instance, f.number, f.day, planned[key]):
            yield from _check_imposed(f, planned[key], scheduled, "fixed", when)
        elif f.aircraft is not None and f.arrival > end:
            yield violation(
                "after_recovery_end", f"Arrival flight {f.number} on {when} after the end of recovery period"
            )


def _check_new_flight(instance: Instance, f: FlightView, when: str) -> Iterator[Violation]:
    if not instance.config.new_flights and f.aircraft is not None:  # CostConfig.new_flights: the day writes none
        yield violation("new_flight_forbidden", f"Newly created flight {f.number} on {when}: this plan may fly none")
    if f.aircraft is None:
        yield violation("new_flight_cancelled", f"Cancellation of newly created flight {f.number} on {when}")
        return
    route = instance.routes.get((f.origin, f.destination))
    if f.number in instance.flights or route is None or f.arrival - f.departure != route.duration:
        yield violation("new_flight_invalid", f"Duration problem on newly created flight {f.number} on {when}")
    if f.previous != 0:
        yield violation(
            "new_flight_linked", f"Newly created flight {f.number} on {when} possesses a non null linked flight"
        )
    if f.arrival > instance.config.window_end or f.departure < instance.config.window_start:
        yield violation("after_recovery_end", f"Arrival flight {f.number} on {when} after the end of recovery period")


def _check_imposed(f: FlightView, aircraft: str, departure: int, what: str, when: str) -> Iterator[Violation]:
    kind: ViolationKind = "disrupted_flight_changed" if what == "disrupted" else "fixed_flight_changed"
    if f.aircraft is None:
        yield violation(kind, f"{what.capitalize()} flight {f.number} cancelled on {when}")
        return
    if f.departure != departure:
        yield violation(kind, f"Departure/arrival times changed on {what} flight {f.number} on {when}")
    if f.aircraft != aircraft:
        yield violation(kind, f"Operating aircraft changed on {what} flight {f.number} on {when}")


def rotations_of(solution: SolutionView) -> dict[str, list[FlightView]]:
    rotations: dict[str, list[FlightView]] = defaultdict(list)
    for f in solution.flights:
        if f.aircraft is not None:
            rotations[f.aircraft].append(f)
    for flights in rotations.values():
        flights.sort(key=lambda f: f.departure)
    return rotations


def check_rotations(instance: Instance, solution: SolutionView) -> Iterator[Violation]:
    """Aircraft rules: position, continuity, ground times, range, family, unavailability, maintenance."""
    planned = {(ref.number, ref.day): aircraft for ref, aircraft in instance.rotations}
    rotations = rotations_of(solution)
    for idle in instance.aircraft.values():  # a tail that flies nothing still owes its maintenance slot
        if idle.id not in rotations and idle.maintenance:
            yield from _check_maintenance(idle, idle.maintenance, [])
    for aircraft_id, flights in rotations.items():
        aircraft = instance.aircraft.get(aircraft_id)
        if aircraft is None:
            yield violation("unknown_aircraft", f"Aircraft {aircraft_id} doesnt exist in original fleet")
            continue
        if flights[0].origin != aircraft.initial_airport:
            yield violation("initial_position", f"Wrong initial position for aircraft {aircraft_id}")
        for before, after in itertools.pairwise(flights):
            when = date_text(instance, after.day)
            if before.destination != after.origin or after.departure < before.arrival:
                yield violation(
                    "rotation_continuity",
                    f"Rotation continuity problem on aircraft {aircraft_id} "
                    f"(flights {before.number} and {after.number})",
                )
            elif after.previous == before.number and after.previous != 0:
                if after.departure - before.arrival < aircraft.transit:
                    yield violation(
                        "transit",
                        f"Transit time violated on flight {after.number} on {when} operated by aircraft {aircraft_id}",
                    )
            elif after.departure - before.arrival < aircraft.turn_round:
                yield violation(
                    "turn_round",
                    f"Turn-round time violated on flight {after.number} on {when} operated by aircraft {aircraft_id}",
                )
        for f in flights:
            when = date_text(instance, f.day)
            if f.arrival - f.departure > aircraft.range:
                yield violation(
                    "range", f"Range violated on flight {f.number} on {when} operated by aircraft {aircraft_id}"
                )
            original = planned.get((f.number, f.day))
            if original and original != aircraft_id and instance.aircraft[original].family != aircraft.family:
                yield violation(
                    "swap_family",
                    f"Swap incompatibility on flight {f.number} on {when} (families of original "
                    f"aircraft {original} and solution aircraft {aircraft_id} differ)",
                )
        for block in instance.unavailabilities:
            if block.aircraft == aircraft_id and any(
                f.departure < block.end and f.arrival > block.start for f in flights
            ):
                yield violation("unavailability", f"Breakdown unavailability of aircraft {aircraft_id} is violated")
        if aircraft.maintenance:
            yield from _check_maintenance(aircraft, aircraft.maintenance, flights)


def _check_maintenance(aircraft: Aircraft, slot: Maintenance, flights: Sequence[FlightView]) -> Iterator[Violation]:
    if any(f.departure < slot.end and f.arrival > slot.start for f in flights):
        yield violation(
            "maintenance_position",
            f"Aircraft {aircraft.id} leaves before end of maintenance or arrives after its start",
        )
    before = [f for f in flights if f.arrival <= slot.start]
    where = before[-1].destination if before else aircraft.initial_airport
    if where != slot.airport:
        yield violation("maintenance_position", f"Maintenance position not respected for aircraft {aircraft.id}")
    if sum(f.arrival - f.departure for f in before) > slot.flying_limit:
        yield violation(
            "maintenance_flying_limit", f"Max flying time before maintenance violated for aircraft {aircraft.id}"
        )


class CapacityTable:
    """Movements allowed per airport, direction and clock hour of the recovery window: the reduced figure of
    alt_airports.csv inside its window, else the daily figure of airports.csv. Both bind as given (the official
    solution checker exempts no hour); ground links take no slot (`movements_per_hour`), and without them
    every instance's planned schedule fits the daily figures."""

    def __init__(self, instance: Instance):
        self.instance = instance
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
                return (window.departures, window.arrivals)[pick]
        return 10**6  # an airport without a capacity line is not limited

    def in_window(self, moment: int) -> bool:
        return self.instance.config.window_start <= moment < self.instance.config.window_end


def movements_per_hour(instance: Instance, solution: SolutionView) -> Counter:
    """(airport, 'D'|'A', hour start) -> operated movements, for hours inside the recovery window; a ground
    link's flights take no slot."""
    start, end = instance.config.window_start, instance.config.window_end
    counts: Counter = Counter()
    for f in solution.flights:
        aircraft = instance.aircraft.get(f.aircraft) if f.aircraft else None
        if f.aircraft is None or (aircraft is not None and aircraft.ground_link):
            continue
        for airport, kind, moment in ((f.origin, "D", f.departure), (f.destination, "A", f.arrival)):
            if start <= moment < end:
                counts[(airport, kind, moment - moment % 60)] += 1
    return counts


def check_airport_capacity(instance: Instance, solution: SolutionView) -> Iterator[Violation]:
    table = CapacityTable(instance)
    for (airport, kind, hour), count in sorted(movements_per_hour(instance, solution).items()):
        if count > table.allowed(airport, kind, hour):
            what = "Departure" if kind == "D" else "Arrival"
            yield violation(
                "departure_capacity" if kind == "D" else "arrival_capacity",
                f"{what} capacity violated at airport {airport} on {date_text(instance, hour // MINUTES_PER_DAY)} "
                f"(time window {hour % MINUTES_PER_DAY // 60}, {count} movements)",
            )
