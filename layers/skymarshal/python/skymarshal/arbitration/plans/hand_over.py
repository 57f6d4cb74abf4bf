"""The rest of the rotation handed over: when the disrupted flight leaves so late that its tail would carry the
delay through its later flights (or its crews through theirs), another aircraft of the type that stands at the
station where the tail's next flight leaves takes that flight — and the block of the rotation it leads — at its
own time, and the late tail takes the other aircraft's next flights once it has landed and turned round. What an
OCC does at a hub rather than let one late arrival run the day late: the delay stops with the flight it belongs to.

A candidate aircraft is one of the type that is at the station (landed there, or based there with no flight
before) and free when the handed flight leaves, and not needed there again before the late tail could take over:
a spare, or an aircraft between two of its own flights (its next block then goes to the late tail — a swap chain
— or, when the handed block comes back in time, it flies its own flights on afterwards). Of the pairs of blocks
that leave both rotations whole (``rotation.plan.plan_breaks``), the one adding the fewest booked
passenger-minutes is kept. Nothing here decides legality: validation checks the plan as every plan — both
rotations, the re-timed flights' curfews and crews.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from itertools import product

from ...data import queries as q
from ...models.fleet import AIRCRAFT_TYPES
from ...models.operational import Flight
from ...rules import finance
from ...rules.rotation import flying
from ..actions import DelayFlight
from ..context import DisruptionContext
from ..memo_keys import ArrivalsRead, FleetDayRead, HandOverPlan
from ..models import Scenario
from ..rotation import plan as rotation_plan
from ..rotation.handed import HandOver
from ..rotation.plan import passenger_minutes_added, retimed_sequence, swaps
from .operate import operate

ON_GROUND_LOOK_BACK = timedelta(hours=12)  # arrivals at the station this long before the handed flight
MAX_TRIED = 6  # aircraft tried (soonest free first); each is a handful of in-memory rotation checks


def handed_over(ctx: DisruptionContext, delay: int) -> Scenario | None:
    """The flight `delay` minutes late on its own tail, the tail's next flights handed over; None without one."""
    handed = hand_over(ctx, delay)
    if handed is None:
        return None
    plan = operate(ctx, "delay", delay, sources=["generator"], handed=handed)
    return plan.model_copy(update={"title": plan.title + handed.title_words()})


def hand_over(ctx: DisruptionContext, delay: int) -> HandOver | None:
    """The hand-over of the tail's next flight and its block to another aircraft of the type, for the flight
    `delay` minutes late; None when the tail's later flights are not late for it or no aircraft can take them."""
    return ctx.memo(HandOverPlan(delay), lambda: _hand_over(ctx, delay))


def _hand_over(ctx: DisruptionContext, delay: int) -> HandOver | None:
    f = ctx.flight
    later = _later(ctx)
    if not later or f.aircraft_type not in AIRCRAFT_TYPES:
        return None
    turn = timedelta(minutes=AIRCRAFT_TYPES[f.aircraft_type].min_turn_minutes)
    ready = f.scheduled_arrival + timedelta(minutes=delay) + turn  # the late tail, turned round where it lands
    first = later[0]
    if first.origin != f.destination or first.departure >= ready:
        return None
    found: list[HandOver] = []
    for tail, free, own in _free_at(ctx, first, ready)[:MAX_TRIED]:
        best = _best_pair(ctx, delay, later, tail, free, own, ready)
        if best is not None:
            found.append(best)
    best = min(found, key=lambda h: (h.added_minutes, len(h.taken) + len(h.given), h.tail), default=None)
    return best if best is not None and _worth_it(ctx, delay, best) else None


def _worth_it(ctx: DisruptionContext, delay: int, handed: HandOver) -> bool:
    """Whether the knock-on the hand-over spares (its passenger-minutes at ``finance.PASSENGER_MINUTE_USD`` and its
    flights' delay cost) outweighs what it costs (the swaps, the minutes its own re-timings add): a swap that
    saves a hundred passenger-minutes is not a plan worth a duty manager's time."""
    knock_on = rotation_plan.knock_on(ctx, delay)
    retimed = [a for a in handed.actions if isinstance(a, DelayFlight)]
    rotation = rotation_plan.tail_flights(ctx, ctx.flight.aircraft_registration)
    spared = passenger_minutes_added(rotation, knock_on) - handed.added_minutes
    operating = finance.delay_cost({a.flight_id: a.delay_minutes for a in knock_on}).amount_usd
    operating -= finance.delay_cost({a.flight_id: a.delay_minutes for a in retimed}).amount_usd
    return spared * finance.PASSENGER_MINUTE_USD + operating > finance.tail_swap_cost(handed.swaps).amount_usd


def _later(ctx: DisruptionContext) -> list[Flight]:
    """The tail's operable flights after the disrupted one."""
    f = ctx.flight
    sequence = flying(rotation_plan.tail_flights(ctx, f.aircraft_registration))
    ids = [x.flight_id for x in sequence]
    if f.flight_id not in ids:
        return []
    return [x for x in sequence[ids.index(f.flight_id) + 1 :] if x.status in rotation_plan.OPERABLE]


def _free_at(ctx: DisruptionContext, first: Flight, ready: datetime) -> list[tuple[str, datetime, list[Flight]]]:
    """Aircraft of the flight's type at `first`'s origin that can take it before the late tail could (`ready`):
    each with when it can leave with it and its own operable flights from its next departure there on; soonest
    first, then the latest next departure (the most room its own flights leave)."""
    f, station = ctx.flight, first.origin
    turn = timedelta(minutes=AIRCRAFT_TYPES[f.aircraft_type].min_turn_minutes)
    # one read per handed flight, whatever the delay: the tails landing there from 12 h before it to 12 h after
    low, high = first.scheduled_departure - ON_GROUND_LOOK_BACK, first.scheduled_departure + ON_GROUND_LOOK_BACK
    landed = ctx.memo(ArrivalsRead(station, low, high), lambda: q.arrivals(ctx.handle, station, low, high))
    based = ctx.memo(
        FleetDayRead(f.aircraft_type, first.flight_date),
        lambda: q.fleet_of_type(ctx.handle, f.aircraft_type, first.flight_date),
    )
    tails = {x.aircraft_registration for x in landed if x.aircraft_type == f.aircraft_type}
    tails |= {d.aircraft_registration for d in based if d.station == station and d.status in ("IN_SERVICE", "SPARE")}
    found = []
    for tail in sorted(tails - {f.aircraft_registration}):
        sequence = flying(rotation_plan.tail_flights(ctx, tail))
        before = [x for x in sequence if x.departure < first.departure]
        after = [x for x in sequence if x.departure >= first.departure]
        at = (
            before[-1].destination
            if before
            else next((d.station for d in based if d.aircraft_registration == tail), None)
        )
        free = before[-1].arrival + turn if before else first.departure
        leaves = max(first.departure, free)
        if at != station or leaves >= ready or (after and after[0].origin != station):
            continue
        own = [x for x in after if x.status in rotation_plan.OPERABLE]
        found.append((tail, leaves, own))
    return sorted(found, key=lambda c: (c[1], -(c[2][0].departure.timestamp() if c[2] else 1e12), c[0]))


def _best_pair(
    ctx: DisruptionContext,
    delay: int,
    later: list[Flight],
    tail: str,
    free: datetime,
    own: list[Flight],
    ready: datetime,
) -> HandOver | None:
    f = ctx.flight
    late = rotation_plan.retimed(f, delay)
    whole = [
        h for h in _pairs(later, own, tail, f, free, ready) if not rotation_plan.plan_breaks(ctx, [late, *h.actions])
    ]
    return min(whole, key=lambda h: (h.added_minutes, len(h.taken) + len(h.given))) if whole else None


def _pairs(
    later: list[Flight], own: list[Flight], tail: str, f: Flight, free: datetime, ready: datetime
) -> Iterator[HandOver]:
    """Each pair of blocks, fewest flights moved first: the late tail's block from its next flight (up to a return
    to that station, or all) goes to `tail`; `tail`'s block from its next departure (none, up to a return to the
    station, or all) goes to the late tail, which then flies its own remaining flights; `tail` flies its own
    remaining flights after the handed block."""
    station = later[0].origin
    ours = [later[: i + 1] for i, x in enumerate(later[:-1]) if x.destination == station] + [later]
    theirs = [[], *(own[: i + 1] for i, x in enumerate(own[:-1]) if x.destination == station)] + ([own] if own else [])
    for block, given in sorted(product(ours, theirs), key=lambda pair: len(pair[0]) + len(pair[1])):
        their_sequence = [*block, *own[len(given) :]]
        our_sequence = [*given, *later[len(block) :]]
        retimed = [*retimed_sequence(their_sequence, free), *retimed_sequence(our_sequence, ready)]
        moves = [*swaps(block, tail, f.aircraft_type), *swaps(given, f.aircraft_registration, f.aircraft_type)]
        added = passenger_minutes_added([*later, *own], retimed)
        yield HandOver(tail, f.aircraft_type, tuple(block), tuple(given), (*moves, *retimed), added)
