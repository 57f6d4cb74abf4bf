"""The lower bound's LP under construction (lower_bound.py): its columns and rows, the flights' copies, the rows new
flights give passengers, and one trip's rows while its columns are made. The argument that every row holds for a
feasible plan is in lower_bound.py's docstring.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .bound_facts import FlightFacts, TripBound

INF = float("inf")
MARGIN = 1e-9  # relative: the floating-point sums of the dual bound
Key = tuple[int, int]
Entries = list[tuple[int, float]]


@dataclass(frozen=True, slots=True)
class Copy:
    """A flight flown at departures in [lower, upper]: one slot of the time-space network (bound_timed.py), or a
    flight's whole span in the LP per airport."""

    slot: int
    lower: int
    upper: int


class _LP:
    """A column-wise LP under construction."""

    def __init__(self) -> None:
        self.cost: list[float] = []
        self.lower: list[float] = []
        self.upper: list[float] = []
        self.entries: list[list[tuple[int, float]]] = []
        self.kinds: list[str] = []  # what each column is (flight, new, ending, short, keep, cancel, route, ...)
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
    # the timed LP's new flights by route and slot: their copy and columns with their seats; a row per route and
    # slot made when a passenger column first uses it (passengers on it ≤ its flights' seats)
    by_route: dict[tuple[str, str], dict[int, tuple[Copy, Entries]]] = field(default_factory=dict)
    route_rows: dict[tuple[str, str, int], int] = field(default_factory=dict)

    def route_seats(self, lp: _LP, origin: str, destination: str, slot: int) -> Entries:
        """The entry of the row Σ passengers on the new flights of (origin, destination) leaving in `slot` −
        their seats ≤ 0."""
        if (origin, destination, slot) not in self.route_rows:
            row = lp.row(-INF, 0.0)
            self.route_rows[(origin, destination, slot)] = row
            for col, seats in self.by_route[(origin, destination)][slot][1]:
                lp.entries[col].append((row, -seats))
        return [(self.route_rows[(origin, destination, slot)], 1.0)]

    def hour(self, lp: _LP, airport: str, hour: int) -> tuple[int, int]:
        if (airport, hour) not in self.hours:
            seat_row = lp.row(-INF, 0.0)
            z = lp.col("landing", 0.0, self.upper, [(self.count[airport], -1.0), (seat_row, -float(self.most))])
            self.hours[(airport, hour)] = (z, seat_row)
        return self.hours[(airport, hour)]


@dataclass(slots=True)
class Offer:
    """One copy of a flight (bound_timed.Copy) and its columns y_{g,K,τ}, one per fleet able to fly it then."""

    copy: Copy
    columns: list[int]


@dataclass(slots=True)
class _Trip:
    """One itinerary's rows while its columns are made: passenger count, links to flights and their copies."""

    t: TripBound
    p: float
    count: int
    lp: _LP
    offers: dict[Key, list[Offer]]
    seat_rows: dict[Key, int]
    links: dict[Key, int] = field(default_factory=dict)  # flight → Σ trip's passengers on it − p·y ≤ 0
    copy_links: dict[tuple[Key, int], int] = field(default_factory=dict)  # (flight, slot) → the same per copy
    new_links: dict[tuple[str, str, int], int] = field(default_factory=dict)  # (route, slot) → the same

    def link(self, key: Key) -> int:
        """The row Σ (trip's columns on flight `key`) − p·y_key ≤ 0, made once per trip and flight."""
        if key not in self.links:
            self.links[key] = self.lp.row(-INF, 0.0)
            for offer in self.offers[key]:
                for col in offer.columns:
                    self.lp.entries[col].append((self.links[key], -self.p))
        return self.links[key]

    def copies(self, f: FlightFacts) -> list[Copy]:
        """The copies a column on flight f may price (the lower and upper ends of its departures); one copy of
        its whole span for a fixed flight."""
        return (
            [o.copy for o in self.offers[f.key]] if f.key in self.offers else [Copy(f.earliest, f.earliest, f.latest)]
        )

    def copy_link(self, f: FlightFacts, copy: Copy) -> list[tuple[int, float]]:
        """The entry of the row Σ (trip's columns on f's copy) − p·y_{f,τ} ≤ 0 (a flight flies at one time), made
        when first used; none where f has one copy (the flight's own link says as much)."""
        offers = self.offers.get(f.key, ())
        if len(offers) <= 1:
            return []
        if (f.key, copy.slot) not in self.copy_links:
            row = self.lp.row(-INF, 0.0)
            self.copy_links[(f.key, copy.slot)] = row
            for offer in offers:
                if offer.copy.slot == copy.slot:
                    for col in offer.columns:
                        self.lp.entries[col].append((row, -self.p))
        return [(self.copy_links[(f.key, copy.slot)], 1.0)]

    def new_link(self, new: NewFlights, origin: str, destination: str, slot: int) -> Entries:
        """The entry of the row Σ (trip's columns on the route's new flights in `slot`) − p·(their number) ≤ 0: a
        flight is whole or absent, so a fraction of one seats no whole trip."""
        key = (origin, destination, slot)
        if key not in self.new_links:
            self.new_links[key] = self.lp.row(-INF, 0.0)
            for col, _ in new.by_route[(origin, destination)][slot][1]:
                self.lp.entries[col].append((self.new_links[key], -self.p))
        return [(self.new_links[key], 1.0)]


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
