"""Re-accommodation: every passenger of a cancelled or missed flight on the earliest arrival at their FINAL destination
the airline's own network offers, seats checked.

- Any flight number, direct or with one or two connections, leaving before the horizon (the caller's: the end of
  the next day) — the next day's same flight is then taken only when nothing earlier arrives.
- Seats: a flight's free seats are its capacity (type/config, per cabin) minus the bookings already on it minus the
  seats already given to other re-accommodated passengers (the ``SeatLedger``): never above capacity (EU261 Art. 8
  offers re-routing "under comparable transport conditions"; an own flight is overbooked by nobody's plan).
- Connections: each connection respects the connecting airport's minimum connection time (airport/carrier MCT,
  IATA SSIM chapter 8; ``rules.network.MCT_CLAUSE``); exactly the MCT holds.
- Order: parties with a protected connection (or a vulnerable or premium member) first, then by cabin (F, J, Y),
  then by when they are ready; a passenger sits in their own cabin, else an upgrade, else the best lower cabin.
- Overnight: a wait at the origin or at a connection that covers the local night (``guest.overnight_necessary``,
  the company's Art. 9(1)(b) rule).

Pure: the caller reads the flights (through the GSIs) and passes them with the times they will fly.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from itertools import pairwise
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, PositiveInt

from ..models.airports import UnknownAirport, airport
from ..models.common import Iata, UtcDatetime
from ..models.operational import Booking, Cabin, Flight
from ._reasons import Reason
from .guest import overnight_necessary
from .guest_models import PREMIUM_TIERS, VULNERABLE_SSR
from .network import DEFAULT_NETWORK, MCT_CLAUSE

REACCOMMODATION_CLAUSE = f"EU261 Art. 8(1)(b) re-routing at the earliest opportunity; {MCT_CLAUSE}"
CABINS: tuple[Cabin, ...] = ("F", "J", "Y")  # best first
MAX_LEGS = 3  # direct, or one or two connections
UNFLOWN = ("CANCELLED", "DIVERTED", "DEPARTED", "ARRIVED")  # no seat can be sold on these any more


class Party(BaseModel):
    """Passengers travelling the same way: where they are, from when, where they are going, and by when they were
    due there."""

    model_config = ConfigDict(frozen=True)

    party_id: str
    passengers: PositiveInt
    cabin: Cabin
    origin: Iata  # where they wait
    ready: UtcDatetime  # earliest departure they can make (their flight's departure, or arrival + MCT)
    waiting_since: UtcDatetime  # when they were due to leave `origin` (the start of their wait)
    destination: Iata  # their final destination
    scheduled_arrival: UtcDatetime  # when they were due at `destination`
    protected: bool = False  # an onward connection, a vulnerable or premium member: seated first
    exclude: frozenset[str] = frozenset()  # flights they cannot take (the cancelled ones)


class Leg(BaseModel):
    model_config = ConfigDict(frozen=True)

    flight_id: str
    flight_number: str
    origin: Iata
    destination: Iata
    departure: UtcDatetime
    arrival: UtcDatetime


class Journey(BaseModel):
    """`passengers` of a party on `legs`, in time order, from the party's origin to its final destination."""

    model_config = ConfigDict(frozen=True)

    party_id: str
    passengers: PositiveInt
    legs: tuple[Leg, ...] = Field(min_length=1, max_length=MAX_LEGS)
    arrival: UtcDatetime
    delay_minutes: int = Field(ge=0)  # at the final destination, from its scheduled arrival
    overnight: bool  # a wait over the local night: a hotel (Art. 9(1)(b))

    @property
    def flight_ids(self) -> tuple[str, ...]:
        return tuple(leg.flight_id for leg in self.legs)


class NoJourney(Reason):
    """Passengers of a party no own flight takes home within the horizon."""

    code: Literal["NO_ROUTE_IN_HORIZON", "NO_SEATS_IN_HORIZON"]
    party_id: str
    passengers: PositiveInt


class Reaccommodation(BaseModel):
    model_config = ConfigDict(frozen=True)

    journeys: tuple[Journey, ...] = ()
    unplaced: tuple[NoJourney, ...] = ()

    @property
    def passenger_delay_minutes(self) -> int:
        return sum(j.passengers * j.delay_minutes for j in self.journeys)

    @property
    def overnight(self) -> int:
        return sum(j.passengers for j in self.journeys if j.overnight)

    def of(self, party_id: str) -> tuple[Journey, ...]:
        return tuple(j for j in self.journeys if j.party_id == party_id)


class SeatLedger:
    """Free seats per flight and cabin: capacity minus booked minus seats given. Shared by every party of one
    decision (or one day), so two re-accommodations never sell the same seat."""

    def __init__(self, flights: Iterable[Flight] = ()):
        self.free: dict[str, dict[str, int]] = {}
        for f in flights:
            self.add(f)

    def add(self, f: Flight) -> None:
        if f.flight_id not in self.free:
            self.free[f.flight_id] = {c: max(0, f.capacity.get(c, 0) - f.booked.get(c, 0)) for c in CABINS}

    def total(self, flight_id: str) -> int:
        return sum(self.free.get(flight_id, {}).values())

    def take(self, flight_id: str, cabin: Cabin) -> Cabin:
        """One seat on `flight_id`: the passenger's own cabin, else an upgrade, else the best lower cabin."""
        free = self.free[flight_id]
        for c in seat_order(cabin):
            if free.get(c, 0) > 0:
                free[c] -= 1
                return c
        raise ValueError(f"{flight_id} has no free seat")


def protected(b: Booking) -> bool:
    """Seated first: a passenger with an onward connection to protect, a vulnerable passenger (Reg. 1107/2006,
    EU261 Art. 11: priority to persons with reduced mobility and unaccompanied children) or a premium member."""
    return bool(b.onward_flight_id) or any(x in VULNERABLE_SSR for x in b.ssr) or b.loyalty_tier in PREMIUM_TIERS


def party_key(b: Booking) -> str:
    """The passengers of one flight who travel the same way home: final destination, cabin, onward flight and
    protection. The plan's journeys name it and execution groups the bookings by it again."""
    return f"{b.final_destination}:{b.cabin}:{b.onward_flight_id or '-'}:{'P' if protected(b) else '-'}"


def seat_order(cabin: Cabin) -> tuple[Cabin, ...]:
    """Own cabin, then upgrades (nearest first), then the lower cabins (best first) — execution's seating order."""
    mine = CABINS.index(cabin)
    return (cabin, *reversed(CABINS[:mine]), *CABINS[mine + 1 :])


class Network:
    """Flights that can still take passengers, by origin in departure order (times: `Flight.departure`/`arrival`,
    the estimate when there is one)."""

    def __init__(self, flights: Iterable[Flight]):
        by_origin: dict[str, list[Flight]] = defaultdict(list)
        seen: set[str] = set()
        for f in flights:
            if f.status in UNFLOWN or f.flight_id in seen:
                continue
            seen.add(f.flight_id)
            by_origin[f.origin].append(f)
        self.by_origin = {k: sorted(v, key=lambda f: (f.departure, f.flight_id)) for k, v in by_origin.items()}
        self._keys = {k: [f.departure for f in v] for k, v in self.by_origin.items()}

    def departures(self, origin: str, after: datetime) -> Sequence[Flight]:
        legs = self.by_origin.get(origin, [])
        return legs[bisect_left(self._keys.get(origin, []), after) :]

    @property
    def flights(self) -> list[Flight]:
        return [f for v in self.by_origin.values() for f in v]


def _mct(mct: Mapping[str, int], iata: str) -> int:
    return mct.get(iata) or DEFAULT_NETWORK.default_mct


def earliest_path(
    party: Party, network: Network, seats: SeatLedger, mct: Mapping[str, int], horizon: datetime
) -> tuple[Flight, ...] | None:
    """The flights of the earliest arrival at `party.destination` (ties: fewer legs, then earlier departure),
    each leg with a free seat, leaving by `horizon`, every connection ≥ the connecting airport's MCT. Bounded
    Bellman-Ford over legs: round k extends only the labels round k-1 set, so a path never exceeds MAX_LEGS."""
    best: dict[str, tuple[datetime, tuple[Flight, ...]]] = {party.origin: (party.ready, ())}
    frontier = {party.origin}
    for _ in range(MAX_LEGS):
        improved: dict[str, tuple[datetime, tuple[Flight, ...]]] = {}
        for at in frontier:
            arrived, path = best[at]
            ready = arrived if not path else arrived + timedelta(minutes=_mct(mct, at))
            visited = {party.origin, *(f.destination for f in path)}
            for f in network.departures(at, ready):
                if f.departure >= horizon:
                    break
                if f.flight_id in party.exclude or f.destination in visited or seats.total(f.flight_id) <= 0:
                    continue
                label = (f.arrival, (*path, f))
                held = improved.get(f.destination) or best.get(f.destination)
                if held is None or _better(label, held):
                    improved[f.destination] = label
        if not improved:
            break
        best.update(improved)
        frontier = set(improved) - {party.destination}
    found = best.get(party.destination)
    return found[1] if found and found[1] else None


Label = tuple[datetime, tuple[Flight, ...]]  # (arrival, the flights of the path)


def _order(label: Label) -> tuple[datetime, int, datetime]:
    """Earliest arrival, then fewer flights (fewer connections to miss), then the earlier first departure."""
    arrival, path = label
    return (arrival, len(path), path[0].departure if path else arrival)


def _better(a: Label, b: Label) -> bool:
    return _order(a) < _order(b)


def local_tz(iata: str) -> str:
    """`iata`'s time zone; an airport outside the reference list: UTC, the conservative reading of its night."""
    try:
        return airport(iata).tz
    except UnknownAirport:
        return "UTC"


def _overnight(party: Party, path: Sequence[Flight]) -> bool:
    """A wait over the local night at the origin (from when the party was due to leave) or at a connection."""
    if overnight_necessary(local_tz(party.origin), party.waiting_since, path[0].departure):
        return True
    return any(overnight_necessary(local_tz(a.destination), a.arrival, b.departure) for a, b in pairwise(path))


def journey_of(party: Party, passengers: int, path: Sequence[Flight]) -> Journey:
    arrival = path[-1].arrival
    delay = max(0, math.ceil((arrival - party.scheduled_arrival).total_seconds() / 60))
    legs = tuple(
        Leg(
            flight_id=f.flight_id,
            flight_number=f.flight_number,
            origin=f.origin,
            destination=f.destination,
            departure=f.departure,
            arrival=f.arrival,
        )
        for f in path
    )
    return Journey(
        party_id=party.party_id,
        passengers=passengers,
        legs=legs,
        arrival=arrival,
        delay_minutes=delay,
        overnight=_overnight(party, path),
    )


def priority(party: Party) -> tuple[bool, int, datetime, str]:
    """Seating order: protected connections (and vulnerable or premium members) first, then cabin, then readiness."""
    return (not party.protected, CABINS.index(party.cabin), party.ready, party.party_id)


def reaccommodate(
    parties: Iterable[Party],
    flights: Iterable[Flight] | Network,
    horizon: datetime,
    mct: Mapping[str, int] | None = None,
    seats: SeatLedger | None = None,
) -> Reaccommodation:
    """Each party on the earliest journeys home (split over several when one runs out of seats), in `priority`
    order; `seats` (taken from, when given: the decision's or the day's ledger) starts from the flights' own free
    seats. A party nothing takes home before `horizon` gets a typed `NoJourney`."""
    network = flights if isinstance(flights, Network) else Network(flights)
    ledger = seats if seats is not None else SeatLedger()
    for f in network.flights:
        ledger.add(f)
    journeys: list[Journey] = []
    unplaced: list[NoJourney] = []
    for party in sorted(parties, key=priority):
        left = party.passengers
        routed = False
        while left:
            path = earliest_path(party, network, ledger, mct or {}, horizon)
            if path is None:
                break
            routed = True
            n = min(left, *(ledger.total(f.flight_id) for f in path))
            for f in path:
                for _ in range(n):
                    ledger.take(f.flight_id, party.cabin)
            journeys.append(journey_of(party, n, path))
            left -= n
        if left:
            code: Literal["NO_ROUTE_IN_HORIZON", "NO_SEATS_IN_HORIZON"] = (
                "NO_SEATS_IN_HORIZON"
                if routed or _any_route(party, network, mct or {}, horizon)
                else "NO_ROUTE_IN_HORIZON"
            )
            unplaced.append(
                NoJourney(
                    code=code,
                    party_id=party.party_id,
                    passengers=left,
                    message=f"{left} passenger(s) of {party.party_id}: no own flight to {party.destination} with a "
                    f"free seat leaving {party.origin} from {party.ready:%d %b %H:%MZ} before {horizon:%d %b %H:%MZ}"
                    if code == "NO_SEATS_IN_HORIZON"
                    else f"{left} passenger(s) of {party.party_id}: no own route {party.origin}-{party.destination} "
                    f"within {MAX_LEGS} flights before {horizon:%d %b %H:%MZ}",
                )
            )
    return Reaccommodation(journeys=tuple(journeys), unplaced=tuple(unplaced))


def _any_route(party: Party, network: Network, mct: Mapping[str, int], horizon: datetime) -> bool:
    """Whether a route exists at all, seats aside (to tell a full network from none)."""
    unlimited = SeatLedger()
    for f in network.flights:
        unlimited.free[f.flight_id] = {"Y": 1}
    return earliest_path(party, network, unlimited, mct, horizon) is not None
