"""A tail exchange (a swap chain): the disrupted flight, and the block of its tail's flights it leads, go to another
aircraft of the type that stands at the origin between two of its own flights before the disrupted tail is
released; that aircraft's next flights go to the disrupted tail once it is. What an OCC does at a hub when no spare
is left: the passengers of the disrupted flight leave as soon as the other aircraft is turned round, and its later
passengers wait only as long as the repair outlasts their own schedule (often not at all).

Each side flies its new sequence as early as its tail allows: the released tail from its release estimate, the other
from when it can take the flight, every flight no earlier than it is scheduled and a minimum turn-round after the
one before it (the type's, ``rules.rotation``). The tails swap back where both blocks return to the origin, or keep
each other's flights to the end of the plan's horizon. Of the pairs of blocks that leave both rotations whole
(``rotation.plan.plan_breaks``), the plan takes the one adding the fewest booked passenger-minutes; validation then
checks it as every plan — both tails' rotations, the re-timed flights' curfews and crews, the moved flights'
aircraft days. Nothing here decides legality.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from itertools import pairwise, product

from ...analysis.base import decision_time
from ...data import queries as q
from ...models.fleet import AIRCRAFT_TYPES
from ...models.operational import Flight
from ...rules.rotation import flying
from ..actions import DelayFlight, SwapAircraft
from ..context import DisruptionContext
from ..models import Scenario
from ..rotation import plan as rotation_plan
from ..rotation.plan import passenger_minutes_added, retimed_sequence, swaps
from ..validation.scenario import swap_eligibility
from .cancellation import minutes_after
from .operate import operate

SWAP_PREPARATION = timedelta(minutes=45)  # company policy: move passengers, bags and catering to the new tail
ON_GROUND_LOOK_BACK = timedelta(hours=12)  # arrivals at the origin this long before the flight: the tails there
MAX_EXCHANGES = 3  # plans built: those that take the flight soonest (then whose own next departure is latest)
MAX_TRIED = 8  # aircraft tried for them (the eligibility and rotation checks are cheap; building a plan is not)
EXCHANGE_REFUSALS = {"CONFLICTING_FLIGHTS"}  # the other tail gives its own flights up: that is the exchange


def swap_departure(ctx: DisruptionContext) -> datetime:
    """When the flight can leave on another aircraft: not before its schedule nor before the swap is prepared, and
    not before its current estimate unless that delay is the aircraft's own."""
    f = ctx.flight
    earliest = max(f.scheduled_departure, decision_time(f, ctx.now) + SWAP_PREPARATION)
    return max(earliest, f.departure) if not ctx.aircraft_caused_delay else earliest


def own_tail_ready(ctx: DisruptionContext) -> datetime | None:
    """When the disrupted tail can fly again: the grounding's release estimate, or the current estimate of a delay
    that is the aircraft's own. None: nothing to exchange (the tail is not what holds the flight, or no end known)."""
    if not ctx.swap_addresses_cause:
        return None
    if ctx.tail_grounded:
        return ctx.release_at
    return ctx.flight.departure if ctx.aircraft_caused_delay and ctx.flight.delay_minutes > 0 else None


def exchange_scenarios(ctx: DisruptionContext) -> list[Scenario]:
    """An exchange plan with each aircraft of the type at the origin between two of its flights before the disrupted
    tail is released: at most ``MAX_EXCHANGES``, those that can take the flight soonest."""
    ready, departure = own_tail_ready(ctx), swap_departure(ctx)
    if ready is None or ready <= departure:
        return []
    out: list[Scenario] = []
    for tail, own, leaves in on_ground(ctx, departure, ready)[:MAX_TRIED]:
        scenario = _exchange(ctx, tail, own, leaves, ready)
        if scenario is not None:
            out.append(scenario)
        if len(out) == MAX_EXCHANGES:
            break
    return out


def on_ground(ctx: DisruptionContext, departure: datetime, ready: datetime) -> list[tuple[str, list[Flight], datetime]]:
    """Aircraft of the flight's type that stand at its origin between two of their flights at some time from
    `departure` to the disrupted tail's release (`ready`): each with its flights from its next departure there on
    and when it could take the flight (turned round after landing, not before `departure`); soonest first, then the
    latest next departure (the most time its own flights leave for the repair)."""
    f = ctx.flight
    turn = timedelta(minutes=AIRCRAFT_TYPES[f.aircraft_type].min_turn_minutes)
    found = []
    landed = q.arrivals(ctx.handle, f.origin, f.scheduled_departure - ON_GROUND_LOOK_BACK, ready)
    for tail in sorted({x.aircraft_registration for x in landed if x.aircraft_type == f.aircraft_type}):
        if tail == f.aircraft_registration:
            continue
        sequence = flying(rotation_plan.tail_flights(ctx, tail))
        for inbound, onward in pairwise(sequence):
            leaves = max(departure, inbound.arrival + turn)
            if (
                inbound.destination == f.origin
                and onward.origin == f.origin
                and leaves < ready
                and onward.departure >= leaves
                and onward.status in rotation_plan.OPERABLE
            ):
                own = [x for x in sequence[sequence.index(onward) :] if x.status in rotation_plan.OPERABLE]
                found.append((tail, own, leaves))
                break
    return sorted(found, key=lambda item: (item[2], -item[1][0].departure.timestamp(), item[0]))


def _exchange(
    ctx: DisruptionContext, tail: str, own: list[Flight], departure: datetime, ready: datetime
) -> Scenario | None:
    f = ctx.flight
    probe = swap_eligibility(ctx, tail, departure)
    if probe is None or {r.code for r in probe.refusals} - EXCHANGE_REFUSALS:
        return None
    whole = [p for p in _pairs(ctx, own, tail, departure, ready) if not rotation_plan.plan_breaks(ctx, p[2])]
    if not whole:
        return None
    carried, given, actions, _ = min(whole, key=lambda pair: pair[3])  # the least delay; fewest moved on a tie
    moved = {f.flight_id, *(x.flight_id for x in carried)}  # operate() moves and re-times these itself
    given_to_us = [a for a in actions if isinstance(a, SwapAircraft) and a.to_registration == f.aircraft_registration]
    retimed = [a for a in actions if isinstance(a, DelayFlight) and a.flight_id not in moved]
    late = [a.delay_minutes for a in retimed]
    note = f"{f.aircraft_registration} flies {', '.join(x.flight_number for x in given)} after its release" + (
        f", up to {max(late)} min late" if late else ", on time"
    )
    return operate(
        ctx,
        "tail_swap",
        minutes_after(f.scheduled_departure, departure),
        sources=["generator"],
        registration=tail,
        aircraft_type=probe.aircraft_type,
        moved=probe.cabin_plan.offloaded + sum(probe.cabin_plan.downgraded.values()),
        notes=[note, *(n.message for n in probe.notes if n.code not in ("CONTINUITY_BREAK", "GIVES_UP_FLIGHTS"))],
        carried=carried,
        exchanged=[*given_to_us, *retimed],
    )


def _pairs(
    ctx: DisruptionContext, own: list[Flight], tail: str, departure: datetime, ready: datetime
) -> Iterator[tuple[list[Flight], list[Flight], list, int]]:
    """(carried, given, actions, passenger-minutes added) for each pair of blocks, fewest flights moved first: the
    disrupted tail's block (``rotation.plan.blocks``, the flight first) goes to `tail`, and `tail`'s block from its
    next departure (up to a return to the origin, or all of it) goes to the disrupted tail; after the blocks each
    tail flies its own remaining flights (the tails swap back at the origin). The caller keeps the pairs whose
    sequences the rotation check finds whole."""
    f = ctx.flight
    mine = rotation_plan.blocks(ctx)
    theirs = [own[: i + 1] for i, x in enumerate(own[:-1]) if x.destination == f.origin] + [own]
    # the flight leaves on the other tail at `departure`, whatever its own tail's estimate was
    first = f.model_copy(update={"estimated_departure": None, "estimated_arrival": None, "delay_minutes": 0})
    for block, given in sorted(product(mine, theirs), key=lambda pair: len(pair[0]) + len(pair[1])):
        their_sequence = [first, *block[1:], *own[len(given) :]]
        our_sequence = [*given, *mine[-1][len(block) :]]
        retimed = [*retimed_sequence(their_sequence, departure), *retimed_sequence(our_sequence, ready)]
        moves = [*swaps(block, tail, f.aircraft_type), *swaps(given, f.aircraft_registration, f.aircraft_type)]
        added = passenger_minutes_added([f, *block[1:], *own, *mine[-1][len(block) :]], retimed)
        yield block[1:], given, [*moves, *retimed], added
