"""Network plans for an airport or airspace disruption: the ROADEF 2009 optimizer over each touched rating group,
once per objective, and the conservative baseline that cancels the affected rotations.

Each objective re-weights the optimizer's cost (the ROADEF 2009 coefficients) and nothing else: minimise delay
(passenger delay dearer), minimise cancellations (cancelled trips dearer), protect connections and premium
passengers (connecting itineraries and F/J cabins dearer). Every plan is then measured the same way
(totals.py) and made crewable and validated (crew.py, validation.py).

Modelling choices (documented assumptions, not data the tables lack):
- the airport's restriction is applied per clock hour (the model counts movements per clock hour); the hour the
  window opens in holds the movements scheduled before it opens and the part of the rate the window covers
  (rules.slots.hour_allowance: a closure from 14:10 leaves the 14:00 hour its flights before 14:10 only);
- after the window the airport runs at the airline's normal rate (its busiest scheduled hour that day), so the
  recovery does not bunch every delayed flight into the reopening hour;
- an ATC slot delay is imposed on every regulated flight: it leaves exactly at schedule + the slot delay;
- tail swaps stay within a rating group, so the rostered crews stay qualified;
- a group the optimizer finds no feasible plan for (a disrupted flight on a tail grounded all day) flies as in the
  baseline within that objective's plan, so every plan answers for every affected flight.
"""

from __future__ import annotations

import time
from collections import Counter, defaultdict
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from ..data.access import DataHandle
from ..models.disruption import Disruption
from ..models.network_plan import FlightAction, NetworkPlan, NetworkRestriction
from ..models.operational import Flight
from ..recovery.adapter import AdaptedInstance, CapacityLimit, NetworkSnapshot, TailOutage, planned_changes, to_instance
from ..recovery.cost import evaluate
from ..recovery.model import Instance, Solution
from ..recovery.solver import NoFeasibleSolution, solve
from ..rules.slots import hour_allowance
from .continuity import keep_continuous
from .crew import CrewData
from .crew_model import CrewModel
from .ferry import positioning_row
from .groups import GroupData, inbound, inbound_outages, load_groups, past_horizon
from .hold import gone_movements, hold_actions
from .objectives import NetworkPlanConfig, weighted
from .restriction import imposed_minutes, regulated
from .scope import NetworkScope
from .tails import baseline_actions, scheduled_row
from .totals import PlanData, measure

WINDOW_AFTER_LAST_ARRIVAL = timedelta(hours=6)  # room to delay the last flights of the horizon
# What each plan was optimised for, not what it achieved: the console stars the best totals, so a title never
# claims "least delay" for a plan another beats on delay.
TITLES: dict[str, str] = {
    "min_delay": "Optimised for delay",
    "min_cancellations": "Optimised for fewer cancellations",
    "protect_connections": "Optimised for connections and premium passengers",
    "hold": "Hold every flight for its slot: no swaps, no cancellations",
    "baseline": "Conservative baseline: cancel the affected rotations and re-accommodate",
}


def _hours(start: datetime, end: datetime) -> tuple[datetime, datetime]:
    floor = start.replace(minute=0, second=0, microsecond=0)
    top = end.replace(minute=0, second=0, microsecond=0)
    return floor, top if top == end else top + timedelta(hours=1)


Usage = Counter[tuple[str, datetime]]  # ("D"|"A", clock hour) -> movements at the restricted airport


def capacity_limits(
    r: NetworkRestriction, used: Usage, until: datetime, fixed: Usage | None = None, unregulated: Usage | None = None
) -> list[CapacityLimit]:
    """Per clock hour at the airport, what the rating groups planned before this one left: the restriction's rate
    inside the window (the hour it opens in: `unregulated` below), the normal rate after it. Groups are planned one
    after the other against one airport, so they share its hours instead of each getting all of them. `fixed`: the
    group's movements the plan cannot touch (flights gone before the decision, landing where they land) — an hour
    holds at least those, so an inbound already in the air never makes the instance infeasible. `unregulated`: the
    movements scheduled in the hour the window opens before it does — that hour holds them and the part of the rate
    the window covers (rules.slots.hour_allowance), never more than the rate."""
    fixed, unregulated = fixed or Counter(), unregulated or Counter()
    if r.departures_per_hour is None or r.arrivals_per_hour is None:
        return []
    start, end = _hours(r.window.start, r.window.end)
    limits = []
    hour = start
    while hour < until:
        inside = hour < end
        dep = r.departures_per_hour if inside else r.normal_departures_per_hour
        arr = r.arrivals_per_hour if inside else r.normal_arrivals_per_hour
        if inside:
            dep = min(dep, hour_allowance(dep, r.window.start, hour) + unregulated[("D", hour)])
            arr = min(arr, hour_allowance(arr, r.window.start, hour) + unregulated[("A", hour)])
        if inside or used[("D", hour)] or used[("A", hour)] or fixed[("D", hour)] or fixed[("A", hour)]:
            limits.append(
                CapacityLimit(
                    airport=r.airport,
                    start=hour,
                    end=hour + timedelta(hours=1),
                    departures_per_hour=max(fixed[("D", hour)], dep - used[("D", hour)]),
                    arrivals_per_hour=max(fixed[("A", hour)], arr - used[("A", hour)]),
                )
            )
        hour += timedelta(hours=1)
    return limits


def usage(actions: list[FlightAction], airport: str, since: datetime | None = None) -> Usage:
    """Movements at `airport` per clock hour (`since`: only those from then on, the ones a restriction regulates)."""
    used: Usage = Counter()
    for a in actions:
        if a.new_departure is not None and a.origin == airport and (since is None or a.new_departure >= since):
            used[("D", a.new_departure.replace(minute=0, second=0, microsecond=0))] += 1
        if a.new_arrival is not None and a.destination == airport and (since is None or a.new_arrival >= since):
            used[("A", a.new_arrival.replace(minute=0, second=0, microsecond=0))] += 1
    return used


def adapt(
    group: GroupData, scope: NetworkScope, used: Usage, outages: list[TailOutage] | None = None
) -> AdaptedInstance:
    r = scope.restriction
    flights = sorted(
        {f.flight_id: f for rows in group.rotations.values() for f in rows}.values(),
        key=lambda f: f.scheduled_departure,
    )
    end = max(max(f.scheduled_arrival for f in flights), scope.horizon_end) + WINDOW_AFTER_LAST_ARRIVAL
    day = [scheduled_row(f) for f in scope.day_flights]
    snapshot = NetworkSnapshot(
        window_start=scope.decision,
        window_end=end,
        aircraft=group.fleet,
        flights=flights,
        bookings=group.bookings,
        disrupted_flight_id=None,
        disrupted_release=scope.decision,
        capacity_limits=capacity_limits(
            r,
            used,
            end,
            fixed=usage([scheduled_row(f) for f in flights if f.scheduled_departure < scope.decision], r.airport),
            unregulated=usage(day, r.airport) - usage(day, r.airport, since=r.window.start),
        ),
        imposed_delays={f.flight_id: m for f in flights if (m := floor_minutes(r, f))},
        # named flights restrict no airport's hours: its normal rate (none read) would shut it
        normal_rates={}
        if r.kind == "flights"
        else {r.airport: (r.normal_departures_per_hour, r.normal_arrivals_per_hour)},
        tail_outages=outages or [],
    )
    return to_instance(snapshot)


def floor_minutes(r: NetworkRestriction, f: Flight) -> int:
    """Minutes past its schedule a flight may not leave before: the restriction's hold or slot, and the delay an
    earlier decision already gave it (its estimate: a crew's rest, a release) — a network plan never undoes one."""
    late = max(0, int((f.departure - f.scheduled_departure).total_seconds() // 60))
    return max(imposed_minutes(r, f) or 0, late)


def _at(instance: Instance, minutes: int) -> datetime:
    return datetime.combine(instance.day0, datetime.min.time(), UTC) + timedelta(minutes=minutes)


def optimizer_actions(
    adapted: AdaptedInstance, solution: Solution, group: GroupData, reasons: dict[str, str]
) -> list[FlightAction]:
    """Every flight of the group as the optimizer plans it, and its ferries."""
    by_id = {f.flight_id: f for rows in group.rotations.values() for f in rows}
    types = {d.aircraft_registration: d.aircraft_type for d in group.fleet}
    rows = {f.number: f for f in solution.flights}
    actions = []
    for flight_id, change in planned_changes(adapted, solution).items():
        f = by_id[flight_id]
        row = rows[adapted.numbers[flight_id]]
        operated = change.registration is not None
        kind = {"operate": "operate", "delay": "retime", "tail_swap": "tail_swap", "cancel": "cancel"}[change.action]
        actions.append(
            FlightAction(
                flight_id=flight_id,
                flight_number=f.flight_number,
                origin=f.origin,
                destination=f.destination,
                action=kind,
                scheduled_departure=f.scheduled_departure,
                scheduled_arrival=f.scheduled_arrival,
                new_departure=_at(adapted.instance, row.departure) if operated else None,
                new_arrival=_at(adapted.instance, row.arrival) if operated else None,
                delay_minutes=change.delay_minutes if operated else 0,
                registration=f.aircraft_registration,
                new_registration=change.registration,
                aircraft_type=types.get(change.registration or "", f.aircraft_type),
                reason=reasons.get(flight_id, "re-planned by the optimizer to absorb the disruption"),
            )
        )
    carriers = {f.aircraft_registration: f.carrier for f in by_id.values()}
    for ferry in (f for f in solution.flights if f.number not in adapted.flight_ids and f.aircraft):
        tail = str(ferry.aircraft)
        actions.append(
            positioning_row(
                tail,
                ferry.origin,
                ferry.destination,
                _at(adapted.instance, ferry.departure),
                _at(adapted.instance, ferry.arrival),
                carriers.get(tail) or next(iter(carriers.values())),  # the airline's: its flights' carrier
                types.get(tail, "A320"),
            )
        )
    return actions


def unavailable_tails(groups: list[GroupData]) -> frozenset[str]:
    """The groups' tails on the ground all day (AOG, in maintenance): the baseline flies none of their flights."""
    return frozenset(d.aircraft_registration for g in groups for d in g.fleet if d.status in ("AOG", "MAINTENANCE"))


def scope_reasons(scope: NetworkScope) -> dict[str, str]:
    r = scope.restriction
    if r.kind == "flights":
        return named_reasons(scope)
    what = {"closure": "closed", "capacity": "capacity-limited", "regulation": "under ATC regulation"}[r.kind]
    window = f"{r.window.start:%H:%M}-{r.window.end:%H:%M}Z"
    reasons = {}
    for f in scope.affected:
        movement = (
            "departs"
            if f.origin == r.airport and regulated(r, f) and f.scheduled_departure >= r.window.start
            else "lands"
        )
        reasons[f.flight_id] = f"{movement} at {r.airport} while {what} ({window})"
    for f in scope.inherited:
        reasons[f.flight_id] = f"inherits the delay of its tail {f.aircraft_registration}'s earlier flight"
    return reasons


def named_reasons(scope: NetworkScope) -> dict[str, str]:
    r = scope.restriction
    reasons = {}
    for f in scope.affected:
        held = r.held_minutes.get(f.flight_id)
        reasons[f.flight_id] = f"named in the report: {r.basis.split('; ')[0]}" + (f", held {held} min" if held else "")
    for f in scope.inherited:
        reasons[f.flight_id] = f"inherits the delay of its tail {f.aircraft_registration}'s earlier flight"
    return reasons


def continuous(actions: list[FlightAction], data: PlanData, types: dict[str, str]) -> list[FlightAction]:
    """The plan with every tail it touches flying in sequence past the horizon (network.continuity), the bookings
    of the flights it changes there read for the totals."""
    rows = keep_continuous(actions, data.rotations, types)
    data.read_bookings(a.flight_id for a in rows)
    return rows


def plan_data(
    handle: DataHandle, scope: NetworkScope, groups: list[GroupData], disruption: Disruption | None
) -> PlanData:
    """What every plan is measured, repaired and validated over: the groups' rotations, each tail's flight into
    the day before them (groups.inbound: the turn after it is checked like any other) and its flights past the
    horizon to the data's end."""
    data = PlanData.load(handle, scope, groups, disruption)
    data.grounded = unavailable_tails(groups)
    data.extend(inbound(handle, groups, scope))
    data.extend(past_horizon(handle, groups, scope))
    return data


def generate_plans(
    handle: DataHandle,
    scope: NetworkScope,
    disruption: Disruption | None = None,
    config: NetworkPlanConfig | None = None,
    budget_s: float | None = None,
    crews: Callable[[PlanData], CrewData] | None = None,
) -> tuple[list[NetworkPlan], PlanData, dict[str, float]]:
    """One plan per objective (the optimizer, each rating group in turn) and the baseline, with their totals;
    the data read (for crewability and validation) and seconds per step. `budget_s`: the optimizer's whole time
    (the arbitrator's deadline less what the rest needs), shared by every objective and group. `crews`: the roster
    reads over the plan data; given, the in-scope flights' crews are resources of the optimizer (network.crew_model)."""
    config = config or NetworkPlanConfig()
    seconds: dict[str, float] = defaultdict(float)
    started = time.monotonic()
    groups = load_groups(handle, scope)
    seconds["read"] = time.monotonic() - started
    per_solve = config.seconds_per_solve
    if budget_s is not None and groups:
        per_solve = max(0.2, min(per_solve, budget_s / (len(config.objectives) * len(groups))))
    reasons = scope_reasons(scope)
    in_scope = {f.flight_id for f in scope.flights}
    data = plan_data(handle, scope, groups, disruption)
    crew_model = CrewModel(crews(data), in_scope) if crews is not None else None
    types = {d.aircraft_registration: d.aircraft_type for g in groups for d in g.fleet}
    plans: list[NetworkPlan] = []
    optimized = {reg for g in groups for reg in g.rotations}
    # movements at the airport by the groups not re-planned: they keep their hours
    not_planned = [scheduled_row(f) for f in scope.day_flights if f.aircraft_registration not in optimized]
    others = usage(not_planned, scope.restriction.airport)
    # the hours the flights already gone take (in the air into the window): every group's, before any is planned
    gone = {g.group: gone_movements(g.rotations, scope) for g in groups}
    gone_ids = {f.flight_id for g in groups for rows in g.rotations.values() for f in rows if scope.gone(f)}
    for objective, weights in config.objectives.items():
        actions: list[FlightAction] = []
        notes: list[str] = []
        roadef = 0.0
        began = time.monotonic()
        used = Counter(others) + sum(gone.values(), Counter())
        for group in groups:
            a = adapt(group, scope, used - gone[group.group], inbound_outages(group, scope, data.rotations))
            instance = crew_model.instance(group.group, a) if crew_model else a.instance
            try:
                solution, result = solve(weighted(instance, weights), per_solve, seed=config.seed)
                failed = None if result.feasible else "the optimizer's plan failed its own checker"
            except NoFeasibleSolution as exc:
                failed = f"the optimizer found no feasible plan ({exc})"
            if failed is None:
                roadef += evaluate(a.instance, solution).total  # neutral weights: comparable across objectives
                planned = optimizer_actions(a, solution, group, reasons)
            else:  # the plan still answers for the group's flights: as the baseline does, never by leaving them out
                notes.append(f"{group.group}: {failed}; its flights as in the baseline")
                planned = baseline_actions(group.rotations, scope, reasons, unavailable_tails([group]))
            used += usage([x for x in planned if x.flight_id not in gone_ids], scope.restriction.airport)
            actions += [x for x in planned if x.flight_id in in_scope or x.action != "operate"]
        took = time.monotonic() - began
        seconds["optimizer"] += took
        if notes and len(notes) == len(groups):
            continue  # every group as in the baseline: the baseline itself
        rows, totals = measure(continuous(actions, data, types), data, optimizer_cost=round(roadef, 2))
        plans.append(
            NetworkPlan(
                plan_id=f"network:{objective}",
                objective=objective,
                title=TITLES[objective],
                actions=rows,
                totals=totals,
                optimizer_seconds=round(took, 2),
                notes=notes,
            )
        )
    if config.hold:
        regulated = usage(not_planned, scope.restriction.airport, since=scope.restriction.window.start)
        plans.append(
            hold_plan(groups, scope, regulated + sum(gone.values(), Counter()), reasons, in_scope, data, types)
        )
    rotations = {reg: rows for g in groups for reg, rows in g.rotations.items()}
    baseline = baseline_actions(rotations, scope, reasons, unavailable_tails(groups))
    rows, totals = measure(continuous(baseline, data, types), data)
    plans.append(
        NetworkPlan(
            plan_id="network:baseline", objective="baseline", title=TITLES["baseline"], actions=rows, totals=totals
        )
    )
    seconds["plans"] = time.monotonic() - started - seconds["read"]
    return plans, data, dict(seconds)


def hold_plan(
    groups: list[GroupData],
    scope: NetworkScope,
    others: Usage,
    reasons: dict[str, str],
    in_scope: set[str],
    data: PlanData,
    types: dict[str, str],
) -> NetworkPlan:
    """Waiting, as a plan (network.hold): every group's flights held to their slots in one ration-by-schedule walk
    — a regulation orders the flights, not their fleets: planned a group after another, a widebody's 06:20 took the
    slot an earlier 05:55 of the next group was owed — sharing the airport (`others`: the hours the groups not
    planned and every flight already gone take)."""
    rotations = {tail: rows for g in groups for tail, rows in g.rotations.items()}
    planned = hold_actions(rotations, scope, Counter(others), reasons, unavailable_tails(groups))
    actions = [x for x in planned if x.flight_id in in_scope or x.action != "operate"]
    rows, totals = measure(continuous(actions, data, types), data)
    return NetworkPlan(plan_id="network:hold", objective="hold", title=TITLES["hold"], actions=rows, totals=totals)
