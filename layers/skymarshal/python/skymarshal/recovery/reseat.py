"""Passenger re-seating by a MIP over candidate routes (HiGHS), for one fixed aircraft plan.

The greedy planner (passengers.py) seats intact trips first and re-routes the rest one by one on their
earliest arrival; where seats are short it cancels whoever comes last. Here every trip chooses among
options priced by the official cost function itself: its greedy lines (so the MIP is never worse), its
booked legs in each cabin, up to `ALTERNATIVES` other routes (each first flight out of where it stands,
then the earliest arrival from there) in each cabin, and cancellation — or, for a trip partly flown before
the window, stopping where its fixed part ends. Integer passenger counts per option; one row per trip
(everyone placed once) and per flight and cabin (seats). Every option is a line the checker accepts
(continuity, connection times, outbound delay limit, fixed part kept), so only the seats bind.

A re-seating may be limited to some trips (`free`): the others keep their lines, whose seats are taken off
the flights' capacity. The search re-seats only the trips whose lines changed since its last MIP seating: a
set-B model of every trip (~120,000 columns) takes 15-40 s, one of the trips a few hundred moves touched
takes a second or two.

highspy is optional (the agent Lambda's set has pydantic only): without it `reseat` returns None.
"""

from __future__ import annotations

import bisect
import time
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from .aircraft_plan import Plan
from .cost import _add_line, _PassengerCosts
from .model import CABINS, Cabin, ItineraryKind
from .passengers import PassengerLine, _intact, _Router, _Seats, rebooking
from .rows import LegRow

ALTERNATIVES = 6  # routes per trip besides its booked legs: enough to spread a full flight's passengers
MIP_SECONDS = 40.0  # set B under load: 20 s left B07 without a MIP solution at 60 s (the greedy start kept)
# Within 0.1 % of the best bound: A10's first re-seating proves 1e-6 in 20 s and 1e-3 in 8 s, 0.015 % dearer;
# at 0.5 % B07 stops 15 s sooner but A10 keeps a seating 0.5 % dearer than the one 1e-3 finds.
MIP_GAP = 1e-3
# From this many columns the root LP is solved by interior point: B07's whole-trip model (124,000 columns)
# 14 s by dual simplex, 5 s by IPM (its MIP 35 -> 20 s at the same gap); below it simplex is as fast or faster
# (B01's 77,000: 1.7 s against 3.4 s, A07's 6,000: 0.1 s both).
IPM_COLUMNS = 100_000
WHOLE_SECONDS = 10.0  # a re-seating of every trip quicker than this is repeated whole (see Reseater)


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


def _options(
    plan: Plan, greedy: list[PassengerLine], free: Collection[int], stop_at: float = float("inf")
) -> list[_Option] | None:
    """The options of the trips in `free`, or None once `stop_at` (time.monotonic()) passes: routing every
    trip takes up to 15 s on set B, and the search's final re-seating must end within its time limit."""
    net = plan.net
    price = _Pricer(plan)
    router = _Router(plan, _AnySeat(plan))
    full = _full_flights(plan, greedy)
    routes: dict[tuple[str, int, str, int], list[list[int]]] = {}
    onward: dict[tuple[int, str, int], list[int] | None] = {}  # first flight, destination, deadline -> the rest
    legs_of: dict[int, set[tuple[tuple[int, Cabin], ...]]] = {t: set() for t in free}
    for line in greedy:
        if line.trip in legs_of:
            legs_of[line.trip].add(tuple(line.legs))
    for k, t in enumerate(sorted(free)):
        trip = net.trips[t]
        if k % 256 == 0 and time.monotonic() > stop_at:
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


def reseat(
    plan: Plan, greedy: list[PassengerLine], seconds: float = MIP_SECONDS, free: Collection[int] | None = None
) -> list[PassengerLine] | None:
    """The cheapest seating over their options of the trips in `free` (default: every trip; the others keep
    their greedy lines) within `seconds` (routing the options included; the MIP itself at most MIP_SECONDS),
    or None (no highspy, or no solution in time)."""
    try:
        import highspy
    except ImportError:
        return None
    stop_at = time.monotonic() + seconds
    net = plan.net
    options = _options(plan, greedy, range(len(net.trips)) if free is None else free, stop_at)
    if options is None:
        return None
    covered = {o.trip for o in options}
    lower, upper, (starts, index, value) = _rows(plan, greedy, options, covered)
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("time_limit", max(0.1, min(MIP_SECONDS, stop_at - time.monotonic())))
    h.setOptionValue("mip_rel_gap", MIP_GAP)
    h.setOptionValue("threads", 1)
    if len(options) >= IPM_COLUMNS:
        h.setOptionValue("mip_lp_solver", "ipm")
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


def _rows(
    plan: Plan, greedy: list[PassengerLine], options: list[_Option], covered: set[int]
) -> tuple[list[float], list[float], tuple[list[int], list[int], list[float]]]:
    """The rows' bounds (seats per flight and cabin, then passengers per covered trip) and the option columns.
    Trips without any option (not free, or their history was cancelled) keep their greedy lines: their seats
    are off the capacity."""
    capacity = _capacities(plan)
    for line in greedy:
        if line.trip not in covered:
            for idx, cabin in line.legs:
                capacity[idx][cabin] -= line.passengers
    seat_row: dict[tuple[int, str], int] = {}
    for flight, cabins in capacity.items():
        for name in cabins:
            seat_row[(flight, name)] = len(seat_row)
    trip_row = {t: len(seat_row) + k for k, t in enumerate(sorted(covered))}
    lower = [0.0] * len(seat_row) + [float(plan.net.trips[t].itinerary.passengers) for t in sorted(covered)]
    upper = [float(max(0, capacity[f][c])) for f, c in seat_row] + lower[len(seat_row) :]
    starts, index, value = [0], [], []
    for option in options:
        for idx, cabin in option.legs:
            index.append(seat_row[(idx, cabin)])
            value.append(1.0)
        index.append(trip_row[option.trip])
        value.append(1.0)
        starts.append(len(index))
    return lower, upper, (starts, index, value)


def _greedy_start(options: list[_Option], greedy: list[PassengerLine]) -> list[float] | None:
    """Passengers per option as the greedy seated the covered trips (None if a line is not an option: no start)."""
    column = {(o.trip, o.legs): k for k, o in enumerate(options)}
    x = [0.0] * len(options)
    covered = {o.trip for o in options}
    for line in greedy:
        if line.trip not in covered:
            continue  # kept as it is: its seats are off the capacity
        k = column.get((line.trip, tuple(line.legs)))
        if k is None:
            return None
        x[k] += line.passengers
    return x


class Reseater:
    """When and over which trips the search re-seats its incumbent by the MIP: at most `share` of the run goes
    to it (plus the final incumbent's, if it was never re-seated). A re-seating takes every trip while that
    is quick (set A: 0.1-1 s, A10 up to 8); once it is not (set B: 15-40 s), later ones take only the trips
    whose lines changed since the last re-seating the search kept (the other lines are that MIP's, or
    untouched since). A07 at 60 s: 191,000-196,000 re-seating every trip after each improvement, 206,000-223,000
    re-seating only the changed ones."""

    def __init__(self, started: float, share: float = 0.25):
        self.started, self.share = started, share
        # Every re-seating counts, the first too: leaving it out let A10 (18-29 s for the first under load)
        # re-seat after each of its ~50 improvements, 300 steps a minute instead of 600-900 (60 s: 6.4M, 4.8-6.0M
        # counted), and B05, B07, B10 did as well or better counted (8.52M, 9.34M, 29.68M).
        self.spent = 0.0
        self.last = 0.0  # seconds the latest re-seating took: the final one is reserved half as long again
        self.available = True
        self.whole = 0.0  # seconds the latest re-seating of every trip took
        self._seated: list[PassengerLine] = []  # the last kept re-seating's lines (held: their ids stay theirs)
        self._seated_ids: set[int] = set()

    @property
    def incremental(self) -> bool:
        """Whether re-seatings take only the trips changed since the last kept one (see the class)."""
        return bool(self._seated) and self.whole > WHOLE_SECONDS

    def worth(self, now: float) -> bool:
        return self.available and (not self._seated or self.spent <= self.share * (now - self.started))

    def changed(self, lines: list[PassengerLine]) -> set[int] | None:
        """The trips with a line the last kept re-seating did not give them (None: every trip)."""
        if not self.incremental:
            return None
        return {line.trip for line in lines if id(line) not in self._seated_ids}

    def kept(self, lines: list[PassengerLine]) -> None:
        """The search made this re-seating its incumbent's: later ones start from its lines."""
        self._seated, self._seated_ids = lines, {id(line) for line in lines}

    def __call__(self, plan: Plan, greedy: list[PassengerLine], seconds: float) -> list[PassengerLine] | None:
        t0 = time.monotonic()
        free = self.changed(greedy)
        lines = reseat(plan, greedy, max(0.5, seconds), free) if free is None or free else None
        self.last = time.monotonic() - t0
        self.spent += self.last
        if free is None:
            self.whole = self.last
        if lines is None and not _has_highspy():
            self.available = False
        return lines


def _has_highspy() -> bool:
    try:
        import highspy  # noqa: F401
    except ImportError:
        return False
    return True
