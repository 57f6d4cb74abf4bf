"""Synthetic airline generator: deterministic for a given seed.

`generate(GeneratorConfig(...))` returns every operational table's rows for the window, with the three
demo situations in place, and DisruptionHistory: ~450 precedents from the year before the window.
Hub AUH, carrier EY, about 75 aircraft of six types, ~60 destinations, ~170 flights a day.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import timedelta

from ...models.common import Row
from ..loader import bulk_allocation
from ..schema import (
    AIRCRAFT_AVAILABILITY,
    AIRPORTS,
    BAGGAGE,
    BOOKINGS,
    CARGO_FLIGHT_ASSIGNMENTS,
    CARGO_SHIPMENTS,
    CREW_MEMBERS,
    CREW_ROSTER,
    DISRUPTION_HISTORY,
    FLIGHTS,
    MAINTENANCE_ROSTER,
    MAINTENANCE_STAFF,
    MAINTENANCE_WORK_ORDERS,
    PASSENGERS,
    WEATHER,
)
from .airports import build_notams, build_profiles
from .cargo import build_cargo
from .config import GeneratorConfig, local_to_utc
from .crew import build_roster
from .history import build_history
from .maintenance import build_staff, build_work_orders
from .network import ALTERNATES, HUB
from .passengers import build_passengers
from .scenarios import DemoSituation, apply_crew_timeout, apply_mechanical, apply_storm, demo_situations
from .schedule import aircraft_days, build_schedule
from .weather import build_weather

__all__ = ["Airline", "DemoSituation", "GeneratorConfig", "demo_situations", "generate"]


@dataclass
class Airline:
    config: GeneratorConfig
    tables: dict[str, Sequence[Row]] = field(default_factory=dict)

    @property
    def situations(self) -> list[DemoSituation]:
        return demo_situations(self.config) if self.config.demo_situations else []

    def counts(self) -> dict[str, int]:
        return {name: len(rows) for name, rows in self.tables.items()}


def generate(config: GeneratorConfig | None = None) -> Airline:
    with bulk_allocation():
        return _generate(config or GeneratorConfig())


def _generate(config: GeneratorConfig) -> Airline:
    # One independent stream per concern, so adding rows to one never reshuffles another.
    rng = {name: random.Random(f"{config.seed}:{name}") for name in ("crew", "pax", "cargo", "mx", "wx", "history")}
    flights, tails = build_schedule(config)
    members, roster = build_roster(config, flights, rng["crew"])
    stations = sorted(({f.destination for f in flights} | {f.origin for f in flights}) - {HUB})
    staff, shifts = build_staff(config, [s for s in stations if s in ("LHR", "FRA", "JFK", "SYD")], rng["mx"])
    work_orders = build_work_orders(config, tails, rng["mx"])
    window_start = local_to_utc(config.start, "00:00", "Asia/Dubai")
    weather_airports = [HUB] + stations + [a for a in ALTERNATES if a not in stations]
    weather = build_weather(weather_airports, window_start - timedelta(days=1), (config.days + 3) * 24, rng["wx"])

    if config.demo_situations:
        apply_mechanical(config, flights, tails, work_orders)
        apply_crew_timeout(config, flights, members, roster)
        apply_storm(config, flights, weather)

    passengers, bookings, bags = build_passengers(config, flights, rng["pax"])
    shipments, assignments = build_cargo(flights, rng["cargo"])
    airline = Airline(config)
    airline.tables = {
        FLIGHTS: flights,
        AIRCRAFT_AVAILABILITY: aircraft_days(config, tails),
        CREW_MEMBERS: members,
        CREW_ROSTER: roster,
        PASSENGERS: passengers,
        BOOKINGS: bookings,
        BAGGAGE: bags,
        CARGO_SHIPMENTS: shipments,
        CARGO_FLIGHT_ASSIGNMENTS: assignments,
        MAINTENANCE_WORK_ORDERS: work_orders,
        MAINTENANCE_STAFF: staff,
        MAINTENANCE_ROSTER: shifts,
        WEATHER: weather,
        AIRPORTS: [*build_profiles(weather_airports), *build_notams(window_start, config.days)],
        DISRUPTION_HISTORY: build_history(config, rng["history"]),
    }
    return airline
