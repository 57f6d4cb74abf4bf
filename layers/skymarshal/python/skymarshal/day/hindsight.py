"""The hindsight bound: the ROADEF network optimizer (``recovery``) run once over the whole day with every
event of the stream known from the day's start — what no policy deciding each event as it is revealed can
see. Scored like every policy (``realize`` then ``score``), it shows the gap an on-line policy leaves. Its day is
the cheapest (``hindsight_crews.day_cost``) of four, each made legal for the crews the same way: the optimizer's
plan, waiting with the crews covered, and the greedy repertoire with SkyMarshal's answers beside it (a rescue
aircraft, a hand-over to a spare, a reserve for a member out) decided with the day known, its options' crews
answered as the events are revealed or for the whole day at once (``foresight``). The search starts from waiting's
day and the two foresight days, and may fly each leg as late as waiting's crew answers made legal
(``hindsight_crews.answered_slack``); its plan is written as ``hindsight_apply`` says.

Mapping the stream to the recovery model, each a stated simplification (``hindsight_windows``: as the judge reads
the stream):
- a tail event is the tail unavailable over its window (from the landing of a flight in the air when it starts);
  a station window meters each clock hour it touches as the judge queues it (the cut rate, none while a closure
  lasts, beside our movements outside the window in that hour) — but a cut at an airport declaring its rate, where
  the judge queues every airline's traffic, holds each flight for its ration-by-schedule slot instead;
- a held flight and a flight whose crew member is out may not leave before the hold ends (`held_until`: on any
  tail, or cancelled — not the 2009 disruption's fixed tail and time, which left a day unsolvable once a held
  flight no crew could fly was cancelled and its tail's next held flight had no aircraft); reserves, later reports
  and rested crews are settled before the search (`covered`), whose crews are then resources of the model;
- the model's crews end with the day, its knock-on does not: after the search every flight the plan leaves late,
  the next morning's included, has its crew made legal by the cheapest for the day of the delay baseline's answers
  (`hindsight_crews`) — save a flight an event revealed after it left made late, which no policy could answer;
- the day is the UTC day of the stream's date: its flights, each tail starting where its first flight
  leaves, wanted back where the schedule leaves it; the passengers' own re-accommodation is the
  scorecard's, the same for every policy.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable, Sequence
from datetime import UTC, date, datetime, timedelta

from ..models.operational import AircraftDay, Flight
from ..recovery.adapter import (
    WINDOW_AFTER_LAST_ARRIVAL,
    AdaptedInstance,
    NetworkSnapshot,
    to_instance,
)
from ..recovery.crew_pairings import flights_by_pairing, why_illegal, with_crews
from ..recovery.model import CrewPairing, DatedFlightRef, Instance
from ..recovery.objectives import Objective
from ..recovery.solver import NoFeasibleSolution, solve
from ..recovery.warm_start import WarmStart
from .baselines import legalize
from .crew_cover import StandbyIndex, moved_reports, reserve_cover
from .foresight import foresight_day
from .hindsight_apply import BY, applied, plan_day
from .hindsight_crews import POLICY, answered_by_none, answered_slack, cheapest_fix, cheapest_wait, day_cost
from .hindsight_gap import ModelGap, model_gap
from .hindsight_windows import declared_waits, hour_limits, outage
from .next_duty import released, stranded_by
from .realize import DayState, realize
from .scorecard import DecisionStats, Scorecard, illegal_members, score
from .stream import StreamEvent

LOG = logging.getLogger(__name__)


class HindsightUnsolved(RuntimeError):
    """The optimizer found no feasible plan for the day (the message says why, in one line)."""


def _utc_day(day: date) -> tuple[datetime, datetime]:
    start = datetime.combine(day, datetime.min.time(), UTC)
    return start, start + timedelta(days=1)


def _fleet(flights: Sequence[Flight], spares: Sequence[AircraftDay], day: date) -> list[AircraftDay]:
    """Each tail of the day, at the origin of its first flight; spares without a flight at their station."""
    first: dict[str, Flight] = {}
    for f in flights:
        first.setdefault(f.aircraft_registration, f)
    fleet = [
        AircraftDay(
            aircraft_registration=tail,
            date=day,
            aircraft_type=f.aircraft_type,
            status="IN_SERVICE",
            station=f.origin,
            capacity=f.capacity,
        )
        for tail, f in first.items()
    ]
    return fleet + [a for a in spares if a.aircraft_registration not in first and a.status == "SPARE" and a.date == day]


def _held_minutes(f: Flight, e: StreamEvent) -> int:
    """How long after its scheduled departure a held flight (or one whose crew member is out) may leave."""
    if f.flight_id != e.flight_id or not e.start <= f.scheduled_departure < e.end:
        return 0
    return math.ceil((e.end - f.scheduled_departure).total_seconds() / 60)


def _still_on(state: DayState, f: Flight, e: StreamEvent) -> bool:
    """Whether a crew member the event makes unavailable is still on the flight (a reserve took their place:
    it no longer waits for them, as ``realize`` reads it)."""
    return bool(set(e.crew_ids) & {r.crew_id for r in state.crew_on.get(f.flight_id, ())})


def covered(state: DayState, events: Sequence[StreamEvent], day: date) -> DayState:
    """`state` with the crews of each held flight made legal at its hold where the rules allow it: a member still at
    rest reports later (CS FTL.1.205(d), `crew_cover.moved_reports`), else a legal reserve on standby at the
    origin takes each illegal member's place (ORO.FTL.225, `crew_cover.reserve_cover`), else a member short of the
    rest before their next duty flies it and a reserve flies that duty (`next_duty.released`), else whichever leaves
    the day cheapest of the flight waiting for its crew's minimum rest (ORO.FTL.235, then .205:
    `crew_cover.rested_crew`), their next duty cancelled, both, or the flight cancelled (`hindsight_crews.
    cheapest_wait`) — known at the day's start, as every event is here; a flight these re-time is held to that time
    (`snapshot`). Tried again while members are still illegal (a later report may cover some, a reserve the others:
    the delay baseline's `legalize` does the same). One they do not cover is left to `crewed_instance`, which
    cancels it."""
    start, _ = _utc_day(day)
    standby = StandbyIndex(state.rosters)
    for e in events:
        f = state.flights.get(e.flight_id or "")
        if e.holds not in ("flight", "crew") or f is None or not (minutes := _held_minutes(f, e)):
            continue
        departure = f.scheduled_departure + timedelta(minutes=minutes)
        for _ in range(len(state.crew_on.get(f.flight_id, ()))):  # each cover takes one member or more
            if not illegal_members(state, f, departure):
                break
            fixed = (
                moved_reports(state, f, departure, start)
                or reserve_cover(state, f, departure, start, events, standby, BY)
                # short of rest before the next duty: a reserve flies that duty
                or released(state, f.flight_id, departure, start, standby, BY, cancel=False)
                # else the crew's rest, their next duty cancelled, or the flight's, by what the day then costs
                or cheapest_wait(state, f, departure, start, events, standby, [day])
            )
            if fixed is None:
                break
            state, f = fixed, fixed.flights[f.flight_id]
            departure = max(departure, f.departure)  # a reserve's report or the crew's rest may hold it later
    return state


def snapshot(
    state: DayState, events: Sequence[StreamEvent], day: date, spares: Sequence[AircraftDay] = ()
) -> NetworkSnapshot:
    """The day in the recovery model's terms, every event known."""
    start, end = _utc_day(day)
    flights = sorted(
        (f for f in state.flights.values() if f.status != "CANCELLED" and start <= f.scheduled_departure < end),
        key=lambda f: (f.scheduled_departure, f.flight_id),
    )
    if not flights:
        raise HindsightUnsolved(f"no flight leaves on {day}: nothing to optimize")
    ids = {f.flight_id for f in flights}  # once: not per booking (bookings × flights)
    delays: dict[str, int] = {
        f.flight_id: math.ceil((f.departure - f.scheduled_departure).total_seconds() / 60)
        for f in flights
        if f.updated_by_execution == BY and f.departure > f.scheduled_departure  # re-timed for its crew (`covered`)
    }
    for e in events:
        if e.holds in ("flight", "crew"):
            for f in flights:
                if (minutes := _held_minutes(f, e)) and (e.holds == "flight" or _still_on(state, f, e)):
                    delays[f.flight_id] = max(delays.get(f.flight_id, 0), minutes)
        for fid, wait in declared_waits(state, e).items() if e.holds == "station" else ():
            if fid in ids:  # from its filed movement: any re-timing `covered` gave it, then the slot's wait
                f = state.flights[fid]
                filed = math.ceil((f.departure - f.scheduled_departure).total_seconds() / 60)
                delays[fid] = max(delays.get(fid, 0), filed + wait)
    timings = realize(state, events) if any(e.holds == "tail" for e in events) else {}
    return NetworkSnapshot(
        window_start=start,
        # past the last arrival by the longest hold too: a flight held for its crew's rest may land the next day, and
        # the rest of its tail's day then runs as late
        window_end=max(f.scheduled_arrival for f in flights)
        + timedelta(minutes=max(delays.values(), default=0) + WINDOW_AFTER_LAST_ARRIVAL),
        aircraft=_fleet(flights, spares, day),
        flights=flights,
        bookings=[b for b in state.bookings if b.flight_id in ids],
        disrupted_flight_id=None,
        disrupted_release=start,
        capacity_limits=[c for e in events if e.holds == "station" and e.station for c in hour_limits(state, e)],
        held=delays,
        tail_outages=[outage(state, timings, e) for e in events if e.holds == "tail" and e.registration],
    )


def _last_stations(flights: Sequence[Flight], tail_of) -> dict[str, tuple[str, str]]:
    """Tail → (where its last flight of the day lands, its type): first flight's origin when none flies."""
    out: dict[str, tuple[str, str]] = {}
    for f in sorted(flights, key=lambda f: f.scheduled_departure):
        tail = tail_of(f)
        if tail is None:
            continue
        out.setdefault(tail, (f.origin, f.aircraft_type))
        out[tail] = (f.destination, f.aircraft_type)
    return out


def hand_over(out: DayState, planned: DayState, day: date) -> None:
    """The later days' flights follow the tails the plan left where the schedule wanted one (the recovery
    model wants a count of each type at each station, not each tail back): a tail ending the day where
    another of its type was to end takes that tail's next flights. A tail the plan left elsewhere (its way home
    cancelled: a held flight no crew may fly, say) keeps its next flights, and those leaving from where it is not
    are cancelled until one leaves from where it is (`_unreachable`) — the cancellation an OCC makes of the tail's
    way home, as the baselines make it: no aircraft flies a leg from a station it is not at."""
    start, end = _utc_day(day)
    today = [f for f in planned.flights.values() if start <= f.scheduled_departure < end]
    wanted = _last_stations([f for f in today if f.status != "CANCELLED"], lambda f: f.aircraft_registration)
    ending = _last_stations(
        [out.flights[f.flight_id] for f in today],
        lambda f: None if f.status == "CANCELLED" else f.aircraft_registration,
    )
    for tail in wanted.keys() - ending.keys():  # every flight of the tail cancelled: it stays where it was
        first = min((f for f in today if f.aircraft_registration == tail), key=lambda f: f.scheduled_departure)
        ending[tail] = (first.origin, first.aircraft_type)
    successor: dict[str, str] = {}
    for place in set(wanted.values()):
        owners = sorted(t for t, p in wanted.items() if p == place)
        takers = sorted(t for t, p in ending.items() if p == place)
        keep = set(owners) & set(takers)
        successor |= {t: t for t in keep}
        successor |= dict(zip([t for t in owners if t not in keep], [t for t in takers if t not in keep], strict=False))
    for f in list(out.flights.values()):
        taker = successor.get(f.aircraft_registration)
        if f.scheduled_departure >= end and taker and taker != f.aircraft_registration:
            out.flights[f.flight_id] = f.model_copy(update={"aircraft_registration": taker, "updated_by_execution": BY})
    for flight_id in _unreachable(out, {tail: station for tail, (station, _) in ending.items()}, end):
        out.flights[flight_id] = out.flights[flight_id].model_copy(
            update={"status": "CANCELLED", "updated_by_execution": BY}
        )


def _unreachable(state: DayState, at: dict[str, str], end: datetime) -> list[str]:
    """The later flights (leaving from `end` on) that no tail can fly: each tail's in order from where the day left
    it (`at`), a flight leaving from elsewhere is unreachable, one leaving from where the tail is takes it on."""
    later: dict[str, list[Flight]] = {}
    for f in state.flights.values():
        if f.scheduled_departure >= end and f.status != "CANCELLED" and f.aircraft_registration in at:
            later.setdefault(f.aircraft_registration, []).append(f)
    out = []
    for tail, legs in later.items():
        station = at[tail]
        for f in sorted(legs, key=lambda f: (f.scheduled_departure, f.flight_id)):
            if f.origin == station:
                station = f.destination
            else:
                out.append(f.flight_id)
    return out


def _as_flown(state: DayState, events: Sequence[StreamEvent], adapted, taken: NetworkSnapshot) -> WarmStart:
    """A day (waiting's, or a foresight day's) as one of the optimizer's first plans, each leg on the tail the day
    flies it with (one the model has); whatever the search keeps costs no more by the model's cost."""
    timings = realize(state, events)
    day0 = taken.window_start.replace(hour=0, minute=0, second=0, microsecond=0)
    start: dict[str, list[tuple[int, int, int]]] = {}
    for ref, planned in adapted.instance.rotations:
        flight_id = adapted.flight_ids[ref.number]
        t, flown = timings.get(flight_id), state.flights.get(flight_id)
        tail = flown.aircraft_registration if flown else planned
        if t is not None and tail in adapted.instance.aircraft:
            start.setdefault(tail, []).append((ref.number, ref.day, int((t.departure - day0).total_seconds() // 60)))
    return start


def crewed_instance(adapted: AdaptedInstance, state: DayState) -> tuple[Instance, dict[str, str]]:
    """The day's instance with its crews as resources (`recovery.crew_pairings`: every retime, swap or cancellation
    the optimizer makes must leave each crew a legal duty), and the held flights no rostered crew can fly at the
    hold — cancelled, each with the duty and the clause that forbids it (flight id → reason)."""
    instance = with_crews(adapted.instance, adapted.numbers, state.crew_on, state.rosters, state.members)
    by_leg = flights_by_pairing(instance.crews)
    uncrewable: dict[str, str] = {}
    for key, minutes in instance.held_until.items():
        for pairing in by_leg.get(key, ()):
            slack = pairing.slack[pairing.legs.index(DatedFlightRef(number=key[0], day=key[1]))]
            if minutes > slack:
                flight_id = adapted.flight_ids[key[0]]
                uncrewable[flight_id] = f"held {minutes} min; crew pairing {pairing.id} is legal to {slack} min" + (
                    f" ({why_illegal((state.members[binding], state.rosters[binding]), flight_id, minutes)})"
                    if (binding := pairing.why.split(" ")[0]) in state.members
                    else ""
                )
    if not uncrewable:
        return instance, uncrewable
    cancelled = {k for k in instance.held_until if adapted.flight_ids[k[0]] in uncrewable}
    return instance.model_copy(
        update={
            "held_until": {k: v for k, v in instance.held_until.items() if k not in cancelled},
            "imposed_cancellations": instance.imposed_cancellations | cancelled,
            "crews": tuple(p for p in (_ended_before(p, cancelled) for p in instance.crews) if p is not None),
        }
    ), uncrewable


def _ended_before(pairing: CrewPairing, cancelled: set[tuple[int, int]]) -> CrewPairing | None:
    """The pairing up to its first cancelled leg (None: nothing left). The legs after it are another crew's — a
    reserve's, or this crew's after positioning — which the model leaves free, as the day's crews are free to do."""
    cut = next((i for i, leg in enumerate(pairing.legs) if (leg.number, leg.day) in cancelled), None)
    if cut is None:
        return pairing
    return pairing.model_copy(update={"legs": pairing.legs[:cut], "slack": pairing.slack[:cut]}) if cut else None


def hindsight_plan(
    state: DayState,
    events: Sequence[StreamEvent],
    day: date,
    time_limit_s: float,
    spares: Sequence[AircraftDay] = (),
    seed: int = 0,
    objective: Objective = "day",
    on_gap: Callable[[ModelGap], None] | None = None,
) -> DayState:
    """A copy of `state` with the bound's day applied (cancellations, retimes, tails, crews): the optimizer's plan
    minimising the day scorecard's costs (`recovery.objectives.day_config`), or waiting, or either foresight day,
    whichever costs the day least — the optimizer's plan alone when told the 2009 challenge's objective."""
    started = time.perf_counter()
    given, state = state, covered(state, events, day)
    taken = snapshot(state, events, day, spares)
    adapted = to_instance(taken, objective)
    instance, uncrewable = crewed_instance(adapted, state)
    LOG.info("hindsight: %d crew pairings in %.1f s", len(instance.crews), time.perf_counter() - started)
    for flight_id, reason in sorted(uncrewable.items()):
        LOG.warning("hindsight: %s cancelled, no legal crew: %s", flight_id, reason)
    waiting = state.copy()  # the crews covered, the uncrewable cancelled with what their tails cannot then reach
    for flight_id in uncrewable:
        for gone in stranded_by(waiting, flight_id):
            waiting.flights[gone] = applied(waiting.flights[gone], "cancel", None, 0)
    hand_over(waiting, state, day)
    # The model's crews end with the day; its knock-on does not (an evening's delay into the next morning's
    # flights): every flight a day leaves late gets its crew made legal by the cheapest of the delay baseline's
    # answers (`hindsight_crews`), save one no decision could have answered in time.
    standby = StandbyIndex(state.rosters)
    fix = cheapest_fix([day])

    def legal(s: DayState) -> DayState:
        return legalize(s, events, _utc_day(day)[0], standby, fix, answered_by_none)

    starts, foresight = [state], {}
    if objective == "day":  # the search starts from waiting made legal (its crews' answers open to the model too)
        waiting = legal(waiting)  # and from the greedy repertoire decided with the day known (`foresight`)
        instance = answered_slack(instance, adapted.flight_ids, realize(waiting, events), waiting.flights)
        foresight = {
            "foresight": legal(foresight_day(given, events, [day], spares=spares)),
            "foresight, crews for the day": legal(foresight_day(given, events, [day], True, spares)),
        }
        starts = [waiting, *foresight.values()]
    try:
        solution, result = solve(
            instance, time_limit_s, seed=seed, warm_starts=[_as_flown(s, events, adapted, taken) for s in starts]
        )
    except NoFeasibleSolution as e:
        raise HindsightUnsolved(str(e)) from None
    if on_gap:  # the plan's cost by the model beside the LP bound on it: how far the search is from the model's best
        on_gap(model_gap(instance, result.cost.total))
    out = plan_day(state, events, adapted, solution)  # a delay the events impose left to them (`hindsight_apply`)
    hand_over(out, state, day)
    if objective == "roadef":
        return out
    days = {"plan": legal(out), "waiting": waiting, **foresight}  # the cheapest is the bound's
    cards = {name: score(POLICY, s, events, [day], DecisionStats()) for name, s in days.items()}
    costs = {name: day_cost(card) for name, card in cards.items()}
    LOG.info("hindsight: the day costs %s", ", ".join(f"{k} {v:,.0f}" for k, v in costs.items()))
    return days[min(costs, key=lambda name: (cards[name].rotation_breaks, costs[name]))]  # flown in sequence first


def run_hindsight(
    state: DayState,
    events: Sequence[StreamEvent],
    day: date,
    time_limit_s: float = 60.0,
    spares: Sequence[AircraftDay] = (),
    on_gap: Callable[[ModelGap], None] | None = None,
) -> Scorecard:
    """The bound's scorecard: one decision over the whole day, taken with every event known."""
    started = time.perf_counter()
    planned = hindsight_plan(state, events, day, time_limit_s, spares, on_gap=on_gap)
    stats = DecisionStats(decisions=1, seconds=(time.perf_counter() - started,))
    return score(POLICY, planned, events, [day], stats)
