"""DisruptionHistory generator: the network's legs and, for a leg and day, what went wrong (the station, the
cause, the arbitrator's likely actions and whether EU261 Art. 5(3) extraordinary circumstances apply)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from functools import cache, lru_cache

from ...models.airports import airport, great_circle_km
from ...models.fleet import AIRCRAFT_TYPES
from .config import round_up
from .history_tables import (
    COLD_ASIA,
    CREW,
    DIVERSION_AIRPORTS,
    EUROPE,
    FOG_SOUTH_ASIA,
    GULF,
    MECHANICAL,
    NORTH_AMERICA,
    OTHER,
    PRONE,
    TYPHOON,
)
from .network import HUB, frequencies
from .schedule import NARROWBODIES, OUTSTATION_BUFFER, block_minutes


@dataclass(frozen=True)
class Leg:
    number: int
    origin: str
    destination: str
    aircraft_type: str
    hub_offset: int  # departure, minutes after the hub's local midnight of the outbound's day
    block: int
    distance: int

    @property
    def outstation(self) -> str:
        return self.destination if self.origin == HUB else self.origin


@dataclass
class Case:
    station: str  # where the problem is
    cause: str
    weights: dict[str, int]  # the arbitrator's rank-1 kind, by likelihood
    extraordinary: bool  # EU261 Art. 5(3): no compensation owed


def network_legs(scale: int) -> list[Leg]:
    legs = []
    for f in frequencies(scale):
        h, m = map(int, f.local_departure.split(":"))
        out_block, out_km = block_minutes(HUB, f.destination, f.aircraft_type)
        turn = AIRCRAFT_TYPES[f.aircraft_type].min_turn_minutes + OUTSTATION_BUFFER[f.aircraft_type in NARROWBODIES]
        back_block, back_km = block_minutes(f.destination, HUB, f.aircraft_type)
        legs.append(Leg(f.outbound_number, HUB, f.destination, f.aircraft_type, h * 60 + m, out_block, out_km))
        legs.append(
            Leg(
                f.inbound_number,
                f.destination,
                HUB,
                f.aircraft_type,
                round_up(h * 60 + m + out_block + turn),
                back_block,
                back_km,
            )
        )
    return legs


def leg_weight(kind: str, leg: Leg) -> float:
    if kind == "weather":
        return PRONE.get(leg.outstation, 1)
    if kind == "atc":
        country = airport(leg.outstation).country
        return 3 if country in EUROPE else 2 if country in NORTH_AMERICA else 1
    if kind == "crew":
        return 3 if leg.block >= 420 else 1
    return 1.5 if kind == "mechanical" and leg.aircraft_type not in NARROWBODIES else 1


def pick(rng: random.Random, weights: Mapping[str, float]) -> str:
    keys = list(weights)
    return rng.choices(keys, weights=[weights[k] for k in keys])[0]


def _weather(leg: Leg, day: date, rng: random.Random) -> Case:
    winter = day.month in (11, 12, 1, 2, 3)
    station = HUB if rng.random() < (0.4 if winter else 0.15) else leg.outstation
    country = airport(station).country
    if country in GULF:
        causes = ["dense fog at {st} (RVR below 200 m)"] if winter else ["a sandstorm at {st} (visibility 800 m)"]
    elif station in FOG_SOUTH_ASIA and winter:
        causes = ["dense fog at {st} (visibility below 100 m)"]
    elif country in EUROPE | NORTH_AMERICA | COLD_ASIA and winter:
        causes = [
            "snow and a de-icing queue at {st}",
            "freezing fog at {st}",
            "freezing rain at {st}",
            "a winter storm at {st} with crosswind gusts above the {type} limit",
        ]
    elif country in TYPHOON and 6 <= day.month <= 10:
        causes = ["a typhoon warning at {st}", "heavy thunderstorms over {st}"]
    else:
        causes = ["thunderstorms over {st}", "low cloud and strong crosswinds at {st}", "heavy rain at {st}"]
    weights = {"delay": 62, "cancel": 12}
    if station == leg.destination and station in DIVERSION_AIRPORTS:
        weights["divert"] = 30
    return Case(station, rng.choice(causes), weights, True)


def _atc(leg: Leg, rng: random.Random) -> Case:
    station = HUB if rng.random() < 0.25 else leg.outstation
    country = airport(station).country
    if country in EUROPE:
        causes = [
            "a Eurocontrol flow restriction for {st}",
            "an air traffic controllers' strike in France",
            "a reduced arrival rate at {st} after a runway closure",
            "a staff shortage at {st} approach control",
        ]
    elif country in NORTH_AMERICA:
        causes = ["a ground delay programme at {st}", "a reduced arrival rate at {st}"]
    elif country in GULF:
        causes = [
            "congestion in Gulf airspace",
            "a military airspace closure on the route",
            "a runway closure at {st} cutting the departure rate",
        ]
    else:
        causes = ["flow control into {st}", "rerouting around closed airspace on the route"]
    weights = {"delay": 76, "crew_swap": 12, "cancel": 8}
    if station == leg.destination:
        weights["divert"] = 5
    return Case(station, rng.choice(causes), weights, True)


def disruption_case(kind: str, leg: Leg, day: date, rng: random.Random) -> Case:
    at_hub = leg.origin == HUB
    if kind == "mechanical":
        weights = (
            {"tail_swap": 58, "delay": 28, "cancel": 10, "divert": 4}
            if at_hub
            else {"delay": 66, "cancel": 22, "tail_swap": 5, "divert": 7}
        )
        return Case(leg.origin, rng.choice(MECHANICAL), weights, False)
    if kind == "crew":
        weights = (
            {"crew_swap": 72, "delay": 18, "cancel": 10} if at_hub else {"crew_swap": 35, "delay": 45, "cancel": 20}
        )
        return Case(leg.origin, rng.choice(CREW), weights, False)
    if kind == "weather":
        return _weather(leg, day, rng)
    if kind == "atc":
        return _atc(leg, rng)
    cause, weights, extraordinary = rng.choice(OTHER)
    return Case(leg.origin, cause, dict(weights), extraordinary)


@lru_cache(maxsize=1)
def _stations() -> frozenset[str]:
    return frozenset({f.destination for f in frequencies(1)} | {HUB})


@cache
def en_route(origin: str, destination: str) -> str:
    """The network airport with the smallest detour between origin and destination, else a return to origin."""
    direct = great_circle_km(origin, destination)
    best = min(
        sorted(_stations() - {origin, destination}),
        key=lambda s: great_circle_km(origin, s) + great_circle_km(s, destination),
    )
    detour = great_circle_km(origin, best) + great_circle_km(best, destination) - direct
    return best if detour < 0.25 * direct and great_circle_km(origin, best) > 300 else origin
