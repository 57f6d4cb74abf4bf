"""The lower bound's aircraft flow over time (lower_bound.py, `step` given): a time-space network per *fleet* — the
tails of one kind (lower_bound._Kind), save that a tail with an unavailability or a maintenance slot is a fleet of
its own — on a grid of `step` minutes.

Each planned flight that may change has one copy per fleet able to fly it and per grid slot τ from its earliest to
its latest departure; the copy stands for every departure in [max(τ, earliest), τ + step) and runs from node
(origin, τ) to node (destination, ⌊max(τ, earliest) + duration⌋), ⌊·⌋ the grid. A new flight has a copy per fleet
able to fly its route and per slot in the window, the same way. Fixed flights are flows of one on their tail's fleet
from (origin, ⌊departure⌋) to (destination, ⌊arrival⌋). Each fleet's tails enter at their initial airports before
every slot and leave at the end (their ending airport, lower_bound._positions); ground arcs join the nodes of a
fleet's airport in time order.

Why every plan P the checker accepts is a flow (the argument of lower_bound.py's docstring holds copy by copy):
map each flight of P to the copy of its tail's fleet at τ = ⌊its departure⌋. A tail's flights leave one after
another from where the last landed (check_rotations: continuity, from its initial airport), each departure at or
after the landing before it, so ⌊next departure⌋ ≥ ⌊landing⌋ ≥ the arrival node of the copy (⌊·⌋ is monotone and
the copy's arrival is at most the flight's): the ground arcs go forward in time. A tail of a fleet of its own flies
nothing overlapping its unavailability or maintenance slot (check_flights), so a copy every departure of which
would overlap one has no column. Turn-rounds, airport capacities above 0 and the maintenance airport and flying
limit are not modelled (each only lowers the bound).
"""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from .bound_lp import _LP, INF, Copy
from .flight_checks import CapacityTable
from .model import Aircraft, Instance

START, END = -(1 << 40), 1 << 40  # the node every fleet enters at, and the node its ending airport is read from


@dataclass(frozen=True, slots=True)
class Fleet:
    """Tails alike for the bound: one kind (the key of lower_bound._kinds), or one tail with blocked times."""

    kind: tuple[str, float, int, int]
    tails: tuple[Aircraft, ...]
    blocked: tuple[tuple[int, int], ...] = ()  # [start, end) with no flight overlapping (its one tail's)
    ground: int = field(init=False)  # the least time a tail of it stays on the ground between two flights

    def __post_init__(self) -> None:  # read on every arc: computed once (turn-round, or transit on a through flight)
        object.__setattr__(self, "ground", max(0, min(min(a.turn_round, a.transit) for a in self.tails)))

    @property
    def ground_link(self) -> bool:
        return self.tails[0].ground_link  # fleets() pools ground links apart


@dataclass(slots=True)
class TimeSpace:
    """The arcs of every fleet, joined into nodes once all are known (`close`)."""

    step: int
    fleets: list[Fleet]
    arcs: list[tuple[int, tuple, tuple]] = field(default_factory=list)  # column, from node, to node
    balance: dict[tuple, float] = field(default_factory=lambda: defaultdict(float))  # tails put in at a node
    moves: list[tuple[int, str, str, Copy, int]] = field(default_factory=list)  # arcs taking airport slots
    fixed_moves: Counter = field(default_factory=Counter)  # (airport, 'D'|'A', hour) → fixed flights' movements

    def grid(self, minute: int) -> int:
        return minute - minute % self.step

    def arc(self, column: int, fleet: int, origin: str, destination: str, copy: Copy, duration: int) -> None:
        """The copy's arc: it reaches the node of its earliest landing plus the fleet's least ground time (the next
        flight leaves no earlier: check_rotations' turn-round or transit)."""
        ground = self.fleets[fleet].ground
        self.arcs.append(
            (column, (fleet, origin, copy.slot), (fleet, destination, self.grid(copy.lower + duration + ground)))
        )
        if not self.fleets[fleet].ground_link:  # a ground link's flights take no airport slot (movements_per_hour)
            self.moves.append((column, origin, destination, copy, duration))

    def fixed(self, fleet: int, origin: str, destination: str, departure: int, duration: int) -> None:
        ground = self.fleets[fleet].ground
        self.balance[(fleet, origin, self.grid(departure))] -= 1.0
        self.balance[(fleet, destination, self.grid(departure + duration + ground))] += 1.0
        if not self.fleets[fleet].ground_link:
            for airport, kind, moment in ((origin, "D", departure), (destination, "A", departure + duration)):
                self.fixed_moves[(airport, kind, moment - moment % 60)] += 1

    def capacity(self, lp: _LP, instance: Instance) -> None:
        """Airport capacity per clock hour (check_airport_capacity): the copies whose every departure falls in one
        hour of the window use a departure slot of it; those whose every arrival falls in one hour, or in two
        consecutive ones, an arrival slot of them (a row per hour and per pair of hours: each counts a subset of
        the movements there). Less the fixed flights' movements; a row is made only where it could bind. Needs
        the grid to divide the hour (a copy's departures then lie in one hour)."""
        if 60 % self.step:
            return
        table, start, end = CapacityTable(instance), instance.config.window_start, instance.config.window_end
        using: dict[tuple[str, str, tuple[int, ...]], list[int]] = defaultdict(list)
        for column, origin, destination, copy, duration in self.moves:
            if start <= copy.lower and copy.upper < end:
                using[(origin, "D", (copy.slot - copy.slot % 60,))].append(column)
            first, last = copy.lower + duration, copy.upper + duration
            if start <= first and last < end:
                h0, h1 = first - first % 60, last - last % 60
                spans: list[tuple[int, ...]] = [(h0, h0 + 60), (h0 - 60, h0), (h0,)] if h0 == h1 else [(h0, h1)]
                for hours in spans:
                    using[(destination, "A", hours)].append(column)
        for (airport, kind, hours), columns in using.items():
            if any(not start <= h < end for h in hours):
                continue
            room = sum(table.allowed(airport, kind, h) - self.fixed_moves[(airport, kind, h)] for h in hours)
            if len(columns) > room:
                r = lp.row(-INF, max(0.0, float(room)))
                for column in columns:
                    lp.entries[column].append((r, 1.0))

    def close(self, lp: _LP) -> dict[tuple[int, str], int]:
        """Rows of flow conservation (in − out = −tails put in), ground arcs; returns each fleet's ending column
        per airport (tails of that fleet ending there)."""
        fleets = self.fleets
        for i, fleet in enumerate(fleets):
            for tail in fleet.tails:
                self.balance[(i, tail.initial_airport, START)] += 1.0
        times: dict[tuple[int, str], set[int]] = defaultdict(set)
        for node in self.balance:
            times[node[:2]].add(node[2])
        for _, u, v in self.arcs:
            times[u[:2]].add(u[2])
            times[v[:2]].add(v[2])
        row: dict[tuple, int] = {}
        ending: dict[tuple[int, str], int] = {}
        for (i, airport), moments in times.items():
            ordered = sorted(moments | {START, END})
            for t in ordered:
                b = self.balance.get((i, airport, t), 0.0)
                row[(i, airport, t)] = lp.row(-b, -b)
            most = float(len(fleets[i].tails))
            for a, b in itertools.pairwise(ordered):
                lp.col("ground", 0.0, most, [(row[(i, airport, a)], -1.0), (row[(i, airport, b)], 1.0)])
            ending[(i, airport)] = lp.col("ending", 0.0, most, [(row[(i, airport, END)], -1.0)])
        for column, u, v in self.arcs:
            lp.entries[column] += [(row[u], -1.0), (row[v], 1.0)]
        return ending


def fleets(instance: Instance, kind_of: Callable[[Aircraft], tuple[str, float, int, int]]) -> list[Fleet]:
    """One fleet per kind, and one per tail with an unavailability or a maintenance slot."""
    blocked: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for b in instance.unavailabilities:
        blocked[b.aircraft].append((b.start, b.end))
    for a in instance.aircraft.values():
        if a.maintenance:
            blocked[a.id].append((a.maintenance.start, a.maintenance.end))
    pooled: dict[tuple, list[Aircraft]] = defaultdict(list)  # by kind, ground links apart (they take no slot)
    out = []
    for a in sorted(instance.aircraft.values(), key=lambda a: a.id):
        if blocked.get(a.id):
            out.append(Fleet(kind_of(a), (a,), tuple(sorted(blocked[a.id]))))
        else:
            pooled[(kind_of(a), a.ground_link)].append(a)
    return [Fleet(k, tuple(tails)) for (k, _), tails in sorted(pooled.items())] + out


def copies(step: int, lower: int, upper: int, duration: int, blocked: tuple[tuple[int, int], ...]) -> Iterator[Copy]:
    """The grid slots of departures in [lower, upper], less those whose every departure overlaps a blocked time."""
    slot = lower - lower % step
    while slot <= upper:
        first, last = max(slot, lower), min(slot + step - 1, upper)
        if not any(first + duration > b0 and last < b1 for b0, b1 in blocked):
            yield Copy(slot, first, last)
        slot += step
