"""Passengers of a disrupted flight: the policy tables (premium cabins and tiers, vulnerable SSR codes),
``GuestConfig`` (duty-of-care prices, company policy) and the result models of ``rules.guest``."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, NonNegativeFloat, NonNegativeInt, PositiveInt

from ..models.findings import Finding
from .eu261 import DEFAULT_EU261, Disruption, Eu261Config
from .network import MisconnectionReport

PREMIUM_CABINS: tuple[str, ...] = ("F", "J")  # company policy
PREMIUM_TIERS: tuple[str, ...] = ("GOLD", "PLATINUM")  # company policy
# IATA AIRIMP special service request codes of passengers who need assistance or supervision.
VULNERABLE_SSR: dict[str, str] = {
    "UMNR": "unaccompanied minor",
    "WCHR": "wheelchair to the aircraft door",
    "WCHS": "wheelchair, cannot use steps",
    "WCHC": "wheelchair to the seat",
    "MEDA": "medical case",
    "BLND": "blind passenger",
    "DEAF": "deaf passenger",
    "DPNA": "disabled passenger needing assistance",
    "INFT": "infant on lap",
}
VULNERABLE_CLAUSE = "Reg. (EC) 1107/2006 (assistance to PRM); EU261 Art. 11 (priority); carrier UM procedures"


class GuestConfig(BaseModel):
    model_config = ConfigDict(frozen=True)

    care_currency: str = "EUR"
    meal_voucher: NonNegativeFloat = 15.0  # per passenger per voucher (company policy; ROADEF 2009 uses 15 EUR, verify)
    meal_interval_minutes: PositiveInt = 240  # a further voucher per 4 h more of waiting (company policy, verify)
    hotel_per_night: NonNegativeFloat = 120.0  # per passenger (company policy, verify)
    hotel_transport: NonNegativeFloat = 20.0  # per passenger, both ways (company policy, verify)
    overnight_min_wait_minutes: PositiveInt = 360  # a hotel only for waits this long ... (company policy, verify)
    night_local: tuple[str, str] = ("00:00", "05:00")  # ... that cover part of the local night at the origin
    care_outside_eu261: bool = True  # the same care on flights EU261/UK261 does not cover (company policy, verify)
    eu261: Eu261Config = DEFAULT_EU261


DEFAULT_GUEST = GuestConfig()


class PassengerImpact(BaseModel):
    model_config = ConfigDict(frozen=True)

    flight_id: str
    total: NonNegativeInt
    by_cabin: dict[str, int]
    by_tier: dict[str, int]
    premium_booking_ids: tuple[str, ...]
    vulnerable: dict[str, tuple[str, ...]]  # SSR code → booking ids
    connecting_out_booking_ids: tuple[str, ...]
    connecting_in_booking_ids: tuple[str, ...]
    findings: tuple[Finding, ...]


class PassengerCompensation(BaseModel):
    model_config = ConfigDict(frozen=True)

    booking_id: str
    passenger_id: str
    basis: Literal["flight", "journey"]
    journey_origin: str
    journey_destination: str
    arrival_delay_minutes: int
    regime: str | None
    owed: bool
    amount: float
    currency: str | None
    reason: str


class CompensationLiability(BaseModel):
    model_config = ConfigDict(frozen=True)

    flight_id: str
    disruption: Disruption
    cause: str | None
    passengers: tuple[PassengerCompensation, ...]
    passengers_owed: NonNegativeInt
    totals: dict[str, float]  # currency → amount
    findings: tuple[Finding, ...]


class CareCost(BaseModel):
    model_config = ConfigDict(frozen=True)

    flight_id: str
    passengers: NonNegativeInt
    covered_by: str  # "EU261", "UK261" or "company policy"
    category: str
    wait_minutes: int
    meal_vouchers: NonNegativeInt  # in total
    hotel_passengers: NonNegativeInt
    overnight: bool
    meals: float
    hotel: float
    transport: float
    total: float
    currency: str
    basis: str


class GuestImpact(BaseModel):
    model_config = ConfigDict(frozen=True)

    passengers: PassengerImpact
    misconnections: MisconnectionReport | None
    compensation: CompensationLiability
    care: CareCost
