"""The three demo situations, placed on days 4, 5 and 6 of the window (2027-01-20/21/22 by default).

(a) EY123 AUH→FRA: hydraulic fault on its B787-9 before departure; a same-type airworthy spare is at
    AUH (the other spare's category B MEL item has expired), so a tail swap is the right answer.
(b) EY101 AUH→JFK: delayed 4 h 15 min after the augmented crew reported; their FDP would exceed even
    commander's discretion; a legal reserve crew is on standby at AUH (one reserve captain lacks rest,
    one reserve first officer lacks recency), so a crew swap is the answer.
(c) EY11 AUH→LHR: a storm over south-east England with crosswind gusts above the 787's limit at LHR,
    LGW and STN around the arrival time; MAN and BHX are in range with good weather.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from ...models.operational import CrewDuty, CrewMember, Flight, LandingRecord, MelItem, WeatherObservation, WorkOrder
from ...rules.network import propagate_delay
from .config import GeneratorConfig
from .maintenance import authorisation
from .schedule import Tail


@dataclass(frozen=True)
class DemoSituation:
    key: str
    flight_number: str
    flight_date: date
    prompt: str
    expected: str


def demo_situations(config: GeneratorConfig) -> list[DemoSituation]:
    a, b, c = (config.demo_day(n) for n in (3, 4, 5))
    return [
        DemoSituation(
            "mechanical",
            "EY123",
            a,
            f"Flight EY123 on {a:%B} {a.day}th had a mechanical failure",
            "tail swap to the airworthy B787-9 spare at AUH",
        ),
        DemoSituation(
            "crew_timeout",
            "EY101",
            b,
            f"EY101 on {b:%d %b %Y} is delayed over four hours and the crew will run out of duty time",
            "crew swap with the legal reserve crew on standby at AUH",
        ),
        DemoSituation(
            "weather",
            "EY11",
            c,
            f"Storm at London Heathrow: EY11 on {c:%d/%m/%Y} may not be able to land",
            "delay or divert to an alternate in range (MAN, BHX)",
        ),
    ]


def carry_delay(flights: list[Flight], flight: Flight) -> None:
    """The knock-on of `flight`'s delay through its tail's later flights (``rules.network.propagate_delay``), so
    the planted situation keeps every rotation flyable in sequence."""
    rotation = [f for f in flights if f.aircraft_registration == flight.aircraft_registration]
    by_id = {f.flight_id: f for f in rotation}
    for later in propagate_delay(rotation, flight.flight_id, flight.delay_minutes).flights[1:]:
        minutes = later.departure_delay_minutes
        if minutes:
            f = by_id[later.flight_id]
            f.status, f.delay_minutes = "DELAYED", minutes
            f.delay_reason = f"REACTIONARY: late inbound aircraft ({flight.flight_number})"
            f.estimated_departure = f.scheduled_departure + timedelta(minutes=minutes)
            f.estimated_arrival = f.scheduled_arrival + timedelta(minutes=minutes)


def _find(flights: list[Flight], number: str, day: date) -> Flight:
    return next(f for f in flights if f.flight_number == number and f.flight_date == day)


def apply_mechanical(
    config: GeneratorConfig, flights: list[Flight], tails: list[Tail], work_orders: list[WorkOrder]
) -> None:
    flight = _find(flights, "EY123", config.demo_day(3))
    flight.status, flight.delay_reason = "DELAYED", "TECHNICAL: hydraulic system fault found before departure"
    found = flight.scheduled_departure - timedelta(minutes=105)
    work_orders.append(
        WorkOrder(
            work_order_id=f"WO-{flight.aircraft_registration[3:]}-D0001",
            aircraft_registration=flight.aircraft_registration,
            opened_at=found,
            kind="DEFECT",
            status="OPEN",
            ata_chapter="29",
            station=flight.origin,
            aog=True,
            description="Hydraulic system C engine-driven pump low pressure; fluid leak at pump case drain line",
            estimated_labour_hours=5.5,
            required_authorisation=authorisation(flight.aircraft_type),
            parts_available_at=found + timedelta(hours=3),
        )
    )
    spares = [t for t in tails if t.spare and t.aircraft_type == flight.aircraft_type]
    for spare in spares:  # the spares start clean; the second gets an expired category B deferral
        work_orders[:] = [w for w in work_orders if not (w.aircraft_registration == spare.registration and w.mel)]
    if len(spares) > 1:
        discovered = config.demo_day(3) - timedelta(days=5)
        work_orders.append(
            WorkOrder(
                work_order_id=f"WO-{spares[1].registration[3:]}-D0002",
                aircraft_registration=spares[1].registration,
                opened_at=flight.scheduled_departure - timedelta(days=5),
                kind="MEL_DEFERRAL",
                status="DEFERRED",
                ata_chapter="30",
                station=flight.origin,
                description="Windshield heat #1 inoperative",
                mel=MelItem(
                    reference="30-42-01",
                    category="B",
                    discovered_on=discovered,
                    restrictions=["NO_FLIGHT_IN_KNOWN_ICING"],
                ),
                estimated_labour_hours=2.0,
                required_authorisation=authorisation(flight.aircraft_type),
            )
        )


def apply_crew_timeout(
    config: GeneratorConfig, flights: list[Flight], members: list[CrewMember], roster: list[CrewDuty]
) -> None:
    flight = _find(flights, "EY101", config.demo_day(4))
    delay = timedelta(minutes=255)
    flight.status, flight.delay_minutes = "DELAYED", 255
    flight.delay_reason = "ATC: flow restriction en route and late inbound aircraft"
    flight.estimated_departure = flight.scheduled_departure + delay
    flight.estimated_arrival = flight.scheduled_arrival + delay
    carry_delay(flights, flight)
    standby_key = f"{flight.origin}#{flight.flight_date.isoformat()}"
    morning = sorted(
        {
            r.crew_id
            for r in roster
            if r.standby_base_date == standby_key and r.duty_start <= flight.scheduled_departure < r.duty_end
        }
    )
    by_id = {m.crew_id: m for m in members}
    on_standby = [by_id[c] for c in morning if "B777" in by_id[c].type_ratings]
    captains = [m for m in on_standby if m.rank == "CPT"]
    officers = [m for m in on_standby if m.rank == "FO"]
    if len(captains) > 1:  # back from positioning at 05:00 local: not enough rest to report this morning
        tired, arrived = captains[0], flight.scheduled_departure - timedelta(hours=4, minutes=15)
        roster.append(
            CrewDuty(
                crew_id=tired.crew_id,
                duty_key=f"{arrived - timedelta(hours=2):%Y-%m-%dT%H:%M:%SZ}#POSITIONING#",
                duty_id=f"P-{tired.crew_id}",
                kind="POSITIONING",
                duty_start=arrived - timedelta(hours=2),
                duty_end=arrived,
                start_station="MCT",
                end_station=flight.origin,
                sectors=1,
            )
        )
    if len(officers) > 2:  # back from long leave: no landing in the last 90 days
        stale = officers[0]
        stale.recent_landings = [
            LandingRecord(aircraft_type="B77W", at=flight.scheduled_departure - timedelta(days=d))
            for d in (131, 127, 120)
        ]


def apply_storm(config: GeneratorConfig, flights: list[Flight], weather: list[WeatherObservation]) -> None:
    flight = _find(flights, "EY11", config.demo_day(5))
    start = flight.scheduled_arrival.replace(minute=0, second=0) - timedelta(hours=3)
    storm = {start + timedelta(hours=h) for h in range(8)}
    for row in weather:
        if row.airport in ("LHR", "LGW", "STN") and row.forecast_time in storm:
            row.wind_direction_deg, row.wind_speed_kt, row.gust_kt = 190, 36, 55
            row.visibility_m, row.ceiling_ft, row.phenomena = 2500, 900, ["RA", "SQ"]
        elif row.airport in ("MAN", "BHX") and row.forecast_time in storm:
            row.wind_direction_deg, row.wind_speed_kt, row.gust_kt = 230, 14, None
            row.visibility_m, row.ceiling_ft, row.phenomena = 9999, 3000, []
