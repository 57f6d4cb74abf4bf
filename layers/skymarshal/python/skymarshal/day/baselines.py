"""Baselines on the same stream, each deciding every event as it is revealed, on its own copy of the tables.

The legal ones — what an OCC without SkyMarshal would do, flying a day no rule forbids:
- ``delay``: every flight a cause catches waits until it can go, knock-on through the tail included — but only
  as far as its crew's duty allows (the crew rules: ORO.FTL.205 FDP, .210, .235 rest). A flight whose crew the
  wait makes illegal gets a reserve on standby at its origin who may legally take the duty (``crew_cover``: the
  standby selection the arbitrator uses), else the cancellation an OCC makes: the flight and the tail's next
  flight back (``_rotation``), else the tail's flights until it is back where the flight left.
- ``greedy``: the cheapest single action for the event by the rules engine's cost (``rules.finance``: delay
  minutes, cancelled fares and re-accommodation, tail swaps, EU261/UK261 compensation and care) over the day as
  known so far — wait, cancel the rotation, or (an AOG) swap to a tail of the same type on the ground at the
  station in time — each option first made legal as ``delay`` makes its wait legal; no agents, no look-ahead
  beyond the events already revealed.
- ``cancel-first``: the disrupted rotation is cancelled — the flight and the tail's next flight back to where it
  left (a station window: every flight it catches and its return); passengers take the next flight of their
  route (the scorecard's re-accommodation). An inbound leg whose outbound has already flown cannot be cancelled
  without stranding the aircraft, so it is delayed instead (whatever that does to its crew).

The unconstrained ones, kept for comparison with earlier figures: ``delay-unconstrained`` and
``greedy-unconstrained`` wait as long as the cause lasts whatever it does to the crews.

"Crew violations in the plans executed" for a baseline: the crew members illegal on the flights its decisions
let go late (each at the departure the day known at its last decision gave it), on the tables as it left them.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from ..models.fleet import AIRCRAFT_TYPES
from ..models.operational import AircraftDay, Flight
from .crew_cover import StandbyIndex, moved_reports, reserve_cover, rested_crew
from .realize import DayState, Timing, as_found, realize
from .rescue import rescues
from .scorecard import DecisionStats, Scorecard, illegal_members, score
from .stream import StreamEvent
from .trace import EventStep, Tracer, changes

BY = "baseline"  # a baseline's own writes, marked as an execution marks its rows
Policy = Callable[[DayState, Sequence[StreamEvent], StreamEvent], DayState]


def _caught(state: DayState, timings: dict[str, Timing], e: StreamEvent) -> list[Flight]:
    """The flights the event holds, not yet gone when it is revealed."""
    if e.holds == "station":
        return [
            f
            for f in state.flights.values()
            if f.flight_id in timings
            and f.scheduled_departure > e.at
            and (
                (f.origin == e.station and e.start <= timings[f.flight_id].departure < e.end)
                or (f.destination == e.station and e.start <= timings[f.flight_id].arrival < e.end)
            )
        ]
    f = state.flights.get(e.flight_id or "")
    return [f] if f is not None and f.status != "CANCELLED" else []


def _legs(state: DayState, tail: str) -> list[Flight]:
    return sorted(
        (f for f in state.flights.values() if f.aircraft_registration == tail and f.status != "CANCELLED"),
        key=lambda f: f.departure,
    )


def _rotation(state: DayState, f: Flight, now) -> list[Flight] | None:
    """The flight and the tail's next flight back to its origin, or None when that cannot be cancelled whole."""
    legs = _legs(state, f.aircraft_registration)
    i = legs.index(f)
    if i + 1 < len(legs) and legs[i + 1].destination == f.origin and legs[i + 1].origin == f.destination:
        return [f, legs[i + 1]]
    if i > 0 and legs[i - 1].origin == f.destination and legs[i - 1].scheduled_departure > now:
        return [legs[i - 1], f]
    return None


def _home(state: DayState, f: Flight) -> list[Flight]:
    """`f` and the tail's next flights until one lands back where `f` left (all of them when none does): cancelled
    together, they leave the aircraft where it was, so the rest of its rotation still flies in sequence."""
    legs = _legs(state, f.aircraft_registration)
    out = []
    for leg in legs[legs.index(f) :]:
        out.append(leg)
        if leg.destination == f.origin:
            break
    return out


def occ_cancellation(state: DayState, f: Flight, now: datetime) -> DayState:
    """The cancellation an OCC makes for a flight that cannot legally operate: its rotation (the flight and the
    tail's flight back, ``_rotation``), else the tail's flights until it is back at the flight's origin."""
    out = state.copy()
    for leg in _rotation(out, out.flights[f.flight_id], now) or _home(out, out.flights[f.flight_id]):
        out.flights[leg.flight_id] = leg.model_copy(update={"status": "CANCELLED", "updated_by_execution": BY})
    return out


def cancel(state: DayState, flights: Sequence[Flight], now) -> DayState:
    out = state.copy()
    for f in flights:
        if out.flights[f.flight_id].status == "CANCELLED":  # with an earlier caught flight's rotation
            continue
        rotation = _rotation(out, out.flights[f.flight_id], now)
        for leg in rotation or []:
            out.flights[leg.flight_id] = leg.model_copy(update={"status": "CANCELLED", "updated_by_execution": BY})
    return out


def swap(state: DayState, f: Flight, timings: dict[str, Timing]) -> DayState | None:
    """The AOG tail's remaining flights from `f` on exchanged with those of a tail of the same type that is on
    the ground at `f`'s origin, turned round in time, and leaves there next only after `f` (None: no such tail)."""
    mine = _legs(state, f.aircraft_registration)
    rest_a = mine[mine.index(f) :]
    for tail in sorted({x.aircraft_registration for x in state.flights.values() if x.aircraft_type == f.aircraft_type}):
        if tail == f.aircraft_registration:
            continue
        legs = _legs(state, tail)
        before = [x for x in legs if x.scheduled_departure <= f.scheduled_departure]
        after = [x for x in legs if x.scheduled_departure > f.scheduled_departure]
        turn = timedelta(minutes=AIRCRAFT_TYPES[f.aircraft_type].min_turn_minutes)
        if not before or not after or before[-1].destination != f.origin or after[0].origin != f.origin:
            continue
        if timings[before[-1].flight_id].arrival + turn > f.scheduled_departure:
            continue
        out = state.copy()
        for x in rest_a:
            out.flights[x.flight_id] = x.model_copy(update={"aircraft_registration": tail, "updated_by_execution": BY})
        for x in after:
            out.flights[x.flight_id] = x.model_copy(
                update={"aircraft_registration": f.aircraft_registration, "updated_by_execution": BY}
            )
        return out
    return None


def late_after(state: DayState, known: Sequence[StreamEvent], now: datetime) -> list[tuple[Flight, Timing]]:
    """The flights the day as known lets go late and that have not left by `now`, in the order they leave. A flight
    late only as the tables held it before the day (an estimate already written and its knock-on, no event and no
    decision of the day on it) is not the day's to answer, as it is no reported disruption's."""
    timings, quiet = realize(state, known), realize(as_found(state), [])
    late = [
        (f, t)
        for fid, t in timings.items()
        if t.departure > now
        and t.departure > (f := state.flights[fid]).scheduled_departure
        and (f.updated_by_execution or t.departure > quiet[fid].departure)
    ]
    return sorted(late, key=lambda ft: (ft[1].departure, ft[0].flight_id))


MEMO = 8  # days scored and kept: an event's options, the day before it and the one chosen
MAX_FIXES = 200  # a day's late flights with illegal crews each need one fix; a bound, never reached in practice


Fix = Callable[[DayState, Flight, datetime, datetime, Sequence[StreamEvent], StandbyIndex], DayState]
LeftAlone = Callable[[DayState, Sequence[StreamEvent], Flight, datetime], bool]


def kept_flying(
    state: DayState, f: Flight, departure: datetime, now: datetime, known: Sequence[StreamEvent], standby: StandbyIndex
) -> DayState | None:
    """The answers an OCC tries first, which cancel nothing and wait for no rest: the report of a crew still at rest
    moved later (delayed reporting), else reserves on standby who may legally take the duty (None: neither covers)."""
    return moved_reports(state, f, departure, now) or reserve_cover(state, f, departure, now, known, standby, BY)


def occ_fix(
    state: DayState, f: Flight, departure: datetime, now: datetime, known: Sequence[StreamEvent], standby: StandbyIndex
) -> DayState:
    """An OCC's answer to a flight whose wait makes a crew member illegal, in the order it tries them: the report of
    a crew still at rest moved later (delayed reporting), reserves on standby who may legally take the duty, else the
    cancellation of the rotation, or — a flight away from where its rotation can be cancelled whole (an outstation's
    flight home) — the wait for its crew's minimum rest, cancelling the tail's way home only when even that is out of
    reach."""
    fixed = kept_flying(state, f, departure, now, known, standby)
    if fixed is None and _rotation(state, f, now) is None:  # no rotation to cancel whole: wait for the rest
        fixed = rested_crew(state, f, departure, now, BY)
    return fixed if fixed is not None else occ_cancellation(state, f, now)


def legalize(
    state: DayState,
    known: Sequence[StreamEvent],
    now: datetime,
    standby: StandbyIndex,
    fix: Fix = occ_fix,
    left_alone: LeftAlone | None = None,
) -> DayState:
    """`state` made legal for every crew: each flight still to leave whose wait makes a crew member illegal (the
    crew rules at the departure the day as known gives it) gets `fix` (an OCC's, ``occ_fix``, unless told); earliest
    first, the day re-realized after each fix (a fix changes the knock-on). A flight `left_alone` says no decision
    could have answered is left as it is (the hindsight's: one an event revealed after it left made late)."""
    for _ in range(MAX_FIXES):
        bad = next(
            (
                (f, t)
                for f, t in late_after(state, known, now)
                if illegal_members(state, f, t.departure)
                and not (left_alone and left_alone(state, known, f, t.departure))
            ),
            None,
        )
        if bad is None:
            return state
        state = fix(state, bad[0], bad[1].departure, now, known, standby)
    return state


@dataclass
class Context:
    """What a baseline's decisions share over its day: the days scored and the standby rows (read once)."""

    days: Sequence[date]
    state: DayState
    _standby: StandbyIndex | None = field(default=None, repr=False)
    # the last few days scored, by the tables' identity (kept alive here, so an id is never reused while held)
    _scored: list[tuple[DayState, tuple[str, ...], Scorecard]] = field(default_factory=list, repr=False)

    @property
    def standby(self) -> StandbyIndex:
        if self._standby is None:
            self._standby = StandbyIndex(self.state.rosters)
        return self._standby

    def score(self, state: DayState, known: Sequence[StreamEvent]) -> Scorecard:
        """The day `state` holds with `known` applied — from the memo when these very tables were just scored
        (the tracer scores the option a greedy decision chose, and the wait it started from, again)."""
        ids = tuple(e.event_id for e in known)
        for seen, with_ids, card in self._scored:
            if seen is state and with_ids == ids:
                return card
        card = score("greedy", state, known, self.days)
        self._scored = [*self._scored[-(MEMO - 1) :], (state, ids, card)]
        return card

    def cost(self, state: DayState, known: Sequence[StreamEvent]) -> float:
        card = self.score(state, known)
        return card.operating_cost_usd + card.compensation_usd + card.care_usd


def unconstrained_delay_policy(ctx: Context) -> Policy:
    return lambda state, known, e: state


def delay_policy(ctx: Context) -> Policy:
    return lambda state, known, e: legalize(state, known, e.at, ctx.standby)


def cancel_first_policy(ctx: Context) -> Policy:
    return lambda state, known, e: cancel(state, _caught(state, realize(state, known), e), e.at)


def event_options(
    state: DayState,
    known: Sequence[StreamEvent],
    e: StreamEvent,
    spares: Sequence[AircraftDay] = (),
    standby: StandbyIndex | None = None,
) -> list[DayState]:
    """Wait, cancel the rotation, or (an AOG) swap to a same-type tail on the ground in time — and, given the day's
    `spares` and `standby` (the hindsight's repertoire, not the greedy baseline's), a rescue aircraft from each near
    one, and for a crew member out, a reserve on standby in their place."""
    timings = realize(state, known)
    caught = _caught(state, timings, e)
    options = [state, cancel(state, caught, e.at)]
    if e.holds == "tail" and caught and (swapped := swap(state, caught[0], timings)) is not None:
        options.append(swapped)
    if e.holds == "tail" and caught and spares and standby and caught[0].aircraft_registration == e.registration:
        options += rescues(state, known, e, caught[0], spares, standby, BY)
    if e.holds == "crew" and caught and standby:  # the members out replaced by reserves on standby (ORO.FTL.225)
        out = [(r.crew_id, state.members[r.crew_id].rank) for r in state.crew_on.get(caught[0].flight_id, ())
               if r.crew_id in e.crew_ids and r.crew_id in state.members]  # fmt: skip
        on_board = {r.crew_id for r in state.crew_on.get(caught[0].flight_id, ())}
        covered = reserve_cover(state, caught[0], caught[0].departure, e.at, known, standby, BY, replacing=out)
        options += [covered] if out and len(out) == len(set(e.crew_ids) & on_board) and covered is not None else []
    return options


def unconstrained_greedy_policy(ctx: Context) -> Policy:
    return lambda state, known, e: min(event_options(state, known, e), key=lambda s: ctx.cost(s, known))


def greedy_policy(ctx: Context) -> Policy:
    def decide(state: DayState, known: Sequence[StreamEvent], e: StreamEvent) -> DayState:
        legal = [legalize(s, known, e.at, ctx.standby) for s in event_options(state, known, e)]
        return min(legal, key=lambda s: ctx.cost(s, known))

    return decide


POLICIES: dict[str, Callable[[Context], Policy]] = {
    "delay": delay_policy,
    "cancel-first": cancel_first_policy,
    "greedy": greedy_policy,
    "delay-unconstrained": unconstrained_delay_policy,
    "greedy-unconstrained": unconstrained_greedy_policy,
}
LEGAL = ("delay", "greedy")  # the baselines that fly a legal day (the comparison the issue asks for)


@dataclass(frozen=True)
class BaselineDay:
    """A baseline's day: its scorecard, its tables after the day, and each event's choice and cost (traced)."""

    card: Scorecard
    state: DayState
    steps: tuple[EventStep, ...] = ()
    held: dict[str, datetime] = field(default_factory=dict)  # flight id → the late departure its decisions accepted


def violations_in_plans(state: DayState, held: dict[str, datetime], days: Sequence[date]) -> int:
    """Crew members illegal (the crew rules) on the flights of `days` a baseline's decisions let go late, each at
    the departure accepted, with the crews on its final tables — flights it cancelled later are no plan of its;
    the scored days only, as the scorecard counts SkyMarshal's."""
    return sum(
        len(illegal_members(state, f, departure))
        for fid, departure in held.items()
        if (f := state.flights.get(fid)) is not None and f.status != "CANCELLED" and f.flight_date in days
    )


def play_baseline(
    name: str, state: DayState, events: Sequence[StreamEvent], days: Sequence[date], trace: bool = False
) -> BaselineDay:
    """The baseline's day: each event decided when revealed, on a copy of `state`; with `trace`, each event's
    cause and decision scored (``trace.Tracer``: two more scorecards an event)."""
    ctx = Context(days=days, state=state)
    decide = POLICIES[name](ctx)
    tracer = Tracer(name, days, ctx.score) if trace else None
    current, seconds, steps = state.copy(), [], []
    held: dict[str, datetime] = {}
    for i, e in enumerate(events):
        known = events[: i + 1]
        started = time.perf_counter()
        decided = decide(current, known, e)
        seconds.append(time.perf_counter() - started)
        held.update({f.flight_id: t.departure for f, t in late_after(decided, known, e.at)})
        if tracer is not None:
            steps.append(tracer.step(e, known, current, decided, changes(current, decided)))
        current = decided
    card = score(name, current, events, days, DecisionStats(decisions=len(events), seconds=tuple(seconds)))
    card = card.model_copy(update={"crew_violations_decided": violations_in_plans(current, held, days)})
    return BaselineDay(card=card, state=current, steps=tuple(steps), held=held)


def run_baseline(name: str, state: DayState, events: Sequence[StreamEvent], days: Sequence[date]) -> Scorecard:
    """The baseline's scorecard: each event decided when revealed, on a copy of `state`."""
    return play_baseline(name, state, events, days).card
