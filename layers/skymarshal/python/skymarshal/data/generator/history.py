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
About 450 records whatever the scale; the same start, scale and rng give the same records.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from functools import cache, lru_cache
from itertools import accumulate
from zoneinfo import ZoneInfo

from ...models.airports import airport, great_circle_km
from ...models.fleet import AIRCRAFT_TYPES
from ...models.history import DisruptionRecord
from ...rules.eu261 import COMPENSATION_ART_7, CURRENCY, STURGEON_DELAY_MINUTES, compensation_category
from ...rules.eu261_scope import applicable_regime, intra_zone
from ...rules.finance import DEFAULT_FINANCE, FX_TO_USD
from .config import GeneratorConfig, local_to_utc, round_up
from .names import person_name
from .network import CARRIER, HUB, frequencies
from .passengers import FARE_BASE, FARE_PER_KM
from .schedule import NARROWBODIES, OUTSTATION_BUFFER, block_minutes

HISTORY_DAYS = 365
YEARLY_COUNTS = {"mechanical": 140, "weather": 105, "atc": 90, "crew": 75, "other": 60}
MIN_PER_TYPE = 50
OVERRIDE_RATE = 0.14  # of the cases with an alternative; ~12% of all records
HISTORICAL_LOAD_FACTOR = 0.8  # mean seat load factor of the past year's flights
REFUND_SHARE = 0.35  # of a cancelled flight's fares refunded; the rest rebook
MEAL_USD, HOTEL_USD = 16.0, 145.0  # per passenger: a meal voucher; hotel and transport (company policy)
SEASON = {  # relative frequency by month, January first
    "mechanical": (0.9, 0.9, 1.0, 1.0, 1.1, 1.3, 1.4, 1.4, 1.2, 1.0, 0.9, 0.9),  # summer heat at the hub
    "crew": (1.2, 0.9, 0.9, 1.0, 1.0, 1.2, 1.4, 1.4, 1.0, 0.9, 0.9, 1.3),  # peak flying
    "weather": (3.0, 2.6, 1.5, 0.9, 0.8, 1.0, 1.4, 1.5, 1.1, 1.0, 1.5, 2.7),  # winter fog and storms
    "atc": (0.8, 0.8, 0.9, 1.0, 1.2, 1.6, 1.9, 1.8, 1.3, 1.0, 0.8, 1.0),  # European summer flow control
    "other": (1.0,) * 12,
}
LEAD = {"mechanical": (20, 150), "crew": (30, 180), "weather": (45, 240), "atc": (20, 120), "other": (10, 90)}
INITIAL = {
    "mechanical": (40, 480, 120),
    "crew": (45, 360, 120),
    "weather": (30, 360, 90),
    "atc": (20, 300, 75),
    "other": (15, 240, 60),
}  # minutes: triangular (low, high, mode)
CANCEL = (100, 0, 0, 0)
OUTCOMES = {  # by chosen action: weights of on_plan, late, failed, not_executed
    "mechanical": {"tail_swap": (81, 12, 4, 3), "delay": (44, 44, 10, 2), "divert": (72, 22, 6, 0), "cancel": CANCEL},
    "crew": {"crew_swap": (85, 11, 3, 1), "delay": (58, 30, 10, 2), "cancel": CANCEL},
    "weather": {"delay": (77, 17, 4, 2), "divert": (62, 28, 8, 2), "cancel": CANCEL},
    "atc": {"delay": (62, 34, 3, 1), "crew_swap": (80, 16, 3, 1), "divert": (72, 24, 4, 0), "cancel": CANCEL},
    "other": {
        "delay": (74, 22, 3, 1),
        "divert": (78, 18, 4, 0),
        "tail_swap": (80, 14, 4, 2),
        "crew_swap": (82, 14, 3, 1),
        "cancel": CANCEL,
    },
}
OUTCOME_NAMES = ("on_plan", "late", "failed", "not_executed")
IN_FLIGHT_DIVERT = ("mechanical", "atc", "other")  # decided airborne: no ground alternative to override with
EUROPE = set(["GB", "IE", "DE", "FR", "NL", "IT", "ES", "CH", "GR", "TR", "AT", "BE"])
NORTH_AMERICA, GULF = {"US", "CA"}, set(["AE", "BH", "KW", "OM", "SA", "QA", "JO", "LB", "EG"])
FOG_SOUTH_ASIA = {"DEL", "LHE", "ISB", "KTM", "DAC", "KHI"}
TYPHOON, COLD_ASIA = set(["HK", "PH", "JP", "CN", "KR", "TW"]), set(["JP", "CN", "KR", "GE", "AZ"])
PRONE = {
    "LHR": 4,
    "MAN": 3,
    "DUB": 3,
    "AMS": 3,
    "FRA": 3,
    "MUC": 3,
    "CDG": 2,
    "ZRH": 2,
    "JFK": 4,
    "BOS": 4,
    "ORD": 4,
    "IAD": 3,
    "YYZ": 4,
    "ICN": 2,
    "NRT": 2,
    "PVG": 2,
    "HKG": 3,
    "MNL": 3,
    "DEL": 3,
    "LHE": 2,
    "KTM": 2,
    "DAC": 2,
}
DIVERSION_AIRPORTS = {
    "AUH": ("DXB", "DWC"),
    "LHR": ("MAN", "BHX", "STN"),
    "MAN": ("BHX", "LHR"),
    "DUB": ("SNN", "MAN"),
    "AMS": ("BRU", "DUS"),
    "FRA": ("CGN", "MUC"),
    "MUC": ("NUE", "FRA"),
    "CDG": ("BRU", "LYS"),
    "ZRH": ("BSL", "MUC"),
    "JFK": ("EWR", "PHL"),
    "BOS": ("BDL", "JFK"),
    "ORD": ("MKE", "DTW"),
    "IAD": ("PHL", "EWR"),
    "YYZ": ("YUL", "DTW"),
    "ICN": ("GMP", "PUS"),
    "NRT": ("HND", "KIX"),
    "PVG": ("HGH", "PEK"),
    "HKG": ("CAN", "TPE"),
    "MNL": ("CRK", "CEB"),
    "DEL": ("JAI", "LKO"),
    "LHE": ("ISB", "ATQ"),
    "ISB": ("LHE", "PEW"),
    "KTM": ("DEL", "BWA"),
    "DAC": ("CGP", "CCU"),
}
MECHANICAL = (
    "a hydraulic pump low-pressure warning",
    "a bleed air leak warning",
    "an inoperative APU",
    "brake wear beyond limits",
    "a cabin pressure controller fault",
    "an oil pressure indication fault",
    "a flap asymmetry warning",
    "a weather radar failure",
    "a damaged cargo door seal",
    "an IDG disconnect",
    "a fuel quantity indication fault",
    "a cracked windshield outer ply",
    "a tyre below minimum tread",
)
IN_FLIGHT_DEFECTS = (
    "an engine oil pressure drop",
    "the loss of one hydraulic system",
    "a cabin pressurisation fault",
    "an engine vibration warning",
    "a smoke warning in the aft cargo hold",
)
CREW = (
    "the operating crew would exceed their maximum FDP after an earlier delay",
    "the captain reported sick",
    "two cabin crew reported sick, leaving the cabin below minimum complement",
    "the inbound crew arrived late from an earlier disruption",
    "a first officer was short of the required rest after a late positioning",
    "a pilot's landing recency had lapsed, found at briefing",
)
OTHER = (  # cause, recommended weights, extraordinary under EU261 Art. 5(3)
    ("a medical emergency on board", {"divert": 80, "delay": 20}, False),
    ("a bird strike on the take-off roll", {"tail_swap": 50, "delay": 40, "cancel": 10}, True),
    ("a disruptive passenger who had to be offloaded", {"delay": 85, "divert": 15}, False),
    ("a security alert at {st}", {"delay": 85, "cancel": 15}, True),
    ("a fuel supply problem at {st}", {"delay": 85, "crew_swap": 15}, False),
    ("a check-in system outage at {st}", {"delay": 100}, False),
    ("a ground handling staff shortage at {st}", {"delay": 88, "crew_swap": 12}, False),
)
ACTION_TEXT = {
    "tail_swap": "tail swap",
    "crew_swap": "crew swap",
    "delay": "delay",
    "divert": "diversion",
    "cancel": "cancellation",
}
LATE_DELAY = {
    "mechanical": "the release estimate slipped",
    "crew": "the crew's rest ran longer than planned",
    "weather": "conditions cleared later than forecast",
    "atc": "the slot was pushed back again",
    "other": "the hold-up lasted longer than estimated",
}
OUTCOME_TEXT = {
    ("tail_swap", "on_plan"): "the swap went to plan, {actual} min late",
    ("tail_swap", "late"): "the swap overran (catering, bags, fuel) and it left {actual} min late",
    ("tail_swap", "failed"): "the spare turned out unserviceable too and it waited for the repair, {actual} min late",
    ("tail_swap", "not_executed"): "the defect was cleared before the swap and it left {actual} min late",
    ("crew_swap", "on_plan"): "the reserve crew reported in time and it left {actual} min late",
    ("crew_swap", "late"): "the reserve crew reported late and it left {actual} min late",
    ("crew_swap", "failed"): "no legal reserve could be found and it waited for the crew's rest, {actual} min late",
    ("crew_swap", "not_executed"): "the original crew stayed within limits after all, {actual} min late",
    ("delay", "on_plan"): "it left as re-timed, {actual} min late",
    ("delay", "late"): "{late_reason} and it left {actual} min late",
    ("delay", "failed"): "the delay ran out and the flight was cancelled, passengers arriving {actual} min late",
    ("delay", "not_executed"): "the problem cleared sooner and it left {actual} min late",
    ("divert", "on_plan"): "it diverted to {alt} and reached {dest} {actual} min late",
    ("divert", "late"): "the turnaround at {alt} dragged on and it reached {dest} {actual} min late",
    ("divert", "failed"): "the crew ran out of duty time at {alt} and passengers night-stopped, {actual} min late",
    ("divert", "not_executed"): "conditions improved and it landed at {dest} {actual} min late",
    ("cancel", "on_plan"): "{pax} passengers were re-accommodated, arriving {actual} min late on average",
}


@dataclass(frozen=True)
class Leg:
    number: int
    origin: str
    destination: str
    aircraft_type: str
    hub_offset: int  # departure, minutes after the hub's local midnight of the outbound's day
    block: int
    distance: int

    @property
    def outstation(self) -> str:
        return self.destination if self.origin == HUB else self.origin


@dataclass
class Case:
    station: str  # where the problem is
    cause: str
    weights: dict[str, int]  # the arbitrator's rank-1 kind, by likelihood
    extraordinary: bool  # EU261 Art. 5(3): no compensation owed


def network_legs(scale: int) -> list[Leg]:
    legs = []
    for f in frequencies(scale):
        h, m = map(int, f.local_departure.split(":"))
        out_block, out_km = block_minutes(HUB, f.destination, f.aircraft_type)
        turn = AIRCRAFT_TYPES[f.aircraft_type].min_turn_minutes + OUTSTATION_BUFFER[f.aircraft_type in NARROWBODIES]
        back_block, back_km = block_minutes(f.destination, HUB, f.aircraft_type)
        legs.append(Leg(f.outbound_number, HUB, f.destination, f.aircraft_type, h * 60 + m, out_block, out_km))
        legs.append(
            Leg(
                f.inbound_number,
                f.destination,
                HUB,
                f.aircraft_type,
                round_up(h * 60 + m + out_block + turn),
                back_block,
                back_km,
            )
        )
    return legs


def _leg_weight(kind: str, leg: Leg) -> float:
    if kind == "weather":
        return PRONE.get(leg.outstation, 1)
    if kind == "atc":
        country = airport(leg.outstation).country
        return 3 if country in EUROPE else 2 if country in NORTH_AMERICA else 1
    if kind == "crew":
        return 3 if leg.block >= 420 else 1
    return 1.5 if kind == "mechanical" and leg.aircraft_type not in NARROWBODIES else 1


def _pick(rng: random.Random, weights: Mapping[str, float]) -> str:
    keys = list(weights)
    return rng.choices(keys, weights=[weights[k] for k in keys])[0]


def _weather(leg: Leg, day: date, rng: random.Random) -> Case:
    winter = day.month in (11, 12, 1, 2, 3)
    station = HUB if rng.random() < (0.4 if winter else 0.15) else leg.outstation
    country = airport(station).country
    if country in GULF:
        causes = ["dense fog at {st} (RVR below 200 m)"] if winter else ["a sandstorm at {st} (visibility 800 m)"]
    elif station in FOG_SOUTH_ASIA and winter:
        causes = ["dense fog at {st} (visibility below 100 m)"]
    elif country in EUROPE | NORTH_AMERICA | COLD_ASIA and winter:
        causes = [
            "snow and a de-icing queue at {st}",
            "freezing fog at {st}",
            "freezing rain at {st}",
            "a winter storm at {st} with crosswind gusts above the {type} limit",
        ]
    elif country in TYPHOON and 6 <= day.month <= 10:
        causes = ["a typhoon warning at {st}", "heavy thunderstorms over {st}"]
    else:
        causes = ["thunderstorms over {st}", "low cloud and strong crosswinds at {st}", "heavy rain at {st}"]
    weights = {"delay": 62, "cancel": 12}
    if station == leg.destination and station in DIVERSION_AIRPORTS:
        weights["divert"] = 30
    return Case(station, rng.choice(causes), weights, True)


def _atc(leg: Leg, rng: random.Random) -> Case:
    station = HUB if rng.random() < 0.25 else leg.outstation
    country = airport(station).country
    if country in EUROPE:
        causes = [
            "a Eurocontrol flow restriction for {st}",
            "an air traffic controllers' strike in France",
            "a reduced arrival rate at {st} after a runway closure",
            "a staff shortage at {st} approach control",
        ]
    elif country in NORTH_AMERICA:
        causes = ["a ground delay programme at {st}", "a reduced arrival rate at {st}"]
    elif country in GULF:
        causes = [
            "congestion in Gulf airspace",
            "a military airspace closure on the route",
            "a runway closure at {st} cutting the departure rate",
        ]
    else:
        causes = ["flow control into {st}", "rerouting around closed airspace on the route"]
    weights = {"delay": 76, "crew_swap": 12, "cancel": 8}
    if station == leg.destination:
        weights["divert"] = 5
    return Case(station, rng.choice(causes), weights, True)


def _case(kind: str, leg: Leg, day: date, rng: random.Random) -> Case:
    at_hub = leg.origin == HUB
    if kind == "mechanical":
        weights = (
            {"tail_swap": 58, "delay": 28, "cancel": 10, "divert": 4}
            if at_hub
            else {"delay": 66, "cancel": 22, "tail_swap": 5, "divert": 7}
        )
        return Case(leg.origin, rng.choice(MECHANICAL), weights, False)
    if kind == "crew":
        weights = (
            {"crew_swap": 72, "delay": 18, "cancel": 10} if at_hub else {"crew_swap": 35, "delay": 45, "cancel": 20}
        )
        return Case(leg.origin, rng.choice(CREW), weights, False)
    if kind == "weather":
        return _weather(leg, day, rng)
    if kind == "atc":
        return _atc(leg, rng)
    cause, weights, extraordinary = rng.choice(OTHER)
    return Case(leg.origin, cause, dict(weights), extraordinary)


@lru_cache(maxsize=1)
def _stations() -> frozenset[str]:
    return frozenset({f.destination for f in frequencies(1)} | {HUB})


@cache
def _en_route(origin: str, destination: str) -> str:
    """The network airport with the smallest detour between origin and destination, else a return to origin."""
    direct = great_circle_km(origin, destination)
    best = min(
        sorted(_stations() - {origin, destination}),
        key=lambda s: great_circle_km(origin, s) + great_circle_km(s, destination),
    )
    detour = great_circle_km(origin, best) + great_circle_km(best, destination) - direct
    return best if detour < 0.25 * direct and great_circle_km(origin, best) > 300 else origin


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
    case = _case(kind, leg, day, rng)
    low, high, mode = INITIAL[kind]
    initial = round_up(rng.triangular(low, high, mode))
    weights = dict(case.weights)
    if initial < 90 and "delay" in weights:
        weights["delay"] *= 2
    if initial > 300 and "cancel" in weights:
        weights["cancel"] *= 2
    recommended = _pick(rng, weights)
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
    chosen = _pick(rng, others) if overridden else recommended
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
    alt = rng.choice(alternates) if alternates else _en_route(leg.origin, leg.destination)
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
        leg_weights = list(accumulate(_leg_weight(kind, leg) for leg in legs))
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
