"""What the lower bound (lower_bound.py) knows of an instance before it builds its LP: each planned flight's
earliest departure, most seats and cheapest hour; each trip's options' least delays; the route network's
shortest times. Every figure is an optimistic one (earlier, bigger, cheaper than any feasible plan can do),
so the LP built from them only ever under-prices a plan: the argument is in lower_bound.py's docstring.
"""

from __future__ import annotations

import heapq
from collections import defaultdict
from dataclasses import dataclass

from .checker import MAX_OUTBOUND_DELAY, flown_history
from .cost import (
    CANCELLATION_COMPENSATION,
    all_trip_facts,
    billed_hours,
    compensation_band,
    delay_compensation,
)
from .flight_checks import CapacityTable, fixed_flight, imposed_departure, planned_departure
from .model import Aircraft, Instance, Itinerary, Rules

NEVER = 1 << 40  # a departure no plan can make


@dataclass(frozen=True, slots=True)
class FlightFacts:
    """One planned dated flight as the bound sees it."""

    key: tuple[int, int]
    origin: str
    destination: str
    duration: int
    hours: int  # billed hours (cost.billed_hours): what its operating cost is multiplied by
    family: str
    planned_hourly: float  # the planned aircraft's cost per hour (what cancelling it credits)
    cheapest_hourly: float  # the cheapest tail of its family able to fly it (the most a swap can save)
    seats: int  # the most seats of any tail of its family able to fly it (or its own tail's when fixed)
    fixed: bool  # must fly, with its planned tail, at one time: history, a ground link, an imposed delay
    cancelled: bool  # the disruption cancelled it: never flies
    earliest: int  # its earliest departure (exact for a fixed flight); NEVER when it cannot fly
    latest: int  # its latest departure (arrive by the window's end, within its crews' slack; exact when fixed)


def usable(aircraft: Aircraft, minutes: int) -> bool:
    return aircraft.range >= minutes


def seats_of(aircraft: Aircraft) -> int:
    """Seats over all cabins (a passenger may sit in any cabin); the ground links' -1 seat nobody."""
    return sum(max(0, n) for n in aircraft.seats.values())


def earliest_departure(instance: Instance, table: CapacityTable, number: int, day: int) -> int:
    """The first minute a flown non-fixed flight may leave: planned time, its hold (Instance.held_until), then
    past any hour whose capacity is 0 at its origin (departures) or destination (arrivals): a plan moving one
    flight then breaks check_airport_capacity. Capacities above 0 are not used (other flights may yield)."""
    f = instance.flights[number]
    t = planned_departure(instance, number, day) + instance.held_until.get((number, day), 0)
    end = instance.config.window_end
    while t + f.duration <= end:
        arrival = t + f.duration
        if table.in_window(t) and table.allowed(f.origin, "D", t - t % 60) == 0:
            t += 60 - t % 60
        elif table.in_window(arrival) and table.allowed(f.destination, "A", arrival - arrival % 60) == 0:
            t += 60 - arrival % 60
        else:
            return t
    return NEVER


def flight_facts(instance: Instance) -> dict[tuple[int, int], FlightFacts]:
    table = CapacityTable(instance)
    by_family: dict[str, list[Aircraft]] = defaultdict(list)
    for a in instance.aircraft.values():
        by_family[a.family].append(a)
    end = instance.config.window_end
    crews_allow: dict[tuple[int, int], int] = {}  # check_crews: a flown leg leaves within each pairing's slack
    for pairing in instance.crews:
        for leg, slack in zip(pairing.legs, pairing.slack, strict=True):
            key = (leg.number, leg.day)
            crews_allow[key] = min(crews_allow.get(key, NEVER), planned_departure(instance, *key) + slack)
    facts = {}
    for ref, tail in instance.rotations:
        key, f, planned = (ref.number, ref.day), instance.flights[ref.number], instance.aircraft[tail]
        cancelled = key in instance.imposed_cancellations
        # flight_checks: an imposed delay, history and ground links fly exactly then with their own tail
        fixed = not cancelled and (key in instance.imposed_delays or fixed_flight(instance, *key, tail))
        able = [a for a in by_family[planned.family] if usable(a, f.duration)] or [planned]
        if fixed:
            earliest = latest = imposed_departure(instance, *key)
        elif cancelled:
            earliest, latest = NEVER, -NEVER
        else:
            earliest = earliest_departure(instance, table, *key)
            latest = min(end - f.duration, crews_allow.get(key, NEVER))
        facts[key] = FlightFacts(
            key=key,
            origin=f.origin,
            destination=f.destination,
            duration=f.duration,
            hours=billed_hours(f.duration),
            family=planned.family,
            planned_hourly=planned.cost_per_hour,
            cheapest_hourly=min(a.cost_per_hour for a in able) if not fixed else planned.cost_per_hour,
            seats=seats_of(planned) if fixed else max(seats_of(a) for a in able),
            fixed=fixed,
            cancelled=cancelled,
            earliest=earliest,
            latest=latest,
        )
    return facts


def ready_times(instance: Instance) -> dict[str, dict[str, int]]:
    """From being ready to leave one airport to being ready to leave another (legs and a minimum connection
    after each), over every route of dist.csv: a new flight may take any route at any time."""
    out: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for (origin, destination), route in instance.routes.items():
        out[origin].append((route.duration + instance.min_connection, destination))
    airports = set(instance.airports) | {o for o, _ in instance.routes} | {d for _, d in instance.routes}
    table: dict[str, dict[str, int]] = {}
    for source in airports:
        best = {source: 0}
        heap = [(0, source)]
        while heap:
            minutes, airport = heapq.heappop(heap)
            if minutes > best[airport]:
                continue
            for step, nxt in out.get(airport, ()):
                if minutes + step < best.get(nxt, NEVER):
                    best[nxt] = minutes + step
                    heapq.heappush(heap, (minutes + step, nxt))
        table[source] = best
    return table


@dataclass(frozen=True, slots=True)
class TripBound:
    """One itinerary's options as the bound prices them (per passenger, weighted by α and β)."""

    itinerary: Itinerary
    origin: str  # where its re-booked legs start: its first leg's origin, or where its history ends
    destination: str
    ready: int  # its re-booked legs leave at or after this
    deadline: int  # a re-routed line lands by then (the window's end; an outbound trip's delay limit)
    keep_deadline: int  # the booked legs land by then (an outbound trip's delay limit, else unlimited)
    planned_arrival: int
    legs: tuple[tuple[int, int], ...]  # booked legs in the window (not history)
    keep_delay: int | None  # least delay kept as booked; None when a booked leg cannot fly
    keep_last_departure: int | None  # the earliest the last booked leg leaves with the passengers on it
    cancel_cost: float  # an empty line, or a partly flown trip stopping where its history ends
    delay_rate: float  # β × the delay cost per minute of its reference cabin and haul
    planned_minutes: int
    alpha: float

    def delay_cost(self, delay: int) -> float:
        """cost._add_line for a line reaching the destination `delay` minutes late, downgrades taken as 0."""
        return self.delay_rate * delay + self.alpha * delay_compensation(self.planned_minutes, delay)


def trip_bounds(instance: Instance, flights: dict[tuple[int, int], FlightFacts], rules: Rules) -> list[TripBound]:
    cfg, conn = instance.config, instance.min_connection
    trips = []
    for it in instance.itineraries:
        facts = all_trip_facts(instance)[it.id]
        history = flown_history(instance, it, rules)
        keys = [(leg.number, leg.day) for leg in it.legs]
        if history:  # checker: the next leg connects at the end of its history, inside the window
            last = flights[history[-1]]
            origin, ready = last.destination, imposed_departure(instance, *history[-1]) + last.duration + conn
        else:  # checker: never before the booked departure, nor before the window
            origin, ready = instance.flights[it.legs[0].number].origin, planned_departure(instance, *keys[0])
        limit = facts.planned_arrival + MAX_OUTBOUND_DELAY[facts.haul] if it.kind == "A" else NEVER
        deadline = min(cfg.window_end, limit)  # checker.max_delay binds every outbound line reaching its end
        # cost._add_line: an empty line is costed by its direction; a line stopping short is an inbound one
        kind_cost = cfg.outbound_cancellation if it.kind == "A" and not history else cfg.inbound_cancellation
        band = compensation_band(facts.planned_minutes)
        kept = _kept(keys, flights, conn, rules)
        cancel = cfg.beta * kind_cost[facts.reference_cabin + facts.haul] + cfg.alpha * (
            it.price + CANCELLATION_COMPENSATION[band]
        )
        trips.append(
            TripBound(
                itinerary=it,
                origin=origin,
                destination=facts.destination,
                ready=max(ready, cfg.window_start),
                deadline=deadline,
                keep_deadline=limit,
                planned_arrival=facts.planned_arrival,
                legs=tuple(k for k in keys if k not in history),
                keep_delay=None if kept is None else max(0, kept[0] - facts.planned_arrival),
                keep_last_departure=None if kept is None else kept[1],
                cancel_cost=cancel,
                delay_rate=cfg.beta * cfg.delay_per_minute[facts.reference_cabin + facts.haul],
                planned_minutes=facts.planned_minutes,
                alpha=cfg.alpha,
            )
        )
    return trips


def _kept(
    keys: list[tuple[int, int]], flights: dict[tuple[int, int], FlightFacts], conn: int, rules: Rules
) -> tuple[int, int] | None:
    """(the earliest arrival, the last leg's earliest departure) of the booked legs flown as booked: each leaves at
    its earliest and (strict reading) a connection of at least the minimum after the one before, no later than its
    latest; lenient: no connection pushed (a lower figure). None when a booked leg cannot so fly."""
    arrival = departure = None
    for key in keys:
        f = flights[key]
        if f.cancelled or f.earliest > f.latest:
            return None
        departure = f.earliest
        if arrival is not None and rules.connections == "strict":
            departure = max(departure, arrival + conn)
        if departure > f.latest:
            return None
        arrival = departure + f.duration
    assert arrival is not None and departure is not None
    return arrival, departure
