"""The generated airline as the composer needs it: flights by day, by tail and by station, who is rostered where,
and the served airports' names. Built once from the generator's rows (no AWS)."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

from skymarshal.data.generator import Airline
from skymarshal.models.operational import AirportProfile, CrewDuty, Flight

MARGIN = timedelta(minutes=10)  # a flight this close to a window's edge is neither surely in nor surely out


@dataclass
class AirlineView:
    flights: list[Flight]
    airports: dict[str, AirportProfile]
    ranks_on: dict[str, set[str]]  # flight id → the roster ranks on it
    days: list[date]  # the local days reports are about (a day inside the data on both sides)
    by_day: dict[date, list[Flight]] = field(default_factory=dict)
    # cities where the airline's reference holds several airports ("London": LHR, LGW, STN): a report names the code
    shared_cities: set[str] = field(default_factory=set)
    by_tail_day: dict[tuple[str, date], list[Flight]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        by_day: dict[date, list[Flight]] = defaultdict(list)
        by_tail: dict[tuple[str, date], list[Flight]] = defaultdict(list)
        for f in sorted(self.flights, key=lambda f: f.scheduled_departure):
            if f.status == "CANCELLED":
                continue
            by_day[f.flight_date].append(f)
            by_tail[(f.aircraft_registration, f.flight_date)].append(f)
        self.by_day, self.by_tail_day = dict(by_day), dict(by_tail)

    @property
    def served(self) -> list[str]:
        return sorted(self.airports)

    def city(self, iata: str) -> str:
        return self.airports[iata].city

    def local_departure(self, flight: Flight) -> datetime:
        return flight.scheduled_departure.astimezone(ZoneInfo(self.airports[flight.origin].tz))

    def tail_flights(self, registration: str, day: date) -> list[Flight]:
        """The tail's flights of the local day, in order (whatever the UTC date)."""
        return self.by_tail_day.get((registration, day), [])

    def touching(self, iata: str, start: datetime, end: datetime) -> list[Flight]:
        """Flights departing from or arriving at `iata` well inside [start, end] (MARGIN from either edge)."""
        inside = []
        for f in self.flights:
            if f.status == "CANCELLED":
                continue
            dep = f.origin == iata and start + MARGIN <= f.scheduled_departure <= end - MARGIN
            arr = f.destination == iata and start + MARGIN <= f.scheduled_arrival <= end - MARGIN
            if dep or arr:
                inside.append(f)
        return inside

    def departures_per_hour(self, iata: str, day: date) -> Counter[datetime]:
        """Scheduled departures from `iata` per UTC clock hour of a UTC day."""
        counts: Counter[datetime] = Counter()
        start = datetime(day.year, day.month, day.day, tzinfo=UTC)
        for f in self.flights:
            if f.origin == iata and start <= f.scheduled_departure < start + timedelta(days=1):
                counts[f.scheduled_departure.replace(minute=0, second=0, microsecond=0)] += 1
        return counts


def view_of(airline: Airline) -> AirlineView:
    flights = [f for f in airline.tables["flights"] if isinstance(f, Flight)]
    airports = {r.iata: r for r in airline.tables["AirportReference"] if isinstance(r, AirportProfile)}
    ranks: dict[str, set[str]] = defaultdict(set)
    for duty in airline.tables["CrewRoster"]:
        if isinstance(duty, CrewDuty) and duty.kind == "FLIGHT" and duty.flight_id and duty.position:
            ranks[duty.flight_id].add(duty.position)
    config = airline.config
    # a day's margin at each end: a window or a tail's day never runs past the data
    days = [config.start + timedelta(days=n) for n in range(1, config.days - 1)]
    served = {f.origin for f in flights} | {f.destination for f in flights}
    cities = Counter(a.city for a in airports.values())
    shared = {city for city, n in cities.items() if n > 1}
    kept = {k: v for k, v in airports.items() if k in served}
    return AirlineView(flights, kept, dict(ranks), days, shared_cities=shared)
