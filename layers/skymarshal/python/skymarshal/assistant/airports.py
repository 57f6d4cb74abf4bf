"""The assistant's airport table: three sources joined on the IATA code, and geographic searches over it.

- ``airportsdata`` (~7,900 IATA airports): name, city, country, coordinates, elevation, IANA time zone — the
  same base as ``models.airports``, so both agree on every shared field.
- ``airports-py`` (~10,000 IATA codes): longest runway (ft), airport type (large/medium/small), scheduled
  service. Its elevation column is unreliable (LHR reads 232,718 ft), so it is not used.
- the project's reference data: surveyed runways (``data.generator.network.RUNWAYS``, metres) win over the
  package's runway figure; curfew windows come from ``rules.curfew.DEFAULT_CURFEWS``.
Distances are great-circle (haversine, mean Earth radius) in nautical miles, vectorised with numpy.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

import numpy as np
from pydantic import BaseModel, ConfigDict

from ..data.generator.network import RUNWAYS
from ..models.airports import EARTH_RADIUS_KM, UnknownAirport
from ..models.fleet import AIRCRAFT_TYPES, TYPE_NAMES
from ..models.operational import CurfewWindow
from ..rules.curfew import DEFAULT_CURFEWS

KM_PER_NM = 1.852
FT_PER_M = 3.28084
EARTH_RADIUS_NM = EARTH_RADIUS_KM / KM_PER_NM
AirportKind = Literal["large_airport", "medium_airport", "small_airport", "seaplane_base", "heliport"]


class Airport(BaseModel):
    model_config = ConfigDict(frozen=True)

    iata: str
    icao: str
    name: str
    city: str
    country: str
    lat: float
    lon: float
    elevation_ft: int
    tz: str
    kind: str | None = None  # airports-py type, None when the package does not list the airport
    scheduled_service: bool | None = None
    longest_runway_ft: int | None = None
    runway_source: Literal["reference", "airports-py"] | None = None
    curfews: tuple[CurfewWindow, ...] = ()


class AirportFilters(BaseModel):
    """Filters every airport search accepts; None means "no constraint"."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    min_runway_ft: int | None = None
    aircraft_type: str | None = None  # fleet type code or alias ("787"); sets min_runway_ft from models.fleet
    country: str | None = None
    kinds: tuple[str, ...] = ("large_airport", "medium_airport")
    scheduled_service: bool | None = None
    no_curfew: bool = False  # "can take it at night": excludes airports with a curfew window on record

    def required_runway_ft(self) -> int | None:
        needed = [self.min_runway_ft] if self.min_runway_ft else []
        code = aircraft_code(self.aircraft_type) if self.aircraft_type else None
        if code:
            needed.append(round(AIRCRAFT_TYPES[code].min_runway_m * FT_PER_M))
        return max(needed) if needed else None


class NearbyAirport(BaseModel):
    model_config = ConfigDict(frozen=True)

    airport: Airport
    distance_nm: float  # from the point, or off the route (cross-track)
    along_route_nm: float | None = None  # for route searches: how far along from the departure


def aircraft_code(text: str) -> str | None:
    """The fleet type code for an aircraft name ("787", "B789", "A350"), or None when not in the fleet."""
    cleaned = text.strip().lower().replace("boeing", "").replace("airbus", "").replace(" ", "")
    if cleaned.upper() in AIRCRAFT_TYPES:
        return cleaned.upper()
    # the longest name written in it (models.fleet.TYPE_NAMES); a family's first type ("787": the 787-9)
    names = sorted((n for n in TYPE_NAMES if n.replace(" ", "") in cleaned), key=len, reverse=True)
    return min(TYPE_NAMES[names[0]]) if names else None


def _runway_ft(value) -> int | None:
    return int(value) if isinstance(value, (int, float)) and value > 0 else None


@lru_cache(maxsize=1)
def airport_table() -> tuple[Airport, ...]:
    """Every IATA airport of airportsdata, enriched with airports-py and the project's reference data."""
    import airportsdata
    from airports import airport_data as airports_py

    extra = {row["iata"]: row for row in airports_py.airports if row.get("iata")}
    table = []
    for code, row in airportsdata.load("IATA").items():
        package = extra.get(code, {})
        runway_ft, source = _runway_ft(package.get("runway_length")), "airports-py"
        if code in RUNWAYS:
            runway_ft, source = round(max(length for _, _, length in RUNWAYS[code]) * FT_PER_M), "reference"
        scheduled = package.get("scheduled_service")
        table.append(
            Airport(
                iata=code,
                icao=row["icao"] or "",
                name=row["name"],
                city=row["city"],
                country=row["country"],
                lat=row["lat"],
                lon=row["lon"],
                elevation_ft=int(row["elevation"] or 0),
                tz=row["tz"],
                kind=package.get("type"),
                scheduled_service=None if scheduled is None else scheduled == "TRUE",
                longest_runway_ft=runway_ft,
                runway_source=source if runway_ft else None,
                curfews=tuple(DEFAULT_CURFEWS.get(code, ())),
            )
        )
    return tuple(table)


@lru_cache(maxsize=1)
def _index() -> tuple[dict[str, int], dict[str, int], np.ndarray, np.ndarray]:
    table = airport_table()
    lat = np.radians([a.lat for a in table])
    lon = np.radians([a.lon for a in table])
    return {a.iata: i for i, a in enumerate(table)}, {a.icao: i for i, a in enumerate(table) if a.icao}, lat, lon


def find_airport(code: str) -> Airport:
    """An airport by IATA (3 letters) or ICAO (4) code; UnknownAirport otherwise."""
    by_iata, by_icao, _, _ = _index()
    key = code.strip().upper()
    position = by_iata.get(key) if len(key) == 3 else by_icao.get(key)
    if position is None:
        raise UnknownAirport(code)
    return airport_table()[position]


def matches(airport: Airport, filters: AirportFilters) -> bool:
    needed = filters.required_runway_ft()
    if needed and (airport.longest_runway_ft or 0) < needed:
        return False
    if filters.kinds and airport.kind not in filters.kinds:
        return False
    if filters.country and airport.country != filters.country.upper():
        return False
    if filters.scheduled_service is not None and airport.scheduled_service != filters.scheduled_service:
        return False
    return not (filters.no_curfew and any(w.kind == "curfew" for w in airport.curfews))


def _distances_nm(lat: float, lon: float) -> np.ndarray:
    """Great-circle distance from (lat, lon) in degrees to every airport of the table, in nm."""
    _, _, lats, lons = _index()
    p1, l1 = np.radians(lat), np.radians(lon)
    h = np.sin((lats - p1) / 2) ** 2 + np.cos(p1) * np.cos(lats) * np.sin((lons - l1) / 2) ** 2
    return 2 * EARTH_RADIUS_NM * np.arcsin(np.sqrt(np.clip(h, 0, 1)))


def _bearings(lat: float, lon: float) -> np.ndarray:
    """Initial great-circle bearing (radians) from (lat, lon) to every airport of the table."""
    _, _, lats, lons = _index()
    p1, l1 = np.radians(lat), np.radians(lon)
    y = np.sin(lons - l1) * np.cos(lats)
    x = np.cos(p1) * np.sin(lats) - np.sin(p1) * np.cos(lats) * np.cos(lons - l1)
    return np.arctan2(y, x)


def near_point(lat: float, lon: float, radius_nm: float, filters: AirportFilters, limit: int) -> list[NearbyAirport]:
    distances = _distances_nm(lat, lon)
    order = np.argsort(distances)
    found: list[NearbyAirport] = []
    for i in order:
        if distances[i] > radius_nm or len(found) >= limit:
            break
        airport = airport_table()[i]
        if matches(airport, filters):
            found.append(NearbyAirport(airport=airport, distance_nm=round(float(distances[i]), 1)))
    return found


def route_offsets_nm(departure: Airport, destination: Airport) -> tuple[np.ndarray, np.ndarray, float]:
    """For every airport: distance off the great-circle segment departure→destination, and distance along it.

    Cross-track d_xt = asin(sin δ13 · sin(θ13 − θ12)); along-track d_at = acos(cos δ13 / cos d_xt) (angular).
    Points before the departure or past the destination are measured to the nearer end instead, so an airport
    "near the route" is near the flown segment, not near its extension around the globe.
    """
    to_points = _distances_nm(departure.lat, departure.lon)
    to_end = _distances_nm(destination.lat, destination.lon)
    length = float(to_points[_index()[0][destination.iata]])
    delta13 = to_points / EARTH_RADIUS_NM
    theta13 = _bearings(departure.lat, departure.lon)
    theta12 = float(_bearings(departure.lat, departure.lon)[_index()[0][destination.iata]])
    cross = np.arcsin(np.clip(np.sin(delta13) * np.sin(theta13 - theta12), -1, 1))
    along = np.arccos(np.clip(np.cos(delta13) / np.maximum(np.cos(cross), 1e-12), -1, 1)) * EARTH_RADIUS_NM
    behind = np.cos(theta13 - theta12) < 0
    off = np.abs(cross) * EARTH_RADIUS_NM
    off = np.where(behind, to_points, np.where(along > length, to_end, off))
    along = np.where(behind, 0.0, np.minimum(along, length))
    return off, along, length


def near_route(
    departure: Airport, destination: Airport, corridor_nm: float, filters: AirportFilters, limit: int
) -> tuple[list[NearbyAirport], int, float]:
    """Airports within ``corridor_nm`` of the route that pass the filters, in order along the route, spread
    evenly along it when more than ``limit`` qualify (so a long route is not cut off at its first third);
    with how many qualified and the route length."""
    off, along, length = route_offsets_nm(departure, destination)
    inside = np.nonzero(off <= corridor_nm)[0]
    table = airport_table()
    found = [
        NearbyAirport(airport=table[i], distance_nm=round(float(off[i]), 1), along_route_nm=round(float(along[i]), 1))
        for i in inside[np.argsort(along[inside])]
        if table[i].iata not in (departure.iata, destination.iata) and matches(table[i], filters)
    ]
    total = len(found)
    if len(found) > limit:
        step = len(found) / limit
        found = [found[int(i * step)] for i in range(limit)]
    return found, total, round(length, 1)


def search(text: str, filters: AirportFilters, limit: int) -> list[Airport]:
    """Airports whose code, name or city contain the text; exact codes first, then large airports."""
    needle = text.strip().lower()
    if not needle:
        return []
    exact = [a for a in airport_table() if needle in (a.iata.lower(), a.icao.lower())]
    named = [a for a in airport_table() if a not in exact and (needle in a.name.lower() or needle in a.city.lower())]
    ranked = exact + sorted(
        (a for a in named if matches(a, filters)),
        key=lambda a: (a.kind != "large_airport", -(a.longest_runway_ft or 0)),
    )
    return ranked[:limit]
