"""Draw a day's disruptions from the airline's own history, reproducibly by seed.

The past year's DisruptionHistory gives what goes wrong and how often: each draw takes a record (weighted
towards the replayed day's month, as the history's seasons are), so the mix of types (mechanical, crew,
weather, ATC, other), the hour of day and the initial delay are the airline's own. The record's leg is
found on the replayed day (the same flight number, else the flight of the same type nearest its hour); the
station and cause come from the generator that wrote the history (``history_cases.disruption_case``), and
the lead time from its table (``LEAD``). What the cause then holds and for how long becomes a StreamEvent.

Intensities: an ordinary day draws ORDINARY events; a bad day BAD, with a weather window at a prone station;
a meltdown adds, to a bad day, the hub closed by fog 03:00–06:00 UTC, a crew-sickness wave at the hub (four
crew members reporting sick within two hours) and two widebody AOGs.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from datetime import UTC, date, datetime, time, timedelta

from ..data.generator.history_cases import Leg, disruption_case
from ..data.generator.history_tables import LEAD, PRONE
from ..data.generator.network import HUB
from ..data.generator.schedule import NARROWBODIES
from ..models.history import DisruptionRecord
from ..models.operational import CrewDuty, Flight
from .stream import Cause, Intensity, StreamEvent

ORDINARY, BAD = 5, 12
SAME_MONTH_WEIGHT = 4.0  # a record of the replayed day's month counts four times (the history's seasons)
DURATION_MINUTES = (20, 480)  # the history's initial delays, clamped to a day's replay
STATION_WINDOW_MINUTES = (90, 240)
# history type → (AHM 730 family, codes, what the cause holds)
FAMILY: dict[str, tuple[str, tuple[int, ...], str]] = {
    "mechanical": ("technical", (41, 42, 44, 45, 46), "tail"),
    "crew": ("flight_operations_crew", (64, 67), "crew"),
    "weather": ("weather", (71, 72), "flight"),
    "atc": ("atfm_airport_government", (81, 82, 83, 89), "flight"),
    "other": ("passengers_baggage", (11, 15, 18), "flight"),
}
CAUSE: dict[str, Cause] = {"mechanical": "technical", "crew": "crew", "weather": "weather", "atc": "atc"}
CrewOf = Callable[[str], Sequence[CrewDuty]]
# Who a crew cause holds, by the history's words for it (history_tables.CREW), most specific first: the ranks the
# members are drawn from and how many. A crew-wide cause (an FDP exceeded, a late inbound crew) holds one pilot, as
# the report that names the member says.
HELD_BY_WORDS: tuple[tuple[str, tuple[str, ...], int], ...] = (
    ("captain", ("CPT",), 1),
    ("first officer", ("FO",), 1),
    ("cabin crew", ("CD", "CA"), 2),
    ("", ("CPT", "FO"), 1),
)


def held_crew(cause: str, duties: Sequence[CrewDuty], rng: random.Random) -> tuple[str, ...]:
    """The members of the flight's operating crew the cause's words hold (none: the flight has no such crew)."""
    ranks, count = next((r, c) for words, r, c in HELD_BY_WORDS if words in cause)
    pool = sorted({d.crew_id for d in duties if d.kind == "FLIGHT" and d.position in ranks})
    return tuple(rng.sample(pool, k=min(len(pool), count)))


def naming(report: str, crew_ids: Sequence[str]) -> str:
    """The report with the staff numbers of the members it is about: an OCC knows who reported sick."""
    return f"{report} Staff no. {' and '.join(crew_ids)}."


def _midnight(day: date) -> datetime:
    return datetime.combine(day, time(0), UTC)


def _clamp(minutes: int, bounds: tuple[int, int]) -> int:
    return max(bounds[0], min(bounds[1], minutes))


def _leg(flight: Flight) -> Leg:
    return Leg(0, flight.origin, flight.destination, flight.aircraft_type, 0, flight.block_minutes, flight.distance_km)


def _weights(history: Sequence[DisruptionRecord], day: date) -> list[float]:
    return [SAME_MONTH_WEIGHT if r.occurred_at.month == day.month else 1.0 for r in history]


def _flight_for(record: DisruptionRecord, flights: Sequence[Flight], lead: int) -> Flight:
    """The record's flight number on the day, else the flight of its type leaving nearest its hour (+ lead)."""
    same = [f for f in flights if f.flight_number == record.flight_number]
    if same:
        return same[0]
    wanted = record.occurred_at.hour * 60 + record.occurred_at.minute + lead
    pool = [f for f in flights if f.aircraft_type == record.aircraft_type] or list(flights)

    def distance(f: Flight) -> int:
        minute = f.scheduled_departure.hour * 60 + f.scheduled_departure.minute
        return min(abs(minute - wanted), 1440 - abs(minute - wanted))

    return min(pool, key=lambda f: (distance(f), f.flight_id))


def _event(
    n: int, record: DisruptionRecord, flight: Flight, rng: random.Random, crew_of: CrewOf, day: date
) -> StreamEvent | None:
    kind = record.disruption_type
    family, codes, holds = FAMILY[kind]
    lead = rng.randint(*LEAD[kind])
    minutes = _clamp(record.initial_delay_minutes, DURATION_MINUTES)
    case = disruption_case(kind, _leg(flight), day, rng)
    departure = flight.scheduled_departure
    at = max(departure - timedelta(minutes=lead), _midnight(day))
    cause: Cause = CAUSE.get(kind, "other")
    if kind == "other":
        cause = "security" if "security" in case.cause else "bird_strike" if "bird" in case.cause else "other"
        family, codes = ("damage_automation", (51,)) if cause == "bird_strike" else (family, codes)
    base = {
        "event_id": f"E{n:03d}",
        "at": at,
        "family": family,
        "code": rng.choice(codes),
        "cause": cause,
        "history_type": kind,
        "flight_id": flight.flight_id,
        "flight_number": flight.flight_number,
        "flight_date": flight.flight_date,
        "start": at,
        "end": departure + timedelta(minutes=minutes),
        "report": plain_report(kind, flight, case.cause.format(st=case.station, type=flight.aircraft_type)),
    }
    if holds == "tail":
        return StreamEvent(holds="tail", registration=flight.aircraft_registration, **base)
    if holds == "crew":
        sick = held_crew(case.cause, crew_of(flight.flight_id), rng)
        if not sick:
            return None
        base["report"] = naming(str(base["report"]), sick)
        return StreamEvent(holds="crew", crew_ids=sick, **base)
    if kind == "weather" and case.station != flight.origin:
        what = case.cause.format(st=case.station, type=flight.aircraft_type)
        return station_event(n, case.station, flight.scheduled_arrival, rng, base, what=what)
    return StreamEvent(holds="flight", **base)


def station_event(
    n: int,
    station: str,
    around: datetime,
    rng: random.Random,
    base: dict | None = None,
    closes: bool = False,
    what: str | None = None,
) -> StreamEvent:
    """A weather window at a station, starting up to an hour before `around`."""
    start = around - timedelta(minutes=rng.randint(0, 60))
    end = start + timedelta(minutes=rng.randint(*STATION_WINDOW_MINUTES))
    at = start - timedelta(minutes=rng.randint(30, 120))
    fields = dict(base or {}, event_id=f"E{n:03d}", at=at, start=start, end=end, flight_id=None)
    fields.update(flight_number=None, flight_date=None, family="weather", code=None, cause="weather")
    fields.update(history_type="weather", report=station_report(station, start, end, closes, what))
    return StreamEvent(holds="station", station=station, closes=closes, **fields)


def plain_report(kind: str, flight: Flight, cause: str) -> str:
    """A plain OCC line (the bench writes the reading bench's styles over it)."""
    what = {
        "mechanical": f"aircraft {flight.aircraft_registration} is AOG with {cause}",
        "crew": f"crew problem: {cause}",
        "weather": f"held by {cause}",
        "atc": f"slot delay: {cause}",
        "other": f"held by {cause}",
    }[kind]
    return f"Flight {flight.flight_number} on {flight.flight_date:%B} {flight.flight_date.day} {flight.origin}-{flight.destination}: {what}."


def station_report(station: str, start: datetime, end: datetime, closes: bool, what: str | None = None) -> str:
    """`what`: the history generator's words for the weather (fog, sandstorm, snow as the station's climate has it)."""
    effect = "no movements" if closes else "arrival and departure rates cut by half"
    cause = (what[0].upper() + what[1:]) if what else f"Weather at {station}"
    return f"{cause}: {effect} at {station} between {start:%H:%M} and {end:%H:%M} UTC on {start:%d %B %Y}."


def _on_flight(n: int, flight: Flight, at: datetime, end: datetime, kind: str, report: str, **held) -> StreamEvent:
    """A meltdown's event on one flight: a crew member sick (kind crew) or its tail AOG (kind mechanical)."""
    family, codes, holds = FAMILY[kind]
    return StreamEvent(
        event_id=f"E{n:03d}",
        at=at,
        holds=holds,
        family=family,
        code=codes[0],
        cause=CAUSE[kind],
        history_type=kind,
        flight_id=flight.flight_id,
        flight_number=flight.flight_number,
        flight_date=flight.flight_date,
        start=at,
        end=end,
        report=report,
        **held,
    )


def meltdown(day: date, flights: Sequence[Flight], rng: random.Random, crew_of: CrewOf, n: int) -> list[StreamEvent]:
    """The hub closed by fog 03:00–06:00 UTC, four crew members sick at the hub within two hours, two widebody AOGs."""
    out: list[StreamEvent] = []
    start, end = _midnight(day) + timedelta(hours=3), _midnight(day) + timedelta(hours=6)
    out.append(
        StreamEvent(
            event_id=f"E{n:03d}",
            at=start - timedelta(minutes=45),
            holds="station",
            family="weather",
            code=None,
            cause="weather",
            history_type="weather",
            station=HUB,
            start=start,
            end=end,
            closes=True,
            report=f"Fog: no movements at Abu Dhabi between {start:%H:%M} and {end:%H:%M} UTC on {start:%d %B %Y}.",
        )
    )
    wave = sorted(
        (
            f
            for f in flights
            if f.origin == HUB and start + timedelta(hours=3) <= f.scheduled_departure < end + timedelta(hours=4)
        ),
        key=lambda f: f.flight_id,
    )
    for k, flight in enumerate(rng.sample(wave, k=min(4, len(wave)))):
        sick = held_crew("a pilot reported sick", crew_of(flight.flight_id), rng)
        if not sick:
            continue
        at = max(flight.scheduled_departure - timedelta(minutes=rng.randint(60, 150)), _midnight(day))
        end = flight.scheduled_departure + timedelta(minutes=rng.randint(120, 240))
        report = naming(plain_report("crew", flight, "a flight deck crew member reported sick"), sick)
        out.append(_on_flight(n + 1 + k, flight, at, end, "crew", report, crew_ids=sick))
    wide = sorted(
        (f for f in flights if f.aircraft_type not in NARROWBODIES and f.origin == HUB), key=lambda f: f.flight_id
    )
    for k, flight in enumerate(rng.sample(wide, k=min(2, len(wide)))):
        at = max(flight.scheduled_departure - timedelta(minutes=rng.randint(40, 120)), _midnight(day))
        end = flight.scheduled_departure + timedelta(minutes=rng.randint(360, 600))
        report = plain_report("mechanical", flight, "an engine bleed fault; no release before tomorrow")
        out.append(
            _on_flight(n + 5 + k, flight, at, end, "mechanical", report, registration=flight.aircraft_registration)
        )
    return out


def draw_day(
    history: Sequence[DisruptionRecord],
    flights: Sequence[Flight],
    day: date,
    intensity: Intensity,
    seed: int,
    crew_of: CrewOf,
) -> list[StreamEvent]:
    """The day's events in time order; the same inputs and seed give the same events."""
    rng = random.Random(f"{seed}:{day.isoformat()}:{intensity}")
    first = _midnight(day) + timedelta(hours=1)  # a report needs time before the flight it is about
    today = sorted(
        (f for f in flights if f.flight_date == day and f.status != "CANCELLED" and f.scheduled_departure >= first),
        key=lambda f: f.flight_id,
    )
    if not today or not history:
        return []
    ordered = sorted(history, key=lambda r: r.disruption_id)
    weights = _weights(ordered, day)
    count = ORDINARY if intensity == "ordinary" else BAD
    events: list[StreamEvent] = []
    used: set[str] = set()
    attempts = 0
    while len(events) < count and attempts < count * 20:
        attempts += 1
        record = rng.choices(ordered, weights=weights)[0]
        flight = _flight_for(record, today, rng.randint(*LEAD[record.disruption_type]))
        if flight.flight_id in used:
            continue
        event = _event(len(events), record, flight, rng, crew_of, day)
        if event is not None:
            used.add(flight.flight_id)
            events.append(event)
    if intensity != "ordinary":
        prone = sorted({f.destination for f in today if f.origin == HUB and f.destination in PRONE})
        if prone:
            station = rng.choice(prone)
            arrivals = sorted((f for f in today if f.destination == station), key=lambda f: f.scheduled_arrival)
            arrival = rng.choice(arrivals)
            case = disruption_case("weather", _leg(arrival), day, rng)
            what = case.cause.format(st=station, type=arrival.aircraft_type) if case.station == station else None
            events.append(station_event(len(events), station, arrival.scheduled_arrival, rng, what=what))
    if intensity == "meltdown":
        events += meltdown(day, today, rng, crew_of, len(events))
    ordered_events = sorted(events, key=lambda e: (e.at, e.event_id))
    return [e.model_copy(update={"event_id": f"E{i:03d}"}) for i, e in enumerate(ordered_events)]
