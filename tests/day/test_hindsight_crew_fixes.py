"""The hindsight's crews after its search (day/hindsight_crews.py, issue 47): each late flight's illegal crew gets the
answer whose day costs least, a rested crew keeps its aircraft's later legs behind it and never flies past its next
duty, and a flight made late only by an event revealed after it left is left as every on-line policy leaves it."""

from __future__ import annotations

from datetime import timedelta

from day_rows import F1, F2
from hypothesis import given, settings
from hypothesis import strategies as st
from test_hindsight_crews import DAY, crewed, held
from test_next_duty_released import DAY_START, day

from skymarshal.day.baselines import legalize, occ_fix
from skymarshal.day.crew_cover import StandbyIndex, rested_crew
from skymarshal.day.hindsight_crews import answered_by_none, cheapest_fix, day_cost
from skymarshal.day.next_duty import rested_released
from skymarshal.day.realize import realize
from skymarshal.day.scorecard import illegal_members, score
from skymarshal.day.stream import StreamEvent
from skymarshal.models.fleet import AIRCRAFT_TYPES


def test_a_rested_crew_keeps_the_aircrafts_later_legs_behind_it():
    """F1's crew (second sector, no later report) rests past F2's schedule on the same tail: F2 is re-timed behind
    F1's landing and turn, so the day as flown has no rotation break (before, F2 left FRA before F1 got there)."""
    tables = crewed(second_sector=True)
    out = rested_crew(tables, tables.flights["F1"], F1.scheduled_departure + timedelta(hours=12), DAY_START, "h")
    assert out is not None
    f1, f2 = out.flights["F1"], out.flights["F2"]
    assert f1.departure > F2.scheduled_departure  # the rest outlasts F2's schedule: the case at stake
    turn = timedelta(minutes=AIRCRAFT_TYPES[f2.aircraft_type].min_turn_minutes)
    assert f2.departure >= f1.arrival + turn
    assert score("x", out, [], [DAY]).rotation_breaks == 0


def test_a_rested_crew_never_flies_the_flight_after_its_own_next_duty():
    """C1 flies F1 (AUH-FRA) and, the next morning, F10 home from FRA. Held 7 h, C1's rest runs into F10's duty:
    waiting for the rest would fly F1 after F10, with C1 flying F10 from where they are not — no such wait. With F10
    given away (cancelled: nobody on standby; or to the reserve at FRA) the rested crew flies F1 before anything else."""
    hold = F1.scheduled_departure + timedelta(hours=7)
    tables = day()
    assert illegal_members(tables, tables.flights["F1"], hold)
    assert rested_crew(tables, tables.flights["F1"], hold, DAY_START, "h") is None
    out = rested_released(tables, tables.flights["F1"], hold, DAY_START, StandbyIndex(tables.rosters), "h")
    assert out is not None and out.flights["F10"].status == "CANCELLED"
    assert [r.flight_id for r in out.rosters["C1"] if r.kind == "FLIGHT"] == ["F1"]
    assert not illegal_members(out, out.flights["F1"], out.flights["F1"].departure)
    with_reserve = day(reserve=True)
    out = rested_released(
        with_reserve, with_reserve.flights["F1"], hold, DAY_START, StandbyIndex(with_reserve.rosters), "h"
    )
    assert out is not None and [r.crew_id for r in out.crew_on["F10"]] == ["R1"]


def _closure(revealed_hours_after_f1_leaves: float) -> StreamEvent:
    """Frankfurt shut over F1's landing (16:00Z) into the evening, revealed some time after F1's 10:00Z departure
    (negative: before it)."""
    return StreamEvent(
        event_id="E1",
        at=F1.scheduled_departure + timedelta(hours=revealed_hours_after_f1_leaves),
        holds="station",
        family="weather",
        code=71,
        cause="weather",
        history_type="weather",
        station="FRA",
        start=F1.scheduled_arrival - timedelta(hours=1),
        end=F1.scheduled_arrival + timedelta(hours=8),
        closes=True,
        report="FRA closed",
    )


@given(revealed=st.floats(-6, 5))
@settings(max_examples=15, deadline=None)
def test_a_flight_made_late_only_by_what_was_revealed_after_it_left_is_answered_by_no_decision(revealed):
    """The judge holds F1 at AUH for a Frankfurt closure over its landing, which makes its captain illegal; whether
    any decision could have answered that depends only on when the closure was revealed: before F1 left, yes."""
    tables, event = crewed(second_sector=True), _closure(revealed)
    leaves = realize(tables, [event])["F1"].departure
    assert leaves >= F1.scheduled_departure + timedelta(hours=8) and illegal_members(tables, F1, leaves)
    assert answered_by_none(tables, [event], F1, leaves) == (event.at >= F1.scheduled_departure)


def test_left_alone_the_flight_keeps_its_crew_and_is_not_cancelled():
    """legalize with the hindsight's `left_alone`: the closure revealed after F1 left changes nothing; revealed
    before, F1's crew is answered (here by cancelling the rotation or waiting for the rest, whichever costs less)."""
    tables = crewed(second_sector=True)
    late, early = _closure(1), _closure(-2)
    kept = legalize(tables, [late], DAY_START, StandbyIndex(tables.rosters), cheapest_fix([DAY]), answered_by_none)
    assert kept.flights == tables.flights
    answered = legalize(tables, [early], DAY_START, StandbyIndex(tables.rosters), cheapest_fix([DAY]), answered_by_none)
    assert answered.flights != tables.flights
    timings = realize(answered, [early])
    assert "F1" not in timings or not illegal_members(answered, answered.flights["F1"], timings["F1"].departure)


@given(hours=st.floats(3, 14))
@settings(max_examples=10, deadline=None)
def test_the_cheapest_fix_never_costs_the_day_more_than_the_occs_order(hours):
    """F1 held: the hindsight's fix is chosen among the OCC's answers by the day's cost, so its day costs no more
    than the one the delay baseline's fixed order gives (one flight to fix: one choice)."""
    tables = crewed(second_sector=True)
    hold = held(hours)
    standby = StandbyIndex(tables.rosters)
    chosen = legalize(tables, [hold], DAY_START, standby, cheapest_fix([DAY]))
    ordered = legalize(tables, [hold], DAY_START, standby, occ_fix)
    assert day_cost(score("h", chosen, [hold], [DAY])) <= day_cost(score("h", ordered, [hold], [DAY])) + 1e-6
    assert score("h", chosen, [hold], [DAY]).crew_violations == 0
