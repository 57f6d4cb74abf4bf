"""Passenger rights under EU261 / UK261: compensation (Art. 7), cancellation notice (Art. 5), duty of care (Art. 9).

- ``compensation_category``  Art. 7(1) distance bands (a) ≤ 1,500 km; (b) intra-EU/UK > 1,500 km and other
                             1,500–3,500 km; (c) otherwise — great-circle distance between the airports.
- ``assess_compensation``    owed for cancellation, denied boarding, and arrival delay ≥ 3 h (CJEU Sturgeon,
                             C-402/07 and C-432/07); not owed under extraordinary circumstances (Art. 5(3));
                             Art. 5(1)(c) notice exceptions; Art. 7(2) halving for re-routing within 2/3/4 h.
- ``care_entitlement``       Art. 6 / Art. 9: meals and two communications from 2/3/4 h by category, hotel
                             and transport when an overnight stay becomes necessary; refund option from 5 h.
Scope (Art. 3) is in ``eu261_scope``.

Choices (``Eu261Config``):
- ``halve_long_haul_delay_3_to_4h`` (default False): for a plain arrival delay on a category (c) flight,
  Art. 7(2)(c)'s 50 % reduction is commonly applied when the delay is 3–4 h. Art. 7(2) says the carrier
  "may" reduce; the default reports the full amount (the upper bound of liability). Set True to apply it.
- ``apply_art7_2_reroute_reduction`` (default True): re-routing arriving within 2/3/4 h halves the amount.
- Causes: an unknown cause is not extraordinary (the carrier bears the burden of proof, Art. 5(3)).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ..models.airports import great_circle_km
from ..models.findings import Finding
from .eu261_scope import DEFAULT_SCOPE, Regime, ScopeConfig, applicable_regime, intra_zone

Disruption = Literal["delay", "cancellation", "denied_boarding"]
Category = Literal["a", "b", "c"]

# Art. 7(1) amounts by category; UK261 amounts in GBP.
COMPENSATION_ART_7: dict[str, dict[str, int]] = {
    "EU261": {"a": 250, "b": 400, "c": 600},
    "UK261": {"a": 220, "b": 350, "c": 520},
}
CURRENCY: dict[str, str] = {"EU261": "EUR", "UK261": "GBP"}
BAND_LIMITS_KM = (1500, 3500)  # ≤ 1,500 → (a); ≤ 3,500 → (b); beyond → (c); intra-EU/UK > 1,500 → (b)
# Art. 7(2): re-routed arrival not later than this (minutes) after schedule → compensation may be halved.
# Art. 6(1): delay at departure from which meals/refreshments and communications are owed (same minutes).
THRESHOLD_MINUTES_BY_CATEGORY: dict[str, int] = {"a": 120, "b": 180, "c": 240}
STURGEON_DELAY_MINUTES = 180  # arrival delay giving the right to compensation (C-402/07)
REFUND_DELAY_MINUTES = 300  # Art. 6(1)(iii): from 5 h the passenger may give up the trip for a refund (Art. 8(1)(a))

# Art. 5(3) extraordinary circumstances, by cause: (extraordinary?, basis)
EXTRAORDINARY_CIRCUMSTANCES: dict[str, tuple[bool, str]] = {
    "weather": (True, "meteorological conditions incompatible with the flight (recital 14)"),
    "atc": (True, "an air traffic management decision (recital 15)"),
    "security": (True, "a security risk (recital 14)"),
    "political": (True, "political instability (recital 14)"),
    "airport_closure": (True, "closure of the airport by the authorities (recital 14)"),
    "bird_strike": (True, "a bird strike (CJEU Pešková, C-315/15)"),
    "external_strike": (True, "a strike outside the carrier, e.g. air traffic control or airport staff (recital 14)"),
    "technical": (
        False,
        "a technical defect arising from normal operation is not extraordinary (CJEU Wallentin-Hermann, C-549/07)",
    ),
    "crew": (False, "crew shortage or illness is part of the carrier's normal activity (CJEU TAP, C-156/22)"),
    "crew_strike": (
        False,
        "a strike of the carrier's own staff is not extraordinary (CJEU Krüsemann C-195/17; Airhelp v SAS C-28/20)",
    ),
    "knock_on": (
        False,
        "a knock-on delay is only extraordinary if its root cause was (CJEU C-74/19); pass the root cause instead",
    ),
}


class Eu261Config(BaseModel):
    model_config = ConfigDict(frozen=True)

    scope: ScopeConfig = DEFAULT_SCOPE
    apply_art7_2_reroute_reduction: bool = True
    halve_long_haul_delay_3_to_4h: bool = False


DEFAULT_EU261 = Eu261Config()


class Reroute(BaseModel):
    """The re-routing offered (Art. 8(1)(b)), relative to the original schedule."""

    model_config = ConfigDict(frozen=True)

    departure_earlier_minutes: int = Field(default=0, ge=0)  # how much earlier than scheduled it leaves
    arrival_delay_minutes: int  # how much later than scheduled it arrives (negative: earlier)


class CareEntitlement(BaseModel):
    model_config = ConfigDict(frozen=True)

    meals_and_refreshments: bool = False
    communications: bool = False  # two telephone calls, telex/fax or e-mails (Art. 9(2))
    hotel: bool = False
    hotel_transport: bool = False
    refund_option: bool = False  # Art. 8(1)(a)
    from_minutes: int | None = None  # delay from which care starts (delay only)
    article: str = ""


class Eu261Assessment(BaseModel):
    model_config = ConfigDict(frozen=True)

    regime: Regime | None
    owed: bool
    amount: float  # per passenger, after any reduction; 0 when not owed
    full_amount: float  # the Art. 7(1) amount before reduction
    currency: str | None
    distance_km: float
    category: Category | None
    reduced: bool = False
    extraordinary: bool | None = None
    reason: str  # sentences naming the articles
    care: CareEntitlement = CareEntitlement()


def compensation_category(distance_km: float, intra: bool) -> Category:
    """Art. 7(1): (a) ≤ 1,500 km; (b) intra-EU/UK > 1,500 km, or 1,500–3,500 km; (c) all other flights."""
    if distance_km <= BAND_LIMITS_KM[0]:
        return "a"
    if intra or distance_km <= BAND_LIMITS_KM[1]:
        return "b"
    return "c"


def is_extraordinary(cause: str | None) -> tuple[bool, str]:
    """Art. 5(3): whether the cause exempts the carrier from compensation, with the basis."""
    if cause is None:
        return False, "no cause given: the carrier has not shown extraordinary circumstances (Art. 5(3))"
    return EXTRAORDINARY_CIRCUMSTANCES.get(
        cause, (False, f"cause {cause!r} is not a recognised extraordinary circumstance (Art. 5(3))")
    )


def notice_exempts(notice_days: float | None, reroute: Reroute | None) -> tuple[bool, str]:
    """Art. 5(1)(c): a cancellation notified early enough (with a close enough re-routing) owes nothing."""
    if notice_days is None:
        return False, ""
    if notice_days >= 14:
        return True, "cancellation notified at least two weeks before departure (Art. 5(1)(c)(i))"
    if reroute is None:
        return False, ""
    if notice_days >= 7 and reroute.departure_earlier_minutes <= 120 and reroute.arrival_delay_minutes < 240:
        return True, (
            "notified 7–14 days before, re-routed leaving ≤ 2 h early and arriving < 4 h late (Art. 5(1)(c)(ii))"
        )
    if notice_days < 7 and reroute.departure_earlier_minutes <= 60 and reroute.arrival_delay_minutes < 120:
        return True, (
            "notified under 7 days before, re-routed leaving ≤ 1 h early and arriving < 2 h late (Art. 5(1)(c)(iii))"
        )
    return False, ""


def care_entitlement(
    disruption: Disruption, category: Category, departure_delay_minutes: int = 0, overnight: bool = False
) -> CareEntitlement:
    """Art. 9 care, owed even under extraordinary circumstances (CJEU McDonagh, C-12/11).

    Delay: Art. 6(1) from 2/3/4 h by category; refund option from 5 h. Cancellation (Art. 5(1)(b)) and denied
    boarding (Art. 4(3)): care at once. Hotel and transport (Art. 9(1)(b)(c)) when a stay of one or more
    nights becomes necessary (``overnight``).
    """
    if disruption == "delay":
        start = THRESHOLD_MINUTES_BY_CATEGORY[category]
        due = departure_delay_minutes >= start
        return CareEntitlement(
            meals_and_refreshments=due,
            communications=due,
            hotel=due and overnight,
            hotel_transport=due and overnight,
            refund_option=departure_delay_minutes >= REFUND_DELAY_MINUTES,
            from_minutes=start,
            article="Art. 6(1) and Art. 9",
        )
    article = "Art. 5(1)(a)(b), Art. 8 and Art. 9" if disruption == "cancellation" else "Art. 4(3), Art. 8 and Art. 9"
    return CareEntitlement(
        meals_and_refreshments=True,
        communications=True,
        hotel=overnight,
        hotel_transport=overnight,
        refund_option=True,
        from_minutes=0,
        article=article,
    )


def assess_compensation(
    origin: str,
    destination: str,
    carrier: str,
    disruption: Disruption,
    *,
    arrival_delay_minutes: int = 0,
    departure_delay_minutes: int | None = None,
    cause: str | None = None,
    notice_days: float | None = None,
    reroute: Reroute | None = None,
    overnight: bool = False,
    config: Eu261Config = DEFAULT_EU261,
) -> Eu261Assessment:
    """Compensation and care owed per passenger for one disrupted flight.

    ``arrival_delay_minutes``: delay at the final destination of the flight (plain delays). For a
    cancellation or denied boarding, pass the re-routing in ``reroute``. ``departure_delay_minutes`` drives
    care for delays (defaults to the arrival delay).
    """
    distance = great_circle_km(origin, destination)
    regime, scope_reason = applicable_regime(origin, destination, carrier, config.scope)
    category = compensation_category(distance, intra_zone(origin, destination, config.scope))
    if regime is None:
        return Eu261Assessment(
            regime=None,
            owed=False,
            amount=0,
            full_amount=0,
            currency=None,
            distance_km=round(distance, 1),
            category=None,
            reason=scope_reason + ".",
        )
    full = float(COMPENSATION_ART_7[regime][category])
    currency = CURRENCY[regime]
    care = care_entitlement(
        disruption,
        category,
        arrival_delay_minutes if departure_delay_minutes is None else departure_delay_minutes,
        overnight,
    )
    parts = [scope_reason, f"{distance:,.0f} km, category ({category}) → {currency} {full:.0f} (Art. 7(1)({category}))"]
    extraordinary: bool | None = None
    owed, reduced = True, False

    if disruption == "delay":
        if arrival_delay_minutes < STURGEON_DELAY_MINUTES:
            owed = False
            parts.append(f"arrival delay {arrival_delay_minutes} min is under 3 h: no compensation (Sturgeon C-402/07)")
        else:
            parts.append(
                f"arrival delay {arrival_delay_minutes} min ≥ 3 h gives the right to compensation (Sturgeon C-402/07)"
            )
            if (
                category == "c"
                and config.halve_long_haul_delay_3_to_4h
                and arrival_delay_minutes <= THRESHOLD_MINUTES_BY_CATEGORY["c"]
            ):
                reduced = True
                parts.append("halved: category (c) flight arriving 3–4 h late (Art. 7(2)(c) applied to delay)")
    elif disruption == "cancellation":
        exempt, why = notice_exempts(notice_days, reroute)
        if exempt:
            owed = False
            parts.append(why)
    else:
        parts.append("denied boarding against the passenger's will (Art. 4(3))")

    if owed and disruption != "denied_boarding":
        extraordinary, basis = is_extraordinary(cause)
        parts.append(basis)
        if extraordinary:
            owed = False
            parts.append("not owed: extraordinary circumstances (Art. 5(3))")
    if (
        owed
        and disruption != "delay"
        and reroute is not None
        and config.apply_art7_2_reroute_reduction
        and reroute.arrival_delay_minutes <= THRESHOLD_MINUTES_BY_CATEGORY[category]
    ):
        reduced = True
        parts.append(
            f"halved: re-routing arrives within {THRESHOLD_MINUTES_BY_CATEGORY[category] // 60} h "
            f"of schedule (Art. 7(2)({category}))"
        )
    amount = (full / 2 if reduced else full) if owed else 0.0
    parts.append(f"owed: {currency} {amount:.0f} per passenger" if owed else "no compensation owed")
    return Eu261Assessment(
        regime=regime,
        owed=owed,
        amount=amount,
        full_amount=full,
        currency=currency,
        distance_km=round(distance, 1),
        category=category,
        reduced=reduced and owed,
        extraordinary=extraordinary,
        reason="; ".join(parts) + ".",
        care=care,
    )


def as_finding(assessment: Eu261Assessment, subject: str) -> Finding:
    """The assessment as an (advisory, never binding) finding for the passenger-rights agents."""
    regime = assessment.regime or "EU261/UK261"
    return Finding(
        rule="pax.compensation",
        clause=f"{regime} Art. 7",
        status="legal",
        subject=subject,
        limit=None,
        actual=assessment.amount,
        unit=assessment.currency or "EUR",
        message=assessment.reason,
        details=assessment.model_dump(mode="json"),
    )
