"""Aircraft recovery: each aircraft's rotation re-planned by a labelling shortest path over candidate flights.

A plan assigns every dated flight an aircraft and a departure, or leaves it cancelled. `replan` takes one
aircraft's flights off the plan and picks the best sequence among its own flights and the cancelled
flights of its family: each step respects turn-round/transit, range, unavailability, maintenance and
the hourly airport capacity left by the other aircraft, so every plan it produces stays feasible.
"""

from __future__ import annotations

import bisect
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from .cost import billed_hours
from .network import DatedFlight, Network, operating_cost, required_departure

MANDATORY_BONUS = 1e9  # a disrupted flight must keep its aircraft: any path without it is worthless
# Rules.keep_unbooked: an unbooked flight is flown by any path that can take it (below a disrupted flight, far
# above any passenger or operating cost); the search then refuses plans that cancel more of them.
UNBOOKED_BONUS = 1e7
MAX_LABELS = 4


@dataclass(slots=True, frozen=True)
class Ferry:
    """A new flight without passengers (ROADEF allows them: unused number, dist.csv duration): it takes a
    tail to its maintenance airport or to where the plan wants it at the end."""

    origin: str
    destination: str
    departure: int
    duration: int


Step = tuple[int | Ferry, int]  # (flight idx or ferry, departure)


@dataclass(slots=True)
class Weights:
    """How the planner values a flight; the solver perturbs these between re-plans."""

    cancel_factor: float = 1.0  # share of a cancelled flight's passengers assumed lost
    delay_factor: float = 1.0
    position_penalty: float = 1.0  # multiple of the family penalty for leaving the plan's end airport
    max_delay: int = 6 * 60
    ferries: bool = False  # empty repositioning flights: a fallback (they cost hours and airport slots)
    # Share of the passengers a smaller aircraft leaves behind counted as lost: the expected demand on a flight
    # (its bookings plus the stranded passengers routed over it) can exceed a swapped-in tail's seats.
    spill_factor: float = 1.0


class Plan:
    """Mutable assignment of flights to aircraft with the hourly movements it uses."""

    def __init__(self, net: Network):
        self.net = net
        self.aircraft_of: list[str | None] = [None] * len(net.flights)
        self.departure: list[int] = [f.planned_departure for f in net.flights]
        self.rotation: dict[str, list[int]] = {a: [] for a in net.aircraft}
        self.used: Counter = Counter()
        self.hold: dict[int, int] = {}  # flight idx -> earliest departure, held for connecting passengers
        self.ferries: dict[str, list[Ferry]] = {a: [] for a in net.aircraft}
        for aircraft_id, prefix in net.fixed_prefix.items():
            self.assign(aircraft_id, [(i, required_departure(net.flights[i])) for i in prefix])
        for f in net.flights:
            if f.status == "disrupted":  # reserve their movements before anyone plans around them
                self._count(f.idx, required_departure(f), +1)

    def copy(self) -> Plan:
        other = Plan.__new__(Plan)
        other.net = self.net
        other.aircraft_of = list(self.aircraft_of)
        other.departure = list(self.departure)
        other.rotation = {a: list(r) for a, r in self.rotation.items()}
        other.used = Counter(self.used)
        other.hold = dict(self.hold)
        other.ferries = {a: list(r) for a, r in self.ferries.items()}
        return other

    def _count(self, idx: int | Ferry, departure: int, sign: int) -> None:
        f = idx if isinstance(idx, Ferry) else self.net.flights[idx]
        if isinstance(f, DatedFlight) and f.ground_link:
            return  # a ground transfer takes no airport slot
        table = self.net.capacity
        for airport, kind, moment in ((f.origin, "D", departure), (f.destination, "A", departure + f.duration)):
            if table.in_window(moment):
                self.used[(airport, kind, moment - moment % 60)] += sign

    def assign(self, aircraft_id: str, steps: Sequence[Step]) -> None:
        for idx, departure in steps:
            if isinstance(idx, Ferry):
                self.ferries[aircraft_id].append(idx)
                self._count(idx, departure, +1)
                continue
            self.aircraft_of[idx] = aircraft_id
            self.departure[idx] = departure
            if self.net.flights[idx].status != "disrupted":
                self._count(idx, departure, +1)
            self.rotation[aircraft_id].append(idx)
        self.rotation[aircraft_id].sort(key=lambda i: self.departure[i])

    def release(self, aircraft_id: str) -> list[int]:
        """Take the aircraft's non-fixed flights off the plan; returns them."""
        fixed = set(self.net.fixed_prefix[aircraft_id])
        released = [i for i in self.rotation[aircraft_id] if i not in fixed]
        for idx in released:
            if self.net.flights[idx].status != "disrupted":
                self._count(idx, self.departure[idx], -1)
            self.aircraft_of[idx] = None
        self.rotation[aircraft_id] = [i for i in self.rotation[aircraft_id] if i in fixed]
        for ferry in self.ferries[aircraft_id]:
            self._count(ferry, ferry.departure, -1)
        self.ferries[aircraft_id] = []
        return released

    def room(self, airport: str, kind: str, moment: int) -> bool:
        """Whether one more movement fits in the clock hour of `moment`."""
        table = self.net.capacity
        if not table.in_window(moment):
            return True
        hour = moment - moment % 60
        return self.used[(airport, kind, hour)] < table.allowed(airport, kind, hour)


@dataclass(slots=True)
class Label:
    value: float
    ready: int  # time the aircraft is ready to leave (arrival of its last flight)
    airport: str
    flown: int  # flying minutes so far (maintenance limit)
    last_number: int
    order: int  # position of the last flight in the candidate order (keeps the search acyclic)
    step: Step | None
    parent: Label | None
    ferried: bool = False  # at most one ferry per rotation keeps the search small


def earliest_departure(plan: Plan, aircraft, f: DatedFlight | Ferry, earliest: int, end: int) -> int | None:
    """First departure >= earliest clear of unavailability and with room at both airports, or None."""
    net = plan.net
    departure = earliest
    blocks = [(u.start, u.end) for u in net.instance.unavailabilities if u.aircraft == aircraft.id]
    if aircraft.maintenance:
        blocks.append((aircraft.maintenance.start, aircraft.maintenance.end))
    for _ in range(48):
        if departure + f.duration > end:
            return None
        moved = False
        for start, stop in blocks:
            if departure < stop and departure + f.duration > start:
                departure, moved = stop, True
        if moved:
            continue
        if not plan.room(f.origin, "D", departure):
            departure += 60 - departure % 60  # the departure hour is full: try the next hour
        elif not plan.room(f.destination, "A", departure + f.duration):
            departure += 60 - (departure + f.duration) % 60  # land in the next hour
        else:
            return departure
    return None


def _maintenance_ok(aircraft, label: Label, departure: int | None) -> bool:
    """The slot must be spent at its airport within the flying limit when the ground stay covers it."""
    slot = aircraft.maintenance
    if slot is None or label.ready > slot.start:
        return True
    if departure is not None and departure < slot.end:
        return True  # the slot is still ahead of this flight
    return label.airport == slot.airport and label.flown <= slot.flying_limit


def replan(
    plan: Plan,
    aircraft_id: str,
    weights: Weights,
    candidates_pool: set[int],
    extra=(),
    banned: frozenset[int] = frozenset(),
) -> None:
    """Re-plan one aircraft over its released flights, `extra` ones (its planned flights at construction)
    and those of `candidates_pool` (cancelled flights) it may fly, never the `banned` ones (a search move
    that hands a flight to another tail); the pool is updated in place."""
    net = plan.net
    aircraft = net.aircraft[aircraft_id]
    if aircraft.ground_link:
        return  # its flights are all fixed (network.fixed_prefix)
    previous: list[Step] = [
        (i, plan.departure[i]) for i in plan.rotation[aircraft_id] if i not in set(net.fixed_prefix[aircraft_id])
    ]
    previous += [(ferry, ferry.departure) for ferry in plan.ferries[aircraft_id]]
    own = plan.release(aircraft_id) + [i for i in extra if plan.aircraft_of[i] is None]
    candidates = sorted(
        {i for i in own if i not in banned}
        | {
            i
            for i in candidates_pool
            if _may_fly(net.flights[i], aircraft) and plan.aircraft_of[i] is None and i not in banned
        },
        key=lambda i: net.flights[i].required_departure or net.flights[i].planned_departure,
    )
    path = _best_path(plan, aircraft, candidates, weights)
    if path is None and not weights.ferries:  # no legal end (its maintenance airport out of reach): try a ferry
        path = _best_path(plan, aircraft, candidates, replace(weights, ferries=True))
    path = path or []
    mandatory = {i for i in own if net.flights[i].status == "disrupted"}
    if not mandatory <= {i for i, _ in path}:  # a disrupted flight keeps its tail: widen the search, else undo
        path = _best_path(plan, aircraft, candidates, replace(weights, max_delay=10**6)) or []
        if not mandatory <= {i for i, _ in path} and previous:
            path = previous
    plan.assign(aircraft_id, path)
    chosen = {i for i, _ in path if not isinstance(i, Ferry)}
    candidates_pool.difference_update(chosen)
    candidates_pool.update(i for i in own if i not in chosen)


def _may_fly(f: DatedFlight, aircraft) -> bool:
    return f.status == "free" and f.family == aircraft.family and f.duration <= aircraft.range


def start_label(plan: Plan, aircraft) -> Label:
    net = plan.net
    prefix = net.fixed_prefix[aircraft.id]
    if not prefix:
        return Label(0.0, -(10**9), aircraft.initial_airport, 0, 0, -1, None, None)
    last = net.flights[prefix[-1]]
    flown = sum(net.flights[i].duration for i in prefix)
    return Label(0.0, plan.departure[last.idx] + last.duration, last.destination, flown, last.number, -1, None, None)


def seat_count(aircraft) -> int:
    """Seats over all cabins (the CDG-ORY ground links list -1 a cabin: none)."""
    return sum(max(0, n) for n in aircraft.seats.values())


def _step_value(
    net: Network, f: DatedFlight, aircraft, delay: int, weights: Weights, previous_planned: str | None = None
) -> float:
    if f.status == "disrupted":
        return MANDATORY_BONUS
    value = UNBOOKED_BONUS if net.rules.keep_unbooked and not f.booked else 0.0
    carried = 1.0
    if f.passengers > (seats := seat_count(aircraft)):
        carried -= weights.spill_factor * (f.passengers - seats) / f.passengers
    value += weights.cancel_factor * f.cancel_worth * carried
    if net.instance.config.credit_cancelled_flights:  # flying it costs what cancelling it would save
        value -= operating_cost(net, f, f.planned_aircraft)
    value -= weights.delay_factor * f.delay_rate * delay + net.instance.config.flight_delay_per_minute * delay
    price = net.instance.config.swap_per_tail_pair
    if aircraft.id != f.planned_aircraft and price is None:
        value -= operating_cost(net, f, aircraft.id) - operating_cost(net, f, f.planned_aircraft)
    elif aircraft.id != f.planned_aircraft and f.planned_aircraft != previous_planned and price is not None:
        value -= net.instance.config.alpha * price  # priced per pair of tails: once where the swapped run starts
    return value


def _best_path(plan: Plan, aircraft, candidates: list[int], weights: Weights) -> list[Step] | None:
    """The most valuable legal rotation over the candidates, or None when none ends legally."""
    net = plan.net
    end = net.instance.config.window_end
    by_origin: dict[str, list[int]] = {}
    for order, idx in enumerate(candidates):
        by_origin.setdefault(net.flights[idx].origin, []).append(order)
    labels: list[list[Label]] = [[] for _ in candidates]
    own_origins = {net.flights[i].origin for i in candidates if net.flights[i].planned_aircraft == aircraft.id}
    start = start_label(plan, aircraft)
    best, best_value = None, float("-inf")
    frontier = [start]
    for order in range(-1, len(candidates)):
        current = frontier if order == -1 else labels[order]
        queue = list(current)
        while queue:
            label = queue.pop()
            terminal = _terminal_value(net, aircraft, label, weights)
            if terminal is not None and terminal > best_value:
                best, best_value = label, terminal
            orders = by_origin.get(label.airport, [])
            for k in orders[bisect.bisect_right(orders, label.order) :]:
                _extend(plan, aircraft, label, k, candidates[k], labels, weights, end)
            if weights.ferries and not label.ferried and net.instance.config.new_flights:
                queue.extend(_ferries(plan, aircraft, label, end, own_origins))
    if best is None:
        return None
    steps = []
    while best is not None and best.step is not None:
        steps.append(best.step)
        best = best.parent
    return steps[::-1]


def _extend(plan, aircraft, label: Label, order: int, idx: int, labels, weights: Weights, end: int) -> None:
    f = plan.net.flights[idx]
    gap = aircraft.transit if f.previous and f.previous == label.last_number else aircraft.turn_round
    may_leave = max(f.planned_departure, f.not_before)  # a held flight's delay to its hold is not the plan's
    earliest = max(may_leave, label.ready + gap, plan.hold.get(idx, 0))
    # A flight nobody booked that must not be cancelled may wait as long as the window allows: its delay
    # costs no passenger anything.
    max_delay = 10**6 if plan.net.rules.keep_unbooked and not f.booked else weights.max_delay
    if f.status == "disrupted":
        departure = f.required_departure if earliest <= f.required_departure else None
    elif earliest - may_leave > max_delay:
        return
    else:
        departure = earliest_departure(plan, aircraft, f, earliest, end)
    if departure is None or (departure - may_leave > max_delay and f.status != "disrupted"):
        return
    if f.crew_slack is not None and f.status == "free" and departure - f.planned_departure > f.crew_slack:
        return  # its crew's duty would run past a limit: a crew is a resource like the aircraft (crew_checks)
    if departure + f.duration > end or not _maintenance_ok(aircraft, label, departure):
        return
    previous = None  # the planned tail of the label's last flight, where a swap is priced per pair of tails
    if plan.net.instance.config.swap_per_tail_pair is not None and label.step and isinstance(label.step[0], int):
        previous = plan.net.flights[label.step[0]].planned_aircraft
    value = label.value + _step_value(plan.net, f, aircraft, departure - f.planned_departure, weights, previous)
    new = Label(
        value, departure + f.duration, f.destination, label.flown + f.duration, f.number, order, (idx, departure), label
    )
    bucket = labels[order]
    if any(other.value >= new.value and other.ready <= new.ready for other in bucket):
        return
    bucket[:] = [o for o in bucket if not (new.value >= o.value and new.ready <= o.ready)] + [new]
    if len(bucket) > MAX_LABELS:
        bucket.sort(key=lambda o: -o.value)
        del bucket[MAX_LABELS:]


def _ferries(plan: Plan, aircraft, label: Label, end: int, own_origins: set[str]) -> list[Label]:
    """Labels after a ferry to the end airport or, while a maintenance slot is ahead, to its airport or
    back onto the tail's own schedule (where one of its flights leaves, e.g. one that then reaches it)."""
    net = plan.net
    targets = {net.target_airport[aircraft.id]}
    slot = aircraft.maintenance
    if slot is not None and label.ready <= slot.start:  # only a pending slot justifies a hop onto own flights
        targets |= own_origins | {slot.airport}
    found = []
    for target in sorted(targets - {label.airport}):
        route = net.instance.routes.get((label.airport, target))
        if route is None or route.duration > aircraft.range:
            continue
        probe = Ferry(label.airport, target, 0, route.duration)
        earliest = max(label.ready + aircraft.turn_round, net.instance.config.window_start)
        departure = earliest_departure(plan, aircraft, probe, earliest, end)
        if departure is None or not _maintenance_ok(aircraft, label, departure):
            continue
        ferry = Ferry(label.airport, target, departure, route.duration)
        cost = net.instance.config.alpha * billed_hours(route.duration) * aircraft.cost_per_hour
        found.append(
            Label(
                label.value - cost,
                departure + route.duration,
                target,
                label.flown + route.duration,
                0,
                label.order,
                (ferry, departure),
                label,
                True,
            )
        )
    return found


def _terminal_value(net: Network, aircraft, label: Label, weights: Weights) -> float | None:
    if not _maintenance_ok(aircraft, label, None):
        return None
    value = label.value
    if label.airport != net.target_airport[aircraft.id]:
        value -= weights.position_penalty * net.instance.config.gamma * net.instance.config.penalty_family
    return value
