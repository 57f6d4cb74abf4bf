"""Flights and continuous tail rotations.

Every daily frequency becomes an outbound flight and its return. Round trips are assigned to tails of
the frequency's type in time order, each to the tail that has waited longest at the hub (an interval
colouring, so the fleet is the smallest that flies the schedule); a tail's next departure is never
earlier than its last arrival plus the type's turn time, at the same station.
"""

from __future__ import annotations

import heapq
import string
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from ...models.airports import airport, great_circle_km
from ...models.fleet import AIRCRAFT_TYPES
from ...models.operational import AircraftDay, Flight
from ...rules.rotation import expected_day
from .config import GeneratorConfig, local_date, local_to_utc, round_up
from .network import CARRIER, HUB, SPARES_PER_TYPE, frequencies

HUB_TURN_BUFFER = 15  # minutes above the type's minimum turn, scheduled at the hub
OUTSTATION_BUFFER = {True: 10, False: 35}  # narrowbody / widebody slack at outstations
TAXI_AND_MANOEUVRE = 25
ROUTING_FACTOR = 1.03  # flown distance over great-circle distance
NARROWBODIES = ("A320", "A321")


@dataclass
class Tail:
    registration: str
    aircraft_type: str
    ready_at: datetime | None = None  # at the hub; None = never flown in the window
    flights: list[Flight] = field(default_factory=list)
    spare: bool = False


def block_minutes(origin: str, destination: str, type_code: str) -> tuple[int, int]:
    """Scheduled block time and great-circle distance; westbound legs fly into the jet stream."""
    distance = great_circle_km(origin, destination)
    wind = 1.05 if airport(destination).lon < airport(origin).lon else 0.95
    minutes = distance * ROUTING_FACTOR / AIRCRAFT_TYPES[type_code].cruise_kmh * 60 * wind + TAXI_AND_MANOEUVRE
    return round_up(minutes), round(distance)


def _flight(
    number: int, origin: str, destination: str, departure: datetime, type_code: str, registration: str = "A6-XXX"
) -> Flight:
    block, distance = block_minutes(origin, destination, type_code)
    flight_date = local_date(departure, airport(origin).tz)
    return Flight(
        flight_id=f"{CARRIER}{number}-{flight_date:%Y%m%d}",
        flight_number=f"{CARRIER}{number}",
        carrier=CARRIER,
        origin=origin,
        destination=destination,
        flight_date=flight_date,
        scheduled_departure=departure,
        scheduled_arrival=departure + timedelta(minutes=block),
        aircraft_registration=registration,
        aircraft_type=type_code,
        block_minutes=block,
        distance_km=distance,
        capacity=dict(AIRCRAFT_TYPES[type_code].capacity),
    )


def _registrations(prefix: str) -> Iterator[str]:
    for first in string.ascii_uppercase:
        yield f"{prefix}{first}"
    for first in string.ascii_uppercase:
        for second in string.ascii_uppercase:
            yield f"{prefix}{first}{second}"


def build_schedule(config: GeneratorConfig) -> tuple[list[Flight], list[Tail]]:
    hub_tz = airport(HUB).tz
    trips: list[tuple[Flight, Flight]] = []
    for offset in range(config.days):
        day = config.start + timedelta(days=offset)
        for freq in frequencies(config.scale):
            t = AIRCRAFT_TYPES[freq.aircraft_type]
            out = _flight(
                freq.outbound_number,
                HUB,
                freq.destination,
                local_to_utc(day, freq.local_departure, hub_tz),
                freq.aircraft_type,
            )
            turn = t.min_turn_minutes + OUTSTATION_BUFFER[freq.aircraft_type in NARROWBODIES]
            back_departure = out.scheduled_arrival + timedelta(minutes=turn)
            back_departure += timedelta(minutes=(-back_departure.minute) % 5)
            back = _flight(freq.inbound_number, freq.destination, HUB, back_departure, freq.aircraft_type)
            trips.append((out, back))
    trips.sort(key=lambda pair: (pair[0].scheduled_departure, pair[0].flight_number))

    tails: list[Tail] = []
    waiting: dict[str, list[tuple[datetime, int, int]]] = {}  # type -> heap of (ready_at, order, tail index)
    names = {code: _registrations(t.registration_prefix) for code, t in AIRCRAFT_TYPES.items()}
    for out, back in trips:
        type_code = out.aircraft_type
        heap = waiting.setdefault(type_code, [])
        latest_ready = out.scheduled_departure - timedelta(
            minutes=AIRCRAFT_TYPES[type_code].min_turn_minutes + HUB_TURN_BUFFER
        )
        if heap and heap[0][0] <= latest_ready:
            _, _, index = heapq.heappop(heap)
        else:
            index = len(tails)
            tails.append(Tail(next(names[type_code]), type_code))
        tail = tails[index]
        for leg in (out, back):
            leg.aircraft_registration = tail.registration
            tail.flights.append(leg)
        tail.ready_at = back.scheduled_arrival
        heapq.heappush(heap, (tail.ready_at, index, index))

    for type_code, count in SPARES_PER_TYPE.items():
        for _ in range(count):
            tails.append(Tail(next(names[type_code]), type_code, spare=True))
    flights = sorted((f for tail in tails for f in tail.flights), key=lambda f: (f.scheduled_departure, f.flight_id))
    return flights, tails


def aircraft_days(config: GeneratorConfig, tails: list[Tail]) -> list[AircraftDay]:
    """AircraftAvailability: each tail's station at 00:00 UTC of every window day, and its flying that day, as the
    flights (with the planted delays) imply them (``rules.rotation.expected_day``: what execution writes back)."""
    rows: list[AircraftDay] = []
    for tail in tails:
        capacity = dict(AIRCRAFT_TYPES[tail.aircraft_type].capacity)
        for offset in range(config.days):
            day = config.start + timedelta(days=offset)
            row = AircraftDay(
                aircraft_registration=tail.registration,
                date=day,
                aircraft_type=tail.aircraft_type,
                status="SPARE" if tail.spare else "IN_SERVICE",
                station=HUB,
                capacity=capacity,
                note="operational spare held at the hub" if tail.spare else None,
            )
            rows.append(expected_day(row, tail.flights, HUB))
    return rows
