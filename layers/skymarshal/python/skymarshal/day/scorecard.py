"""The day's scorecard, computed from the tables after the day (``realize``), never from a decision's estimates.

- D15 / A15: share of the operated flights of the stream's days leaving / arriving within 15 minutes of
  schedule (IATA/ACI on-time performance; cancelled flights are counted apart). Beside it, D15 of the scheduled
  flights, a cancellation counted as not on time: cancelling a late flight raises the first, never the second.
- Passengers: each passenger's journey (a PNR's segments) on the day's flights or on a later flight the day
  cancelled or made late (``realize.moved_later``: counted in every passenger, money and crew figure, whichever
  policy moved it), walked with the flights as flown: a connection is missed when the next segment leaves before
  the arrival plus the connecting airport's minimum connection time; a passenger on a cancelled or missed flight
  takes the earliest way home to the final destination (``rules.reaccommodation``, the search the cancellation
  plan uses: any own flight as flown, direct or through one or two connections at the MCT, the same day or the
  next, seats checked against one ledger for the whole day — the same for every policy); none: stranded,
  arriving a day late. Delay minutes are at the final destination; "stranded overnight" when the wait at a station
  covers part of the local night (``rules.guest.overnight_necessary``, the company's Art. 9(1)(b) rule).
- EU261/UK261 compensation and Art. 9 care: ``rules.guest.compensation_liability`` (journey basis, the cause's
  Art. 5(3) standing) and ``rules.guest.duty_of_care`` for every flight delayed or cancelled.
- Operating cost: ``rules.finance`` — delay minutes × the A4A rate, cancelled bookings' fares and
  re-accommodation, tail swaps, and the block minutes of every leg a decision added (a rescue aircraft's ferry, a
  diversion's continuation: ``finance.ferry_cost``) — such a leg is no scheduled flight, so no D15 or count has it.
- Crew legality: every crew member of every delayed flight checked by the crew rules at the delay flown;
  rotation breaks: every tail's flights as flown through ``rules.rotation`` (continuity and turn only).
"""

from __future__ import annotations

from bisect import bisect_left
from collections import defaultdict
from collections.abc import Iterable, Sequence
from datetime import date, datetime, timedelta
from itertools import accumulate

from pydantic import BaseModel, ConfigDict

from ..models.operational import Booking, CrewDuty, Flight
from ..rules import finance, guest
from ..rules.eu261 import Disruption
from ..rules.finance import STRANDED_MINUTES
from ..rules.reaccommodation import local_tz
from ..rules.rostered import CrewLegality, flight_crew_legality
from ..rules.rotation import rotation_breaks
from .realize import DayState, Timing, flights_of, moved_later, realize
from .stream import StreamEvent
from .ways_home import WaysHome, as_flown

OTP_MINUTES = 15
DEFAULT_MCT = 60
STRANDED_DELAY = timedelta(minutes=STRANDED_MINUTES)  # no later flight of the route in the data: the next day's
INTERLINE_MINUTES = 240  # a passenger placed on another carrier (company estimate)
ACTIVE = ("CONFIRMED", "CHECKED_IN", "BOARDED", "REBOOKED")


class DecisionStats(BaseModel):
    """What the policy's decisions were (from the replay, not the tables)."""

    model_config = ConfigDict(frozen=True)

    decisions: int = 0
    escalated: int = 0
    seconds: tuple[float, ...] = ()


NO_DECISIONS = DecisionStats()


class Scorecard(BaseModel):
    model_config = ConfigDict(frozen=True)

    policy: str
    flights: int
    d15: float
    # on-time departures of the flights scheduled, a cancelled one counted as not on time: D15 over the operated
    # flights rises when late flights are cancelled, this does not (None: a scorecard saved before it existed)
    d15_scheduled: float | None = None
    a15: float
    cancellations: int
    # flights after the stream's days the day cancelled or made late (counted in the passenger, money and crew
    # figures, not in D15 or the cancellations above)
    later_flights_moved: int = 0
    later_cancellations: int = 0
    diversions: int
    passengers: int
    passengers_disrupted: int
    passenger_delay_minutes: int
    misconnections: int
    stranded_overnight: int
    compensation_usd: float
    care_usd: float
    operating_cost_usd: float
    crew_violations: int  # the day's: every late flight's crew, whatever made it late
    crew_violations_decided: (
        int  # on flights a decision wrote, at its own times (what a policy claiming legality answers for)
    )
    crew_violation_notes: tuple[str, ...] = ()  # each member illegal on the day as flown, in one line
    rotation_breaks: int
    rotation_break_notes: tuple[str, ...] = ()  # each break in one line, for the reader to trace
    decisions: int
    escalated: int
    seconds_per_decision: float | None
    otp_by_hour: tuple[tuple[float, float], ...]  # (hours after the first day's 00:00 UTC, D15 of flights gone by then)
    # (hours, cumulative delay minutes of the passengers due at their final destination by then): ends at the total
    pax_delay_by_hour: tuple[tuple[float, int], ...]


class _Journey(BaseModel):
    delay: int
    scheduled: datetime  # the journey's scheduled arrival at its final destination
    arrived: datetime
    misconnected: bool
    stranded: bool
    cancelled: bool


def _minutes(a: datetime, b: datetime) -> int:
    return round((b - a).total_seconds() / 60)


def _mct(state: DayState, iata: str) -> timedelta:
    return timedelta(minutes=state.min_connection_minutes.get(iata, DEFAULT_MCT))


def _overnight(origin: str, since: datetime, until: datetime) -> bool:
    return guest.overnight_necessary(local_tz(origin), since, until)


def _journey(rows: list[Booking], state: DayState, timings: dict[str, Timing], ways: WaysHome) -> _Journey | None:
    rows = sorted(rows, key=lambda b: b.segment)
    last = rows[-1]
    scheduled_leg = state.flights.get(last.rebooked_from or last.flight_id)
    if scheduled_leg is None:
        return None
    ready: datetime | None = None
    arrived = scheduled_leg.scheduled_arrival
    missed = stranded = cancelled = False
    for row in rows:
        if row.rebooked_to == "INTERLINE":
            origin_leg = state.flights.get(row.rebooked_from or "")
            if origin_leg is None:
                return None
            arrived, cancelled = origin_leg.scheduled_arrival + timedelta(minutes=INTERLINE_MINUTES), True
            ready = arrived + _mct(state, origin_leg.destination)
            continue
        f = state.flights.get(row.flight_id)
        if f is None:
            return None
        cancelled |= row.rebooked_from is not None or f.status == "CANCELLED"
        t = timings.get(f.flight_id)
        booked = state.flights.get(row.rebooked_from or "", f)  # a rebooked passenger waits from the flight they had
        wait_from = max(ready or booked.scheduled_departure, booked.scheduled_departure)
        if t is None or (ready is not None and t.departure < ready):
            missed |= t is not None
            cancelled |= t is None
            way = ways.home(
                row, f, booked.scheduled_departure, wait_from, scheduled_leg.scheduled_arrival, local_tz(f.origin)
            )
            if way is None:
                return _Journey(
                    delay=_minutes(scheduled_leg.scheduled_arrival, arrived + STRANDED_DELAY),
                    scheduled=scheduled_leg.scheduled_arrival,
                    arrived=arrived + STRANDED_DELAY,
                    misconnected=missed,
                    stranded=True,
                    cancelled=cancelled,
                )
            home = state.flights[way.legs[-1].flight_id]
            at_home = timings[home.flight_id].passengers_arrive(home)
            return _Journey(  # home on the way found: the rest of the booked itinerary is no longer flown
                delay=max(0, _minutes(scheduled_leg.scheduled_arrival, at_home)),
                scheduled=scheduled_leg.scheduled_arrival,
                arrived=at_home,
                misconnected=missed,
                stranded=stranded or way.overnight,
                cancelled=cancelled,
            )
        stranded |= _overnight(f.origin, wait_from, t.departure)
        arrived = t.passengers_arrive(f)
        ready = arrived + _mct(state, f.destination)
    return _Journey(
        delay=max(0, _minutes(scheduled_leg.scheduled_arrival, arrived)),
        scheduled=scheduled_leg.scheduled_arrival,
        arrived=arrived,
        misconnected=missed,
        stranded=stranded,
        cancelled=cancelled,
    )


def _itineraries(state: DayState, flight_ids: set[str]) -> dict[tuple[str, str], list[Booking]]:
    """Each passenger's rows, for the journeys with a segment (as booked) on one of `flight_ids`."""
    groups: dict[tuple[str, str], list[Booking]] = defaultdict(list)
    for b in state.bookings:
        if b.status in ACTIVE:
            groups[(b.pnr, b.passenger_id)].append(b)
    return {k: rows for k, rows in groups.items() if any((b.rebooked_from or b.flight_id) in flight_ids for b in rows)}


def planned_departure(rows: Sequence[CrewDuty]) -> datetime:
    """The departure a flight's crew rows were rostered for (the delay the crew rules see is counted from it)."""
    return min((r.sector_departure or r.duty_start) for r in rows)


def illegal_members(state: DayState, f: Flight, departure: datetime) -> list[CrewLegality]:
    """The rostered members of `f` whom the crew rules (ORO.FTL.205 FDP, .210 cumulative, .235 rest, recency,
    type rating) find illegal when `f` leaves at `departure` (their duty delayed so): the scorecard's count, and
    what the baselines' and the hindsight's crew cover (``crew_cover``) make legal."""
    rows = state.crew_on.get(f.flight_id, [])
    if not rows:
        return []
    delay = max(0, _minutes(planned_departure(rows), departure))
    if delay == 0:
        return []
    members = [state.members[r.crew_id] for r in rows if r.crew_id in state.members and r.crew_id in state.rosters]
    rosters = {m.crew_id: state.rosters[m.crew_id] for m in members}
    try:
        checked = flight_crew_legality(f.flight_id, members, rosters, delay)
    except LookupError:
        return []  # a member whose roster no longer holds the flight is not on it
    return [c for c in checked if not c.legal]


def _crew_violations(state: DayState, flights: Sequence[Flight], timings: dict[str, Timing]) -> tuple[list[str], int]:
    """(each crew member illegal on the day as flown, in one line; how many are illegal on a flight a decision
    wrote at the departure the decision wrote — whether the plan itself was legal, not whether the cause outlasted
    it)."""
    flown = [
        f"{f.flight_id} +{t.delay(f)} min: {c.crew_id} "
        + next((x.message for x in c.findings if x.status == "illegal"), "illegal")
        for f in flights
        if (t := timings.get(f.flight_id)) is not None and t.departure > f.scheduled_departure
        for c in illegal_members(state, f, t.departure)
    ]
    decided = sum(
        len(illegal_members(state, f, f.departure))
        for f in flights
        if f.updated_by_execution and f.status != "CANCELLED" and f.departure > f.scheduled_departure
    )
    return flown, decided


def _rotation_breaks(state: DayState, timings: dict[str, Timing]) -> list[str]:
    """Each break of a tail's sequence in the day as flown, said in one line."""
    by_tail: dict[str, list[Flight]] = defaultdict(list)
    for fid, t in timings.items():
        f = state.flights[fid]
        by_tail[f.aircraft_registration].append(as_flown(f, t))
    return [
        b.message
        for tail, legs in sorted(by_tail.items())
        for b in rotation_breaks(tail, legs, turn_minutes=0)
        if b.continuity
    ]


def _money(
    state: DayState, flights: Sequence[Flight], timings: dict[str, Timing], delays: dict[str, int], cause_of
) -> tuple[float, float, float]:
    """(compensation, care, operating cost) in USD."""
    on_flight: dict[str, list[Booking]] = defaultdict(list)
    seen: set[tuple[str, str, str]] = set()  # a journey's extra rows name the flight they replace: one passenger once
    for b in state.bookings:
        if b.status in ACTIVE or b.rebooked_from:
            home = b.rebooked_from or b.flight_id
            if (home, b.pnr, b.passenger_id) in seen:
                continue
            seen.add((home, b.pnr, b.passenger_id))
            on_flight[home].append(b)
    liabilities, cares, cancelled_rows, flight_delays = [], [], [], {}
    for f in flights:
        t = timings.get(f.flight_id)
        if t is None:
            kind: Disruption = "cancellation"
            new_departure = f.scheduled_departure + STRANDED_DELAY
        else:
            flight_delays[f.flight_id] = t.delay(f)
            if t.delay(f) == 0 and t.arrival_delay(f) == 0:
                continue
            kind, new_departure = "delay", t.departure
        # the rules read a flight's active rows: its passengers as booked on it, copied only for a disrupted flight
        rows = [b.model_copy(update={"flight_id": f.flight_id, "status": "CONFIRMED"}) for b in on_flight[f.flight_id]]
        if t is None:
            cancelled_rows += rows
        if not rows:
            continue
        flown = as_flown(f, t) if t else f
        by_booking = {b.booking_id: delays.get(b.booking_id, 0) for b in rows}
        liabilities.append(
            guest.compensation_liability(
                flown, rows, kind, cause=cause_of(f.flight_id), arrival_delay_by_booking=by_booking
            )
        )
        cares.append(guest.duty_of_care(f, rows, kind, new_departure=new_departure))
    # A swap is one tail exchanged for another, whatever the number of its flights the new tail then flies.
    swaps = len(
        {
            (tail, state.flights[fid].aircraft_registration)
            for fid, tail in state.original_tails.items()
            if fid in state.flights and state.flights[fid].aircraft_registration != tail
        }
    )
    compensation = finance.compensation_cost(liabilities).amount_usd
    care = finance.care_cost(cares).amount_usd
    added = sum(state.flights[fid].block_minutes for fid in state.added_legs if fid in timings)
    operating = (
        finance.delay_cost(flight_delays).amount_usd
        + finance.cancellation_cost(cancelled_rows).amount_usd
        + finance.tail_swap_cost(swaps).amount_usd
        + finance.ferry_cost(added).amount_usd
    )
    return compensation, care, operating


def score(
    policy: str,
    state: DayState,
    events: Sequence[StreamEvent],
    days: Iterable[date],
    decisions: DecisionStats = NO_DECISIONS,
    timings: dict[str, Timing] | None = None,
) -> Scorecard:
    """The scorecard of the day `state` holds after `policy`'s decisions, with `events` applied (realize)."""
    days = set(days)
    timings = realize(state, events) if timings is None else timings
    flights = flights_of(state, days)
    flown = [(f, timings[f.flight_id]) for f in flights if f.flight_id in timings]
    origin = (
        datetime.combine(min(days), datetime.min.time()).replace(tzinfo=flights[0].scheduled_departure.tzinfo)
        if flights
        else None
    )
    later = moved_later(state, timings, days) if days else []
    scored = [*flights, *later]  # passengers, money and crews: the day's flights and the later ones it moved
    ways = WaysHome(state, timings)
    journeys, delay_of = [], {}
    for rows in _itineraries(state, {f.flight_id for f in scored}).values():
        j = _journey(rows, state, timings, ways)
        if j is not None:
            journeys.append(j)
            delay_of.update({b.booking_id: j.delay for b in rows})
    cause = {fid: t.cause for fid, t in timings.items()}
    events_cause = {e.flight_id: e.cause for e in events if e.flight_id}
    compensation, care, operating = _money(
        state, scored, timings, delay_of, lambda fid: cause.get(fid) or events_cause.get(fid)
    )
    otp, pax = _series(flown, journeys, origin)
    crew = _crew_violations(state, [*scored, *(state.flights[fid] for fid in sorted(state.added_legs))], timings)
    seconds = decisions.seconds
    return Scorecard(
        policy=policy,
        flights=len(flights),
        d15=_share(sum(t.delay(f) <= OTP_MINUTES for f, t in flown), len(flown)),
        d15_scheduled=_share(sum(t.delay(f) <= OTP_MINUTES for f, t in flown), len(flights)),
        a15=_share(sum(t.arrival_delay(f) <= OTP_MINUTES for f, t in flown), len(flown)),
        cancellations=len(flights) - len(flown),
        later_flights_moved=len(later),
        later_cancellations=sum(f.flight_id not in timings for f in later),
        diversions=sum(f.status == "DIVERTED" for f, _ in flown),
        passengers=len(journeys),
        passengers_disrupted=sum(
            j.delay >= OTP_MINUTES or j.misconnected or j.cancelled or j.stranded for j in journeys
        ),
        passenger_delay_minutes=sum(j.delay for j in journeys),
        misconnections=sum(j.misconnected for j in journeys),
        stranded_overnight=sum(j.stranded for j in journeys),
        compensation_usd=round(compensation, 2),
        care_usd=round(care, 2),
        operating_cost_usd=round(operating, 2),
        crew_violations=len(crew[0]),
        crew_violations_decided=crew[1],
        crew_violation_notes=tuple(crew[0]),
        rotation_breaks=len(breaks := _rotation_breaks(state, timings)),
        rotation_break_notes=tuple(breaks),
        decisions=decisions.decisions,
        escalated=decisions.escalated,
        seconds_per_decision=round(sum(seconds) / len(seconds), 1) if seconds else None,
        otp_by_hour=otp,
        pax_delay_by_hour=pax,
    )


def _share(n: int, d: int) -> float:
    return round(n / d, 4) if d else 1.0


def _series(flown, journeys, origin: datetime | None):
    if origin is None:
        return (), ()
    hours = [h / 2 for h in range(0, 97)]  # every half hour over the day and the day after (long-haul connections)
    otp = []
    for h in hours:
        cut = origin + timedelta(hours=h)
        gone = [(f, t) for f, t in flown if f.scheduled_departure < cut]
        if gone:
            otp.append((h, _share(sum(t.delay(f) <= OTP_MINUTES for f, t in gone), len(gone))))
    # cumulative delay of the journeys due by each cut: sorted once, then one bisection a cut (not a pass a cut)
    due = sorted((j.scheduled, j.delay) for j in journeys)
    times, total = [t for t, _ in due], [0, *accumulate(d for _, d in due)]
    pax = [(h, total[bisect_left(times, origin + timedelta(hours=h))]) for h in hours]
    return tuple(otp), tuple(pax)
