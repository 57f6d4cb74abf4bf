"""The search's neighbourhood: each move copies the incumbent plan, changes a few aircraft, and returns it.

Every move re-plans aircraft through `replan`, which keeps each rotation feasible; the search then seats the
passengers and keeps the plan only if it is cheaper and the checker accepts it.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence

from .aircraft_plan import Plan, Weights, replan, seat_count
from .network import DatedFlight
from .passengers import PassengerLine
from .rescue import pick_rescue

WeightsSource = Callable[[], Weights]


def cancelled_pool(plan: Plan) -> set[int]:
    return {f.idx for f in plan.net.flights if f.status == "free" and plan.aircraft_of[f.idx] is None}


def replan_some(incumbent: Plan, rng: random.Random, weights: Weights) -> Plan:
    """Re-plan one to four random aircraft over their own and the cancelled flights."""
    plan = incumbent.copy()
    pool = cancelled_pool(plan)
    aircraft = list(plan.net.aircraft)
    for aircraft_id in rng.sample(aircraft, k=min(len(aircraft), rng.randint(1, 4))):
        replan(plan, aircraft_id, weights, pool)
    return plan


def _spilled(plan: Plan) -> list[tuple[int, float]]:
    """Flown flights whose expected demand exceeds their tail's seats, with what the overflow is worth."""
    net = plan.net
    found = []
    for f in net.flights:
        owner = plan.aircraft_of[f.idx]
        if owner is None or f.status != "free" or not f.passengers:
            continue
        seats = seat_count(net.aircraft[owner])
        if f.passengers > seats:
            found.append((f.idx, (f.passengers - seats) * f.cancel_worth / f.passengers))
    return found


def swap_chain(incumbent: Plan, rng: random.Random, weights: Weights) -> Plan | None:
    """Take a flight off its tail (one flown late, or on a tail too small for its demand) or offer a cancelled
    one to an aircraft of its family that passes through its origin (a bigger one for a spilled flight), then
    offer whatever that aircraft drops to the next one: a chain of swaps ending where dropping is cheapest."""
    plan = incumbent.copy()
    pool = cancelled_pool(plan)
    flights = plan.net.flights
    done: set[str] = set()
    min_seats = 0
    delayed = [
        (f.idx, (plan.departure[f.idx] - f.planned_departure) * (f.passengers + 1.0))
        for f in flights
        if f.status == "free" and plan.aircraft_of[f.idx] is not None and plan.departure[f.idx] > f.planned_departure
    ]
    kinds = [k for k, found in (("delayed", delayed), ("pool", pool)) if found] + ["spilled"]
    kind = rng.choice(kinds)
    spilled = _spilled(plan) if kind == "spilled" else []
    if kind == "pool" or (kind == "spilled" and not spilled):
        if not pool:
            return None
        ordered = sorted(pool)
        target = rng.choices(ordered, weights=[flights[i].cancel_worth + 1.0 for i in ordered])[0]
    else:  # take the flight off its tail so another one may fly it on time, or with more seats
        chosen = delayed if kind == "delayed" else spilled
        target = rng.choices([i for i, _ in chosen], weights=[w for _, w in chosen])[0]
        owner = plan.aircraft_of[target]
        assert owner is not None, "delayed and spilled flights are flown ones (filtered above)"
        if kind == "spilled":
            min_seats = seat_count(plan.net.aircraft[owner]) + 1
        replan(plan, owner, weights, pool, banned=frozenset((target,)))
        done.add(owner)
    for _ in range(rng.randint(1, 4)):
        aircraft_id = _visitor(plan, flights[target], done, rng, min_seats)
        if aircraft_id is None:
            break
        done.add(aircraft_id)
        min_seats = 0
        before = set(pool)
        replan(plan, aircraft_id, weights, pool)
        dropped = sorted(pool - before)
        if not dropped:
            break
        target = rng.choice(dropped)
    return plan


def _visitor(plan: Plan, flight: DatedFlight, exclude: set[str], rng: random.Random, min_seats: int) -> str | None:
    """A random aircraft of the flight's family (with at least `min_seats`) on the ground at its origin some
    time before it leaves."""
    net = plan.net
    seen = []
    for aircraft_id, aircraft in net.aircraft.items():
        if aircraft.family != flight.family or aircraft_id in exclude or seat_count(aircraft) < min_seats:
            continue
        at_origin = aircraft.initial_airport == flight.origin or any(
            net.flights[i].destination == flight.origin and plan.departure[i] < flight.planned_departure + 600
            for i in plan.rotation[aircraft_id]
        )
        if at_origin:
            seen.append(aircraft_id)
    return rng.choice(seen) if seen else None


def rescue(incumbent: Plan, lines: Sequence[PassengerLine], rng: random.Random, weights: Weights) -> Plan | None:
    """Hold the flights that would take passengers the incumbent leaves behind home, then re-plan their
    aircraft (rescue.py)."""
    held = pick_rescue(incumbent, lines, rng)
    if held is None:
        return None
    candidate = incumbent.copy()
    owners = {candidate.aircraft_of[idx] for idx in held}
    for idx, departure in held.items():
        candidate.hold[idx] = max(candidate.hold.get(idx, 0), departure)
    pool = cancelled_pool(candidate)
    for owner in sorted(a for a in owners if a is not None):
        replan(candidate, owner, weights, pool)
    return candidate


def hold_connection(incumbent: Plan, rng: random.Random, weights: Weights) -> Plan | None:
    """Hold a flight for the passengers of a missed connection, then re-plan its aircraft."""
    net = incumbent.net
    missed = []
    for trip in net.trips:
        legs = trip.flights
        if any(incumbent.aircraft_of[i] is None for i in legs):
            continue
        for a, b in itertools.pairwise(legs):
            ready = incumbent.departure[a] + net.flights[a].duration + net.instance.min_connection
            if incumbent.departure[b] < ready and net.flights[b].status == "free":
                missed.append((b, ready, trip.itinerary.passengers))
                break
    if not missed:
        return None
    b, ready, _ = rng.choices(missed, weights=[m[2] for m in missed])[0]
    candidate = incumbent.copy()
    candidate.hold[b] = max(candidate.hold.get(b, 0), ready)
    pool = cancelled_pool(candidate)
    owner = candidate.aircraft_of[b]
    assert owner is not None, "missed connections are between flown legs (trips with a cancelled leg skipped)"
    replan(candidate, owner, weights, pool)
    return candidate
