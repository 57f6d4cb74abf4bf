"""The hindsight's crews after its search: each flight the day leaves late with a crew member illegal gets the
cheapest legal answer for the whole day — the OCC's answers the baselines use (``baselines.occ_fix``), each one
weighed by what the day then costs instead of tried in a fixed order, as a planner who knows the day can. The crew
rules judge every member (``scorecard.illegal_members``); nothing here decides legality itself.

What no decision could answer is left as every policy leaves it: a flight made late only by an event revealed
after it left (an arrival regulation announced while it is airborne, the judge's model holding it at its origin
meanwhile) is one no on-line policy saw in time; the hindsight, bound to be at least as good as any of them, need
not cancel it for a crew its foresight alone makes illegal. It stays among the day's crew violations, as theirs.
"""

from __future__ import annotations

import dataclasses
import logging
import math
from collections.abc import Mapping, Sequence
from datetime import date, datetime

from ..models.operational import Flight
from ..recovery.model import Instance
from ..rules.finance import OVERNIGHT_HOURS, PASSENGER_MINUTE_USD
from .baselines import BY, Fix, kept_flying, occ_cancellation
from .crew_cover import StandbyIndex, rested_crew
from .next_duty import released, rested_released, stranded_by
from .realize import DayState, Timing, realize
from .scorecard import DecisionStats, Scorecard, illegal_members, score
from .stream import StreamEvent

LOG = logging.getLogger(__name__)
POLICY = "hindsight"


def day_cost(card: Scorecard) -> float:
    """The day objective on a scored day (`recovery.objectives.day_config`'s valuation): its passengers' minutes and
    nights at PASSENGER_MINUTE_USD, and its compensation, care and operating cost. The optimizer's model re-seats
    passengers of a late flight on another route where that is cheaper; the day as written keeps them on their
    booked flights (only cancelled and missed journeys go home another way), so a plan the model prefers can score
    worse than waiting — the bound keeps the cheapest of its days by this valuation (``hindsight.hindsight_plan``)."""
    minutes = card.passenger_delay_minutes + OVERNIGHT_HOURS * 60 * card.stranded_overnight
    return minutes * PASSENGER_MINUTE_USD + card.compensation_usd + card.care_usd + card.operating_cost_usd


def cheapest_fix(days: Sequence[date]) -> Fix:
    """A crew fix for ``baselines.legalize``: the report moved or reserves called where they cover every illegal
    member (nothing is cancelled, nobody waits for rest); else, of the rotation cancelled (``occ_cancellation``), the
    flight waiting for its crew's rest (``rested_crew``), flown at its wait with the crew's next duty given to a
    reserve or cancelled (``next_duty.released``), and the rest's wait with that next duty given away
    (``next_duty.rested_released``), the one whose day costs least (``day_cost``, every event known)."""

    def fix(
        state: DayState,
        f: Flight,
        departure: datetime,
        now: datetime,
        known: Sequence[StreamEvent],
        standby: StandbyIndex,
    ) -> DayState:
        kept = kept_flying(state, f, departure, now, known, standby)
        if kept is not None:
            return kept
        answers = {"rotation cancelled": occ_cancellation(state, f, now), **_waits(state, f, departure, now, standby)}
        return answers[cheapest(answers, known, days, f.flight_id)] or state  # the cancellation always answers

    return fix


def _waits(
    state: DayState, f: Flight, departure: datetime, now: datetime, standby: StandbyIndex
) -> dict[str, DayState | None]:
    """The answers that keep the flight: its crew's rest, their next duty given away, both (None: not possible)."""
    return {
        "crew's rest": rested_crew(state, f, departure, now, BY),
        "next duty given away": released(state, f.flight_id, departure, now, standby, BY),
        "crew's rest, next duty given away": rested_released(state, f, departure, now, standby, BY),
    }


def cheapest(
    answers: Mapping[str, DayState | None], known: Sequence[StreamEvent], days: Sequence[date], about: str
) -> str:
    """The name of the answer (None: not one) whose day costs least, said in a log line with every answer's cost."""
    costs = {
        name: day_cost(score(POLICY, a, known, days, DecisionStats())) for name, a in answers.items() if a is not None
    }
    chosen = min(costs, key=costs.__getitem__)
    LOG.info("hindsight: %s's crew: %s (%s)", about, chosen, ", ".join(f"{k} {v:,.0f}" for k, v in costs.items()))
    return chosen


def cheapest_wait(
    state: DayState,
    f: Flight,
    departure: datetime,
    now: datetime,
    known: Sequence[StreamEvent],
    standby: StandbyIndex,
    days: Sequence[date],
) -> DayState | None:
    """For a held flight whose crew no later report or reserve covers at the hold (``hindsight.covered``): the
    crew's rest, their next duty given away (to a reserve, else cancelled) or both, whichever leaves the day
    cheapest — None when cancelling the flight with what its tail then cannot reach costs the day less (the flight
    is then left to ``hindsight.crewed_instance``, which cancels it)."""
    cancelled = {
        gone: state.flights[gone].model_copy(update={"status": "CANCELLED", "updated_by_execution": BY})
        for gone in stranded_by(state, f.flight_id)
    }
    answers = {
        "flight cancelled": dataclasses.replace(state, flights={**state.flights, **cancelled}),
        **_waits(state, f, departure, now, standby),
    }
    chosen = cheapest(answers, known, days, f.flight_id)
    return None if chosen == "flight cancelled" else answers[chosen]


def answered_by_none(state: DayState, known: Sequence[StreamEvent], f: Flight, departure: datetime) -> bool:
    """Whether `f`'s crew, illegal when it leaves at `departure`, is legal at the departure the flight had when it
    left: the one the events revealed before then give it (from its schedule, each event revealed before the
    departure so far found taken in, until no more is) — no decision taken before it left could have seen the cause
    (``legalize``'s `left_alone`)."""
    leaves, seen = f.scheduled_departure, -1
    while True:
        revealed = [e for e in known if e.at < leaves]
        if len(revealed) == seen:
            return not illegal_members(state, f, leaves)
        timing = realize(state, revealed).get(f.flight_id)
        if timing is None or timing.departure >= departure:
            return False  # as late as the whole day makes it: known in time
        leaves, seen = timing.departure, len(revealed)


def answered_slack(
    instance: Instance, flight_ids: Mapping[int, str], timings: Mapping[str, Timing], flights: Mapping[str, Flight]
) -> Instance:
    """The instance with each crew pairing's leg allowed as late as the day made legal (`timings`, the waiting day
    after ``baselines.legalize``) flies it: a reserve took it, the crew reported later, a next duty was given away —
    answers the model's crews (their rostered duty only) cannot give, so the search may keep what they made
    possible instead of cancelling it. The day the search then plans is made legal the same way afterwards."""
    late = {
        fid: math.ceil((t.departure - flights[fid].scheduled_departure).total_seconds() / 60)
        for fid, t in timings.items()
    }
    crews = []
    for pairing in instance.crews:
        slack = tuple(
            max(s, late.get(flight_ids[leg.number], 0)) for leg, s in zip(pairing.legs, pairing.slack, strict=True)
        )
        crews.append(pairing if slack == pairing.slack else pairing.model_copy(update={"slack": slack}))
    return instance.model_copy(update={"crews": tuple(crews)})
