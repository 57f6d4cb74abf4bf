"""A network plan's totals, the same measure for every plan: delay minutes, cancellations, passengers re-accommodated
or stranded overnight, misconnections, EU261/UK261 exposure and cost.

Passengers: each active booking (one passenger on one segment) on a cancelled flight, or whose onward connection
the new times break (onward departure before inbound arrival + the hub's minimum connection time), is offered the
earliest operated flight on the same route with a seat left (capacity − booked − seats this plan already gave),
within a day. What the plan costs them is what the day scorecard counts (day/scorecard.py, issue 46 item 3):
minutes late at arrival — the operated flight's own delay, or the re-accommodating flight's arrival at the plan's
times, a day when no seat is found — and stranded overnight when the wait at the origin covers part of the local
night (``rules.guest.overnight_necessary``, the company's Art. 9(1)(b) rule).

EU261/UK261 exposure (Reg. (EC) 261/2004 Art. 7, Art. 3(1) scope): per passenger on a covered flight that is
cancelled or arrives 3 h or more late (Sturgeon, C-402/07), the Art. 7(1) amount — before the Art. 5(3)
extraordinary-circumstances defence, which `eu261_extraordinary` reports for the disruption's cause.

Cost (rules.finance, company figures marked verify there): delay minutes × the A4A block-minute cost, fares
refunded and re-accommodation of cancelled passengers, re-accommodation of misconnected ones, tail swaps, ferry
block minutes, reserves' call-out hours, Art. 9 care for every delayed or cancelled flight's booked passengers over
their wait (``rules.guest.duty_of_care``), and the exposure unless the cause is extraordinary.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from ..data import queries as q
from ..data import schema as s
from ..data.access import DataHandle
from ..models.airports import UnknownAirport, great_circle_km
from ..models.disruption import Disruption
from ..models.network_plan import FlightAction, PlanTotals
from ..models.operational import Booking, Flight
from ..rules import finance, guest
from ..rules.eu261 import (
    COMPENSATION_ART_7,
    CURRENCY,
    STURGEON_DELAY_MINUTES,
    compensation_category,
    is_extraordinary,
)
from ..rules.eu261 import Disruption as PassengerDisruption
from ..rules.eu261_scope import applicable_regime, intra_zone
from ..rules.guest_models import CareCost
from ..rules.network import ACTIVE_BOOKINGS, DEFAULT_NETWORK
from ..rules.reaccommodation import local_tz

if TYPE_CHECKING:
    from .groups import GroupData
    from .scope import NetworkScope

RESERVE_CALL_OUT_HOURS = 3.0  # company policy: paid call-out per reserve (as the arbitrator's scenarios)
REBOOK_WITHIN = timedelta(hours=24)
STRANDED_DELAY = timedelta(days=1)  # no seat within REBOOK_WITHIN: a day late, as the day scorecard counts it


def eu261_cause(disruption: Disruption | None) -> str | None:
    """The Art. 5(3) cause key of an airport disruption: weather, an ATM decision, or an airport restriction."""
    if disruption is None:
        return None
    if disruption.family == "weather":
        return "weather"
    if 81 <= disruption.iata_delay_code <= 84:
        return "atc"
    if disruption.iata_delay_code in (85,):
        return "security"
    if disruption.family == "atfm_airport_government":
        return "airport_closure"
    return None


@dataclass
class PlanData:
    """What the totals (and crewability) read, loaded once per run and shared by every plan."""

    handle: DataHandle
    flights: dict[str, Flight]  # every flight of the touched groups over the horizon
    bookings: dict[str, list[Booking]]  # active bookings by flight (empty when the handle may not read them)
    carrier: str = "EY"
    cause: str | None = None
    rotations: dict[str, list[Flight]] = field(default_factory=dict)
    grounded: frozenset[str] = frozenset()  # tails on the ground over the window (AOG, maintenance): fly nothing
    _departures: dict[str, list[Flight]] = field(default_factory=dict)
    _mct: dict[str, int] = field(default_factory=dict)
    _unread: set[str] = field(default_factory=set)  # flights past the horizon whose bookings are not read yet

    def extend(self, later: dict[str, list[Flight]]) -> None:
        """Each tail's flights past the horizon join its rotation (their bookings are read when a plan changes
        one: `read_bookings`)."""
        for registration, rows in later.items():
            known = {f.flight_id for f in self.rotations.get(registration, [])}
            new = [f for f in rows if f.flight_id not in known]
            joined = [*self.rotations.get(registration, []), *new]
            self.rotations[registration] = sorted(joined, key=lambda f: f.scheduled_departure)
            self.flights.update((f.flight_id, f) for f in new)
            self._unread |= {f.flight_id for f in new}

    def read_bookings(self, flight_ids: Iterable[str]) -> None:
        for flight_id in sorted(set(flight_ids) & self._unread):
            self._unread.discard(flight_id)
            if self.handle.allowed(s.BOOKINGS):
                active = [b for b in q.bookings(self.handle, flight_id) if b.status in ACTIVE_BOOKINGS]
                if active:
                    self.bookings[flight_id] = active

    @classmethod
    def load(
        cls, handle: DataHandle, scope: NetworkScope, groups: Sequence[GroupData], disruption: Disruption | None = None
    ) -> PlanData:
        rotations = {reg: rows for g in groups for reg, rows in g.rotations.items()}
        flights = {f.flight_id: f for rows in rotations.values() for f in rows}
        by_flight: dict[str, list[Booking]] = {}
        for g in groups:
            for b in g.bookings:
                if b.status in ACTIVE_BOOKINGS:
                    by_flight.setdefault(b.flight_id, []).append(b)
        carrier = next(iter(flights.values())).carrier if flights else "EY"
        return cls(handle, flights, by_flight, carrier, eu261_cause(disruption), rotations)

    def passengers(self, flight_id: str) -> int:
        if flight_id in self.bookings or self.handle.allowed(s.BOOKINGS):
            return len(self.bookings.get(flight_id, []))
        f = self.flights.get(flight_id)
        return sum(f.booked.values()) if f else 0

    def departures(self, origin: str, start: datetime) -> list[Flight]:
        """The airline's departures from `origin` from the start's day to a day after (one airport GSI query pair,
        kept for the run)."""
        key = f"{origin}#{start:%Y-%m-%d}"
        if key not in self._departures:
            day = start.replace(hour=0, minute=0, second=0, microsecond=0)
            rows = q.flights_at_airport(self.handle, origin, day, day + timedelta(days=2))
            self._departures[key] = [f for f in rows if f.origin == origin and f.status != "CANCELLED"]
        return self._departures[key]

    def mct(self, iata: str) -> int:
        if iata not in self._mct:
            profile = q.airport_profile(self.handle, iata) if self.handle.allowed(s.AIRPORTS) else None
            self._mct[iata] = (profile.min_connection_minutes if profile else None) or DEFAULT_NETWORK.default_mct
        return self._mct[iata]


class _Seats:
    """Seats left per flight under one plan."""

    def __init__(self, data: PlanData, by_id: dict[str, FlightAction]):
        self.data, self.by_id = data, by_id
        self.given: Counter[str] = Counter()

    def times(self, f: Flight) -> tuple[datetime, datetime] | None:
        a = self.by_id.get(f.flight_id)
        if a is None:
            return f.scheduled_departure, f.scheduled_arrival
        return (a.new_departure, a.new_arrival) if a.new_departure and a.new_arrival else None

    def rebook(self, origin: str, destination: str, ready: datetime, exclude: str) -> Flight | None:
        for f in sorted(self.data.departures(origin, ready), key=lambda f: f.scheduled_departure):
            times = self.times(f)
            if f.destination != destination or f.flight_id == exclude or times is None:
                continue
            if not ready <= times[0] < ready + REBOOK_WITHIN:
                continue
            left = sum(f.capacity.values()) - sum(f.booked.values()) - self.given[f.flight_id]
            if left > 0:
                self.given[f.flight_id] += 1
                return f
        return None


def _exposure(f: FlightAction, carrier: str, passengers: int, out: Counter[str]) -> None:
    late = f.new_arrival is not None and (f.new_arrival - f.scheduled_arrival) >= timedelta(
        minutes=STURGEON_DELAY_MINUTES
    )
    if passengers == 0 or not (f.action == "cancel" or late):
        return
    regime, _ = applicable_regime(f.origin, f.destination, carrier)
    if regime is None:
        return
    try:
        distance = great_circle_km(f.origin, f.destination)
    except Exception:  # no coordinates: the highest band, the upper bound of exposure
        distance = 1e9
    amount = COMPENSATION_ART_7[regime][compensation_category(distance, intra_zone(f.origin, f.destination))]
    out[CURRENCY[regime]] += amount * passengers


def _minutes(delta: timedelta) -> int:
    return max(0, int(delta.total_seconds() // 60))


def _rebooked(
    seats: _Seats, found: Flight | None, origin: str, departure: datetime, arrival: datetime
) -> tuple[datetime, int, bool]:
    """(new departure, minutes late at arrival, overnight) of one passenger due to leave `origin` at `departure`
    and arrive at `arrival`, re-accommodated on `found` at the plan's times (None: no seat, a day late)."""
    times = seats.times(found) if found is not None else None
    if times is None:
        return departure + STRANDED_DELAY, _minutes(STRANDED_DELAY), True
    return times[0], _minutes(times[1] - arrival), guest.overnight_necessary(local_tz(origin), departure, times[0])


def _care(
    data: PlanData, flight_id: str, kind: PassengerDisruption, waits: dict[datetime, list[Booking]]
) -> list[CareCost]:
    """Art. 9 care for a delayed or cancelled flight's booked passengers, grouped by when each leaves (an airport
    outside the reference data: none estimated)."""
    f = data.flights.get(flight_id)
    if f is None:
        return []
    out = []
    for departure, rows in waits.items():
        try:
            out.append(guest.duty_of_care(f, rows, kind, new_departure=departure))
        except UnknownAirport:
            continue
    return out


def measure(
    rows: Sequence[FlightAction], data: PlanData, optimizer_cost: float | None = None
) -> tuple[list[FlightAction], PlanTotals]:
    """The plan's rows with their passengers counted, and its totals (see the module's docstring for each)."""
    by_id = {a.flight_id: a for a in rows}
    seats = _Seats(data, by_id)
    operated = [a for a in rows if a.operates]
    cancelled = [a for a in rows if not a.operates]
    misconnected, passenger_minutes = 0, 0
    per_flight: Counter[str] = Counter()
    stranded_at: Counter[str] = Counter()
    onto: dict[str, Counter[str]] = {a.flight_id: Counter() for a in cancelled}
    cares: list[CareCost] = []
    for a in cancelled:
        booked_rows = data.bookings.get(a.flight_id, [])
        waits: dict[datetime, list[Booking]] = {}
        for i in range(data.passengers(a.flight_id)):
            found = seats.rebook(a.origin, a.destination, a.scheduled_departure, a.flight_id)
            per_flight[a.flight_id] += 1
            if found is not None:
                onto[a.flight_id][found.flight_id] += 1
            leaves, late, night = _rebooked(seats, found, a.origin, a.scheduled_departure, a.scheduled_arrival)
            passenger_minutes += late
            stranded_at[a.flight_id] += night
            if i < len(booked_rows):
                waits.setdefault(leaves, []).append(booked_rows[i])
        cares += _care(data, a.flight_id, "cancellation", waits)
    for a in operated:
        # A passenger is counted once, at the final destination: a connection the plan keeps is counted on the
        # onward flight's own row, a broken one at the re-accommodating flight's arrival.
        late = _minutes(a.new_arrival - a.scheduled_arrival) if a.new_arrival is not None else 0
        if a.flight_id not in data.bookings:
            passenger_minutes += data.passengers(a.flight_id) * late
        for b in data.bookings.get(a.flight_id, []):
            onward = by_id.get(b.onward_flight_id or "")
            if onward is None or not onward.operates or a.new_arrival is None or onward.new_departure is None:
                passenger_minutes += late
                continue
            ready = a.new_arrival + timedelta(minutes=data.mct(a.destination))
            if onward.new_departure >= ready:
                continue
            misconnected += 1
            per_flight[a.flight_id] += 1
            found = seats.rebook(onward.origin, onward.destination, ready, onward.flight_id)
            _, home_late, night = _rebooked(
                seats, found, onward.origin, onward.scheduled_departure, onward.scheduled_arrival
            )
            passenger_minutes += home_late
            stranded_at[a.flight_id] += night
        if a.delay_minutes > 0 and a.new_departure is not None and a.flight_id in data.bookings:
            cares += _care(data, a.flight_id, "delay", {a.new_departure: data.bookings[a.flight_id]})
    actions = [
        a.model_copy(
            update={
                "passengers": data.passengers(a.flight_id),
                "passengers_reaccommodated": per_flight[a.flight_id],
                "passengers_stranded_overnight": stranded_at[a.flight_id],
                "rebooked_onto": dict(onto.get(a.flight_id, {})),
            }
        )
        for a in rows
    ]
    exposure: Counter[str] = Counter()
    for a in actions:
        _exposure(a, data.carrier, data.passengers(a.flight_id), exposure)
    extraordinary = is_extraordinary(data.cause)[0]
    delays = {a.flight_id: a.delay_minutes for a in operated if a.delay_minutes > 0}
    cancelled_bookings = [b for a in cancelled for b in data.bookings.get(a.flight_id, [])]
    unbooked = sum(data.passengers(a.flight_id) for a in cancelled if a.flight_id not in data.bookings)
    reserves = sum(len(a.crew_changes) for a in actions)
    ferry_minutes = sum(
        int((a.scheduled_arrival - a.scheduled_departure).total_seconds() // 60) for a in actions if a.action == "ferry"
    )
    lines = [
        finance.delay_cost(delays),
        finance.cancellation_cost(cancelled_bookings),
        finance.tail_swap_cost(sum(a.action == "tail_swap" for a in actions)),
        finance.ferry_cost(ferry_minutes),
        finance.crew_overtime_cost(reserves * RESERVE_CALL_OUT_HOURS),
    ]
    by_component: dict[str, float] = {line.component: line.amount_usd for line in lines}
    by_component["reaccommodation"] = (
        misconnected + unbooked
    ) * finance.DEFAULT_FINANCE.reaccommodation_per_passenger_usd
    by_component["compensation"] = (
        0.0 if extraordinary else round(sum(finance.to_usd(v, c) for c, v in exposure.items()), 2)
    )
    by_component["care"] = finance.care_cost(cares).amount_usd
    return actions, PlanTotals(
        flights=len(actions),
        operated=len(operated),
        delay_minutes=sum(delays.values()),
        max_delay_minutes=max(delays.values(), default=0),
        cancellations=sum(a.action == "cancel" for a in actions),
        tail_swaps=sum(a.action == "tail_swap" for a in actions),
        ferries=sum(a.action == "ferry" for a in actions),
        reserves_called=reserves,
        passengers_affected=sum(
            data.passengers(a.flight_id) for a in actions if a.action != "operate" or a.flight_id in per_flight
        ),
        passengers_reaccommodated=sum(per_flight.values()),
        passengers_stranded_overnight=sum(stranded_at.values()),
        misconnections=misconnected,
        passenger_minutes=passenger_minutes,
        eu261_exposure=dict(exposure),
        eu261_extraordinary=extraordinary,
        cost_usd=round(sum(by_component.values()), 2),
        cost_by_component=by_component,
        optimizer_cost=optimizer_cost,
    )
