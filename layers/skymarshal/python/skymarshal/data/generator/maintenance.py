"""Maintenance: engineers and shifts per station, work orders with MEL deferrals per aircraft."""

from __future__ import annotations

import random
from datetime import timedelta

from ...models.fleet import AIRCRAFT_TYPES
from ...models.operational import MaintenanceEngineer, MaintenanceShift, MelItem, WorkOrder
from .config import GeneratorConfig, local_to_utc
from .names import person_name
from .network import HUB
from .schedule import Tail

# Deferrable items seen in line operations: (ATA, MEL ref, category, description, restrictions)
MEL_CATALOGUE: tuple[tuple[str, str, str, str, list[str]], ...] = (
    ("49", "49-10-01", "C", "APU inoperative", ["APU_INOP_GROUND_POWER_REQUIRED"]),
    ("21", "21-51-01", "C", "One air conditioning pack inoperative", ["ALT_LIMIT_FL310"]),
    ("78", "78-31-01", "C", "Thrust reverser #2 deactivated", ["LANDING_DISTANCE_PENALTY_15PCT"]),
    ("33", "33-42-02", "D", "Cabin reading light row 32 inoperative", []),
    ("25", "25-21-04", "D", "Seat 14C recline inoperative", ["SEAT_BLOCKED_14C"]),
    ("34", "34-11-03", "B", "Standby altimeter lighting inoperative", ["NIGHT_VMC_ONLY"]),
    ("23", "23-51-01", "C", "One cabin interphone handset inoperative", []),
    ("30", "30-42-01", "B", "Windshield heat #1 inoperative", ["NO_FLIGHT_IN_KNOWN_ICING"]),
)
SHIFTS = (("06:00", 8), ("14:00", 8), ("22:00", 8))
HUB_ENGINEERS = 48
OUTSTATION_ENGINEERS = 3


def authorisation(type_code: str, licence: str = "B1") -> str:
    return f"{licence}-{AIRCRAFT_TYPES[type_code].rating_group}"


def build_staff(
    config: GeneratorConfig, stations: list[str], rng: random.Random
) -> tuple[list[MaintenanceEngineer], list[MaintenanceShift]]:
    staff: list[MaintenanceEngineer] = []
    shifts: list[MaintenanceShift] = []
    groups = sorted({t.rating_group for t in AIRCRAFT_TYPES.values()})
    for station in [HUB] + stations:
        count = HUB_ENGINEERS if station == HUB else OUTSTATION_ENGINEERS
        for i in range(count):
            licence = "B1" if i % 3 else "B2"
            rated = groups if station != HUB else rng.sample(groups, k=2)
            engineer = MaintenanceEngineer(
                staff_id=f"E{len(staff) + 1:04d}",
                name=person_name(rng),
                station=station,
                licence=licence,
                authorisations=[f"{licence}-{g}" for g in rated],
            )
            staff.append(engineer)
            for offset in range(config.days):
                if (offset + i) % 7 in (5, 6):  # two days off a week
                    continue
                hhmm, hours = SHIFTS[i % 3] if station == HUB else SHIFTS[(i + offset) % 2]
                start = local_to_utc(config.start + timedelta(days=offset), hhmm, "Asia/Dubai")
                shifts.append(
                    MaintenanceShift(
                        staff_id=engineer.staff_id,
                        shift_start=start,
                        shift_end=start + timedelta(hours=hours),
                        station=station,
                    )
                )
    return staff, shifts


def build_work_orders(config: GeneratorConfig, tails: list[Tail], rng: random.Random) -> list[WorkOrder]:
    """Open deferrals that stay inside their intervals, and closed history, for every tail."""
    window_start = local_to_utc(config.start, "00:00", "Asia/Dubai")
    orders: list[WorkOrder] = []
    for tail in tails:
        for _n in range(rng.randint(0, 2)):
            ata, ref, category, text, restrictions = rng.choice(MEL_CATALOGUE)
            interval = {"B": 3, "C": 10, "D": 120}[category]
            # Open deferrals stay inside their interval for the whole window: an airline rectifies before
            # expiry (a B or C item that could not is left out; the demo's expired item is deliberate).
            earliest = config.end - timedelta(days=interval - 3)  # the last returns land up to 2 days later
            if earliest > config.start:
                continue
            discovered = config.start - timedelta(days=rng.randint(0, (config.start - earliest).days))
            orders.append(
                WorkOrder(
                    work_order_id=f"WO-{tail.registration[3:]}-{len(orders) + 1:05d}",
                    aircraft_registration=tail.registration,
                    opened_at=window_start - timedelta(days=(config.start - discovered).days),
                    kind="MEL_DEFERRAL",
                    status="DEFERRED",
                    ata_chapter=ata,
                    description=text,
                    station=HUB,
                    mel=MelItem(reference=ref, category=category, discovered_on=discovered, restrictions=restrictions),
                    estimated_labour_hours=round(rng.uniform(0.5, 4), 1),
                    required_authorisation=authorisation(tail.aircraft_type),
                )
            )
        for _ in range(rng.randint(1, 3)):
            opened = window_start - timedelta(days=rng.randint(5, 60))
            orders.append(
                WorkOrder(
                    work_order_id=f"WO-{tail.registration[3:]}-{len(orders) + 1:05d}",
                    aircraft_registration=tail.registration,
                    opened_at=opened,
                    kind="SCHEDULED_CHECK",
                    status="CLOSED",
                    ata_chapter="05",
                    description="Weekly check",
                    station=HUB,
                    estimated_labour_hours=6,
                    required_authorisation=authorisation(tail.aircraft_type),
                    closed_at=opened + timedelta(hours=8),
                )
            )
    return orders
