"""Passengers, bookings (one row per passenger per segment) and checked bags.

Parties of one to four share a PNR. About half the passengers on a flight into the hub connect onward
to a flight leaving within six hours and at least the hub's minimum connection time after arrival.
"""

from __future__ import annotations

import bisect
import random
import string
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from itertools import accumulate
from typing import Generic, TypeVar

from ...models.operational import Bag, Booking, Cabin, Flight, Passenger
from .config import GeneratorConfig, local_to_utc
from .names import person_name
from .network import HUB, HUB_MIN_CONNECTION_MINUTES

TIERS = (("NONE", 55), ("BRONZE", 20), ("SILVER", 13), ("GOLD", 8), ("PLATINUM", 4))
PREMIUM_TIERS = (("NONE", 20), ("BRONZE", 15), ("SILVER", 25), ("GOLD", 25), ("PLATINUM", 15))
SSR_RATES = (("WCHR", 0.015), ("MEDA", 0.002), ("BLND", 0.001), ("DEAF", 0.001))
UMNR_RATE = 0.004  # unaccompanied minors travel alone
PARTY_SIZES = ((1, 60), (2, 25), (3, 10), (4, 5))
CONNECTING_SHARE = 0.45
MAX_CONNECTION = timedelta(hours=6)
NATIONALITIES = (
    "AE",
    "IN",
    "PK",
    "GB",
    "DE",
    "FR",
    "US",
    "PH",
    "EG",
    "SA",
    "AU",
    "CN",
    "JP",
    "KR",
    "ZA",
    "KE",
    "IT",
    "ES",
    "NL",
    "IE",
    "CA",
    "TH",
    "SG",
    "MY",
    "LK",
    "NP",
    "BD",
    "JO",
    "LB",
    "GR",
)
FARE_PER_KM = {"F": 0.75, "J": 0.42, "Y": 0.085}
FARE_BASE = {"F": 900, "J": 450, "Y": 90}


_T = TypeVar("_T")


class _Weighted(Generic[_T]):
    """`rng.choices(values, weights)[0]` with the cumulative weights summed once: the same single draw
    (random.choices' own arithmetic), without rebuilding two lists for each of a million calls."""

    def __init__(self, table: Sequence[tuple[_T, float]]):
        self.values = [value for value, _ in table]
        self.cumulative = list(accumulate(weight for _, weight in table))
        self.total, self.last = self.cumulative[-1] + 0.0, len(self.cumulative) - 1

    def draw(self, rng: random.Random) -> _T:
        return self.values[bisect.bisect(self.cumulative, rng.random() * self.total, 0, self.last)]


_TIER_DRAW, _PREMIUM_TIER_DRAW, _PARTY_DRAW = _Weighted(TIERS), _Weighted(PREMIUM_TIERS), _Weighted(PARTY_SIZES)
_BAGS_LONG_HAUL, _BAGS_SHORT_HAUL = _Weighted(((0, 15), (1, 60), (2, 25))), _Weighted(((0, 40), (1, 55), (2, 5)))


@dataclass
class _Seats:
    left: dict[Cabin, int]


class PassengerBuilder:
    def __init__(self, config: GeneratorConfig, flights: list[Flight], rng: random.Random):
        self.config, self.rng = config, rng
        self.flights = flights
        self.passengers: list[Passenger] = []
        self.bookings: list[Booking] = []
        self.bags: list[Bag] = []
        self.seats: dict[str, _Seats] = {}
        self._pnrs: set[str] = set()
        self._bag_counter = 0
        for f in flights:
            target = {}
            for cabin, capacity in f.capacity.items():
                mean = self.config.load_factor * (0.8 if cabin != "Y" else 1.0)
                factor = min(0.98, max(0.3, rng.gauss(mean, 0.08)))
                target[cabin] = round(capacity * factor)
            self.seats[f.flight_id] = _Seats(target)

    def build(self) -> None:
        departures = sorted((f for f in self.flights if f.origin == HUB), key=lambda f: f.scheduled_departure)
        times = [f.scheduled_departure for f in departures]
        for inbound in (f for f in self.flights if f.destination == HUB):
            earliest = inbound.scheduled_arrival + timedelta(minutes=HUB_MIN_CONNECTION_MINUTES + 15)
            lo = bisect.bisect_left(times, earliest)
            hi = bisect.bisect_right(times, inbound.scheduled_arrival + MAX_CONNECTION)
            onward = [f for f in departures[lo:hi] if f.destination != inbound.origin]
            if not onward:
                continue
            for cabin, count in list(self.seats[inbound.flight_id].left.items()):
                budget = round(count * CONNECTING_SHARE)
                while budget > 0:
                    nxt = self.rng.choice(onward)
                    size = min(budget, _PARTY_DRAW.draw(self.rng))
                    if self.seats[nxt.flight_id].left.get(cabin, 0) < size:
                        break
                    self._party([inbound, nxt], cabin, size)
                    budget -= size
        for f in self.flights:
            for cabin in f.capacity:
                while self.seats[f.flight_id].left.get(cabin, 0) > 0:
                    size = min(self.seats[f.flight_id].left[cabin], _PARTY_DRAW.draw(self.rng))
                    self._party([f], cabin, size)
        booked: dict[str, dict[Cabin, int]] = {}
        for b in self.bookings:
            per = booked.setdefault(b.flight_id, {})
            per[b.cabin] = per.get(b.cabin, 0) + 1
        for f in self.flights:
            f.booked = booked.get(f.flight_id, {})

    def _pnr(self) -> str:
        while True:
            pnr = "".join(self.rng.choices(string.ascii_uppercase + string.digits, k=6))
            if pnr not in self._pnrs:
                self._pnrs.add(pnr)
                return pnr

    def _party(self, itinerary: list[Flight], cabin: Cabin, size: int) -> None:
        rng, pnr = self.rng, self._pnr()
        for leg in itinerary:
            self.seats[leg.flight_id].left[cabin] -= size
        for index in range(size):
            tier = (_PREMIUM_TIER_DRAW if cabin != "Y" else _TIER_DRAW).draw(rng)
            needs = [code for code, rate in SSR_RATES if rng.random() < rate]
            if size == 1 and rng.random() < UMNR_RATE:
                needs.append("UMNR")
            birth_year = rng.randint(2012, 2020) if "UMNR" in needs else rng.randint(1940, 2008)
            passenger = Passenger(
                passenger_id=f"P{len(self.passengers) + 1:07d}",
                name=person_name(rng),
                loyalty_tier=tier,
                loyalty_number=None if tier == "NONE" else f"EY{rng.randint(10**8, 10**9 - 1)}",
                nationality=rng.choice(NATIONALITIES),
                birth_year=birth_year,
                email=f"p{len(self.passengers) + 1:07d}@example.com",
                needs=needs,
            )
            self.passengers.append(passenger)
            tags = self._bags(passenger, itinerary, cabin, pnr, index)
            for segment, leg in enumerate(itinerary, start=1):
                fare = (FARE_BASE[cabin] + FARE_PER_KM[cabin] * leg.distance_km) * rng.uniform(0.7, 1.3)
                self.bookings.append(
                    Booking(
                        booking_id=f"{pnr}-{segment}-{index + 1}",
                        pnr=pnr,
                        flight_id=leg.flight_id,
                        passenger_id=passenger.passenger_id,
                        passenger_name=passenger.name,
                        cabin=cabin,
                        loyalty_tier=tier,
                        ssr=needs,
                        segment=segment,
                        inbound_flight_id=itinerary[segment - 2].flight_id if segment > 1 else None,
                        onward_flight_id=itinerary[segment].flight_id if segment < len(itinerary) else None,
                        final_destination=itinerary[-1].destination,
                        fare_paid=round(fare, 2),
                        bag_tags=tags,
                    )
                )

    def _bags(self, passenger: Passenger, itinerary: list[Flight], cabin: str, pnr: str, index: int) -> list[str]:
        long_haul = max(leg.block_minutes for leg in itinerary) > 300
        count = (_BAGS_LONG_HAUL if long_haul or cabin != "Y" else _BAGS_SHORT_HAUL).draw(self.rng)
        tags = []
        for _ in range(count):
            self._bag_counter += 1
            tag = f"0607{self._bag_counter:06d}"  # 607: the carrier's numeric code
            tags.append(tag)
            self.bags.append(
                Bag(
                    bag_tag=tag,
                    booking_id=f"{pnr}-1-{index + 1}",
                    passenger_id=passenger.passenger_id,
                    flight_id=itinerary[0].flight_id,
                    current_location=itinerary[0].origin,
                    final_destination=itinerary[-1].destination,
                    weight_kg=round(self.rng.uniform(8, 32), 1),
                    priority=passenger.loyalty_tier in ("GOLD", "PLATINUM") or cabin != "Y",
                )
            )
        return tags


def build_passengers(
    config: GeneratorConfig, flights: list[Flight], rng: random.Random
) -> tuple[list[Passenger], list[Booking], list[Bag]]:
    if config.passenger_days is not None:
        first, last = config.passenger_days
        low, high = (
            local_to_utc(first, "00:00", "Asia/Dubai"),
            local_to_utc(last + timedelta(days=1), "00:00", "Asia/Dubai"),
        )
        flights = [f for f in flights if low <= f.scheduled_departure < high]
    builder = PassengerBuilder(config, flights, rng)
    builder.build()
    return builder.passengers, builder.bookings, builder.bags
