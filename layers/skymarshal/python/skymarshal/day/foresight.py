"""A planner who knows the whole day: the greedy baseline's repertoire for each event in turn — wait, cancel the
rotation, an AOG's swap to a same-type tail on the ground in time (``baselines.event_options``) — with every event
of the day known when each is decided, each option made legal for the crews by the delay baseline's answers
(``baselines.legalize``) and the one whose day costs least kept (``hindsight_crews.day_cost``: the passengers'
minutes and nights valued beside the money, where the on-line greedy weighs money alone).

One of the hindsight's days (``hindsight.hindsight_plan`` keeps the cheapest of its optimizer's, waiting's and
this one): anything an on-line policy does with these actions, a planner with the day known can do at least as
well by its own measure, so the bound no longer rests on the optimizer's model alone, which prices the day
differently (a re-seating it prefers is not the re-accommodation the day's passengers get)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from .baselines import Context, event_options, legalize
from .hindsight_crews import day_cost
from .realize import DayState
from .stream import StreamEvent


def foresight_day(state: DayState, events: Sequence[StreamEvent], days: Sequence[date]) -> DayState:
    """`state` with each event decided in turn, every event known, by the cheapest legal option for the day."""
    ctx = Context(days=days, state=state)
    current = state.copy()
    for e in events:
        legal = [legalize(s, events, e.at, ctx.standby) for s in event_options(current, events, e)]
        current = min(legal, key=lambda s: day_cost(ctx.score(s, events)))
    return current
