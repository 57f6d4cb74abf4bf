"""Anytime recovery solver: a constructive plan, then large-neighbourhood search until the time limit.

Construction re-plans every aircraft over its own flights (delays propagated, blocks of flights cancelled
where they must be), then offers the cancelled flights to aircraft of the same family. Each search step
releases a few aircraft, re-plans them with perturbed weights, re-accommodates all passengers and keeps
the result only if the official cost drops and the checker accepts it: the incumbent is always feasible.
"""

from __future__ import annotations

import random
import time
from typing import Callable

from pydantic import BaseModel

from .aircraft_plan import Plan, Weights, replan
from .checker import MIN_CONNECTION, Violation, check
from .cost import CostBreakdown, evaluate
from .model import Instance, Leg, Solution, SolutionFlight, SolutionItinerary
from .network import Network, build_network
from .passengers import PassengerLine, plan_passengers


class RecoveryResult(BaseModel):
    instance: str
    cost: CostBreakdown
    violations: list[Violation]
    seconds: float
    iterations: int
    improvements: int
    seed: int

    @property
    def feasible(self) -> bool:
        return not self.violations


class NoFeasibleSolution(RuntimeError):
    """The constructive phase could not build a plan the checker accepts."""


def to_solution(plan: Plan, lines: list[PassengerLine]) -> Solution:
    net = plan.net
    flights = []
    for aircraft_id in net.aircraft:
        for idx in plan.rotation[aircraft_id]:
            flights.append(_solution_flight(plan, idx, aircraft_id))
    flights.extend(_solution_flight(plan, f.idx, None) for f in net.flights if plan.aircraft_of[f.idx] is None)
    itineraries = []
    for line in sorted(lines, key=lambda l: (l.trip, not l.legs)):
        it = net.trips[line.trip].itinerary
        legs = tuple(Leg.model_construct(number=net.flights[i].number, day=net.flights[i].day, cabin=c) for i, c in line.legs)
        itineraries.append(SolutionItinerary.model_construct(id=it.id, kind=it.kind, price=it.price,
                                                             passengers=line.passengers, legs=legs))
    return Solution.model_construct(flights=tuple(flights), itineraries=tuple(itineraries))


def _solution_flight(plan: Plan, idx: int, aircraft_id: str | None) -> SolutionFlight:
    f = plan.net.flights[idx]
    departure = plan.departure[idx] if aircraft_id else f.planned_departure
    return SolutionFlight.model_construct(number=f.number, origin=f.origin, destination=f.destination,
                                          departure=departure, arrival=departure + f.duration,
                                          previous=f.previous, day=f.day, aircraft=aircraft_id)


def cancelled_pool(plan: Plan) -> set[int]:
    return {f.idx for f in plan.net.flights if f.status == "free" and plan.aircraft_of[f.idx] is None}


def construct(net: Network, weights: Weights, order: list[str]) -> Plan:
    plan = Plan(net)
    pool: set[int] = set()
    for aircraft_id in order:  # first pass: each aircraft over its own planned flights
        own = [i for i in net.planned_rotation[aircraft_id] if net.flights[i].status in ("free", "disrupted")]
        replan(plan, aircraft_id, weights, pool, extra=own)
    for aircraft_id in order:  # second pass: cancelled flights offered to the family
        replan(plan, aircraft_id, weights, pool)
    return plan


class _Search:
    """State of one anytime run: the incumbent and its cost."""

    def __init__(self, instance: Instance, seed: int):
        self.instance = instance
        self.net = build_network(instance)
        self.rng = random.Random(seed)
        self.best_plan: Plan | None = None
        self.best_solution: Solution | None = None
        self.best_cost = float("inf")
        self.iterations = self.improvements = 0

    def offer(self, plan: Plan) -> bool:
        """Cost the plan with its passengers; keep it if cheaper and feasible."""
        self.iterations += 1
        solution = to_solution(plan, plan_passengers(plan))
        total = evaluate(self.instance, solution).total
        if total >= self.best_cost or check(self.instance, solution):
            return False
        self.best_plan, self.best_solution, self.best_cost = plan, solution, total
        self.improvements += 1
        return True

    def random_weights(self) -> Weights:
        r = self.rng
        return Weights(cancel_factor=r.uniform(0.3, 1.2), delay_factor=r.uniform(0.5, 1.5),
                       position_penalty=r.uniform(0.2, 1.2), max_delay=r.choice((180, 360, 600, 900)))

    def neighbour(self) -> Plan:
        if self.rng.random() < 0.4:
            held = self.hold_connection()
            if held is not None:
                return held
        plan = self.best_plan.copy()
        pool = cancelled_pool(plan)
        families = {self.net.flights[i].family for i in pool}
        touched = [a for a, ac in self.net.aircraft.items() if ac.family in families] or list(self.net.aircraft)
        chosen = self.rng.sample(touched, k=min(len(touched), self.rng.randint(1, 6)))
        weights = self.random_weights()
        for aircraft_id in chosen:
            replan(plan, aircraft_id, weights, pool)
        return plan


    def hold_connection(self) -> Plan | None:
        """Hold a flight for the passengers of a missed connection, then re-plan its aircraft."""
        plan = self.best_plan
        missed = []
        for trip in self.net.trips:
            legs = trip.flights
            if any(plan.aircraft_of[i] is None for i in legs):
                continue
            for a, b in zip(legs, legs[1:]):
                ready = plan.departure[a] + self.net.flights[a].duration + MIN_CONNECTION
                if plan.departure[b] < ready and self.net.flights[b].status == "free":
                    missed.append((b, ready, trip.itinerary.passengers))
                    break
        if not missed:
            return None
        b, ready, _ = self.rng.choices(missed, weights=[m[2] for m in missed])[0]
        candidate = plan.copy()
        candidate.hold[b] = max(candidate.hold.get(b, 0), ready)
        pool = cancelled_pool(candidate)
        replan(candidate, candidate.aircraft_of[b], self.random_weights(), pool)
        return candidate


def solve(instance: Instance, time_limit: float, seed: int = 0,
          on_incumbent: Callable[[Solution, float], None] | None = None) -> tuple[Solution, RecoveryResult]:
    started = time.monotonic()
    search = _Search(instance, seed)
    order = list(instance.aircraft)
    weights = Weights()
    first = construct(search.net, weights, order)
    if not search.offer(first):
        for attempt in range(5):  # a different order and weights before giving up
            search.rng.shuffle(order)
            if search.offer(construct(search.net, search.random_weights(), order)):
                break
        else:
            raise NoFeasibleSolution(f"{instance.name}: no feasible constructive plan: "
                                     + "; ".join(v.message for v in check(instance, to_solution(first, plan_passengers(first)))[:3]))
    if on_incumbent:
        on_incumbent(search.best_solution, search.best_cost)
    while time.monotonic() - started < time_limit:
        if search.offer(search.neighbour()) and on_incumbent:
            on_incumbent(search.best_solution, search.best_cost)
    solution = search.best_solution
    result = RecoveryResult(instance=instance.name, cost=evaluate(instance, solution), violations=check(instance, solution),
                            seconds=round(time.monotonic() - started, 2), iterations=search.iterations,
                            improvements=search.improvements, seed=seed)
    return solution, result
