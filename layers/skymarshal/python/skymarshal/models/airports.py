"""World airport reference (IATA code → name, country, coordinates, IANA time zone) from `airportsdata`,
and great-circle distance. Pure data; the operational AirportReference table adds curfews and NOTAMs."""

from __future__ import annotations

import math
from functools import lru_cache
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict

from .airport_names import ENGLISH_NAMES

if TYPE_CHECKING:
    import airportsdata

EARTH_RADIUS_KM = 6371.0088  # mean Earth radius (IUGG)


class AirportInfo(BaseModel):
    model_config = ConfigDict(frozen=True)

    iata: str
    icao: str
    name: str
    city: str
    country: str  # ISO 3166-1 alpha-2
    lat: float
    lon: float
    elevation_ft: int
    tz: str


class UnknownAirport(LookupError):
    def __init__(self, code: str):
        super().__init__(f"unknown airport code {code!r}: expected a three-letter IATA code such as AUH or LHR")
        self.code = code


@lru_cache(maxsize=1)
def _database() -> dict[str, airportsdata.Airport]:
    import airportsdata

    return airportsdata.load("IATA")


@lru_cache(maxsize=4096)
def airport(code: str) -> AirportInfo:
    row = _database().get(code.upper())
    if row is None:
        raise UnknownAirport(code)
    return AirportInfo(
        iata=row["iata"],
        icao=row["icao"],
        name=row["name"],
        city=row["city"],
        country=row["country"],
        lat=row["lat"],
        lon=row["lon"],
        elevation_ft=int(row["elevation"] or 0),
        tz=row["tz"],
    )


def great_circle_km(a: str, b: str) -> float:
    """Haversine distance between two airports (the basis EU261 Art. 7 uses)."""
    pa, pb = airport(a), airport(b)
    return haversine_km(pa.lat, pa.lon, pb.lat, pb.lon)


def haversine_km(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * EARTH_RADIUS_KM * math.asin(math.sqrt(h))


def route_distance_km(code: str, origin: str, destination: str, step_km: float = 100.0) -> float:
    """How far airport `code` lies from the great-circle route origin → destination: the nearest of points every
    `step_km` along it (interpolated on the sphere), close enough to tell a route's alternates from a namesake an
    ocean away."""
    p, a, b = airport(code), airport(origin), airport(destination)
    length = haversine_km(a.lat, a.lon, b.lat, b.lon)
    steps = max(1, math.ceil(length / step_km))
    return min(haversine_km(p.lat, p.lon, *point_along(a, b, i / steps, length)) for i in range(steps + 1))


def point_along(a: AirportInfo, b: AirportInfo, fraction: float, length_km: float) -> tuple[float, float]:
    """The point `fraction` of the way along the great circle from a to b (lat, lon in degrees)."""
    if length_km == 0:
        return a.lat, a.lon
    d = length_km / EARTH_RADIUS_KM
    la1, lo1, la2, lo2 = map(math.radians, (a.lat, a.lon, b.lat, b.lon))
    wa, wb = math.sin((1 - fraction) * d) / math.sin(d), math.sin(fraction * d) / math.sin(d)
    x = wa * math.cos(la1) * math.cos(lo1) + wb * math.cos(la2) * math.cos(lo2)
    y = wa * math.cos(la1) * math.sin(lo1) + wb * math.cos(la2) * math.sin(lo2)
    z = wa * math.sin(la1) + wb * math.sin(la2)
    return math.degrees(math.atan2(z, math.hypot(x, y))), math.degrees(math.atan2(y, x))


def airports_within(code: str, radius_km: float) -> list[tuple[str, float]]:
    """IATA codes of airports within `radius_km` of `code` (nearest first), from the reference data."""
    centre = airport(code)
    found = []
    for other, row in _database().items():
        if other == code or not row.get("lat"):
            continue
        distance = haversine_km(centre.lat, centre.lon, row["lat"], row["lon"])
        if distance <= radius_km:
            found.append((other, distance))
    return sorted(found, key=lambda pair: pair[1])


@lru_cache(maxsize=1)
def _by_place() -> dict[str, frozenset[str]]:
    """Lower-case city names and airport names (without "International", "Airport") → IATA codes."""
    import re

    index: dict[str, set[str]] = {}
    for code, row in _database().items():
        name = " ".join(re.sub(r"\b(?:international|intl|airport)\b", "", row["name"], flags=re.I).split()).lower()
        words = name.split()
        city = row["city"].lower().strip()
        # the city and each part of a qualified one ("Toulouse/Blagnac", "Arnavutköy, Istanbul", "Kerkyra Island"),
        # the whole name, the name's distinctive first or last word ("Heathrow", "Schiphol"), and English names
        parts = {p.strip().removesuffix(" island") for p in re.split(r"[/,]", city)}
        distinctive = (w for w in (words[:1] + words[-1:]) if len(w) >= 6)
        english = (n.lower() for n in ENGLISH_NAMES.get(code, ()))
        for place in {city, *parts, name, *distinctive, *english}:
            if len(place) >= 4:
                index.setdefault(place, set()).add(code)
    return {place: frozenset(codes) for place, codes in index.items()}


def codes_named_in(text: str, longest: int = 4) -> set[str]:
    """Every IATA code whose city or airport name appears in `text` as whole words ("Abu Dhabi" → AUH and the
    other airports of that city): candidates, to be narrowed to the airports the airline serves."""
    words = [w for w in "".join(c.lower() if c.isalnum() else " " for c in text).split()]
    places = _by_place()
    found: set[str] = set()
    for n in range(1, longest + 1):
        for i in range(len(words) - n + 1):
            found |= places.get(" ".join(words[i : i + n]), frozenset())
    return found


def codes_of_place(words: str) -> frozenset[str]:
    """The IATA codes whose city or airport name is exactly `words` (any case): "London" → LHR, LGW and the rest of
    London's; "our London" names none (codes_named_in finds a name anywhere inside)."""
    key = " ".join("".join(c.lower() if c.isalnum() else " " for c in words).split())
    return _by_place().get(key, frozenset())
