"""A warm start the model would refuse, made one it accepts: the plan a caller knows (the day flown by waiting, for
the hindsight bound) is written by another model of the day — its own queue at a station, its own reading of a tail
outage or a crew the day cannot use — so taken as it is, one leg off the model's constraints makes the whole plan
infeasible and the search starts from its own construction instead, far from it.

Repaired as an OCC would fly it with what the model allows: every leg in the order it leaves, on its tail, at the
first minute from its listed departure (never before its tail has turned round, nor before its hold) that is clear
of the tail's unavailability and has a movement left at both airports (`aircraft_plan.earliest_departure`, as the
construction times its legs); a leg the model cancels, one no crew may fly that late (its crews' slack), one past
the window, and a leg from where its tail is not (after a dropped one) are left out — cancelled, as the plan's
cost then counts them. What is left is offered like any plan: the search's own checks still judge it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .aircraft_plan import Plan, earliest_departure, start_label
from .network import Network

WarmStart = Mapping[str, Sequence[tuple[int, int, int]]]  # aircraft → (number, day, departure in absolute minutes)


def _legs(net: Network, start: WarmStart) -> list[tuple[int, str, int]]:
    """(listed departure, aircraft, flight index) of every leg the plan may re-time, in the order they leave."""
    legs = []
    for aircraft_id, listed in start.items():
        if aircraft_id not in net.aircraft or net.aircraft[aircraft_id].ground_link:
            continue  # a ground link's legs are all fixed (network.fixed_prefix)
        fixed = set(net.fixed_prefix.get(aircraft_id, ()))
        for number, day, departure in listed:
            idx = net.by_key.get((number, day))
            if idx is not None and idx not in fixed:
                legs.append((departure, aircraft_id, idx))
    return sorted(legs)


def repaired(net: Network, start: WarmStart) -> Plan:
    """The plan flying `start`'s legs where the model allows them, the others left out (see the module's doc)."""
    plan = Plan(net)
    end = net.instance.config.window_end
    at: dict[str, tuple[str, int, int]] = {}  # aircraft → (where it is, when it is ready, its last flight's number)
    for aircraft_id, aircraft in net.aircraft.items():
        label = start_label(plan, aircraft)  # after its fixed flights, as the construction starts it
        at[aircraft_id] = (label.airport, label.ready, label.last_number)
    for listed, aircraft_id, idx in _legs(net, start):
        f, aircraft = net.flights[idx], net.aircraft[aircraft_id]
        where, ready, last_number = at[aircraft_id]
        if f.status not in ("free", "disrupted") or f.origin != where:
            continue
        gap = aircraft.transit if f.previous and f.previous == last_number else aircraft.turn_round
        earliest = max(listed, ready + gap, f.not_before)
        if f.status == "disrupted":
            departure = f.required_departure if earliest <= (f.required_departure or 0) else None
        else:
            departure = earliest_departure(plan, aircraft, f, earliest, end)
        if departure is None or departure + f.duration > end:
            continue
        if f.status == "free" and f.crew_slack is not None and departure - f.planned_departure > f.crew_slack:
            continue
        plan.assign(aircraft_id, [(idx, departure)])
        at[aircraft_id] = (f.destination, departure + f.duration, f.number)
    return plan
