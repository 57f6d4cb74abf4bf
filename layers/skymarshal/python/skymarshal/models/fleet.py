"""Aircraft type reference data used by the generator and the rules engine.

Performance figures are typical published values, rounded; crosswind limits are the manufacturers'
demonstrated values and are configurable per operator (verify before operational use).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class AircraftType(BaseModel):
    model_config = ConfigDict(frozen=True)

    code: str  # ICAO type designator
    name: str
    rating_group: str  # crews rated on the group may operate any type in it
    registration_prefix: str
    capacity: dict[str, int]  # seats by cabin
    range_km: int
    cruise_kmh: int
    min_turn_minutes: int  # scheduled minimum turn-round
    max_crosswind_kt: int  # demonstrated crosswind, dry runway (verify)
    cabin_crew: int
    min_runway_m: int  # landing/take-off field length needed at typical weights
    cargo_hold_kg: int

    @property
    def seats(self) -> int:
        return sum(self.capacity.values())


AIRCRAFT_TYPES: dict[str, AircraftType] = {
    t.code: t
    for t in (
        AircraftType(
            code="A320",
            name="Airbus A320-200",
            rating_group="A320",
            registration_prefix="A6-EI",
            capacity={"J": 8, "Y": 128},
            range_km=5700,
            cruise_kmh=830,
            min_turn_minutes=45,
            max_crosswind_kt=38,
            cabin_crew=4,
            min_runway_m=2100,
            cargo_hold_kg=3000,
        ),
        AircraftType(
            code="A321",
            name="Airbus A321-200",
            rating_group="A320",
            registration_prefix="A6-EJ",
            capacity={"J": 8, "Y": 166},
            range_km=5500,
            cruise_kmh=830,
            min_turn_minutes=50,
            max_crosswind_kt=35,
            cabin_crew=5,
            min_runway_m=2300,
            cargo_hold_kg=4000,
        ),
        AircraftType(
            code="B789",
            name="Boeing 787-9",
            rating_group="B787",
            registration_prefix="A6-BL",
            capacity={"J": 28, "Y": 271},
            range_km=14000,
            cruise_kmh=900,
            min_turn_minutes=75,
            max_crosswind_kt=40,
            cabin_crew=10,
            min_runway_m=2800,
            cargo_hold_kg=16000,
        ),
        AircraftType(
            code="B78X",
            name="Boeing 787-10",
            rating_group="B787",
            registration_prefix="A6-BM",
            capacity={"J": 32, "Y": 303},
            range_km=11900,
            cruise_kmh=900,
            min_turn_minutes=80,
            max_crosswind_kt=40,
            cabin_crew=11,
            min_runway_m=2900,
            cargo_hold_kg=18000,
        ),
        AircraftType(
            code="B77W",
            name="Boeing 777-300ER",
            rating_group="B777",
            registration_prefix="A6-ET",
            capacity={"F": 8, "J": 40, "Y": 280},
            range_km=13600,
            cruise_kmh=900,
            min_turn_minutes=90,
            max_crosswind_kt=38,
            cabin_crew=12,
            min_runway_m=3000,
            cargo_hold_kg=20000,
        ),
        AircraftType(
            code="A35K",
            name="Airbus A350-1000",
            rating_group="A350",
            registration_prefix="A6-XW",
            capacity={"F": 4, "J": 44, "Y": 323},
            range_km=16100,
            cruise_kmh=900,
            min_turn_minutes=90,
            max_crosswind_kt=40,
            cabin_crew=13,
            min_runway_m=2900,
            cargo_hold_kg=20000,
        ),
    )
}


# The fleet's types by the names people write for them (lower case): each code, the maker's model, the family. A
# family's name is all its types ("787": the -9 and the -10).
TYPE_NAMES: dict[str, frozenset[str]] = {
    **{code.lower(): frozenset({code}) for code in AIRCRAFT_TYPES},
    **{w: frozenset({"B77W"}) for w in ("b777", "777", "77w", "b777-300er", "777-300er", "b773")},
    **{w: frozenset({"B789", "B78X"}) for w in ("b787", "787", "dreamliner", "dreamliners")},
    **{w: frozenset({"B789"}) for w in ("787-9", "b787-9")},
    **{w: frozenset({"B78X"}) for w in ("787-10", "b787-10", "78x")},
    **{w: frozenset({"A35K"}) for w in ("a350", "350", "a350-1000", "a351")},
    **{w: frozenset({"A320", "A321"}) for w in ("a32x", "a320s", "narrowbody", "narrowbodies", "narrow-body")},
}


def compatible_types(type_code: str) -> tuple[str, ...]:
    """Types a tail swap may use: the same rating group, so the rostered crew stay qualified."""
    group = AIRCRAFT_TYPES[type_code].rating_group
    return tuple(code for code, t in AIRCRAFT_TYPES.items() if t.rating_group == group)
