"""The official total of a plan and its passenger lines, read off the solver's own structures.

`cost.evaluate` reads solution rows; building them (`rows.to_rows`) took a quarter of each search step,
and most candidates are rejected on their cost alone. This computes the same total term by term from the
plan (the same component functions where they exist) so only candidates that may be kept become rows;
those are costed by `evaluate` again, which stays the one the search keeps and reports.
"""

from __future__ import annotations

from dataclasses import dataclass

from .aircraft_plan import Plan
from .cost import (
    CANCELLATION_COMPENSATION,
    DELAY_COMPENSATION,
    DELAY_COMPENSATION_THRESHOLD,
    HOTEL_COMPENSATION,
    HOTEL_THRESHOLD,
    billed_hours,
    compensation_band,
    end_position_penalty,
    leg_downgrade,
    swap_cost,
)
from .network import Network
from .object_cache import PerObject
from .passengers import PassengerLine


@dataclass(slots=True, frozen=True)
class _TripPrices:
    """One trip's per-passenger prices, weighted as in the total (cost._add_line's terms, precomputed)."""

    destination: str
    planned_arrival: int
    cancelled_outbound: float  # an explicit outbound cancellation
    cancelled_inbound: float  # an inbound one, or a trip ending elsewhere
    delay_per_minute: float
    compensation_after: int  # minutes of delay beyond which the 15 EUR legal compensation is due
    booked: frozenset[tuple[int, str]]  # (flight idx, cabin) as booked: no downgrade


_PRICES: PerObject[Network, list[_TripPrices]] = PerObject()


def _trip_prices(net: Network) -> list[_TripPrices]:
    return _PRICES.get(net, _prices)


def _prices(net: Network) -> list[_TripPrices]:
    cfg = net.instance.config
    prices = []
    for trip in net.trips:
        facts, it = trip.facts, trip.itinerary
        key = facts.reference_cabin + facts.haul
        band = compensation_band(facts.planned_minutes)
        compensation = cfg.alpha * (it.price + CANCELLATION_COMPENSATION[band])
        prices.append(
            _TripPrices(
                destination=facts.destination,
                planned_arrival=facts.planned_arrival,
                cancelled_outbound=compensation + cfg.beta * cfg.outbound_cancellation[key],
                cancelled_inbound=compensation + cfg.beta * cfg.inbound_cancellation[key],
                delay_per_minute=cfg.beta * cfg.delay_per_minute[key],
                compensation_after=DELAY_COMPENSATION_THRESHOLD[band],
                booked=frozenset(trip.booked),
            )
        )
    return prices


def passenger_total(plan: Plan, lines: list[PassengerLine]) -> float:
    """β × (delay, cancellations, downgrades) + α × (legal compensations) of the lines (cost.passenger_costs)."""
    net = plan.net
    instance = net.instance
    alpha, beta = instance.config.alpha, instance.config.beta
    prices = _trip_prices(net)
    flights, departure = net.flights, plan.departure
    total = 0.0
    for line in lines:
        p = prices[line.trip]
        n = line.passengers
        if not line.legs:
            kind = net.trips[line.trip].itinerary.kind
            total += n * (p.cancelled_outbound if kind == "A" else p.cancelled_inbound)
            continue
        last = flights[line.legs[-1][0]]
        if last.destination != p.destination:
            total += n * p.cancelled_inbound
            continue
        delay = departure[last.idx] + last.duration - p.planned_arrival
        if delay > 0:
            total += n * p.delay_per_minute * delay
            if delay > p.compensation_after:
                total += n * alpha * DELAY_COMPENSATION
            if delay > HOTEL_THRESHOLD:
                total += n * alpha * HOTEL_COMPENSATION
        for leg in line.legs:
            if leg not in p.booked:
                f = flights[leg[0]]
                facts = net.trips[line.trip].facts
                total += n * beta * leg_downgrade(instance, facts, f.number, f.day, leg[1])
    return total


def aircraft_total(plan: Plan) -> float:
    """α × (operating cost changes) + γ × end-position penalties (cost.operating_costs, cost.final_airports)."""
    net = plan.net
    instance = net.instance
    cfg = instance.config
    hourly = {a: ac.cost_per_hour for a, ac in instance.aircraft.items()}
    operating = 0.0
    pairs: set[tuple[str, str]] = set()
    for f in net.flights:
        flown_by = plan.aircraft_of[f.idx]
        if flown_by is not None and cfg.flight_delay_per_minute:
            operating += max(0, plan.departure[f.idx] - f.planned_departure) * cfg.flight_delay_per_minute
        if flown_by is None:
            operating -= billed_hours(f.duration) * hourly[f.planned_aircraft] if cfg.credit_cancelled_flights else 0.0
        elif flown_by != f.planned_aircraft and cfg.swap_per_tail_pair is None:  # the 2009 sum, in its order
            operating += billed_hours(f.duration) * (hourly[flown_by] - hourly[f.planned_aircraft])
        elif flown_by != f.planned_aircraft:
            pairs.add((f.planned_aircraft, flown_by))
    operating += swap_cost(cfg, 0.0, pairs)
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
