"""The official total of a plan and its passenger lines, read off the solver's own structures.

`cost.evaluate` reads solution rows; building them (`rows.to_rows`) took a quarter of each search step,
and most candidates are rejected on their cost alone. This computes the same total term by term from the
plan (the same component functions where they exist) so only candidates that may be kept become rows;
those are costed by `evaluate` again, which stays the one the search keeps and reports.
"""

from __future__ import annotations

from .aircraft_plan import Plan
from .cost import (
    CANCELLATION_COMPENSATION,
    all_trip_facts,
    billed_hours,
    compensation_band,
    delay_compensation,
    end_position_penalty,
    leg_downgrade,
)
from .passengers import PassengerLine


def passenger_total(plan: Plan, lines: list[PassengerLine]) -> float:
    """β × (delay, cancellations, downgrades) + α × (legal compensations) of the lines (cost.passenger_costs)."""
    net = plan.net
    instance = net.instance
    cfg = instance.config
    facts_of = all_trip_facts(instance)
    flights, departure = net.flights, plan.departure
    alpha_part = beta_part = 0.0
    for line in lines:
        it = net.trips[line.trip].itinerary
        facts = facts_of[it.id]
        key = facts.reference_cabin + facts.haul
        n = line.passengers
        last = flights[line.legs[-1][0]] if line.legs else None
        if last is None or last.destination != facts.destination:
            table = cfg.outbound_cancellation if it.kind == "A" and last is None else cfg.inbound_cancellation
            beta_part += n * table[key]
            alpha_part += n * (it.price + CANCELLATION_COMPENSATION[compensation_band(facts.planned_minutes)])
            continue
        delay = max(0, departure[last.idx] + last.duration - facts.planned_arrival)
        beta_part += n * cfg.delay_per_minute[key] * delay
        alpha_part += n * delay_compensation(facts.planned_minutes, delay)
        for idx, cabin in line.legs:
            f = flights[idx]
            if (f.number, f.day, cabin) not in facts.legs:
                beta_part += n * leg_downgrade(instance, facts, f.number, f.day, cabin)
    return cfg.alpha * alpha_part + cfg.beta * beta_part


def aircraft_total(plan: Plan) -> float:
    """α × (operating cost changes) + γ × end-position penalties (cost.operating_costs, cost.final_airports)."""
    net = plan.net
    instance = net.instance
    cfg = instance.config
    hourly = {a: ac.cost_per_hour for a, ac in instance.aircraft.items()}
    operating = 0.0
    for f in net.flights:
        flown_by = plan.aircraft_of[f.idx]
        if flown_by is None:
            operating -= billed_hours(f.duration) * hourly[f.planned_aircraft]
        elif flown_by != f.planned_aircraft:
            operating += billed_hours(f.duration) * (hourly[flown_by] - hourly[f.planned_aircraft])
    where: dict[str, str | None] = {}
    for aircraft_id, aircraft in instance.aircraft.items():
        latest, airport, arrival = None, aircraft.initial_airport, 0
        for idx in plan.rotation[aircraft_id]:
            f = net.flights[idx]
            if latest is None or plan.departure[idx] > latest:
                latest, airport, arrival = plan.departure[idx], f.destination, plan.departure[idx] + f.duration
        for ferry in plan.ferries[aircraft_id]:
            operating += billed_hours(ferry.duration) * hourly[aircraft_id]
            if latest is None or ferry.departure > latest:
                latest, airport, arrival = ferry.departure, ferry.destination, ferry.departure + ferry.duration
        where[aircraft_id] = airport if latest is None or arrival <= cfg.window_end else None
    return cfg.alpha * operating + cfg.gamma * end_position_penalty(instance, where)


def plan_total(plan: Plan, lines: list[PassengerLine]) -> float:
    """What `evaluate(instance, to_rows(plan, lines)).total` returns, up to rounding."""
    return passenger_total(plan, lines) + aircraft_total(plan)
