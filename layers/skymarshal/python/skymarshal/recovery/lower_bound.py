"""A provably valid lower bound on the official 2009 cost (`cost.evaluate(...).total`) of every plan the checker
accepts: the optimum of an LP relaxation, solved by HiGHS (`highspy`), minus a rounding margin.

The LP (variables fractional, integrality dropped):
  y_g ∈ [0, 1]  each planned flight that may change is flown (1) or cancelled (0); fixed flights (history,
                ground links, imposed delays: flight_checks._check_imposed) fly, imposed cancellations do not;
  z_{F,r} ≥ 0   new flights on route r by family F;  e_{F,s}, u_{F,s} ≥ 0: family F's tails ending at s, and
                the requirement of position.csv at s they leave short;
  per itinerary i (p_i passengers): k_i kept on its booked legs, c_i cancelled (or stopped where its history
                ends), w_{i,g} re-routed with last leg g (a planned flight into its destination), w_{i,new}
                with a new flight as last leg, w_{i,late} with a last leg landing later than the listed ones.

It is valid clause by clause against cost.evaluate (cost = α·(comp_cancel + comp_delay − decrease + increase
+ swapped + late) + β·(delay + outbound + inbound + downgrade) + γ·positions), given a feasible plan P:
  * Every line of P falls in one class: its booked legs exactly (k), empty or stopping short (c), or reaching
    the destination otherwise (w, by its last leg). Setting the LP's variables from P's counts meets every row:
      - passenger counts (check_itineraries): k + c + Σw = p_i;
      - seats: on flight g, the passengers kept plus those whose re-routed line ends on g are ≤ what g
        carries ≤ seats of the biggest tail of its family able to fly it (swaps keep the family) × y_g;
        new flights into d: Σ w_{i,new} ≤ Σ_r→d seats_{F,r}·z_{F,r} (ground links seat nobody);
      - a kept passenger needs every booked leg flown: k_i ≤ p_i·y_g;
      - aircraft: each tail's flights form a path from its initial airport (check_rotations: initial
        position, continuity), so per family and airport, start + flights in − flights out = tails ending
        there (e ≥ 0); a tail airborne at the window's end counts nowhere in cost.final_airports, which only
        raises the real penalty;
      - time: a tail flies its window flights one after another (continuity), never in an unavailability or
        its maintenance slot, so per family the minutes flown in the window fit the tails' free minutes.
  * The LP's objective at that point is ≤ P's cost:
      - operating cost (cost.operating_costs): a cancelled planned flight credits α·hours·its planned
        tail's hourly cost (exact); a flown one costs α·hours·(tail − planned) ≥ α·hours·(cheapest tail of
        the family with the range − planned); a new flight costs α·hours·hourly ≥ α·hours·(its family's
        cheapest tail with the range); billed hours are exact (durations are fixed by check_flights);
      - passengers (cost._add_line): a cancelled or stopped line is priced exactly (its direction: an
        empty outbound line is an outbound cancellation, every other a inbound one); a line reaching the
        destination costs β·rate·delay + α·compensation(delay) + β·downgrade ≥ the same at any lower delay
        with downgrade 0 (rate ≥ 0, compensation non-decreasing); its delay is at least
        (kept) every booked leg at its earliest departure with the strict connections between them;
        (re-routed by g) g at the later of its earliest departure and the earliest time the passengers can
        be at g's origin — from where and when their re-booked legs may start (checker: not before the
        booked departure nor the window; after the history and a connection) over the shortest route path,
        any route at any time, as a new flight may; (new) the same shortest path to the destination;
        (late) the least delay of the last legs not listed. A flight's earliest departure is its planned
        one, its hold, then past hours of 0 capacity at either end (check_airport_capacity); an imposed
        delay is exact. Lines an outbound delay limit or the window's end forbid have no column;
      - positions (cost.end_position_penalty): the greedy matching leaves a requirement of family F at s
        unmatched only when F's tails there are fewer, each at penalty_family; other matches cost ≥ 0;
      - the flight-delay cost (0 in 2009) is ≥ 0 and counted 0.
  So LP optimum ≤ cost(P). The value returned is not the solver's objective but the Lagrangian bound of its
  duals (`safe_dual_bound`), valid for any multipliers: tolerances cannot lift it above the LP's optimum, and
  a dual simplex stopped by its time limit still gives a valid (lower) value.
  New flights also land in clock hours Z_{s,b}: a trip's passengers use an hour's new flights only as far as
  one exists (w ≤ p·Z, valid since a flight is whole or absent) and no more than the biggest tail seats.
  Coefficient signs the argument needs (α, β, γ, delay rates, downgrade and position penalties ≥ 0) are
  checked; `lower_bound` raises ValueError otherwise.
Last legs landing more than `horizon` minutes late share one uncapacitated column (fewer columns, a lower
bound). What it does not model (each only lowers the bound): aircraft timing and positions over time,
partial airport capacities, turn-rounds, first legs' seats, downgrades, cabins.
"""

from __future__ import annotations

import time
from collections import defaultdict
from dataclasses import dataclass, field

from .bound_facts import FlightFacts, TripBound, flight_facts, ready_times, seats_of, trip_bounds, usable
from .cost import billed_hours
from .model import STRICT, Instance, Rules

HORIZON = 360  # minutes of delay beyond which a trip's last legs are not listed one by one
MARGIN = 1e-9  # relative: the floating-point sums of the dual bound


@dataclass(frozen=True, slots=True)
class LowerBound:
    value: float  # ≤ cost.evaluate(instance, P).total for every plan P the checker accepts
    seconds: float
    columns: int
    rows: int


class _LP:
    """A column-wise LP under construction."""

    def __init__(self) -> None:
        self.cost: list[float] = []
        self.lower: list[float] = []
        self.upper: list[float] = []
        self.entries: list[list[tuple[int, float]]] = []
        self.kinds: list[str] = []  # what each column is (flight, new, ending, short, keep, cancel, route, late)
        self.row_lower: list[float] = []
        self.row_upper: list[float] = []
        self.constant = 0.0

    def row(self, lower: float, upper: float) -> int:
        self.row_lower.append(lower)
        self.row_upper.append(upper)
        return len(self.row_lower) - 1

    def col(self, kind: str, cost: float, upper: float, entries: list[tuple[int, float]]) -> int:
        self.kinds.append(kind)
        self.cost.append(cost)
        self.lower.append(0.0)
        self.upper.append(upper)
        self.entries.append(entries)
        return len(self.cost) - 1


INF = float("inf")


def _check_signs(instance: Instance) -> None:
    cfg = instance.config
    signs = [cfg.alpha, cfg.beta, cfg.gamma, cfg.penalty_family, cfg.penalty_model, cfg.penalty_config]
    signs += [*cfg.delay_per_minute.values(), *cfg.downgrade.values(), cfg.flight_delay_per_minute]
    if min(signs) < 0:
        raise ValueError("the lower bound assumes non-negative weights, delay, downgrade and position costs")


def build(instance: Instance, rules: Rules = STRICT, horizon: int = HORIZON) -> _LP:
    _check_signs(instance)
    cfg, lp = instance.config, _LP()
    flights = flight_facts(instance)
    credit = 1.0 if cfg.credit_cancelled_flights else 0.0
    y: dict[tuple[int, int], int] = {}
    for key, f in flights.items():
        if f.fixed:
            continue  # flown by its own tail: no operating-cost component
        lp.constant -= cfg.alpha * credit * f.hours * f.planned_hourly  # as if cancelled; flying takes it back
        if not f.cancelled:
            flown = cfg.alpha * f.hours * (f.cheapest_hourly - f.planned_hourly + credit * f.planned_hourly)
            y[key] = lp.col("flight", flown, 1.0 if f.earliest <= f.latest else 0.0, [])
    seat_rows = {
        key: lp.row(-INF, 0.0 if key in y else f.seats)
        for key, f in flights.items()
        if not f.cancelled and f.earliest <= f.latest
    }
    for key, row in seat_rows.items():
        if key in y:
            lp.entries[y[key]].append((row, -flights[key].seats))
    new = _aircraft(instance, lp, flights, y)
    _passengers(instance, lp, flights, y, seat_rows, new, trip_bounds(instance, flights, rules), horizon)
    return lp


def _aircraft(
    instance: Instance, lp: _LP, flights: dict[tuple[int, int], FlightFacts], y: dict[tuple[int, int], int]
) -> NewFlights:
    """Flow of each family's tails per airport, their flying minutes, new flights and end positions; returns
    the rows new flights offer passengers."""
    cfg = instance.config
    start, end = cfg.window_start, cfg.window_end
    fleet: dict[str, list] = defaultdict(list)
    for a in instance.aircraft.values():
        fleet[a.family].append(a)
    airports = sorted({s for r in instance.routes for s in r} | {a.initial_airport for a in instance.aircraft.values()})
    flow = {(fam, s): lp.row(0.0, 0.0) for fam in fleet for s in airports}  # start + in − out − e = 0
    supply: dict[tuple[str, str], float] = defaultdict(float)
    for a in instance.aircraft.values():
        supply[(a.family, a.initial_airport)] += 1.0
    busy: dict[str, float] = defaultdict(float)  # minutes fixed flights take in the window
    shortest = [r.duration for r in instance.routes.values() if r.duration > 0]
    minutes = {fam: float(sum(_free_minutes(instance, a) for a in tails)) for fam, tails in fleet.items()}
    clock = {fam: lp.row(-INF, minutes[fam]) for fam in fleet}
    for key, f in flights.items():
        if f.cancelled:
            continue
        if key in y:
            lp.entries[y[key]] += [(flow[(f.family, f.destination)], 1.0), (flow[(f.family, f.origin)], -1.0)]
            lp.entries[y[key]].append((clock[f.family], float(f.duration)))
        else:
            supply[(f.family, f.destination)] += 1.0
            supply[(f.family, f.origin)] -= 1.0
            busy[f.family] += max(0, min(f.earliest + f.duration, end) - max(f.earliest, start))
    for fam in fleet:
        lp.row_upper[clock[fam]] -= busy[fam]
    ending = {}
    for (fam, s), row in flow.items():
        lp.row_lower[row] = lp.row_upper[row] = -supply[(fam, s)]
        ending[(fam, s)] = lp.col("ending", 0.0, float(len(fleet[fam])), [(row, -1.0)])
    new_rows = {s: lp.row(-INF, 0.0) for s in airports}  # passengers landing by new flights ≤ their seats
    count_rows = {s: lp.row(0.0, INF) for s in airports}  # new flights landing at s − Σ_b Z_{s,b} ≥ 0
    for (origin, destination), route in instance.routes.items():
        for fam, tails in fleet.items():
            for hourly, seats in _types([a for a in tails if usable(a, route.duration)]):
                entries = [(flow[(fam, destination)], 1.0), (flow[(fam, origin)], -1.0)]
                entries += [(clock[fam], float(route.duration)), (new_rows[destination], -float(seats))]
                entries.append((count_rows[destination], 1.0))
                # at most as many as the family's free minutes fly (finite bounds keep the dual bound finite)
                upper = minutes[fam] / max(1, route.duration)
                lp.col("new", cfg.alpha * billed_hours(route.duration) * hourly, upper, entries)
    _positions(instance, lp, ending)
    most = max((seats_of(a) for a in instance.aircraft.values()), default=0)
    return NewFlights(new_rows, count_rows, most, sum(minutes.values()) / max(1, min(shortest, default=1)))


def _types(tails: list) -> list[tuple[float, int]]:
    """The (cost per hour, seats) of the tails, less those another beats on both (cheaper and no fewer seats)."""
    kinds = {(a.cost_per_hour, seats_of(a)) for a in tails}
    return sorted(k for k in kinds if not any(o != k and o[0] <= k[0] and o[1] >= k[1] for o in kinds))


@dataclass(slots=True)
class NewFlights:
    """The rows new flights give passengers: seats landing per airport (any family, any time), how many land,
    and per landing hour Z_{s,b} (made on demand): each carries at most `most` seats, and a trip uses a
    landing hour's flights only as far as that hour has one (w ≤ p·Z: a flight is whole or absent)."""

    seats: dict[str, int]
    count: dict[str, int]
    most: int
    upper: float
    hours: dict[tuple[str, int], tuple[int, int]] = field(default_factory=dict)  # → (Z column, seat row)

    def hour(self, lp: _LP, airport: str, hour: int) -> tuple[int, int]:
        if (airport, hour) not in self.hours:
            seat_row = lp.row(-INF, 0.0)
            z = lp.col("landing", 0.0, self.upper, [(self.count[airport], -1.0), (seat_row, -float(self.most))])
            self.hours[(airport, hour)] = (z, seat_row)
        return self.hours[(airport, hour)]


def _free_minutes(instance: Instance, aircraft) -> int:
    """The window's minutes outside the tail's unavailabilities and maintenance slot (no flight there)."""
    start, end = instance.config.window_start, instance.config.window_end
    blocks = [(b.start, b.end) for b in instance.unavailabilities if b.aircraft == aircraft.id]
    if aircraft.maintenance:
        blocks.append((aircraft.maintenance.start, aircraft.maintenance.end))
    free, cursor = 0, start
    for lo, hi in sorted(blocks):
        lo, hi = max(lo, start), min(hi, end)
        if hi <= lo:
            continue
        free += max(0, lo - cursor)
        cursor = max(cursor, hi)
    return free + max(0, end - cursor)


def _positions(instance: Instance, lp: _LP, ending: dict[tuple[str, str], int]) -> None:
    cfg = instance.config
    family_of = {a.model: a.family for a in instance.aircraft.values()}
    need: dict[tuple[str, str], int] = defaultdict(int)
    for p in instance.positions:
        need[(family_of.get(p.model, ""), p.airport)] += p.count
    for (fam, s), count in need.items():
        if (fam, s) not in ending:  # no tail of that family: every one of them is missed
            lp.constant += cfg.gamma * cfg.penalty_family * count
            continue
        row = lp.row(float(count), INF)  # e + u ≥ need
        lp.entries[ending[(fam, s)]].append((row, 1.0))
        lp.col("short", cfg.gamma * cfg.penalty_family, float(count), [(row, 1.0)])


def _passengers(
    instance: Instance,
    lp: _LP,
    flights: dict[tuple[int, int], FlightFacts],
    y: dict[tuple[int, int], int],
    seat_rows: dict[tuple[int, int], int],
    new: NewFlights,
    trips: list[TripBound],
    horizon: int,
) -> None:
    into: dict[str, list[FlightFacts]] = defaultdict(list)
    for key, f in flights.items():
        if key in seat_rows:
            into[f.destination].append(f)
    reach = ready_times(instance)
    conn = instance.min_connection
    for t in trips:
        p = float(t.itinerary.passengers)
        if p <= 0:
            continue
        row = lp.row(p, p)
        lp.col("cancel", t.cancel_cost, p, [(row, 1.0)])
        if t.keep_delay is not None and t.planned_arrival + t.keep_delay <= t.keep_deadline:
            entries = [(row, 1.0)] + [(seat_rows[k], 1.0) for k in t.legs if k in seat_rows]
            col = lp.col("keep", t.delay_cost(t.keep_delay), p, entries)
            for k in t.legs:
                if k in y:
                    lp.entries[col].append((lp.row(-INF, 0.0), 1.0))
                    lp.entries[y[k]].append((len(lp.row_lower) - 1, -p))
        at = reach.get(t.origin, {t.origin: 0})
        late = None
        for g in into[t.destination]:
            if g.origin != t.origin and g.origin not in at:
                continue
            there = t.ready + at[g.origin]
            leave = max(g.earliest, there)
            if leave > g.latest or leave + g.duration > t.deadline:
                continue
            delay = max(0, leave + g.duration - t.planned_arrival)
            if delay <= horizon:
                lp.col("route", t.delay_cost(delay), p, [(row, 1.0), (seat_rows[g.key], 1.0)])
            else:
                late = delay if late is None else min(late, delay)
        if t.destination in at and t.origin != t.destination:
            late = _by_new_flight(lp, new, t, row, t.ready + at[t.destination] - conn, horizon, late)
        if late is not None:
            lp.col("late", t.delay_cost(late), p, [(row, 1.0)])


def _by_new_flight(lp: _LP, new: NewFlights, t: TripBound, row: int, arrival: int, horizon: int, late):
    """Columns landing by a new flight in each clock hour from the earliest arrival (a shortest route path),
    up to the horizon; returns the least delay of those left to the late column."""
    p = float(t.itinerary.passengers)
    hour = arrival - arrival % 60
    while arrival <= t.deadline:
        delay = max(0, arrival - t.planned_arrival)
        if delay > horizon:
            return delay if late is None else min(late, delay)
        z, seat_row = new.hour(lp, t.destination, hour)
        link = lp.row(-INF, 0.0)  # w ≤ p·Z
        lp.entries[z].append((link, -p))
        entries = [(row, 1.0), (new.seats[t.destination], 1.0), (seat_row, 1.0), (link, 1.0)]
        lp.col("reroute_new", t.delay_cost(delay), p, entries)
        hour += 60
        arrival = hour
    return late


def lower_bound(
    instance: Instance, rules: Rules = STRICT, horizon: int = HORIZON, time_limit: float = 60.0
) -> LowerBound | None:
    """The bound, or None where highspy is missing or the LP's duals are not available. A time limit stops the
    dual simplex with dual-feasible multipliers: their safe bound is still valid, only lower."""
    try:
        import highspy
    except ImportError:
        return None
    began = time.monotonic()
    lp = build(instance, rules, horizon)
    model = highspy.HighsLp()
    model.num_col_, model.num_row_ = len(lp.cost), len(lp.row_lower)
    model.col_cost_, model.col_lower_, model.col_upper_ = lp.cost, lp.lower, lp.upper
    model.row_lower_, model.row_upper_ = lp.row_lower, lp.row_upper
    starts, index, value = [0], [], []
    for entries in lp.entries:
        for r, v in entries:
            index.append(r)
            value.append(v)
        starts.append(len(index))
    model.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    model.a_matrix_.start_, model.a_matrix_.index_, model.a_matrix_.value_ = starts, index, value
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("threads", 1)
    h.setOptionValue("time_limit", max(0.1, time_limit - (time.monotonic() - began)))
    h.passModel(model)
    h.run()
    if h.getModelStatus() not in (highspy.HighsModelStatus.kOptimal, highspy.HighsModelStatus.kTimeLimit):
        return None
    solution = h.getSolution()
    if not solution.dual_valid:
        return None
    bound = lp.constant + safe_dual_bound(lp, list(solution.row_dual), starts, index, value)
    if bound == -INF:
        return None
    return LowerBound(bound, time.monotonic() - began, model.num_col_, model.num_row_)


def safe_dual_bound(lp: _LP, duals: list[float], starts: list[int], index: list[int], value: list[float]) -> float:
    """min c·x over l ≤ x ≤ u, L ≤ Ax ≤ U is ≥ Σ_r min(π_r·L_r, π_r·U_r) + Σ_j min over x_j of (c_j − π·A_j)·x_j
    for ANY multipliers π (weak duality of the Lagrangian): the solver's duals, a row's multiplier zeroed
    where its side is infinite. Computed here rather than read from the solver, so tolerances cannot make
    it exceed the LP's optimum (Neumaier & Shcherbina's safe bound); every column's bounds are finite."""
    pi = list(duals)
    total = 0.0
    for r, (lo, hi) in enumerate(zip(lp.row_lower, lp.row_upper)):
        if (pi[r] > 0 and lo == -INF) or (pi[r] < 0 and hi == INF):
            pi[r] = 0.0
        total += pi[r] * (lo if pi[r] > 0 else hi) if pi[r] else 0.0
    for j, cost in enumerate(lp.cost):
        reduced = cost - sum(value[e] * pi[index[e]] for e in range(starts[j], starts[j + 1]))
        total += min(reduced * lp.lower[j], reduced * lp.upper[j])
    return total - MARGIN * (abs(total) + 1.0)
