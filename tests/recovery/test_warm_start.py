"""A warm start written by another model of the day (the hindsight's waiting day) is repaired where the recovery
model would refuse it — a leg re-timed past a hold, a leg the model cancels left out with the tail's legs it then
cannot reach — instead of being dropped whole, so the search starts from it (recovery.warm_start)."""

from __future__ import annotations

import row_builders
from hypothesis import given, settings
from hypothesis import strategies as st
from row_builders import utc

from skymarshal.day.hindsight_crews import answered_slack
from skymarshal.day.realize import Timing
from skymarshal.recovery.checker import check
from skymarshal.recovery.cost import evaluate
from skymarshal.recovery.incremental import full_seating
from skymarshal.recovery.model import CrewPairing, DatedFlightRef
from skymarshal.recovery.network import build_network
from skymarshal.recovery.rows import to_rows
from skymarshal.recovery.solver import plan_from, solve
from skymarshal.recovery.warm_start import repaired

from .tiny import tiny_instance

AS_SCHEDULED = {  # P1 and P2 as the schedule flies them (minutes from day 0)
    "P1": [(101, 0, 540), (102, 0, 660), (103, 0, 780), (104, 0, 930)],
    "P2": [(201, 0, 570), (202, 0, 660), (203, 0, 780), (204, 0, 900)],
}


def _judged(instance, plan):
    rows = to_rows(plan, full_seating(plan).lines)
    return check(instance, rows), {f.number: (f.aircraft, f.departure) for f in rows.flights}


def _instance(tmp_path, **update):
    return tiny_instance(tmp_path, **{"alt_flights.csv": "#"}).model_copy(update=update)


def test_a_leg_before_its_hold_is_re_timed_and_its_tails_next_leg_after_its_turn(tmp_path):
    instance = _instance(tmp_path, held_until={(103, 0): 60})  # AAA-CCC 13:00 may not leave before 14:00
    net = build_network(instance)
    refused, _ = _judged(instance, plan_from(net, AS_SCHEDULED))
    assert [v.kind for v in refused] == ["departs_early"]
    violations, flown = _judged(instance, repaired(net, AS_SCHEDULED))
    assert violations == []
    assert flown[103] == ("P1", 840)
    assert flown[104] == ("P1", 840 + 90 + 30)  # its turn-round (30 min) after 103 lands at 15:30
    assert {n: flown[n] for n in (101, 102, 201, 202, 203, 204)} == {
        n: (tail, minute) for tail, legs in AS_SCHEDULED.items() for n, _, minute in legs if n not in (103, 104)
    }


def test_a_leg_the_model_cancels_is_left_out_with_the_legs_its_tail_then_cannot_reach(tmp_path):
    instance = _instance(tmp_path, imposed_cancellations=frozenset({(103, 0)}))
    violations, flown = _judged(instance, repaired(build_network(instance), AS_SCHEDULED))
    assert violations == []
    assert flown[103][0] is None and flown[104][0] is None  # 104 leaves CCC, where P1 never went
    assert flown[102] == ("P1", 660)


@settings(max_examples=25, deadline=None)
@given(hold=st.integers(0, 600), late=st.integers(0, 300))
def test_a_repaired_warm_start_is_always_a_plan_the_model_accepts(tmp_path_factory, hold, late) -> None:
    """Whatever hold the model imposes and however late the warm start lists a leg."""
    instance = _instance(tmp_path_factory.mktemp("tiny"), held_until={(203, 0): hold})
    start = {tail: [(n, d, m + (late if n == 202 else 0)) for n, d, m in legs] for tail, legs in AS_SCHEDULED.items()}
    violations, _ = _judged(instance, repaired(build_network(instance), start))
    assert violations == []


def test_the_search_keeps_the_repaired_start_or_better(tmp_path):
    instance = _instance(tmp_path, held_until={(103, 0): 60})
    plan = repaired(build_network(instance), AS_SCHEDULED)
    start = evaluate(instance, to_rows(plan, full_seating(plan).lines)).total
    _, result = solve(instance, 1.0, seed=3, warm_starts=[AS_SCHEDULED])
    assert result.violations == [] and result.cost.total <= start


def test_the_hindsights_crew_legs_may_fly_as_late_as_the_waiting_day_made_them_legal(tmp_path):
    """day.hindsight_crews.answered_slack: a leg the waiting day flies 60 min late with a reserve on it (its crew's
    answer) may leave that late in the model, whose crews know only their rostered duty; the others keep theirs."""
    pairing = CrewPairing(
        id="D1+0",
        legs=(DatedFlightRef(number=101, day=0), DatedFlightRef(number=102, day=0)),
        start_airport="AAA",
        slack=(20, 20),
    )
    instance = _instance(tmp_path, crews=(pairing,))
    f1 = row_builders.flight("EY101", "AUH", "FRA", utc(2027, 1, 20, 9), 360, flight_id="F1")
    timings = {"F1": Timing(utc(2027, 1, 20, 10), utc(2027, 1, 20, 16), "crew")}
    relaxed = answered_slack(instance, {101: "F1", 102: "F2"}, timings, {"F1": f1})
    assert relaxed.crews[0].slack == (60, 20)
