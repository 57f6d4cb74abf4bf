"""The day as it happens: the tables after the day's decisions, with the stream's causes applied to whatever
they still catch. A decision changes the tables (a flight cancelled, delayed, diverted, moved to another tail,
its crew replaced); the cause happens whatever was decided (the tail stays on the ground until its release,
the sick crew member stays sick, the station stays shut) and holds every flight it still catches. Each tail's
flights then go in sequence, a flight leaving no earlier than its aircraft's previous arrival plus the type's
minimum turn — so knock-on through the tail is counted the same way for every policy.

Simplifications, the same for every policy: a capacity cut (a window that does not close the station) halves the
airport's declared rate, every airline's flights together, and gives our flights their slots by ration-by-schedule
(``rules.slots``, the model the network planner plans with); an airport that declares no rate (the hub) queues
the departures and the arrivals it catches, each at half our busiest scheduled hour there that day; a closure's
backlog leaves at our busiest scheduled hour there once it reopens, as the planner's hold plan meters it; crew
knock-on beyond the held flight is not propagated (the crew rules count a delay that breaks a duty as a violation
instead); a diverted flight's passengers reach their destination DIVERSION_ONWARD_MINUTES after landing at the
alternate.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import cast

from ..models.disruption import Window
from ..models.fleet import AIRCRAFT_TYPES
from ..models.operational import Booking, CrewDuty, CrewMember, Flight
from ..rules.slots import declared_rate, hourly_slots, ration_by_schedule
from .stream import Cause, StreamEvent

CUT_SHARE = 0.5  # a capacity cut ("rates cut by half"): the share of the station's busiest hour still handled
DIVERSION_ONWARD_MINUTES = 180  # coach or a ferry flight from the alternate (company estimate)


@dataclass
class DayState:
    """The tables a day is scored on: the window's flights, their bookings, their crews."""

    flights: dict[str, Flight]
    bookings: list[Booking]
    crew_on: Mapping[str, Sequence[CrewDuty]]  # flight id → FLIGHT roster rows on it (read when needed)
    rosters: Mapping[str, Sequence[CrewDuty]]  # crew id → the member's rows (for the crew rules)
    members: Mapping[str, CrewMember]
    original_tails: dict[str, str]  # flight id → its tail before the day's decisions (tail swaps)
    min_connection_minutes: Mapping[str, int]  # airport → MCT (others: DEFAULT_MCT)
    # legs the day's decisions added to the schedule: a rescue aircraft's ferry, a diversion's continuation (no
    # passengers of their own, no scheduled flight to be on time: costed by their block minutes, ``scorecard``)
    added_legs: frozenset[str] = frozenset()

    def copy(self) -> DayState:
        """A copy whose flights and bookings can be changed (a baseline's own tables)."""
        return DayState(
            flights={k: f.model_copy() for k, f in self.flights.items()},
            bookings=[b.model_copy() for b in self.bookings],
            crew_on=self.crew_on,  # never changed by a baseline
            rosters=self.rosters,
            members=self.members,
            original_tails=dict(self.original_tails),
            min_connection_minutes=self.min_connection_minutes,
            added_legs=self.added_legs,
        )


@dataclass(frozen=True)
class Timing:
    """One flight as flown: its departure and arrival, and the cause of its delay (None: on time)."""

    departure: datetime
    arrival: datetime
    cause: Cause | None

    def delay(self, flight: Flight) -> int:
        return max(0, round((self.departure - flight.scheduled_departure).total_seconds() / 60))

    def arrival_delay(self, flight: Flight) -> int:
        return max(0, round((self.passengers_arrive(flight) - flight.scheduled_arrival).total_seconds() / 60))

    def passengers_arrive(self, flight: Flight) -> datetime:
        """At the flight's destination: after the onward journey from the alternate for a diversion."""
        onward = DIVERSION_ONWARD_MINUTES if flight.status == "DIVERTED" else 0
        return self.arrival + timedelta(minutes=onward)


def _held(
    f: Flight, dep: datetime, arr: datetime, crew: set[str], e: StreamEvent, queued: Mapping[str, timedelta]
) -> timedelta:
    """How much later than `dep` the cause `e` lets `f` leave (zero when it does not catch it). `queued`: a
    capacity cut's wait per flight (``capacity_queue``), from its filed movement to its slot — a flight a
    decision already moved to or past its slot (a hold plan's re-timing, a knock-on) does not wait for it again."""
    zero = timedelta(0)
    if e.holds == "tail":
        return max(zero, e.end - dep) if f.aircraft_registration == e.registration and e.start <= dep < e.end else zero
    if e.holds == "crew":
        return max(zero, e.end - dep) if f.flight_id == e.flight_id and crew & set(e.crew_ids) else zero
    if e.holds == "flight":
        return max(zero, e.end - dep) if f.flight_id == e.flight_id else zero
    landing = f.diverted_to if f.status == "DIVERTED" and f.diverted_to else f.destination
    leaving = f.origin == e.station and e.start <= dep < e.end
    landing_in = landing == e.station and e.start <= arr < e.end
    wait = queued.get(f.flight_id)  # the slot is the filed movement plus its queue: one already later waits no more
    if wait is not None:
        if f.origin == e.station:
            return max(zero, f.departure + wait - dep)
        return max(zero, f.arrival + wait - arr) if landing == e.station else zero
    if not e.closes:
        return zero
    return max(e.end - dep if leaving else zero, e.end - arr if landing_in else zero)


def _peak(times: Sequence[datetime]) -> int:
    per_hour: dict[datetime, int] = defaultdict(int)
    for t in times:
        per_hour[t.replace(minute=0, second=0, microsecond=0)] += 1
    return max(per_hour.values(), default=1)


def station_moves(
    state: DayState, station: str | None
) -> tuple[list[tuple[datetime, str]], list[tuple[datetime, str]]]:
    """(departures, arrivals) at the station as (scheduled time, flight id), cancelled flights left out."""
    flying = [f for f in state.flights.values() if f.status != "CANCELLED"]
    return (
        [(f.scheduled_departure, f.flight_id) for f in flying if f.origin == station],
        [(f.scheduled_arrival, f.flight_id) for f in flying if f.destination == station],
    )


def filed_moves(state: DayState, station: str | None) -> tuple[list[tuple[datetime, str]], list[tuple[datetime, str]]]:
    """(departures, arrivals) at the station at each flight's filed time — its estimate where a decision wrote one,
    else its schedule — as a regulation takes the last filed off-blocks time (network.hold's walk): a flight delayed
    into the window by another cause queues for its slot there (one the window caught as scheduled queues too,
    wherever it was moved: ``capacity_queue``, stricter there than the hold plan, which lets a flight ready after
    the window go)."""
    flying = [f for f in state.flights.values() if f.status != "CANCELLED"]
    return (
        [(f.departure, f.flight_id) for f in flying if f.origin == station],
        [(f.arrival, f.flight_id) for f in flying if f.destination == station],
    )


def busiest_hour(moves: Sequence[tuple[datetime, str]], day) -> int:
    """The station's normal rate in one direction: our busiest scheduled hour there that day."""
    return _peak([t for t, _ in moves if t.date() == day])


def cut_rate(moves: Sequence[tuple[datetime, str]], day) -> int:
    """Movements an hour a capacity cut leaves: CUT_SHARE of the busiest scheduled hour that day, floored, at least
    one (as network.restriction.restriction_of cuts the airline's normal rate)."""
    return max(1, int(busiest_hour(moves, day) * CUT_SHARE))


def capacity_queue(state: DayState, e: StreamEvent) -> dict[str, timedelta]:
    """A station window's queue: flight id → its wait from its filed movement (`filed_moves`) to its slot.

    A capacity cut (a window that does not close the station): where the airport declares a rate, CUT_SHARE of
    it, every airline's traffic queued with ours by ration-by-schedule (``rules.slots``: the backlog after the
    window delays flights too); elsewhere departures and arrivals each queued in clock hours at CUT_SHARE of the
    station's busiest scheduled hour that day (``rules.slots.hourly_slots``), in the order of the filed movements.
    A closure: the movements it catches leave as the station reopens at its normal rate — our busiest scheduled
    hour there, departures and arrivals apart — not all in the reopening minute. Both as the network planner gives
    its slots (rules.slots.declared_cut by schedule, network.hold.Slots walking the filed times), so a plan at its
    slots waits no more."""
    declared = declared_rate(e.station) if e.station else None
    if declared is not None and e.station and not e.closes:
        cut = (max(int(declared[0] * CUT_SHARE), 1), max(int(declared[1] * CUT_SHARE), 1))
        flying = {f.flight_id: f for f in state.flights.values() if f.status != "CANCELLED"}
        slots = ration_by_schedule(flying.values(), e.station, Window(start=e.start, end=e.end), cut, declared)
        left: dict[str, timedelta] = {}  # each slot is its scheduled movement plus its wait: from the filed one
        for fid, m in slots.items():
            f = flying[fid]
            planned, filed_at = (
                (f.scheduled_departure, f.departure) if f.origin == e.station else (f.scheduled_arrival, f.arrival)
            )
            if (wait := planned + timedelta(minutes=m) - filed_at) > timedelta(0):
                left[fid] = wait
        return left
    waits: dict[str, timedelta] = {}
    window = Window(start=e.start, end=e.end)
    for scheduled, filed in zip(station_moves(state, e.station), filed_moves(state, e.station), strict=True):
        rate = busiest_hour(scheduled, e.start.date()) if e.closes else cut_rate(scheduled, e.start.date())
        caught = {fid for at, fid in scheduled if window.start <= at < window.end}
        for flight_id, minutes in hourly_slots(filed, window, rate, closed=e.closes, caught=caught).items():
            waits[flight_id] = max(waits.get(flight_id, timedelta(0)), timedelta(minutes=minutes))
    return waits


def realize(state: DayState, events: Sequence[StreamEvent]) -> dict[str, Timing]:
    """Every operated flight of the window as flown (cancelled flights are absent)."""
    by_tail: dict[str, list[Flight]] = defaultdict(list)
    for f in state.flights.values():
        if f.status != "CANCELLED":
            by_tail[f.aircraft_registration].append(f)
    queues = {e.event_id: capacity_queue(state, e) for e in events if e.holds == "station"}
    crew_held = {e.flight_id for e in events if e.holds == "crew"}  # only their crews are read
    out: dict[str, Timing] = {}
    for legs in by_tail.values():
        previous: tuple[Flight, Timing] | None = None
        for f in sorted(legs, key=lambda x: (x.departure, x.flight_id)):
            block = f.arrival - f.departure
            dep, cause = f.departure, cast(Cause | None, None)
            if f.departure > f.scheduled_departure:
                cause = "other"  # a delay a decision wrote: attributed below when a cause also holds the flight
            crew = {r.crew_id for r in state.crew_on.get(f.flight_id, ())} if f.flight_id in crew_held else set()
            for e in events:
                wait = _held(f, dep, dep + block, crew, e, queues.get(e.event_id, {}))
                if wait > timedelta(0):
                    dep, cause = dep + wait, e.cause
                elif cause == "other" and _held(
                    f, f.scheduled_departure, f.scheduled_arrival, crew, e, queues.get(e.event_id, {})
                ):
                    cause = e.cause
            if previous is not None:
                turn = timedelta(minutes=AIRCRAFT_TYPES[f.aircraft_type].min_turn_minutes)
                ready = previous[1].arrival + turn
                if ready > dep:
                    dep, cause = ready, previous[1].cause or cause
            arrival = dep + block  # at the alternate for a diversion: where the aircraft is
            timing = Timing(dep, arrival, cause if dep > f.scheduled_departure or f.status == "DIVERTED" else None)
            out[f.flight_id] = timing
            previous = (f, timing)
    return out


def flights_of(state: DayState, days: Iterable[date]) -> list[Flight]:
    """The scheduled flights of `days` (a leg the day's decisions added is none of them)."""
    wanted = set(days)
    return sorted(
        (f for f in state.flights.values() if f.flight_date in wanted and f.flight_id not in state.added_legs),
        key=lambda f: f.scheduled_departure,
    )


def as_found(state: DayState) -> DayState:
    """The tables as the day found them: a flight the day's decisions wrote back on its own tail, at its schedule and
    flying; every other one as it stands (an estimate written before the day, a cancellation)."""
    found = {"estimated_departure": None, "estimated_arrival": None, "status": "SCHEDULED"}
    flights = {
        fid: f.model_copy(
            update={**found, "aircraft_registration": state.original_tails.get(fid, f.aircraft_registration)}
        )
        if f.updated_by_execution
        else f
        for fid, f in state.flights.items()
        if fid not in state.added_legs  # the day found no leg its decisions added
    }
    return dataclasses.replace(state, flights=flights, added_legs=frozenset())


def moved_later(state: DayState, timings: dict[str, Timing], days: set[date]) -> list[Flight]:
    """The flights after the stream's days that the day moved: written by a decision (cancelled, re-timed, another
    tail — a crew's next duty cancelled, a rotation cancelled into the next day), or flown later than the tables as
    the day found them would fly it (an evening's knock-on into the morning: `as_found`, as the baselines judge a
    flight the day's to answer). Their passengers and costs are the day's, whichever policy moved them; a later
    flight late only as the tables held it before the day, with its own knock-on, is not."""
    last = max(days)
    later = [f for f in state.flights.values() if f.flight_date > last and f.flight_id not in state.added_legs]
    # the day as found is flown only when a later flight nobody wrote leaves late at all
    late = [f for f in later if not f.updated_by_execution and _late(timings.get(f.flight_id), f)]
    quiet = realize(as_found(state), []) if late else {}

    def moved(f: Flight) -> bool:
        t, q = timings.get(f.flight_id), quiet.get(f.flight_id)
        return bool(f.updated_by_execution) or (
            t is not None and q is not None and (t.departure > q.departure or t.arrival > q.arrival)
        )

    return sorted((f for f in later if moved(f)), key=lambda f: f.scheduled_departure)


def _late(t: Timing | None, f: Flight) -> bool:
    return t is not None and (t.departure > f.scheduled_departure or t.arrival > f.scheduled_arrival)
