"""A planner who knows the whole day: for each event in turn, the greedy baseline's repertoire — wait, cancel the
rotation, an AOG's swap to a same-type tail on the ground in time (``baselines.event_options``) — and, given the
day's spares, the answers SkyMarshal's generator gives that the greedy baseline lacks: an AOG's rescue aircraft
(``rescue``: a spare swapped in where it stands, or ferried in with reserves on the ferry), a crew member out
replaced by a reserve on standby, and the wait with the late tail's next block handed to a spare (``handover``).
Each option's crews are answered as the delay baseline answers them, by whichever answer leaves the day cheapest
(``hindsight_crews.cheapest_fix``), on the events revealed so far, and the option whose day costs least with every
event known kept (``hindsight_crews.day_cost``: the passengers' minutes and nights valued beside the money, where
the on-line greedy weighs money alone on what it knows); a day whose tails do not fly in sequence never is.
Made with every event known instead (`crews_for_the_day`), an option's crews
are answered for the later events at the first event's moment: it lost the swap greedy makes at its third event on
ordinary seed 17 and found a day 11 % cheaper than the optimizer's on ordinary seed 13, so the hindsight makes both.

Two of the hindsight's days (``hindsight.hindsight_plan`` keeps the cheapest of its optimizer's, waiting's and
these): anything an on-line policy does with these actions, a planner with the day known can do at least as
well by its own measure, so the bound no longer rests on the optimizer's model alone, which prices the day
differently (a re-seating it prefers is not the re-accommodation the day's passengers get)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from ..models.operational import AircraftDay
from .baselines import BY, Context, event_options, legalize
from .handover import handovers
from .hindsight_crews import cheapest_fix, day_cost
from .realize import DayState
from .stream import StreamEvent


def foresight_day(
    state: DayState,
    events: Sequence[StreamEvent],
    days: Sequence[date],
    crews_for_the_day: bool = False,
    spares: Sequence[AircraftDay] = (),
) -> DayState:
    """`state` with each event decided in turn by the option whose day, every event known, costs least; with
    `crews_for_the_day`, each option's crews answered for every event of the day at once; a crew member out replaced
    by a reserve among the options, and with the day's `spares` an AOG's rescue aircraft and the wait handed over."""
    ctx = Context(days=days, state=state)
    fix = cheapest_fix(days)
    current = state.copy()
    for i, e in enumerate(events):
        known = events if crews_for_the_day else events[: i + 1]
        options = event_options(current, known, e, spares, ctx.standby)
        legal = [legalize(s, known, e.at, ctx.standby, fix) for s in options]
        waited = current.flights.get(e.flight_id or "")
        if spares and waited is not None and e.holds != "station":  # the wait handed over, before and after its crews
            handed = handovers(options[0], known, waited, spares, BY) + handovers(legal[0], known, waited, spares, BY)
            legal += [legalize(s, known, e.at, ctx.standby, fix) for s in handed]
        # a day whose tails do not fly in sequence is no day an airline can fly, whatever it costs
        current = min(legal, key=lambda s: (ctx.score(s, events).rotation_breaks, day_cost(ctx.score(s, events))))
    return current
