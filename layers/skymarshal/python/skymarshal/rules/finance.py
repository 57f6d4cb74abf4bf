"""The cost of a recovery plan, as a typed breakdown and one total exposure in USD.

One function per component:
- ``delay_cost``         USD 81.18 per minute of delay of each affected flight: the US airlines' direct cost per
                         BLOCK minute in 2014 (Airlines for America, A4A; fuel 38.34 of it), applied to delay
                         minutes — ground delay burns less fuel, so this is an upper bound (configurable, verify).
- ``compensation_cost``  EU261/UK261 liability from ``rules.guest.compensation_liability``, converted to USD.
- ``care_cost``          meals, hotels and transport from ``rules.guest.duty_of_care``, converted to USD.
- ``crew_overtime_cost`` crew member-hours beyond the planned duty × an hourly rate (company policy, verify).
- ``tail_swap_cost``     a fixed cost per swap: towing, catering/baggage transfer, re-planning (company policy, verify).
- ``ferry_cost``         block minutes flown empty × the A4A cost per block minute.
- ``cancellation_cost``  lost revenue: the fares of the cancelled bookings refunded (``refund_share`` of them; 1.0 =
                         every fare, the upper bound) + a re-accommodation cost per passenger (company policy, verify).
- ``cargo_cost``         cargo revenue at risk from ``rules.cargo.cargo_impact`` (already USD).
Exchange rates are reference values kept as data (``FX_TO_USD``): production needs a live rate (verify).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, NonNegativeFloat, NonNegativeInt, PositiveFloat

from ..models.operational import Booking
from .cargo import CargoImpact
from .guest_models import CareCost, CompensationLiability

A4A_COST_PER_BLOCK_MINUTE_USD = 81.18  # Airlines for America, US passenger airlines' direct cost per block minute, 2014
# Reference exchange rates to USD (approximate; NEEDS A LIVE RATE IN PRODUCTION, verify).
FX_TO_USD: dict[str, float] = {"USD": 1.0, "EUR": 1.08, "GBP": 1.27, "AED": 0.2723}

# A passenger's time where it is weighed in one objective (shared by the arbitrator's passenger criterion and the
# recovery optimizer's day objective, recovery.objectives.day_config): an overnight stay counts OVERNIGHT_HOURS of delay
# beyond its minutes (the company's night, 00:00-05:00, rules.guest_models.GuestConfig.night_local); a passenger with
# no later way home arrives STRANDED_MINUTES late (the next day's flight, as the day scorecard counts one); and where
# minutes must be weighed against money, one passenger-minute is PASSENGER_MINUTE_USD (EUROCONTROL's standard
# inputs put an air passenger's value of time near EUR 45-50 an hour; company policy, verify).
OVERNIGHT_HOURS = 5.0
STRANDED_MINUTES = 24 * 60
PASSENGER_MINUTE_USD = 1.0

CostComponent = Literal["delay", "compensation", "care", "crew_overtime", "tail_swap", "ferry", "cancellation", "cargo"]


class FinanceConfig(BaseModel):
    model_config = ConfigDict(frozen=True)

    delay_cost_per_minute_usd: NonNegativeFloat = A4A_COST_PER_BLOCK_MINUTE_USD  # A4A 2014 (verify for the fleet)
    ferry_cost_per_block_minute_usd: NonNegativeFloat = A4A_COST_PER_BLOCK_MINUTE_USD  # A4A 2014 (verify)
    crew_overtime_per_member_hour_usd: NonNegativeFloat = 150.0  # company policy (verify)
    tail_swap_fixed_usd: NonNegativeFloat = 5000.0  # company policy (verify)
    reaccommodation_per_passenger_usd: NonNegativeFloat = 150.0  # company policy (verify)
    refund_share: float = Field(default=1.0, ge=0, le=1)  # share of cancelled fares refunded (1.0: upper bound)
    fx_to_usd: dict[str, PositiveFloat] = Field(default_factory=lambda: dict(FX_TO_USD))  # live rate in production


DEFAULT_FINANCE = FinanceConfig()


class CostLine(BaseModel):
    model_config = ConfigDict(frozen=True)

    component: CostComponent
    amount_usd: float
    quantity: float
    unit: str
    rate_usd: float | None = None  # USD per unit when the line is quantity × rate
    source: str
    details: dict[str, Any] = Field(default_factory=dict)


class PlanCostInput(BaseModel):
    """What a plan does, in the units the cost functions take."""

    model_config = ConfigDict(frozen=True)

    flight_delays: dict[str, NonNegativeInt] = Field(default_factory=dict)  # flight id → delay minutes
    compensation: tuple[CompensationLiability, ...] = ()
    care: tuple[CareCost, ...] = ()
    crew_overtime_member_hours: NonNegativeFloat = 0
    tail_swaps: NonNegativeInt = 0
    ferry_block_minutes: NonNegativeInt = 0
    cancelled_bookings: tuple[Booking, ...] = ()  # bookings of the cancelled flights
    cargo: tuple[CargoImpact, ...] = ()


class CostBreakdown(BaseModel):
    model_config = ConfigDict(frozen=True)

    lines: tuple[CostLine, ...]
    total_usd: float
    currency: Literal["USD"] = "USD"
    fx_to_usd: dict[str, float]
    fx_note: str = "reference exchange rates; production needs a live rate"

    def by_component(self) -> dict[str, float]:
        return {line.component: line.amount_usd for line in self.lines}


def to_usd(amount: float, currency: str, config: FinanceConfig = DEFAULT_FINANCE) -> float:
    """``amount`` in ``currency`` converted with ``config.fx_to_usd`` (ValueError for an unknown currency)."""
    rate = config.fx_to_usd.get(currency.upper())
    if rate is None:
        raise ValueError(f"no exchange rate to USD for {currency!r}: add it to FinanceConfig.fx_to_usd")
    return amount * rate


def delay_cost(flight_delays: Mapping[str, int], config: FinanceConfig = DEFAULT_FINANCE) -> CostLine:
    """Σ delay minutes of the affected flights × the cost per minute (A4A 2014 block-minute cost)."""
    minutes = sum(flight_delays.values())
    rate = config.delay_cost_per_minute_usd
    return CostLine(
        component="delay",
        amount_usd=round(minutes * rate, 2),
        quantity=minutes,
        unit="delay minutes",
        rate_usd=rate,
        source="A4A 2014 direct cost per block minute (applied to delay minutes)",
        details={"flights": dict(flight_delays)},
    )


def compensation_cost(
    liabilities: Sequence[CompensationLiability], config: FinanceConfig = DEFAULT_FINANCE
) -> CostLine:
    """EU261/UK261 compensation owed (rules.guest), converted to USD."""
    totals: dict[str, float] = {}
    for liability in liabilities:
        for currency, amount in liability.totals.items():
            totals[currency] = totals.get(currency, 0.0) + amount
    usd = sum(to_usd(amount, currency, config) for currency, amount in totals.items())
    return CostLine(
        component="compensation",
        amount_usd=round(usd, 2),
        quantity=sum(c.passengers_owed for c in liabilities),
        unit="passengers owed",
        source="Reg. (EC) 261/2004 Art. 7 / UK261 (rules.eu261)",
        details={"by_currency": totals, "flights": [c.flight_id for c in liabilities]},
    )


def care_cost(cares: Sequence[CareCost], config: FinanceConfig = DEFAULT_FINANCE) -> CostLine:
    """Duty of care (meals, hotels, transport; rules.guest), converted to USD."""
    usd = sum(to_usd(c.total, c.currency, config) for c in cares)
    return CostLine(
        component="care",
        amount_usd=round(usd, 2),
        quantity=sum(c.passengers for c in cares),
        unit="passengers",
        source="Reg. (EC) 261/2004 Art. 9; amounts company policy (rules.guest)",
        details={
            "meals": sum(c.meals for c in cares),
            "hotel": sum(c.hotel for c in cares),
            "transport": sum(c.transport for c in cares),
            "hotel_passengers": sum(c.hotel_passengers for c in cares),
            "flights": [c.flight_id for c in cares],
        },
    )


def crew_overtime_cost(member_hours: float, config: FinanceConfig = DEFAULT_FINANCE) -> CostLine:
    rate = config.crew_overtime_per_member_hour_usd
    return CostLine(
        component="crew_overtime",
        amount_usd=round(member_hours * rate, 2),
        quantity=member_hours,
        unit="crew member-hours",
        rate_usd=rate,
        source="company policy (verify)",
    )


def tail_swap_cost(swaps: int, config: FinanceConfig = DEFAULT_FINANCE) -> CostLine:
    rate = config.tail_swap_fixed_usd
    return CostLine(
        component="tail_swap",
        amount_usd=round(swaps * rate, 2),
        quantity=swaps,
        unit="swaps",
        rate_usd=rate,
        source="company policy (verify)",
    )


def ferry_cost(block_minutes: int, config: FinanceConfig = DEFAULT_FINANCE) -> CostLine:
    rate = config.ferry_cost_per_block_minute_usd
    return CostLine(
        component="ferry",
        amount_usd=round(block_minutes * rate, 2),
        quantity=block_minutes,
        unit="block minutes",
        rate_usd=rate,
        source="A4A 2014 direct cost per block minute",
    )


def cancellation_cost(bookings: Sequence[Booking], config: FinanceConfig = DEFAULT_FINANCE) -> CostLine:
    """Fares refunded (``refund_share`` × Σ fares, each in its currency) + re-accommodation per passenger."""
    fares = sum(to_usd(b.fare_paid, b.currency, config) for b in bookings)
    refunded = fares * config.refund_share
    reaccommodation = len(bookings) * config.reaccommodation_per_passenger_usd
    return CostLine(
        component="cancellation",
        amount_usd=round(refunded + reaccommodation, 2),
        quantity=len(bookings),
        unit="passengers",
        source="lost revenue: fares refunded + re-accommodation (company policy, verify)",
        details={
            "fares_usd": round(fares, 2),
            "refunded_usd": round(refunded, 2),
            "reaccommodation_usd": round(reaccommodation, 2),
            "refund_share": config.refund_share,
        },
    )


def cargo_cost(impacts: Sequence[CargoImpact]) -> CostLine:
    """Cargo revenue at risk (rules.cargo), USD."""
    return CostLine(
        component="cargo",
        amount_usd=round(sum(i.revenue_at_risk_usd for i in impacts), 2),
        quantity=sum(sum(s.status != "legal" for s in i.shipments) for i in impacts),
        unit="shipments at risk",
        source="cargo revenue at risk (rules.cargo; limits company policy)",
        details={"flights": [i.flight_id for i in impacts]},
    )


def plan_cost(plan: PlanCostInput, config: FinanceConfig = DEFAULT_FINANCE) -> CostBreakdown:
    """Every component of ``plan`` (zero lines included, so breakdowns compare line by line) and the USD total."""
    lines = (
        delay_cost(plan.flight_delays, config),
        compensation_cost(plan.compensation, config),
        care_cost(plan.care, config),
        crew_overtime_cost(plan.crew_overtime_member_hours, config),
        tail_swap_cost(plan.tail_swaps, config),
        ferry_cost(plan.ferry_block_minutes, config),
        cancellation_cost(plan.cancelled_bookings, config),
        cargo_cost(plan.cargo),
    )
    return CostBreakdown(
        lines=lines, total_usd=round(sum(line.amount_usd for line in lines), 2), fx_to_usd=dict(config.fx_to_usd)
    )
