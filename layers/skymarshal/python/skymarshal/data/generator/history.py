"""DisruptionHistory precedents: a year of closed disruptions on the generated network, before the window.

Each record is a real leg of the network (flight number, route, aircraft type) on a day in the 365 days
before `config.start`, with a cause, the arbitrator's rank-1 action, what the duty manager approved
(an override in ~12% of cases), how it went, and what it cost. Outcomes depend on the type and the
chosen action, so a ranking that learns from history has something to learn:

- mechanical: a tail swap at the hub (where the spares are) mostly goes to plan; waiting for the
  release usually runs late (the release estimate slips); away from the hub swaps go worse.
- crew: a crew swap from the hub's standby reserves mostly goes to plan; waiting for rest less so.
- weather: a delay mostly goes to plan; a planned diversion sometimes runs late or night-stops.
- atc: delays often run late (slots are pushed back); a crew swap protects a long-delayed flight.
- cancel: always executed as planned, and the most expensive option.

`actual_delay_minutes` is the passengers' arrival delay (after re-accommodation when the flight was
cancelled). `cost_usd` uses the finance rules' rates (A4A delay cost per minute, tail swap, re-accommodation,
EU261/UK261 compensation where it applies) with fares from the passenger generator. `passengers_affected`
follows the type's seats at the airline's historical load factor, not `config.load_factor` (which shapes the
window's bookings and is lowered for quick test runs): the precedents, and what they teach, stay the same.
About 450 records whatever the scale; the same start, scale and rng give the same records. The rates, causes and
texts are in ``history_tables``; the legs and what went wrong on them in ``history_cases``.
"""

from __future__ import annotations

import random
from datetime import date, datetime, timedelta
from itertools import accumulate
from zoneinfo import ZoneInfo

from ...models.airports import airport
from ...models.fleet import AIRCRAFT_TYPES
from ...models.history import DisruptionRecord
from ...rules.eu261 import COMPENSATION_ART_7, CURRENCY, STURGEON_DELAY_MINUTES, compensation_category
from ...rules.eu261_scope import applicable_regime, intra_zone
from ...rules.finance import DEFAULT_FINANCE, FX_TO_USD
from .config import GeneratorConfig, local_to_utc, round_up
from .history_cases import Case, Leg, disruption_case, en_route, leg_weight, network_legs, pick
from .history_tables import (
    ACTION_TEXT,
    DIVERSION_AIRPORTS,
    HISTORICAL_LOAD_FACTOR,
    HISTORY_DAYS,
    HOTEL_USD,
    IN_FLIGHT_DEFECTS,
    IN_FLIGHT_DIVERT,
    INITIAL,
    LATE_DELAY,
    LEAD,
    MEAL_USD,
    MIN_PER_TYPE,
    OUTCOME_NAMES,
    OUTCOME_TEXT,
    OUTCOMES,
    OVERRIDE_RATE,
    REFUND_SHARE,
    SEASON,
    YEARLY_COUNTS,
)
from .names import person_name
from .network import CARRIER, HUB
from .passengers import FARE_BASE, FARE_PER_KM
from .schedule import NARROWBODIES


def _actual(kind: str, action: str, outcome: str, initial: int, rng: random.Random) -> int:
    """Passengers' arrival delay in minutes."""
    carried = initial if kind in ("weather", "atc", "other") else 0  # the cause itself still holds the flight
    cancelled = rng.uniform(360, 1560)
    minutes = {
        "tail_swap": {
            "on_plan": rng.uniform(45, 110),
            "late": rng.uniform(110, 240),
            "failed": initial + rng.uniform(90, 300),
            "not_executed": initial * rng.uniform(0.5, 0.9),
        },
        "crew_swap": {
            "on_plan": carried + rng.uniform(50, 110),
            "late": carried + rng.uniform(110, 220),
            "failed": initial + rng.uniform(120, 360),
            "not_executed": initial * rng.uniform(0.6, 1.0),
        },
        "delay": {
            "on_plan": initial * rng.uniform(0.9, 1.1),
            "late": initial * rng.uniform(1.35, 2.4) + 20,
            "failed": cancelled,
            "not_executed": initial * rng.uniform(0.4, 0.8),
        },
        "divert": {
            "on_plan": rng.uniform(120, 300),
            "late": rng.uniform(300, 540),
            "failed": rng.uniform(720, 1260),
            "not_executed": initial * rng.uniform(0.5, 1.0),
        },
        "cancel": {"on_plan": cancelled},
    }[action][outcome]
    return round_up(max(5.0, minutes))


def _average_fare(type_code: str, distance_km: float) -> float:
    capacity = AIRCRAFT_TYPES[type_code].capacity
    total = sum(seats * (FARE_BASE[cabin] + FARE_PER_KM[cabin] * distance_km) for cabin, seats in capacity.items())
    return total / sum(capacity.values())


def _cost(leg: Leg, case: Case, action: str, outcome: str, actual: int, pax: int, rng: random.Random) -> float:
    finance = DEFAULT_FINANCE
    cancelled = action == "cancel" or (action == "delay" and outcome == "failed")
    cost = 0.0 if cancelled else actual * finance.delay_cost_per_minute_usd
    if cancelled:
        cost += pax * (
            REFUND_SHARE * _average_fare(leg.aircraft_type, leg.distance) + finance.reaccommodation_per_passenger_usd
        )
    if actual >= 120:
        cost += pax * MEAL_USD
    if actual >= 480 or cancelled:
        cost += pax * HOTEL_USD * (0.6 if cancelled else 1.0)  # some cancelled passengers fly out the same day
    regime, _ = applicable_regime(leg.origin, leg.destination, CARRIER)
    if regime and not case.extraordinary and (cancelled or actual >= STURGEON_DELAY_MINUTES):
        band = compensation_category(leg.distance, intra_zone(leg.origin, leg.destination))
        cost += pax * COMPENSATION_ART_7[regime][band] * FX_TO_USD[CURRENCY[regime]]
    t = AIRCRAFT_TYPES[leg.aircraft_type]
    if action == "tail_swap" and outcome != "not_executed":
        cost += finance.tail_swap_fixed_usd
    elif action == "crew_swap" and outcome != "not_executed":
        pilots = 2 if leg.block < 600 else 3
        cost += (pilots + t.cabin_crew) * rng.uniform(3, 6) * finance.crew_overtime_per_member_hour_usd
    elif action == "divert" and outcome != "not_executed":
        extra_block = rng.uniform(40, 110)
        fees = 2500 if leg.aircraft_type in NARROWBODIES else 6000
        cost += extra_block * finance.ferry_cost_per_block_minute_usd + fees
    return round(cost, 2)


def _occurred(kind: str, action: str, leg: Leg, day: date, rng: random.Random) -> datetime:
    departure = local_to_utc(day, "00:00", airport(HUB).tz) + timedelta(minutes=leg.hub_offset % 1440)
    if action == "divert" and kind in IN_FLIGHT_DIVERT:
        return departure + timedelta(minutes=round(leg.block * rng.uniform(0.15, 0.85)))
    return departure - timedelta(minutes=rng.randint(*LEAD[kind]))


def _record(
    kind: str, leg: Leg, day: date, managers: list[str], window_start: datetime, rng: random.Random
) -> DisruptionRecord:
    case = disruption_case(kind, leg, day, rng)
    low, high, mode = INITIAL[kind]
    initial = round_up(rng.triangular(low, high, mode))
    weights = dict(case.weights)
    if initial < 90 and "delay" in weights:
        weights["delay"] *= 2
    if initial > 300 and "cancel" in weights:
        weights["cancel"] *= 2
    recommended = pick(rng, weights)
    in_flight = recommended == "divert" and kind in IN_FLIGHT_DIVERT
    if in_flight:
        initial = round_up(rng.uniform(15, 60))  # holding or the time to the alternate
        if kind == "mechanical":
            case.cause = rng.choice(IN_FLIGHT_DEFECTS)
    others = (
        {}
        if in_flight
        else {
            a: w * (0.5 if a == "cancel" else 1)
            for a, w in weights.items()
            if a != recommended and not (a == "divert" and kind in IN_FLIGHT_DIVERT)
        }
    )
    overridden = bool(others) and rng.random() < OVERRIDE_RATE
    chosen = pick(rng, others) if overridden else recommended
    on_plan, late, failed, not_executed = OUTCOMES[kind][chosen]
    if chosen in ("tail_swap", "crew_swap") and leg.origin != HUB:  # no spares or standby reserves on hand
        on_plan, late, failed = on_plan - 25, late + 15, failed + 10
    outcome = rng.choices(OUTCOME_NAMES, weights=(on_plan, late, failed, not_executed))[0]
    actual = _actual(kind, chosen, outcome, initial, rng)
    seats = AIRCRAFT_TYPES[leg.aircraft_type].seats
    pax = max(1, min(seats, round(seats * min(0.98, max(0.03, rng.gauss(HISTORICAL_LOAD_FACTOR, 0.07))))))
    occurred = _occurred(kind, chosen, leg, day, rng)
    while occurred >= window_start:  # late legs of the last day roll past the window start
        occurred -= timedelta(days=1)
    alternates = DIVERSION_AIRPORTS.get(leg.destination, ()) if kind in ("weather", "atc") else ()
    alt = rng.choice(alternates) if alternates else en_route(leg.origin, leg.destination)
    action = ("" if chosen == "cancel" else "a ") + ACTION_TEXT[chosen]
    decision = (
        f"the duty manager chose {action} over the recommended {ACTION_TEXT[recommended]}"
        if overridden
        else f"{action} as recommended"
    )
    result = OUTCOME_TEXT[(chosen, outcome)].format(
        actual=actual, alt=alt, dest=leg.destination, pax=pax, late_reason=LATE_DELAY[kind]
    )
    cause = case.cause.format(st=case.station, type=leg.aircraft_type)
    when = ("in flight" if in_flight else "before departure") if kind == "mechanical" else ""
    local_day = occurred.astimezone(ZoneInfo(airport(leg.origin).tz)).date()
    summary = (
        f"{CARRIER}{leg.number} {leg.origin}→{leg.destination} ({leg.aircraft_type}) on {local_day:%d %b %Y}: "
        f"{cause}{' ' + when if when else ''}; {decision}; {result}."
    )
    return DisruptionRecord(
        disruption_id="",
        disruption_type=kind,
        occurred_at=occurred,
        flight_number=f"{CARRIER}{leg.number}",
        origin=leg.origin,
        destination=leg.destination,
        aircraft_type=leg.aircraft_type,
        initial_delay_minutes=initial,
        recommended_action=recommended,
        chosen_action=chosen,
        overridden=overridden,
        outcome=outcome,
        actual_delay_minutes=actual,
        passengers_affected=pax,
        cost_usd=_cost(leg, case, chosen, outcome, actual, pax, rng),
        summary=summary,
        decided_by=rng.choice(managers),
    )


def build_history(config: GeneratorConfig, rng: random.Random) -> list[DisruptionRecord]:
    """Past disruptions of every type in the HISTORY_DAYS before `config.start`, oldest first."""
    window_start = local_to_utc(config.start, "00:00", airport(HUB).tz)
    legs = network_legs(config.scale)
    days = [config.start - timedelta(days=k) for k in range(1, HISTORY_DAYS + 1)]
    managers: list[str] = []
    while len(managers) < 8:
        name = person_name(rng)
        if name not in managers:
            managers.append(name)
    records = []
    for kind, base in YEARLY_COUNTS.items():
        count = max(MIN_PER_TYPE, round(base * rng.uniform(0.9, 1.1)))
        leg_weights = list(accumulate(leg_weight(kind, leg) for leg in legs))
        day_weights = list(accumulate(SEASON[kind][d.month - 1] for d in days))
        for _ in range(count):
            leg = rng.choices(legs, cum_weights=leg_weights)[0]
            day = rng.choices(days, cum_weights=day_weights)[0]
            records.append(_record(kind, leg, day, managers, window_start, rng))
    records.sort(key=lambda r: (r.occurred_at, r.flight_number, r.disruption_type))
    sequence: dict[int, int] = {}
    for record in records:
        year = record.occurred_at.year
        sequence[year] = sequence.get(year, 0) + 1
        record.disruption_id = f"H-{year}-{sequence[year]:04d}"
    return records
