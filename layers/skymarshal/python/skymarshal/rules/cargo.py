"""Cargo on a disrupted flight: shipments affected, time limits by IATA handling code, revenue at risk (USD).

``HANDLING_LIMITS`` is COMPANY POLICY, kept as data (configurable through ``CargoConfig``; verify with cargo
operations): the extra delay beyond the planned transport each handling code tolerates before the goods are at risk.
The standards named beside each row are those the handling follows; they do not set these numbers.

- ``shipments_on_flight``  active (BOOKED/LOADED) assignments of the flight, with their air waybills.
- ``tightest_limit``       the shortest limit among a shipment's codes (FRO is extended when the shipment also has
                           ICE, dry ice); general cargo falls back to the ``GEN`` service limit.
- ``shipment_risk``        delay against the limit: over it → the row's ``over_limit`` status (AVI illegal: animal
                           welfare; the others at_risk), within ``at_risk_minutes`` of it → at_risk. An offload
                           (``offloaded=True``) adds the handling that code needs before it flies again
                           (``OFFLOAD_HANDLING``: DGR and ICE re-acceptance, VAL custody, ...) as at_risk.
- ``cargo_impact``         every shipment, revenue at risk = revenue of the shipments at risk or worse, prorated by
                           the weight on this flight when the air waybill is split.
Onward legs of transfer shipments are not followed here (``rules.network`` handles connections of passengers only).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, NonNegativeInt

from ..models.findings import DEFAULT_AT_RISK_MINUTES, Finding, Status
from ..models.operational import CargoAssignment, CargoShipment, Flight
from ._clock import fmt_hm


class HandlingLimit(BaseModel):
    model_config = ConfigDict(frozen=True)

    code: str
    max_extra_delay_minutes: NonNegativeInt
    over_limit: Literal["at_risk", "illegal"]
    risk: str
    source: str
    extended_with: dict[str, int] = Field(default_factory=dict)  # another code on the AWB → a longer limit


# COMPANY POLICY (verify): extra delay tolerated per IATA handling code.
HANDLING_LIMITS: dict[str, HandlingLimit] = {
    h.code: h
    for h in (
        HandlingLimit(
            code="AVI",
            max_extra_delay_minutes=4 * 60,
            over_limit="illegal",
            risk="animal welfare",
            source="IATA Live Animals Regulations (LAR); Council Reg. (EC) 1/2005",
        ),
        HandlingLimit(
            code="PIL",
            max_extra_delay_minutes=6 * 60,
            over_limit="at_risk",
            risk="temperature excursion",
            source="IATA Temperature Control Regulations (TCR); EU GDP guidelines 2013/C 343/01",
        ),
        HandlingLimit(
            code="COL",
            max_extra_delay_minutes=8 * 60,
            over_limit="at_risk",
            risk="chilled chain broken",
            source="IATA Perishable Cargo Regulations (PCR); TCR",
        ),
        HandlingLimit(
            code="FRO",
            max_extra_delay_minutes=6 * 60,
            over_limit="at_risk",
            risk="thawing",
            source="IATA Perishable Cargo Regulations (PCR)",
            extended_with={"ICE": 12 * 60},
        ),
        HandlingLimit(
            code="PER",
            max_extra_delay_minutes=12 * 60,
            over_limit="at_risk",
            risk="spoilage",
            source="IATA Perishable Cargo Regulations (PCR)",
        ),
        HandlingLimit(
            code="HUM",
            max_extra_delay_minutes=24 * 60,
            over_limit="at_risk",
            risk="funeral arrangements and cold storage",
            source="IATA AHM; company procedure",
        ),
        HandlingLimit(
            code="GEN",
            max_extra_delay_minutes=48 * 60,
            over_limit="at_risk",
            risk="service commitment missed (claims)",
            source="company service standard",
        ),
    )
}
# What an offloaded shipment with the code needs before it flies again (company procedure, verify).
OFFLOAD_HANDLING: dict[str, tuple[str, str]] = {
    "DGR": ("re-acceptance check before it is loaded again", "IATA Dangerous Goods Regulations 9.1; ICAO TI Part 7"),
    "ICE": ("dry ice (UN1845) re-accepted and replenished", "IATA Dangerous Goods Regulations 9.1, PI 954"),
    "VAL": ("custody in the valuables store and a new security escort", "company security procedure"),
    "AVI": ("animals cared for in the animal holding area", "IATA Live Animals Regulations (LAR)"),
    "HUM": ("remains held in dignified cold storage", "IATA AHM; company procedure"),
}


class CargoConfig(BaseModel):
    model_config = ConfigDict(frozen=True)

    limits: dict[str, HandlingLimit] = Field(default_factory=lambda: dict(HANDLING_LIMITS))
    offload_handling: dict[str, tuple[str, str]] = Field(default_factory=lambda: dict(OFFLOAD_HANDLING))
    at_risk_minutes: int = DEFAULT_AT_RISK_MINUTES


DEFAULT_CARGO = CargoConfig()


class ShipmentRisk(BaseModel):
    model_config = ConfigDict(frozen=True)

    shipment_id: str
    assignment_id: str
    commodity: str
    handling_codes: tuple[str, ...]
    weight_kg: float  # on this flight
    revenue_usd: float  # prorated to the weight on this flight
    limiting_code: str
    limit_minutes: int
    margin_minutes: int
    status: Status
    findings: tuple[Finding, ...]


class CargoImpact(BaseModel):
    model_config = ConfigDict(frozen=True)

    flight_id: str
    delay_minutes: int
    offloaded: bool
    shipments: tuple[ShipmentRisk, ...]
    weight_kg: float
    revenue_usd: float
    revenue_at_risk_usd: float
    by_status: dict[str, int]
    findings: tuple[Finding, ...]


def shipments_on_flight(
    flight: Flight, assignments: Sequence[CargoAssignment], shipments: Sequence[CargoShipment]
) -> list[tuple[CargoAssignment, CargoShipment]]:
    """BOOKED/LOADED assignments of ``flight`` (by loading priority) with their shipments; unknown AWBs skipped."""
    by_id = {s.shipment_id: s for s in shipments}
    rows = [a for a in assignments if a.flight_id == flight.flight_id and a.status in ("BOOKED", "LOADED")]
    return [(a, by_id[a.shipment_id]) for a in sorted(rows, key=lambda a: a.loading_priority) if a.shipment_id in by_id]


def tightest_limit(shipment: CargoShipment, config: CargoConfig = DEFAULT_CARGO) -> tuple[HandlingLimit, int]:
    """The shortest limit among the shipment's codes, with its minutes (``GEN`` when no code has one)."""
    codes = set(shipment.handling_codes)
    options = []
    for code in shipment.handling_codes:
        row = config.limits.get(code)
        if row is not None:
            extended = [m for other, m in row.extended_with.items() if other in codes]
            options.append((max([row.max_extra_delay_minutes, *extended]), row))
    if not options:
        general = config.limits["GEN"]
        return general, general.max_extra_delay_minutes
    minutes, row = min(options, key=lambda o: (o[0], o[1].code))
    return row, minutes


def shipment_risk(
    assignment: CargoAssignment,
    shipment: CargoShipment,
    delay_minutes: int,
    *,
    offloaded: bool = False,
    config: CargoConfig = DEFAULT_CARGO,
) -> ShipmentRisk:
    """The shipment's status for ``delay_minutes`` of extra delay (and an offload, when ``offloaded``)."""
    row, limit = tightest_limit(shipment, config)
    margin = limit - delay_minutes
    status: Status = row.over_limit if margin < 0 else "at_risk" if margin < config.at_risk_minutes else "legal"
    sid = shipment.shipment_id
    findings = [
        Finding(
            rule="cargo.time_limit",
            clause=f"{row.source} (limit: company policy)",
            status=status,
            subject=sid,
            margin_minutes=margin,
            limit=limit,
            actual=delay_minutes,
            unit="minutes",
            message=(
                f"{shipment.commodity} ({row.code}) tolerates {fmt_hm(limit)} extra delay; {fmt_hm(delay_minutes)} "
                + (
                    "is within it."
                    if margin >= config.at_risk_minutes
                    else "is close to it."
                    if margin >= 0
                    else f"is over it: {row.risk}."
                )
            ),
            details={"handling_codes": list(shipment.handling_codes), "limiting_code": row.code},
        )
    ]
    if offloaded:
        for code in shipment.handling_codes:
            if code in config.offload_handling:
                what, source = config.offload_handling[code]
                findings.append(
                    Finding(
                        rule="cargo.offload_handling",
                        clause=source,
                        status="at_risk",
                        subject=sid,
                        message=f"Offloaded {code} shipment {sid}: {what}.",
                        details={"code": code},
                    )
                )
    worst = max((f.status for f in findings), key=("legal", "at_risk", "illegal").index)
    share = min(1.0, assignment.weight_kg / shipment.weight_kg)
    return ShipmentRisk(
        shipment_id=sid,
        assignment_id=assignment.assignment_id,
        commodity=shipment.commodity,
        handling_codes=tuple(shipment.handling_codes),
        weight_kg=assignment.weight_kg,
        revenue_usd=round(shipment.revenue_usd * share, 2),
        limiting_code=row.code,
        limit_minutes=limit,
        margin_minutes=margin,
        status=worst,
        findings=tuple(findings),
    )


def cargo_impact(
    flight: Flight,
    assignments: Sequence[CargoAssignment],
    shipments: Sequence[CargoShipment],
    delay_minutes: int,
    *,
    offloaded: bool = False,
    config: CargoConfig = DEFAULT_CARGO,
) -> CargoImpact:
    """Every shipment on ``flight`` against its limit for ``delay_minutes``; revenue at risk in USD.

    For a cancellation or an offload pass ``offloaded=True`` and the delay until the shipments' next flight.
    """
    if delay_minutes < 0:
        raise ValueError("a delay is not negative")
    risks = [
        shipment_risk(a, s, delay_minutes, offloaded=offloaded, config=config)
        for a, s in shipments_on_flight(flight, assignments, shipments)
    ]
    at_risk = round(sum(r.revenue_usd for r in risks if r.status != "legal"), 2)
    counts = {s: sum(r.status == s for r in risks) for s in ("legal", "at_risk", "illegal")}
    findings = tuple(f for r in risks for f in r.findings if f.status != "legal")
    return CargoImpact(
        flight_id=flight.flight_id,
        delay_minutes=delay_minutes,
        offloaded=offloaded,
        shipments=tuple(risks),
        weight_kg=round(sum(r.weight_kg for r in risks), 1),
        revenue_usd=round(sum(r.revenue_usd for r in risks), 2),
        revenue_at_risk_usd=at_risk,
        by_status=counts,
        findings=findings,
    )
