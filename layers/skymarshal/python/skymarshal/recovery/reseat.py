"""Passenger re-seating by a MIP over candidate routes (HiGHS), for one fixed aircraft plan.

The greedy planner (passengers.py) seats intact trips first and re-routes the rest one by one on their
earliest arrival; where seats are short it cancels whoever comes last. Here every trip chooses among
options priced by the official cost function itself: its greedy lines (so the MIP is never worse), its
booked legs in each cabin, up to `ALTERNATIVES` other routes (each first flight out of where it stands,
then the earliest arrival from there) in each cabin, and cancellation — or, for a trip partly flown before
the window, stopping where its fixed part ends. Integer passenger counts per option; one row per trip
(everyone placed once) and per flight and cabin (seats). Every option is a line the checker accepts
(continuity, connection times, outbound delay limit, fixed part kept), so only the seats bind.

highspy is optional (the agent Lambda's set has pydantic only): without it `reseat` returns None.
"""

from __future__ import annotations

import bisect
import time
from collections.abc import Sequence
from dataclasses import dataclass

from .aircraft_plan import Plan
from .cost import _add_line, _PassengerCosts
from .model import CABINS, Cabin, ItineraryKind
from .passengers import PassengerLine, _intact, _Router, _Seats, rebooking
from .rows import LegRow

ALTERNATIVES = 6  # routes per trip besides its booked legs: enough to spread a full flight's passengers
MIP_SECONDS = 40.0  # set B under load: 20 s left B07 without a MIP solution at 60 s (the greedy start kept)
# Within 0.1 % of the best bound: A10's first re-seating proves 1e-6 in 20 s and 1e-3 in 8 s, 0.015 % dearer.
MIP_GAP = 1e-3


@dataclass(slots=True, frozen=True)
class _Option:
    trip: int
    legs: tuple[tuple[int, Cabin], ...]  # empty: cancelled
    cost: float  # per passenger, weighted as in the total


class _AnySeat(_Seats):
    """Routes ignore how full a flight is (the MIP's seat rows decide), not flights with no seat at all."""

    def __init__(self, plan: Plan):
        self.seated = {idx for idx, cabins in _capacities(plan).items() if any(cabins.values())}

    def total(self, idx: int) -> int:
        return 1 if idx in self.seated else 0


def _capacities(plan: Plan) -> dict[int, dict[str, int]]:
    return {
        idx: {cabin: max(0, n) for cabin, n in plan.net.aircraft[a].seats.items()}
        for idx, a in enumerate(plan.aircraft_of)
        if a is not None
    }


@dataclass(slots=True, frozen=True)
class _Line:
    id: int
    kind: ItineraryKind
    price: float
    passengers: int
    legs: tuple[LegRow, ...]


class _Pricer:
    """Per-passenger cost of a line, by the cost module's own line function (exact by construction)."""

    def __init__(self, plan: Plan):
        net = plan.net
        self.plan, self.instance = plan, net.instance
        cfg = net.instance.config
        self.alpha, self.beta = cfg.alpha, cfg.beta
        self.arrivals = {
            (f.number, f.day): (plan.departure[f.idx] + f.duration, f.destination)
            for f in net.flights
            if plan.aircraft_of[f.idx] is not None
        }

    def __call__(self, t: int, legs: Sequence[tuple[int, Cabin]]) -> float:
        net = self.plan.net
        trip = net.trips[t]
        it = trip.itinerary
        rows = tuple(LegRow(net.flights[i].number, net.flights[i].day, c) for i, c in legs)
        costs = _PassengerCosts()
        _add_line(self.instance, trip.facts, _Line(it.id, it.kind, it.price, 1, rows), self.arrivals, costs)
        return self.alpha * (costs.cancel_compensation + costs.delay_compensation) + self.beta * (
            costs.delay + costs.outbound + costs.inbound + costs.downgrade
        )


def _options(plan: Plan, greedy: list[PassengerLine], stop_at: float = float("inf")) -> list[_Option] | None:
    """Every trip's options, or None once `stop_at` (time.monotonic()) passes: routing them takes up to 15 s
    on set B, and the search's final re-seating must end within its time limit."""
    net = plan.net
    price = _Pricer(plan)
    router = _Router(plan, _AnySeat(plan))
    full = _full_flights(plan, greedy)
    routes: dict[tuple[str, int, str, int], list[list[int]]] = {}
    onward: dict[tuple[int, str, int], list[int] | None] = {}  # first flight, destination, deadline -> the rest
    legs_of: dict[int, set[tuple[tuple[int, Cabin], ...]]] = {t: set() for t in range(len(net.trips))}
    for line in greedy:
        legs_of[line.trip].add(tuple(line.legs))
    for t, trip in enumerate(net.trips):
        if t % 256 == 0 and time.monotonic() > stop_at:
            return None
        fixed = tuple(trip.booked[: trip.fixed_legs])
        if any(plan.aircraft_of[idx] is None for idx, _ in fixed):
            continue  # history cancelled under them: only the greedy's line
        legs_of[t].add(fixed)  # cancelled, or stopped where the fixed part ends
        if _intact(plan, trip):
            booked = tuple(trip.booked)
            legs_of[t].add(booked)
            for cabin in CABINS:
                legs_of[t].add(fixed + tuple((idx, cabin) for idx, _ in booked[len(fixed) :]))
            if full.isdisjoint(trip.flights):
                continue  # seated as booked with room to spare: it need not move to make room
        origin, ready, deadline = rebooking(plan, trip)
        key = (origin, ready, trip.facts.destination, deadline)
        if key not in routes:
            routes[key] = _alternatives(plan, router, onward, *key)
        for path in routes[key]:
            for cabin in CABINS:
                legs_of[t].add(fixed + tuple((idx, cabin) for idx in path))
    options = []
    for t, variants in legs_of.items():
        for legs in variants:
            if all(plan.aircraft_of[i] is not None for i, _ in legs):
                options.append(_Option(t, legs, price(t, legs)))
    return options


def _full_flights(plan: Plan, greedy: list[PassengerLine]) -> set[int]:
    """Flights the greedy seating filled in some cabin: the trips on them may move to make room."""
    capacity = _capacities(plan)
    free = {idx: dict(cabins) for idx, cabins in capacity.items()}
    for line in greedy:
        for idx, cabin in line.legs:
            free[idx][cabin] -= line.passengers
    return {idx for idx, cabins in free.items() if any(n <= 0 < capacity[idx][c] for c, n in cabins.items())}


def _alternatives(
    plan: Plan,
    router: _Router,
    onward: dict[tuple[int, str, int], list[int] | None],
    origin: str,
    ready: int,
    destination: str,
    deadline: int,
) -> list[list[int]]:
    """Up to ALTERNATIVES routes: for each flight out of the origin (earliest first), it and the earliest
    arrival onwards from where it lands."""
    net = plan.net
    found: list[list[int]] = []
    flights = router.out.get(origin, [])
    for departure, idx in flights[bisect.bisect_left(flights, (ready, -1)) :]:
        if router.seats.total(idx) == 0:
            continue
        f = net.flights[idx]
        arrival = departure + f.duration
        if arrival > deadline:
            continue
        if f.destination == destination:
            found.append([idx])
        else:
            key = (idx, destination, deadline)
            if key not in onward:
                onward[key] = router.route(f.destination, arrival + net.instance.min_connection, destination, deadline)
            rest = onward[key]
            if rest is None or origin in {net.flights[i].destination for i in rest}:
                continue
            found.append([idx, *rest])
        if len(found) >= ALTERNATIVES:
            break
    return found


def reseat(plan: Plan, greedy: list[PassengerLine], seconds: float = MIP_SECONDS) -> list[PassengerLine] | None:
    """The cheapest seating of every trip over its options within `seconds` (routing the options included;
    the MIP itself at most MIP_SECONDS), or None (no highspy, or no solution in time)."""
    try:
        import highspy
    except ImportError:
        return None
    stop_at = time.monotonic() + seconds
    net = plan.net
    options = _options(plan, greedy, stop_at)
    if options is None:
        return None
    capacity = _capacities(plan)
    seat_row: dict[tuple[int, str], int] = {}
    for flight, cabins in capacity.items():
        for cabin in cabins:
            seat_row[(flight, cabin)] = len(seat_row)
    trip_row0 = len(seat_row)
    lower = [0.0] * len(seat_row) + [float(t.itinerary.passengers) for t in net.trips]
    upper = [float(capacity[f][c]) for f, c in seat_row] + lower[trip_row0:]
    starts, index, value = [0], [], []
    for option in options:
        for idx, cabin in option.legs:
            index.append(seat_row[(idx, cabin)])
            value.append(1.0)
        index.append(trip_row0 + option.trip)
        value.append(1.0)
        starts.append(len(index))
    # Trips without any option (their history was cancelled) keep the greedy lines: their row is dropped.
    covered = {o.trip for o in options}
    for t in range(len(net.trips)):
        if t not in covered:
            lower[trip_row0 + t], upper[trip_row0 + t] = 0.0, 0.0
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("time_limit", max(0.1, min(MIP_SECONDS, stop_at - time.monotonic())))
    h.setOptionValue("mip_rel_gap", MIP_GAP)
    h.setOptionValue("threads", 1)
    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = len(options), len(lower)
    lp.col_cost_ = [o.cost for o in options]
    lp.col_lower_ = [0.0] * len(options)
    lp.col_upper_ = [float(net.trips[o.trip].itinerary.passengers) for o in options]
    lp.row_lower_, lp.row_upper_ = lower, upper
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_, lp.a_matrix_.index_, lp.a_matrix_.value_ = starts, index, value
    lp.integrality_ = [highspy.HighsVarType.kInteger] * len(options)
    h.passModel(lp)
    # The greedy seating as the MIP's start (its lines are options): a MIP stopped by its time limit on a
    # loaded machine returns at least the greedy's cost instead of nothing (B07 at 60 s).
    if (x0 := _greedy_start(options, greedy)) is not None:
        start = highspy.HighsSolution()
        start.col_value, start.value_valid = x0, True
        h.setSolution(start)
    h.run()
    if h.getModelStatus() not in (highspy.HighsModelStatus.kOptimal, highspy.HighsModelStatus.kTimeLimit):
        return None
    info = h.getInfo()
    if info.primal_solution_status != 2:  # kSolutionStatusFeasible
        return None
    x = h.getSolution().col_value
    lines = [line for line in greedy if line.trip not in covered]
    for option, n in zip(options, x):
        if round(n) > 0:
            lines.append(PassengerLine(option.trip, round(n), list(option.legs)))
    return lines


def _greedy_start(options: list[_Option], greedy: list[PassengerLine]) -> list[float] | None:
    """Passengers per option as the greedy seated them (None if a line is not an option: no start)."""
    column = {(o.trip, o.legs): k for k, o in enumerate(options)}
    x = [0.0] * len(options)
    for line in greedy:
        k = column.get((line.trip, tuple(line.legs)))
        if k is None:
            return None
        x[k] += line.passengers
    return x


class Reseater:
    """When the search re-seats its incumbent by the MIP: it costs ~10 greedy seatings on set A and ~100 on
    set B, so at most `share` of the run goes to it (plus the final incumbent's, if it was never re-seated)."""

    def __init__(self, started: float, share: float = 0.25):
        self.started, self.share = started, share
        self.spent = 0.0
        self.last = 0.0  # seconds the latest re-seating took: the final one is reserved half as long again
        self.available = True

    def worth(self, now: float) -> bool:
        return self.available and self.spent <= self.share * (now - self.started)

    def __call__(self, plan: Plan, greedy: list[PassengerLine], seconds: float) -> list[PassengerLine] | None:
        t0 = time.monotonic()
        lines = reseat(plan, greedy, max(0.5, seconds))
        self.last = time.monotonic() - t0
        self.spent += self.last
        if lines is None and not _has_highspy():
            self.available = False
        return lines


def _has_highspy() -> bool:
    try:
        import highspy  # noqa: F401
    except ImportError:
        return False
    return True
