"""Baselines on the same stream, each deciding every event as it is revealed, on its own copy of the tables:

- ``delay`` (do nothing but delay): every flight a cause catches waits until it can go; knock-on through the
  tail follows (``realize``). Claims no legality: a delay that breaks a crew duty is counted as a violation.
- ``cancel_first``: the disrupted rotation is cancelled — the flight and the tail's next flight back to where it
  left (a station window: every flight it catches and its return); passengers take the next flight of their
  route (the scorecard's re-accommodation). An inbound leg whose outbound has already flown cannot be cancelled
  without stranding the aircraft, so it is delayed instead.
- ``greedy``: the cheapest single action for the event by the rules engine's cost (``rules.finance``: delay
  minutes, cancelled fares and re-accommodation, tail swaps, EU261/UK261 compensation and care) over the day as
  known so far — wait, cancel the rotation, or (an AOG) swap to a tail of the same type on the ground at the
  station in time — with no agents and no look-ahead beyond the events already revealed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date, timedelta

from ..models.fleet import AIRCRAFT_TYPES
from ..models.operational import Flight
from .realize import DayState, Timing, realize
from .scorecard import DecisionStats, Scorecard, score
from .stream import StreamEvent

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


def cancel(state: DayState, flights: Sequence[Flight], now) -> DayState:
    out = state.copy()
    for f in flights:
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


def delay_policy(state: DayState, known: Sequence[StreamEvent], e: StreamEvent) -> DayState:
    return state


def cancel_first_policy(state: DayState, known: Sequence[StreamEvent], e: StreamEvent) -> DayState:
    return cancel(state, _caught(state, realize(state, known), e), e.at)


def greedy_policy(days: Sequence[date]) -> Policy:
    def cost(state: DayState, known: Sequence[StreamEvent]) -> float:
        card = score("greedy", state, known, days)
        return card.operating_cost_usd + card.compensation_usd + card.care_usd

    def decide(state: DayState, known: Sequence[StreamEvent], e: StreamEvent) -> DayState:
        timings = realize(state, known)
        caught = _caught(state, timings, e)
        options = [state, cancel(state, caught, e.at)]
        if e.holds == "tail" and caught and (swapped := swap(state, caught[0], timings)) is not None:
            options.append(swapped)
        return min(options, key=lambda s: cost(s, known))

    return decide


POLICIES: dict[str, Callable[[Sequence[date]], Policy]] = {
    "delay": lambda days: delay_policy,
    "cancel-first": lambda days: cancel_first_policy,
    "greedy": greedy_policy,
}


def run_baseline(name: str, state: DayState, events: Sequence[StreamEvent], days: Sequence[date]) -> Scorecard:
    """The baseline's scorecard: each event decided when revealed, on a copy of `state`."""
    import time

    decide = POLICIES[name](days)
    current, seconds = state.copy(), []
    for i, e in enumerate(events):
        started = time.perf_counter()
        current = decide(current, events[: i + 1], e)
        seconds.append(time.perf_counter() - started)
    return score(name, current, events, days, DecisionStats(decisions=len(events), seconds=tuple(seconds)))
