"""Cargo shipments (air waybills with IATA handling codes) and their flight assignments."""

from __future__ import annotations

import random
from datetime import timedelta

from ...models.operational import CargoAssignment, CargoShipment, Flight
from .network import HUB

# (handling codes, commodity, weight share, revenue USD/kg)
COMMODITIES = (
    ((), "general cargo", 55, 2.4),
    (("PER",), "fresh produce", 8, 3.1),
    (("PER", "COL"), "chilled seafood", 5, 4.2),
    (("PER", "FRO", "ICE"), "frozen meat on dry ice", 2, 4.5),
    (("PIL", "COL"), "vaccines (2-8 °C)", 5, 9.5),
    (("DGR",), "lithium batteries UN3480", 6, 5.0),
    (("AVI",), "live animals: horses", 1, 11.0),
    (("VAL",), "gold bullion", 1, 14.0),
    (("HUM",), "human remains", 1, 6.0),
    (("PER", "COL"), "cut flowers", 4, 3.3),
    (("DGR", "ICE"), "diagnostic specimens on dry ice", 2, 7.5),
)
SHIPPERS = (
    "Gulf Fresh LLC",
    "Emirates Seafood Co",
    "PharmaLink Logistics",
    "Kenya Flower Council",
    "Tata Steel",
    "Al Ain Farms",
    "Nordic Salmon AS",
    "MedSupply GmbH",
    "Dubai Gold Refinery",
    "Bharat Electronics",
)


def awb(serial: int) -> str:
    """Air waybill: airline prefix 607 + 7-digit serial + check digit (serial mod 7), as IATA specifies."""
    return f"607-{serial:07d}{serial % 7}"


def build_cargo(flights: list[Flight], rng: random.Random) -> tuple[list[CargoShipment], list[CargoAssignment]]:
    shipments: list[CargoShipment] = []
    assignments: list[CargoAssignment] = []
    onward_by_day: dict[str, list[Flight]] = {}
    for f in flights:
        if f.origin == HUB:
            onward_by_day.setdefault(f.flight_date.isoformat(), []).append(f)
    for flight in flights:
        widebody = flight.aircraft_type not in ("A320", "A321")
        for priority in range(1, rng.randint(8, 22) if widebody else rng.randint(1, 5)):
            codes, commodity, _, rate = rng.choices(COMMODITIES, weights=[c[2] for c in COMMODITIES])[0]
            weight = round(rng.uniform(40, 2500 if widebody else 600), 1)
            legs = [flight]
            if flight.destination == HUB and rng.random() < 0.3:  # transfer at the hub, next day at the latest
                day = flight.scheduled_arrival.date().isoformat()
                candidates = [
                    f
                    for f in onward_by_day.get(day, [])
                    if f.scheduled_departure > flight.scheduled_arrival + timedelta(hours=3)
                    and f.aircraft_type not in ("A320", "A321")
                ]
                if candidates:
                    legs.append(rng.choice(candidates))
            serial = len(shipments) + 1
            shipment = CargoShipment(
                shipment_id=awb(serial),
                origin=legs[0].origin,
                destination=legs[-1].destination,
                commodity=commodity,
                handling_codes=list(codes),
                pieces=max(1, int(weight // 120)),
                weight_kg=weight,
                revenue_usd=round(weight * rate * rng.uniform(0.85, 1.2), 2),
                shipper=rng.choice(SHIPPERS),
                ready_at=legs[0].scheduled_departure - timedelta(hours=rng.randint(4, 30)),
            )
            shipments.append(shipment)
            for index, leg in enumerate(legs):
                assignments.append(
                    CargoAssignment(
                        assignment_id=f"{shipment.shipment_id}#{leg.flight_id}",
                        flight_id=leg.flight_id,
                        shipment_id=shipment.shipment_id,
                        loading_priority=priority if index == 0 else 50 + priority,
                        pieces=shipment.pieces,
                        weight_kg=shipment.weight_kg,
                    )
                )
    return shipments, assignments
