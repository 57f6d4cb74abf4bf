"""Passengers of a disrupted flight: who is affected, who needs special care, what is owed.

- ``affected_passengers``   active bookings by cabin and loyalty tier; premium (cabins F/J, tiers GOLD/PLATINUM —
                            company policy) and vulnerable passengers by SSR code (IATA AIRIMP codes; assistance under
                            Reg. (EC) 1107/2006, priority under EU261 Art. 11).
- ``passenger_misconnections``  connections of this flight's passengers broken by its new arrival (``rules.network``).
- ``compensation_liability``    EU261/UK261 per passenger via ``rules.eu261.assess_compensation``. The journey counts:
                            a passenger whose booking connects is assessed from the first departure of the booking
                            (when the inbound flight is given) to the ``final_destination`` — one journey under one
                            booking is one "flight" for scope and distance (CJEU Wegener C-537/17, Bossen C-559/16);
                            a passenger whose journey is this flight is assessed on this flight. The delay is the
                            arrival delay at the final destination: ``arrival_delay_by_booking`` when given (e.g. after
                            re-accommodating a misconnected passenger), else this flight's arrival delay — a lower
                            bound for passengers who misconnect.
- ``duty_of_care``          Art. 9 care priced with ``GuestConfig`` (company policy, verify): meal vouchers once care is
                            due (Art. 6(1): 2/3/4 h by distance category of this flight) and one more per further
                            ``meal_interval_minutes``; hotel and transport when an overnight stay is necessary. Every
                            passenger is counted (no resident exemption): an upper bound.
Amounts are kept in their currency (EUR/GBP); ``rules.finance`` converts. The policy tables, ``GuestConfig`` and
the result models are in ``rules.guest_models``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from ..models.airports import airport, great_circle_km
from ..models.findings import Finding
from ..models.operational import AirportProfile, Booking, Flight
from ._clock import as_utc, hm, minutes_between
from .eu261 import (
    Disruption,
    Eu261Assessment,
    Reroute,
    assess_compensation,
    care_entitlement,
    compensation_category,
)
from .eu261_scope import applicable_regime, intra_zone
from .guest_models import (
    DEFAULT_GUEST,
    PREMIUM_CABINS,
    PREMIUM_TIERS,
    VULNERABLE_CLAUSE,
    VULNERABLE_SSR,
    CareCost,
    CompensationLiability,
    GuestConfig,
    GuestImpact,
    PassengerCompensation,
    PassengerImpact,
)
from .network import ACTIVE_BOOKINGS, MisconnectionReport, misconnections


def active(bookings: Sequence[Booking], flight_id: str) -> list[Booking]:
    return [b for b in bookings if b.flight_id == flight_id and b.status in ACTIVE_BOOKINGS]


def affected_passengers(flight: Flight, bookings: Sequence[Booking]) -> PassengerImpact:
    """Everyone booked on ``flight``: counts by cabin/tier, premium, vulnerable (by SSR), connecting."""
    rows = active(bookings, flight.flight_id)
    vulnerable: dict[str, list[str]] = {}
    for b in rows:
        for code in b.ssr:
            if code in VULNERABLE_SSR:
                vulnerable.setdefault(code, []).append(b.booking_id)
    premium = tuple(b.booking_id for b in rows if b.cabin in PREMIUM_CABINS or b.loyalty_tier in PREMIUM_TIERS)
    findings = [
        Finding(
            rule="pax.vulnerable",
            clause=VULNERABLE_CLAUSE,
            status="at_risk",
            subject=flight.flight_id,
            actual=len(ids),
            unit="passengers",
            message=f"{len(ids)} passenger(s) {VULNERABLE_SSR[code]} ({code}) need assistance and priority.",
            details={"ssr": code, "booking_ids": ids},
        )
        for code, ids in sorted(vulnerable.items())
    ]
    return PassengerImpact(
        flight_id=flight.flight_id,
        total=len(rows),
        by_cabin=dict(sorted(Counter(b.cabin for b in rows).items())),
        by_tier=dict(sorted(Counter(b.loyalty_tier for b in rows).items())),
        premium_booking_ids=premium,
        vulnerable={k: tuple(v) for k, v in sorted(vulnerable.items())},
        connecting_out_booking_ids=tuple(b.booking_id for b in rows if b.onward_flight_id),
        connecting_in_booking_ids=tuple(b.booking_id for b in rows if b.inbound_flight_id),
        findings=tuple(findings),
    )


def passenger_misconnections(
    flight: Flight,
    bookings: Sequence[Booking],
    onward: Sequence[Flight],
    new_arrival: datetime,
    *,
    hub: AirportProfile | None = None,
) -> MisconnectionReport:
    """Connections out of ``flight`` that break when it arrives at ``new_arrival``."""
    return misconnections([flight], onward, bookings, hub=hub, new_arrivals={flight.flight_id: new_arrival})


def arrival_delay(flight: Flight) -> int:
    """Minutes the best known arrival is after the scheduled one (0 when early or on time)."""
    return max(0, minutes_between(flight.scheduled_arrival, flight.arrival))


def compensation_liability(
    flight: Flight,
    bookings: Sequence[Booking],
    disruption: Disruption,
    *,
    arrival_delay_minutes: int | None = None,
    departure_delay_minutes: int | None = None,
    cause: str | None = None,
    inbound_flights: Sequence[Flight] = (),
    arrival_delay_by_booking: Mapping[str, int] | None = None,
    reroute: Reroute | None = None,
    notice_days: float | None = None,
    config: GuestConfig = DEFAULT_GUEST,
) -> CompensationLiability:
    """EU261/UK261 compensation owed to each passenger of ``flight`` (journey basis, see the module docstring)."""
    delay = arrival_delay(flight) if arrival_delay_minutes is None else arrival_delay_minutes
    inbound = {f.flight_id: f for f in inbound_flights}
    cache: dict[tuple[str, str, int], Eu261Assessment] = {}
    rows: list[PassengerCompensation] = []
    for b in active(bookings, flight.flight_id):
        origin = inbound[b.inbound_flight_id].origin if b.inbound_flight_id in inbound else flight.origin
        destination = b.final_destination
        minutes = (arrival_delay_by_booking or {}).get(b.booking_id, delay)
        key = (origin, destination, minutes)
        if key not in cache:
            cache[key] = assess_compensation(
                origin,
                destination,
                flight.carrier,
                disruption,
                arrival_delay_minutes=minutes,
                departure_delay_minutes=departure_delay_minutes,
                cause=cause,
                notice_days=notice_days,
                reroute=reroute,
                config=config.eu261,
            )
        a = cache[key]
        rows.append(
            PassengerCompensation(
                booking_id=b.booking_id,
                passenger_id=b.passenger_id,
                basis="flight" if (origin, destination) == (flight.origin, flight.destination) else "journey",
                journey_origin=origin,
                journey_destination=destination,
                arrival_delay_minutes=minutes,
                regime=a.regime,
                owed=a.owed,
                amount=a.amount,
                currency=a.currency,
                reason=a.reason,
            )
        )
    totals: dict[str, float] = {}
    for r in rows:
        if r.owed and r.currency:
            totals[r.currency] = totals.get(r.currency, 0.0) + r.amount
    owed = sum(r.owed for r in rows)
    findings = tuple(
        Finding(
            rule="pax.compensation_liability",
            clause=f"{regime} Art. 7",
            status="legal",
            subject=flight.flight_id,
            actual=amount,
            unit=currency,
            message=f"{regime} compensation owed on {flight.flight_number}: {currency} {amount:,.0f}.",
            details={"passengers_owed": sum(r.owed and r.currency == currency for r in rows)},
        )
        for currency, amount in sorted(totals.items())
        for regime in [{"EUR": "EU261", "GBP": "UK261"}.get(currency, "EU261/UK261")]
    )
    return CompensationLiability(
        flight_id=flight.flight_id,
        disruption=disruption,
        cause=cause,
        passengers=tuple(rows),
        passengers_owed=owed,
        totals={k: round(v, 2) for k, v in totals.items()},
        findings=findings,
    )


def overnight_necessary(
    origin_tz: str, scheduled_departure: datetime, new_departure: datetime, config: GuestConfig = DEFAULT_GUEST
) -> bool:
    """Company rule for Art. 9(1)(b): the wait is at least ``overnight_min_wait_minutes`` and covers part of the
    local night (``night_local``) at the origin."""
    start, end = as_utc(scheduled_departure), as_utc(new_departure)
    if minutes_between(start, end) < config.overnight_min_wait_minutes:
        return False
    zone = ZoneInfo(origin_tz)
    first, last = hm(config.night_local[0]), hm(config.night_local[1])
    day = start.astimezone(zone).date() - timedelta(days=1)
    while day <= end.astimezone(zone).date():
        night_start = datetime.combine(day, time(first // 60, first % 60), tzinfo=zone)
        night_end = datetime.combine(
            day + timedelta(days=1 if last <= first else 0), time(last // 60, last % 60), tzinfo=zone
        )
        if night_start < end and night_end > start:
            return True
        day += timedelta(days=1)
    return False


def duty_of_care(
    flight: Flight,
    bookings: Sequence[Booking],
    disruption: Disruption,
    *,
    departure_delay_minutes: int | None = None,
    new_departure: datetime | None = None,
    overnight: bool | None = None,
    config: GuestConfig = DEFAULT_GUEST,
) -> CareCost:
    """Art. 9 care for every passenger of ``flight``. The wait runs from the scheduled departure to
    ``new_departure`` (delay or re-routing), else ``departure_delay_minutes``, else the flight's own delay."""
    if new_departure is not None:
        wait = max(0, minutes_between(flight.scheduled_departure, new_departure))
    elif departure_delay_minutes is not None:
        wait = departure_delay_minutes
    else:
        wait = max(0, minutes_between(flight.scheduled_departure, flight.departure))
    if overnight is None:
        overnight = overnight_necessary(
            airport(flight.origin).tz,
            flight.scheduled_departure,
            flight.scheduled_departure + timedelta(minutes=wait),
            config,
        )
    passengers = len(active(bookings, flight.flight_id))
    regime, _ = applicable_regime(flight.origin, flight.destination, flight.carrier, config.eu261.scope)
    category = compensation_category(
        great_circle_km(flight.origin, flight.destination),
        intra_zone(flight.origin, flight.destination, config.eu261.scope),
    )
    care = care_entitlement(disruption, category, wait, overnight)
    covered = regime or ("company policy" if config.care_outside_eu261 else "none")
    if covered == "none":
        care = care.model_copy(update={"meals_and_refreshments": False, "hotel": False, "hotel_transport": False})
    vouchers_each = 0
    if care.meals_and_refreshments:
        vouchers_each = 1 + max(0, wait - (care.from_minutes or 0)) // config.meal_interval_minutes
    hotel_pax = passengers if care.hotel else 0
    meals = passengers * vouchers_each * config.meal_voucher
    hotel = hotel_pax * config.hotel_per_night
    transport = hotel_pax * config.hotel_transport if care.hotel_transport else 0.0
    basis = (
        f"{care.article}: category ({category}), wait {wait} min, "
        f"{'care from ' + str(care.from_minutes) + ' min' if disruption == 'delay' else 'care at once'}; "
        f"{vouchers_each} voucher(s) each; {'overnight stay' if overnight else 'no overnight stay'}; "
        f"covered by {covered}."
    )
    return CareCost(
        flight_id=flight.flight_id,
        passengers=passengers,
        covered_by=covered,
        category=category,
        wait_minutes=wait,
        meal_vouchers=passengers * vouchers_each,
        hotel_passengers=hotel_pax,
        overnight=overnight,
        meals=meals,
        hotel=hotel,
        transport=transport,
        total=round(meals + hotel + transport, 2),
        currency=config.care_currency,
        basis=basis,
    )


def assess_guest_impact(
    flight: Flight,
    bookings: Sequence[Booking],
    disruption: Disruption,
    *,
    delay_minutes: int = 0,
    cause: str | None = None,
    onward_flights: Sequence[Flight] = (),
    inbound_flights: Sequence[Flight] = (),
    hub: AirportProfile | None = None,
    misconnected_arrival_delay_minutes: int | None = None,
    reroute: Reroute | None = None,
    new_departure: datetime | None = None,
    config: GuestConfig = DEFAULT_GUEST,
) -> GuestImpact:
    """Everything above for ``flight`` delayed by ``delay_minutes`` (departure and arrival) or cancelled.

    Misconnections are checked against ``onward_flights`` (the onward flights of this flight's passengers). A
    misconnected passenger's final arrival delay is ``misconnected_arrival_delay_minutes`` when given (their
    re-accommodation), else the flight's delay (a lower bound).
    """
    missed = None
    if onward_flights:
        arrival = flight.scheduled_arrival + timedelta(minutes=delay_minutes)
        missed = passenger_misconnections(flight, bookings, onward_flights, arrival, hub=hub)
    by_booking = None
    if missed is not None and misconnected_arrival_delay_minutes is not None:
        by_booking = {b.booking_id: max(delay_minutes, misconnected_arrival_delay_minutes) for b in missed.broken}
    compensation = compensation_liability(
        flight,
        bookings,
        disruption,
        arrival_delay_minutes=delay_minutes,
        departure_delay_minutes=delay_minutes,
        cause=cause,
        inbound_flights=inbound_flights,
        arrival_delay_by_booking=by_booking,
        reroute=reroute,
        config=config,
    )
    care = duty_of_care(
        flight, bookings, disruption, departure_delay_minutes=delay_minutes, new_departure=new_departure, config=config
    )
    return GuestImpact(
        passengers=affected_passengers(flight, bookings), misconnections=missed, compensation=compensation, care=care
    )
