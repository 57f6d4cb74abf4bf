"""From SkyMarshal's operational tables to the recovery model, and the optimizer's plan back to actions.

The snapshot is one rating group's fleet over a window (tail swaps never leave the group, so the crews stay
qualified). Mapping choices, each a documented assumption rather than data SkyMarshal lacks:
- every operational flight becomes its own ROADEF flight number; times are UTC minutes;
- cabins F/J/Y map to the model's F/B/E; haul by great-circle distance (< 1,000 km domestic-like,
  < 3,500 km continental, else intercontinental);
- a tail that is AOG or in maintenance is unavailable for the window; the disrupted tail is unavailable
  until its release, so the optimizer chooses between waiting for it, another tail and cancelling;
- airports are unconstrained unless a capacity limit is given (a NOTAM'd runway closure, say);
- end positions: every tail is wanted where the schedule leaves it;
- costs: the ROADEF 2009 A-set coefficients (the benchmark's), operating cost per block hour by type.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from datetime import datetime, timedelta

from pydantic import BaseModel, ConfigDict

from ..models.fleet import AIRCRAFT_TYPES
from ..models.operational import AircraftDay, Booking, Flight
from ..rules.network import DEFAULT_NETWORK
from .model import (
    MINUTES_PER_DAY,
    Aircraft,
    Airport,
    CapacityWindow,
    DatedFlightRef,
    Instance,
    Itinerary,
    Leg,
    PositionRequirement,
    ReducedCapacity,
    Route,
    ScheduledFlight,
    Solution,
    Unavailability,
)
from .objectives import Objective, day_config, roadef_config

CABIN_MAP = {"F": "F", "J": "B", "Y": "E"}
UNLIMITED = 99  # movements per hour at an airport nobody restricted
HOURLY_COST_USD = {"A320": 2600.0, "A321": 2900.0, "B789": 7200.0, "B78X": 7800.0}
DEFAULT_HOURLY_COST_USD = 5000.0


class CapacityLimit(BaseModel):
    model_config = ConfigDict(frozen=True)

    airport: str
    start: datetime
    end: datetime
    departures_per_hour: int
    arrivals_per_hour: int


class TailOutage(BaseModel):
    """A tail that cannot fly from `start` to `end` (an AOG, a bird strike's inspection)."""

    model_config = ConfigDict(frozen=True)

    registration: str
    start: datetime
    end: datetime


class NetworkSnapshot(BaseModel):
    """The rows the adapter reads: one rating group's tails and flights in the window, and their bookings."""

    model_config = ConfigDict(frozen=True)

    window_start: datetime
    window_end: datetime
    aircraft: list[AircraftDay]
    flights: list[Flight]
    bookings: list[Booking]
    disrupted_flight_id: str | None  # None: a network disruption (an airport's capacity), no one disrupted tail
    disrupted_release: datetime  # the disrupted tail cannot fly before this (e.g. the fix's end)
    capacity_limits: list[CapacityLimit] = []
    imposed_delays: dict[str, int] = {}  # flight_id -> minutes it may not leave before (an ATC slot)
    # flight_id -> minutes it may not leave before, on any tail, or cancelled (Instance.held_until)
    held: dict[str, int] = {}
    tail_outages: list[TailOutage] = []  # further tails on the ground over a window (a day known in hindsight)
    # airport -> (departures, arrivals) an hour outside the limits: a reopened airport runs at its normal rate
    normal_rates: dict[str, tuple[int, int]] = {}
    # the shortest connection a passenger makes: the carrier's MCT, not the 2009 challenge's 30 minutes
    min_connection_minutes: int = DEFAULT_NETWORK.default_mct


class AdaptedInstance(BaseModel):
    """The instance and the maps back to SkyMarshal's identifiers."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    instance: Instance
    flight_ids: dict[int, str]  # ROADEF flight number -> SkyMarshal flight_id
    numbers: dict[str, int]


class PlannedChange(BaseModel):
    """What the optimizer's plan does to one SkyMarshal flight."""

    flight_id: str
    action: str  # "operate", "delay", "tail_swap", "cancel"
    registration: str | None
    delay_minutes: int


def _minutes(moment: datetime, day0: datetime) -> int:
    return int((moment - day0).total_seconds() // 60)


def _haul(distance_km: int) -> str:
    return "D" if distance_km < 1000 else "C" if distance_km < 3500 else "I"


def to_instance(snapshot: NetworkSnapshot, objective: Objective = "roadef") -> AdaptedInstance:
    """The snapshot as a recovery instance, costed by `objective`: the 2009 challenge's (`roadef_config`) or the
    day scorecard's (`day_config`)."""
    day0 = snapshot.window_start.replace(hour=0, minute=0, second=0, microsecond=0)
    flights = sorted((f for f in snapshot.flights if f.status != "CANCELLED"), key=lambda f: f.scheduled_departure)
    numbers = {f.flight_id: n for n, f in enumerate(flights, start=1)}
    templates, rotations, routes = {}, [], {}
    for f in flights:
        departure = _minutes(f.scheduled_departure, day0)
        day, minute = divmod(departure, MINUTES_PER_DAY)
        duration = _minutes(f.scheduled_arrival, f.scheduled_departure)
        templates[numbers[f.flight_id]] = ScheduledFlight(
            number=numbers[f.flight_id],
            origin=f.origin,
            destination=f.destination,
            departure=minute,
            duration=duration,
            previous=0,
        )
        rotations.append((DatedFlightRef(number=numbers[f.flight_id], day=day), f.aircraft_registration))
        routes[(f.origin, f.destination)] = Route(duration=duration, haul=_haul(f.distance_km))
    day_of = {number: ref.day for ref, _ in rotations for number in (ref.number,)}
    aircraft = {a.aircraft_registration: _aircraft(a) for a in snapshot.aircraft}
    start, end = _minutes(snapshot.window_start, day0), _minutes(snapshot.window_end, day0)
    outages = [
        Unavailability(aircraft=a.aircraft_registration, start=start, end=end)
        for a in snapshot.aircraft
        if a.status in ("AOG", "MAINTENANCE")
    ]
    if snapshot.disrupted_flight_id is not None:
        disrupted = next(f for f in flights if f.flight_id == snapshot.disrupted_flight_id)
        outages.append(
            Unavailability(
                aircraft=disrupted.aircraft_registration,
                start=start,
                end=max(start, _minutes(snapshot.disrupted_release, day0)),
            )
        )
    outages += [
        Unavailability(aircraft=o.registration, start=_minutes(o.start, day0), end=_minutes(o.end, day0))
        for o in snapshot.tail_outages
        if o.registration in aircraft and o.end > o.start
    ]
    airports = {
        code: Airport(
            code=code,
            daily=(
                CapacityWindow(
                    departures=snapshot.normal_rates.get(code, (UNLIMITED, UNLIMITED))[0],
                    arrivals=snapshot.normal_rates.get(code, (UNLIMITED, UNLIMITED))[1],
                    start=0,
                    end=MINUTES_PER_DAY,
                ),
            ),
        )
        for f in flights
        for code in (f.origin, f.destination)
    }
    instance = Instance(
        name=f"skymarshal-{snapshot.disrupted_flight_id or 'network'}",
        day0=day0.date(),
        config=(day_config if objective == "day" else roadef_config)(start, end),
        airports=airports,
        routes=routes,
        flights=templates,
        aircraft=aircraft,
        rotations=tuple(rotations),
        itineraries=tuple(
            _itineraries(snapshot.bookings, numbers, day_of)
            if snapshot.bookings
            else _booked_counts(flights, numbers, day_of)
        ),
        positions=tuple(_positions(flights, aircraft)),
        unavailabilities=tuple(outages),
        min_connection=snapshot.min_connection_minutes,
        imposed_delays={
            (numbers[flight_id], day_of[numbers[flight_id]]): minutes
            for flight_id, minutes in snapshot.imposed_delays.items()
            if flight_id in numbers
        },
        held_until={
            (numbers[flight_id], day_of[numbers[flight_id]]): minutes
            for flight_id, minutes in snapshot.held.items()
            if flight_id in numbers
        },
        reduced_capacities=tuple(
            ReducedCapacity(
                airport=c.airport,
                window=CapacityWindow(
                    start=_minutes(c.start, day0),
                    end=_minutes(c.end, day0),
                    departures=c.departures_per_hour,
                    arrivals=c.arrivals_per_hour,
                ),
            )
            for c in snapshot.capacity_limits
        ),
    )
    return AdaptedInstance(instance=instance, flight_ids={n: i for i, n in numbers.items()}, numbers=numbers)


def _aircraft(day: AircraftDay) -> Aircraft:
    spec = AIRCRAFT_TYPES.get(day.aircraft_type)
    seats = {"F": 0, "B": 0, "E": 0}
    for cabin, count in day.capacity.items():
        seats[CABIN_MAP[cabin]] += count
    turn = spec.min_turn_minutes if spec else 60
    return Aircraft(
        id=day.aircraft_registration,
        model=day.aircraft_type,
        family=spec.rating_group if spec else day.aircraft_type,
        seats=seats,
        range=int(spec.range_km / spec.cruise_kmh * 60) if spec else 24 * 60,
        cost_per_hour=HOURLY_COST_USD.get(day.aircraft_type, DEFAULT_HOURLY_COST_USD),
        turn_round=turn,
        transit=turn,
        initial_airport=day.station,
    )


def _itineraries(bookings: list[Booking], numbers: dict[str, int], day_of: dict[int, int]):
    """Each passenger's connected segments on the snapshot's flights, grouped into identical trips."""
    by_passenger: dict[tuple[str, str], list[Booking]] = defaultdict(list)
    for b in bookings:
        if b.flight_id in numbers and b.status not in ("CANCELLED", "REBOOKED"):
            by_passenger[(b.pnr, b.passenger_id)].append(b)
    trips: Counter = Counter()
    fares: dict[tuple, float] = {}
    for segments in by_passenger.values():
        segments.sort(key=lambda b: b.segment)
        legs = tuple((numbers[b.flight_id], CABIN_MAP[b.cabin]) for b in segments)
        trips[legs] += 1
        fares[legs] = max(fares.get(legs, 0.0), sum(b.fare_paid for b in segments))
    for n, (legs, count) in enumerate(sorted(trips.items()), start=1):
        yield Itinerary(
            id=n,
            kind="A",
            price=round(fares[legs], 2),
            passengers=count,
            legs=tuple(Leg(number=number, day=day_of[number], cabin=cabin) for number, cabin in legs),
        )


def _booked_counts(flights: list[Flight], numbers: dict[str, int], day_of: dict[int, int]):
    """Without bookings (a handle that may not read them): each flight's booked seats as one-leg trips.
    Connections and fares are then unknown: fares count as 0, so a cancellation is priced by the ROADEF
    coefficients and the legal compensation bands alone."""
    n = 0
    for f in flights:
        for cabin, count in sorted(f.booked.items()):
            if count:
                n += 1
                number = numbers[f.flight_id]
                yield Itinerary(
                    id=n,
                    kind="A",
                    price=0.0,
                    passengers=count,
                    legs=(Leg(number=number, day=day_of[number], cabin=CABIN_MAP[cabin]),),
                )


def _positions(flights: list[Flight], aircraft: dict[str, Aircraft]):
    last: dict[str, str] = {a.id: a.initial_airport for a in aircraft.values()}
    for f in flights:
        if f.aircraft_registration in last:
            last[f.aircraft_registration] = f.destination
    wanted = Counter((airport, aircraft[r].model, aircraft[r].config) for r, airport in last.items())
    for (airport, model, config), count in sorted(wanted.items()):
        yield PositionRequirement(airport=airport, model=model, config=config, count=count)


def planned_changes(adapted: AdaptedInstance, solution: Solution) -> dict[str, PlannedChange]:
    """Per SkyMarshal flight: operated as planned, delayed, moved to another tail, or cancelled."""
    instance = adapted.instance
    planned = {ref.number: (ref, registration) for ref, registration in instance.rotations}
    changes = {}
    for f in solution.flights:
        if f.number not in planned:
            continue
        ref, registration = planned[f.number]
        scheduled = ref.day * MINUTES_PER_DAY + instance.flights[f.number].departure
        delay = f.departure - scheduled
        if f.aircraft is None:
            action = "cancel"
        elif f.aircraft != registration:
            action = "tail_swap"
        else:
            action = "delay" if delay > 0 else "operate"
        changes[adapted.flight_ids[f.number]] = PlannedChange(
            flight_id=adapted.flight_ids[f.number], action=action, registration=f.aircraft, delay_minutes=max(0, delay)
        )
    return changes


WINDOW_AFTER_LAST_ARRIVAL = 6 * 60  # minutes the window stays open after the last scheduled arrival


def build_snapshot(
    flight: Flight,
    fleet_days: list[AircraftDay],
    rotations: dict[str, list[Flight]],
    bookings: list[Booking],
    *,
    decision: datetime,
    release: datetime,
    capacity_limits: Sequence[CapacityLimit] = (),
) -> NetworkSnapshot:
    """The disrupted flight's rating group that day: tails, their flights (from the start of the UTC day,
    so each rotation starts at the tail's station) and the bookings on them; the window opens at the
    decision time and closes after the last scheduled arrival."""
    flights = sorted(
        {f.flight_id: f for rows in rotations.values() for f in rows}.values(), key=lambda f: f.scheduled_departure
    )
    if not flights or flight.flight_id not in {f.flight_id for f in flights}:
        raise LookupError(f"flight {flight.flight_id} is not in its tail's rotation; nothing to optimize")
    last_arrival = max(f.scheduled_arrival for f in flights)
    return NetworkSnapshot(
        window_start=decision,
        window_end=last_arrival + timedelta(minutes=WINDOW_AFTER_LAST_ARRIVAL),
        aircraft=fleet_days,
        flights=flights,
        bookings=bookings,
        disrupted_flight_id=flight.flight_id,
        disrupted_release=release,
        capacity_limits=list(capacity_limits),
    )
