"""A provably valid lower bound on the official 2009 cost (`cost.evaluate(...).total`) of every plan the checker
accepts: the optimum of an LP relaxation, solved by HiGHS (`highspy`), minus a rounding margin.

The LP (variables fractional, integrality dropped):
  y_{g,K} ≥ 0   planned flight g that may change flown by a tail of kind K (the tails of g's family alike in
                cost per hour, seats and range, able to fly g); y_g = Σ_K y_{g,K} ≤ 1 (0: cancelled); fixed
                flights (history, ground links, imposed delays: flight_checks._check_imposed) fly, imposed
                cancellations do not;
  z_{K,r} ≥ 0   new flights on route r by tails of kind K;  e_{F,s}, u_{F,s} ≥ 0: family F's tails ending at s, and
                the requirement of position.csv at s they leave short;
  per itinerary i (p_i passengers): k_i kept on its booked legs, c_i cancelled (or stopped where its history
                ends), w_{i,g} re-routed with last leg g (a planned flight into its destination; per way of
                reaching g's origin, below), w_{i,new} with a new flight as last leg, w_{i,late} with a last leg
                landing later than the listed ones.
With `step` (bound_timed.py) each y_{g,K} and z_{K,r} is split per grid slot τ of its departure and the aircraft
flow runs over time; k_i and w_{i,g} are then split per copy of their last leg (priced at its lower end, linked
to it: a flight flies at one time), a route's new flights in a slot are a last or first leg like a planned flight
(bound_routes.py), and a re-routed line's first leg is priced. The argument below holds copy by copy;
bound_timed.py gives the flow's.

It is valid clause by clause against cost.evaluate (cost = α·(comp_cancel + comp_delay − decrease + increase
+ swapped + late) + β·(delay + outbound + inbound + downgrade) + γ·positions), given a feasible plan P:
  * Every line of P falls in one class: its booked legs exactly (k), empty or stopping short (c), or reaching
    the destination otherwise (w, by its last leg). Setting the LP's variables from P's counts meets every row:
      - passenger counts (check_itineraries): k + c + Σw = p_i;
      - seats: on flight g, the passengers kept plus those whose re-routed line starts or ends on g are ≤
        what g carries ≤ the seats of its tail = Σ_K seats_K·y_{g,K} (y_{g,K} = 1 for the kind of the tail flying
        it, swaps keep the family); new flights into d: Σ w_{i,new} ≤ Σ_{K,r→d} seats_K·z_{K,r} (ground links
        seat nobody) — timed, per route and slot: the lines whose first or last leg they are ≤ their seats, and
        a trip's ≤ p_i × their number;
      - per trip and flight (g not fixed): k_i·[g booked] + (lines starting on g) + w_{i,g} ≤ p_i·y_g. The kept
        passengers (on every booked leg), those whose line starts with g and those whose line ends with g (a
        re-routed line's first and last legs differ) are disjoint sets of i's passengers on g: at most p_i
        when g flies, none when it is cancelled (a flight is flown wholly or not at all). This row is what
        stops the LP flying a fraction of g and seating the whole trip on that fraction;
      - aircraft: each tail's flights form a path from its initial airport (check_rotations: initial
        position, continuity), so per family and airport, start + flights in − flights out = tails ending
        there (e ≥ 0); a tail airborne at the window's end counts nowhere in cost.final_airports, which only
        raises the real penalty;
      - time: a tail flies its window flights one after another (continuity), never in an unavailability or
        its maintenance slot, so per kind K the minutes flown in the window by K's tails (fixed flights by
        their own tail's kind, Σ_g duration·y_{g,K}, new flights) fit K's tails' free minutes.
  * The LP's objective at that point is ≤ P's cost:
      - operating cost (cost.operating_costs): a cancelled planned flight credits α·hours·its planned
        tail's hourly cost (exact); a flown one costs α·hours·(hourly_K − planned), K its tail's kind (exact;
        0 ≤ its share where a swap is priced per pair of tails); a new flight costs α·hours·hourly_K (exact;
        none where CostConfig.new_flights forbids them); billed hours are exact (fixed by check_flights);
      - passengers (cost._add_line): a cancelled or stopped line is priced exactly (its direction: an
        empty outbound line is an outbound cancellation, every other a inbound one); a line reaching the
        destination costs β·rate·delay + α·compensation(delay) + β·downgrade ≥ the same at any lower delay
        with downgrade 0 (rate ≥ 0, compensation non-decreasing); its delay is at least
        (kept) every booked leg at its earliest departure with the strict connections between them (timed: on
        a copy of the last leg leaving no earlier than that chain lets the passengers board);
        (re-routed by g) g at the later of its earliest departure and the earliest time the passengers can
        be at g's origin — from where and when their re-booked legs may start (checker: not before the
        booked departure nor the window; after the history and a connection): g leaves from there; or one
        leg took them there, a planned flight f (its copy's lower end, its seats and links) or a route's new
        flights (timed: their slot, their seats); or two legs or more did, over the shortest such route path,
        any route at any time, as new flights may (these three are every line whose last leg is g; without
        `step`, the shortest route path of any legs, free); (new, without `step`) the shortest route path to
        the destination;
        (late) the least delay of the last legs not listed. A flight's earliest departure is its planned
        one, its hold, then past hours of 0 capacity at either end (check_airport_capacity); its latest lands by
        the window's end within its crew pairings' slack (check_crews); an imposed delay is exact. Lines an outbound delay limit or the window's end forbid have no column;
      - positions (cost.end_position_penalty): the greedy matching leaves a requirement of family F at s
        unmatched only when F's tails there are fewer, each at penalty_family; other matches cost ≥ 0;
      - the flight-delay cost (0 in 2009): each planned flight flown at least its earliest departure's (its
        copy's) minutes late, a fixed one exactly.
  So LP optimum ≤ cost(P). The value returned is not the solver's objective but the Lagrangian bound of its
  duals (`safe_dual_bound`), valid for any multipliers: tolerances cannot lift it above the LP's optimum, and
  a dual simplex stopped by its time limit still gives a valid (lower) value.
  New flights also land in clock hours Z_{s,b}: a trip's passengers use an hour's new flights only as far as
  one exists (w ≤ p·Z, valid since a flight is whole or absent) and no more than the biggest tail seats.
  Coefficient signs the argument needs (α, β, γ, delay rates, downgrade and position penalties ≥ 0) are
  checked; `lower_bound` raises ValueError otherwise.
Last legs landing more than `horizon` minutes late share one uncapacitated column (fewer columns, a lower
bound). What it does not model (each only lowers the bound): without `step` aircraft timing and positions over
time and airport capacities above 0; turn-rounds, crews, the seats of middle legs, downgrades, cabins.
"""

from __future__ import annotations

import time
from collections import defaultdict
from dataclasses import dataclass

from .bound_facts import FlightFacts, flight_facts, seats_of, trip_bounds
from .bound_lp import _LP, INF, Copy, Key, NewFlights, Offer, safe_dual_bound
from .bound_passengers import passengers
from .bound_timed import Fleet, TimeSpace, copies, fleets
from .cost import billed_hours
from .flight_checks import planned_departure
from .model import STRICT, Aircraft, Instance, Rules

HORIZON = 360  # minutes of delay beyond which a trip's last legs are not listed one by one

__all__ = ["HORIZON", "LowerBound", "build", "lower_bound", "safe_dual_bound"]


@dataclass(frozen=True, slots=True)
class LowerBound:
    value: float  # ≤ cost.evaluate(instance, P).total for every plan P the checker accepts
    seconds: float
    columns: int
    rows: int


def _check_signs(instance: Instance) -> None:
    cfg = instance.config
    signs = [cfg.alpha, cfg.beta, cfg.gamma, cfg.penalty_family, cfg.penalty_model, cfg.penalty_config]
    signs += [*cfg.delay_per_minute.values(), *cfg.downgrade.values(), cfg.flight_delay_per_minute]
    signs.append(cfg.swap_per_tail_pair or 0.0)
    if min(signs) < 0:
        raise ValueError("the lower bound assumes non-negative weights, delay, downgrade, position and swap costs")


@dataclass(frozen=True, slots=True)
class _Kind:
    """The tails of one family alike in cost per hour, seats and range, and the row of their free minutes."""

    family: str
    hourly: float
    seats: int
    range: int
    clock: int
    minutes: float


def _kind_key(a: Aircraft) -> tuple[str, float, int, int]:
    return (a.family, a.cost_per_hour, seats_of(a), a.range)


def _kinds(instance: Instance, lp: _LP) -> dict[tuple[str, float, int, int], _Kind]:
    """One clock row per kind: the minutes its tails fly in the window ≤ their minutes outside unavailabilities
    and maintenance (each tail flies its flights one after another)."""
    minutes: dict[tuple[str, float, int, int], float] = defaultdict(float)
    for a in instance.aircraft.values():
        minutes[_kind_key(a)] += _free_minutes(instance, a)
    return {k: _Kind(*k, lp.row(-INF, m), m) for k, m in sorted(minutes.items())}


def build(
    instance: Instance, rules: Rules = STRICT, horizon: int = HORIZON, step: int | None = None, new_flights: bool = True
) -> _LP:
    """The LP; with `step`, the aircraft flow over time on a grid of that many minutes (bound_timed.py); without
    `new_flights`, over the plans that fly planned flights only (a bound on those, not on every plan)."""
    _check_signs(instance)
    if step is not None and step < 1:
        raise ValueError(f"the time-space grid needs a step of at least one minute, not {step}")
    cfg, lp = instance.config, _LP()
    new_flights = new_flights and cfg.new_flights
    flights = flight_facts(instance)
    credit = 1.0 if cfg.credit_cancelled_flights else 0.0
    late = cfg.alpha * cfg.flight_delay_per_minute  # per minute a planned flight leaves late (cost.flight_delay_cost)
    kinds = _kinds(instance, lp)
    tail_of = {(ref.number, ref.day): instance.aircraft[tail] for ref, tail in instance.rotations}
    pool = fleets(instance, _kind_key) if step else []
    space = TimeSpace(step, pool) if step else None
    fleet_of = {a.id: i for i, fleet in enumerate(pool) for a in fleet.tails}
    offers: dict[Key, list[Offer]] = {}  # a flight's copies and their columns y_{g,K,τ}: y_g = the sum of them all
    seat_rows: dict[Key, int] = {}
    trips = trip_bounds(instance, flights, rules)
    for key, f in flights.items():
        if f.cancelled:
            if not f.fixed:
                lp.constant -= cfg.alpha * credit * f.hours * f.planned_hourly
            continue
        planned = planned_departure(instance, *key)
        if f.fixed:  # flown by its own tail at its time
            kind = kinds[_kind_key(tail_of[key])]
            lp.row_upper[kind.clock] -= max(
                0, min(f.earliest + f.duration, cfg.window_end) - max(f.earliest, cfg.window_start)
            )
            lp.constant += late * max(0, f.earliest - planned)
            if space is not None:
                space.fixed(fleet_of[tail_of[key].id], f.origin, f.destination, f.earliest, f.duration)
            if f.earliest <= f.latest:
                seat_rows[key] = lp.row(-INF, f.seats)
            continue
        lp.constant -= cfg.alpha * credit * f.hours * f.planned_hourly  # as if cancelled; flying takes it back
        if f.earliest > f.latest:
            continue  # cannot fly: cancelled in every plan
        seat_rows[key] = lp.row(-INF, 0.0)
        once = lp.row(-INF, 1.0)  # Σ y_{g,K,τ} ≤ 1
        able = [k for k in kinds.values() if k.family == f.family and k.range >= f.duration]
        able = able or [kinds[_kind_key(tail_of[key])]]

        def column(
            k: _Kind, lower: int, f: FlightFacts = f, once: int = once, key: Key = key, planned: int = planned
        ) -> int:
            swap = k.hourly - f.planned_hourly if cfg.swap_per_tail_pair is None else 0.0  # a pair's price ≥ 0
            flown = cfg.alpha * f.hours * (swap + credit * f.planned_hourly)
            entries = [(once, 1.0), (seat_rows[key], -float(k.seats)), (k.clock, float(f.duration))]
            return lp.col("flight", flown + late * max(0, lower - planned), 1.0, entries)

        if space is None:
            offers[key] = [Offer(Copy(f.earliest, f.earliest, f.latest), [column(k, f.earliest) for k in able])]
            continue
        by_slot: dict[int, Offer] = {}
        for i, fleet in enumerate(pool):
            k = kinds[fleet.kind]
            if k not in able:
                continue
            for c in copies(space.step, f.earliest, f.latest, f.duration, fleet.blocked):
                col = column(k, c.lower)
                space.arc(col, i, f.origin, f.destination, c, f.duration)
                by_slot.setdefault(c.slot, Offer(c, [])).columns.append(col)
        offers[key] = [by_slot[slot] for slot in sorted(by_slot)]
    if space is None:
        new = _aircraft(instance, lp, flights, offers, kinds, new_flights)
    else:
        new = _timed_aircraft(instance, lp, kinds, pool, space, new_flights)
    passengers(instance, lp, flights, offers, seat_rows, new, trips, horizon, space is not None, new_flights)
    return lp


def _aircraft(
    instance: Instance,
    lp: _LP,
    flights: dict[Key, FlightFacts],
    offers: dict[Key, list[Offer]],
    kinds: dict[tuple[str, float, int, int], _Kind],
    new_flights: bool = True,
) -> NewFlights:
    """Flow of each family's tails per airport, new flights and end positions; returns the rows new flights
    offer passengers."""
    cfg = instance.config
    fleet: dict[str, list] = defaultdict(list)
    for a in instance.aircraft.values():
        fleet[a.family].append(a)
    airports = _airports(instance)
    flow = {(fam, s): lp.row(0.0, 0.0) for fam in fleet for s in airports}  # start + in − out − e = 0
    supply: dict[tuple[str, str], float] = defaultdict(float)
    for a in instance.aircraft.values():
        supply[(a.family, a.initial_airport)] += 1.0
    for key, f in flights.items():
        if f.cancelled:
            continue
        for col in (c for offer in offers.get(key, ()) for c in offer.columns):
            lp.entries[col] += [(flow[(f.family, f.destination)], 1.0), (flow[(f.family, f.origin)], -1.0)]
        if f.fixed:
            supply[(f.family, f.destination)] += 1.0
            supply[(f.family, f.origin)] -= 1.0
    ending: dict[tuple[str, str], list[int]] = {}
    for (fam, s), row in flow.items():
        lp.row_lower[row] = lp.row_upper[row] = -supply[(fam, s)]
        ending[(fam, s)] = [lp.col("ending", 0.0, float(len(fleet[fam])), [(row, -1.0)])]
    new_rows, count_rows = _new_flight_rows(lp, airports)
    for (origin, destination), route in instance.routes.items() if new_flights else ():
        for k in kinds.values():
            if k.range < route.duration:
                continue
            fam = k.family
            entries = [(flow[(fam, destination)], 1.0), (flow[(fam, origin)], -1.0)]
            entries += [(k.clock, float(route.duration)), (new_rows[destination], -float(k.seats))]
            entries.append((count_rows[destination], 1.0))
            # at most as many as the kind's free minutes fly (finite bounds keep the dual bound finite)
            upper = k.minutes / max(1, route.duration)
            lp.col("new", cfg.alpha * billed_hours(route.duration) * k.hourly, upper, entries)
    _positions(instance, lp, ending)
    return _new_flights(instance, kinds, new_rows, count_rows)


def _airports(instance: Instance) -> list[str]:
    return sorted({s for r in instance.routes for s in r} | {a.initial_airport for a in instance.aircraft.values()})


def _new_flight_rows(lp: _LP, airports: list[str]) -> tuple[dict[str, int], dict[str, int]]:
    """Passengers landing at s by new flights ≤ their seats; new flights landing at s − Σ_b Z_{s,b} ≥ 0."""
    return {s: lp.row(-INF, 0.0) for s in airports}, {s: lp.row(0.0, INF) for s in airports}


def _new_flights(instance: Instance, kinds, new_rows: dict[str, int], count_rows: dict[str, int]) -> NewFlights:
    most = max((seats_of(a) for a in instance.aircraft.values()), default=0)
    shortest = min((r.duration for r in instance.routes.values() if r.duration > 0), default=1)
    upper = sum(k.minutes for k in kinds.values()) / max(1, shortest)
    return NewFlights(new_rows, count_rows, most, upper)


def _timed_aircraft(
    instance: Instance,
    lp: _LP,
    kinds: dict[tuple[str, float, int, int], _Kind],
    pool: list[Fleet],
    space: TimeSpace,
    new_flights: bool = True,
) -> NewFlights:
    """New flights as copies per fleet and slot (their seats offered per route and slot), the time-space network
    closed, end positions."""
    cfg = instance.config
    new = _new_flights(instance, kinds, {}, {})
    for (origin, destination), route in instance.routes.items() if new_flights else ():
        slots = new.by_route.setdefault((origin, destination), {})
        for i, fleet in enumerate(pool):
            k = kinds[fleet.kind]
            if k.range < route.duration:
                continue
            cost = cfg.alpha * billed_hours(route.duration) * k.hourly
            for c in copies(
                space.step, cfg.window_start, cfg.window_end - route.duration, route.duration, fleet.blocked
            ):
                col = lp.col("new", cost, float(len(fleet.tails)), [(k.clock, float(route.duration))])
                space.arc(col, i, origin, destination, c, route.duration)
                slots.setdefault(c.slot, (c, []))[1].append((col, float(k.seats)))
    space.capacity(lp, instance)
    ending: dict[tuple[str, str], list[int]] = defaultdict(list)
    for (i, airport), col in space.close(lp).items():
        ending[(pool[i].kind[0], airport)].append(col)
    _positions(instance, lp, ending)
    return new


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


def _positions(instance: Instance, lp: _LP, ending: dict[tuple[str, str], list[int]]) -> None:
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
        for col in ending[(fam, s)]:
            lp.entries[col].append((row, 1.0))
        lp.col("short", cfg.gamma * cfg.penalty_family, float(count), [(row, 1.0)])


def lower_bound(
    instance: Instance,
    rules: Rules = STRICT,
    horizon: int = HORIZON,
    time_limit: float = 60.0,
    step: int | None = None,
    new_flights: bool = True,
) -> LowerBound | None:
    """The bound, or None where highspy is missing or the LP's duals are not available. A time limit stops the
    dual simplex with dual-feasible multipliers: their safe bound is still valid, only lower. `step`: the aircraft
    flow over time on a grid of that many minutes (bound_timed.py; tighter, bigger), else per airport only."""
    try:
        import highspy
    except ImportError:
        return None
    began = time.monotonic()
    lp = build(instance, rules, horizon, step, new_flights)
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
