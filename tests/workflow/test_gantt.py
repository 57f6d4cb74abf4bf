"""The Gantt builder over hand-built decisions (no AWS): each kind of plan moves the bars its typed actions say,
the delay runs down the rotation as the rules propagate it, the ferry after a diversion lands after the
destination's no-landing window, crews follow their flights, and the figures and order of the comparison."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from gantt_helpers import (
    SPARE,
    T0,
    TAIL,
    check,
    connecting,
    decision,
    flight,
    ranked,
    rotation,
    scenario,
    snapshot,
    weather_window,
)

from skymarshal.api.plans import phase_spans
from skymarshal.arbitration.actions import ContinueFlight, SwapAircraft
from skymarshal.views.gantt import build_gantt


def plan_bars(row, change=None):
    return [b for b in row.bars if b.layer == "plan" and (change is None or b.change == change)]


def row(plan, key, crew=False):
    return next(r for r in (plan.crew if crew else plan.tails) if r.key == key)


def test_a_tail_swap_moves_the_flight_to_the_spare_and_nothing_else():
    rot = rotation([90, 90])
    ops = snapshot(rot, spare=[flight(9, T0 + timedelta(hours=20), "AUH", "LHR", tail=SPARE)])
    view = build_gantt("r", decision(ranked(scenario("tail_swap", rot[0]), 1, 0.9)), ops)
    plan = view.plans[0]
    assert [r.key for r in plan.tails] == [TAIL, SPARE]
    (out,) = plan_bars(row(plan, TAIL), "swapped_out")
    (moved,) = plan_bars(row(plan, SPARE), "swapped_in")
    assert out.flight_id == moved.flight_id == "F1" and moved.start == rot[0].scheduled_departure
    others = [b for r in plan.tails for b in plan_bars(r) if b.flight_id != "F1"]
    assert others and all(b.change == "unchanged" for b in others)


def test_a_swap_that_carries_the_return_leg_draws_it_on_the_incoming_tail():
    """Issue 30: the demo's swap also moves EY124 (the return from Frankfurt) to the spare until the tails swap back
    at the hub; the plan layer shows it on the spare's row and off the grounded tail's, at its own times."""
    rot = rotation([90, 90])
    s = scenario("tail_swap", rot[0])
    carried = SwapAircraft(
        flight_id=rot[1].flight_id, from_registration=TAIL, to_registration=SPARE, to_aircraft_type="B789"
    )
    s = s.model_copy(update={"actions": [*s.actions, carried]})
    plan = build_gantt("r", decision(ranked(s, 1, 0.9)), snapshot(rot)).plans[0]
    assert {b.flight_id for b in plan_bars(row(plan, TAIL), "swapped_out")} == {"F1", "F2"}
    moved = {b.flight_id: b for b in plan_bars(row(plan, SPARE), "swapped_in")}
    assert set(moved) == {"F1", "F2"} and moved["F2"].start == rot[1].scheduled_departure
    assert plan_bars(row(plan, TAIL), "unchanged")[0].flight_id == "F3"  # back on its own tail after the swap-back


def test_a_delay_runs_down_the_rotation_until_a_turn_absorbs_it():
    # B789's minimum turn is 75 min: a 90-min turn absorbs 15, a 200-min turn absorbs the rest.
    rot = rotation([90, 200, 90])
    view = build_gantt("r", decision(ranked(scenario("delay", rot[0], 120), 1, 0.9)), snapshot(rot))
    bars = {b.flight_id: b for b in plan_bars(view.plans[0].tails[0])}
    assert (bars["F1"].change, bars["F1"].delay_minutes) == ("delayed", 120)
    assert (bars["F2"].change, bars["F2"].delay_minutes) == ("delayed", 105)
    assert bars["F2"].start == rot[1].scheduled_departure + timedelta(minutes=105)
    assert bars["F3"].change == "unchanged" and bars["F3"].start == rot[2].scheduled_departure
    # The crew's sector moves with the flight it flies.
    (sector,) = plan_bars(row(view.plans[0], "C1", crew=True))
    assert (sector.change, sector.start) == ("delayed", bars["F1"].start)


def test_a_cancellation_marks_the_flight_and_its_crew_cancelled():
    rot = rotation([90])
    view = build_gantt("r", decision(ranked(scenario("cancel", rot[0], 1440), 1, 0.5)), snapshot(rot))
    plan = view.plans[0]
    assert [b.change for b in plan_bars(plan.tails[0]) if b.flight_id == "F1"] == ["cancelled"]
    assert all(b.change == "cancelled" for r in plan.crew for b in plan_bars(r))
    assert plan.figures.cancellations == 1 and plan.figures.passengers_disrupted == 180


def test_a_diversion_adds_a_ferry_that_lands_after_the_no_landing_window():
    rot = rotation([90])
    arrival = rot[0].scheduled_arrival
    closed = weather_window("FRA", arrival - timedelta(hours=1), arrival + timedelta(hours=4))
    ops = snapshot(rot, regulatory=[closed])
    view = build_gantt("r", decision(ranked(scenario("divert", rot[0], 0, alternate="CGN"), 1, 0.9)), ops)
    tail = view.plans[0].tails[0]
    (diverted,) = plan_bars(tail, "diverted")
    (ferry,) = plan_bars(tail, "ferry")
    assert diverted.destination == "CGN" and ferry.new_flight and ferry.flight_id is None
    assert (ferry.origin, ferry.destination) == ("CGN", "FRA")
    assert ferry.end == arrival + timedelta(hours=4)  # lands as the window ends, not inside it
    assert [b.kind for b in view.bands] == ["weather"] and "no landing at FRA" in view.bands[0].label
    # The next leg waits for the aircraft to come back from the alternate.
    (next_leg,) = [b for b in plan_bars(tail) if b.flight_id == "F2"]
    assert next_leg.change == "delayed" and next_leg.start >= ferry.end


def test_a_crew_swap_takes_the_member_off_and_calls_the_reserve_out():
    rot = rotation([90])
    view = build_gantt("r", decision(ranked(scenario("crew_swap", rot[0], 60), 1, 0.9)), snapshot(rot))
    plan = view.plans[0]
    (off,) = plan_bars(row(plan, "C1", crew=True), "replaced")
    assert off.start == rot[0].scheduled_departure and off.delay_minutes == 0 and "R1" in off.note
    reserve = row(plan, "R1", crew=True)
    (call_out,) = plan_bars(reserve, "reserve_call_out")
    assert call_out.flight_id == "F1" and call_out.end == rot[0].scheduled_arrival + timedelta(minutes=60)
    (stby,) = plan_bars(reserve, "standby")
    assert stby.end == call_out.start  # the standby ends at the call-out
    assert plan_bars(row(plan, "C2", crew=True))[0].change == "delayed"  # the other member flies it late
    assert "(reserve)" in reserve.label and reserve.label.startswith("CPT")


def test_misconnections_count_the_connections_the_plan_breaks():
    rot = rotation([90])
    onward = flight(7, rot[0].scheduled_arrival + timedelta(minutes=90), "FRA", "JFK", tail="A6-BXX")
    ops = snapshot(rot, bookings=connecting(rot[0], onward, 3), onward=[onward])
    on_time = ranked(scenario("tail_swap", rot[0]), 1, 0.9)
    late = ranked(scenario("delay", rot[0], 120), 2, 0.8)
    cancel = ranked(scenario("cancel", rot[0], 1440), 3, 0.5)
    figures = [p.figures.misconnections for p in build_gantt("r", decision(on_time, late, cancel), ops).plans]
    assert figures == [0, 3, 3]


def test_the_comparison_keeps_the_rules_order_and_marks_a_model_reordering():
    rot = rotation([90])
    a, b = scenario("delay", rot[0], 30), scenario("tail_swap", rot[0])
    plans = build_gantt("r", decision(ranked(a, 1, 0.70), ranked(b, 2, 0.72)), snapshot(rot)).plans
    assert [(p.rank, p.rules_rank, p.reordered_by_model) for p in plans] == [(1, 2, True), (2, 1, True)]
    plans = build_gantt("r", decision(ranked(b, 1, 0.72), ranked(a, 2, 0.70)), snapshot(rot)).plans
    assert not any(p.reordered_by_model for p in plans)
    assert plans[1].figures.delay_minutes == plans[1].figures.arrival_delay_minutes == 30
    assert plans[1].figures.total_cost_usd == 1030.0


def test_a_bar_carries_the_checks_that_apply_to_it():
    rot = rotation([90])
    checks = [
        check("airworthiness", TAIL),
        check("curfew FRA (arrival)", "FRA"),
        check("crew illegal", "C1"),
        check("crew legality", "F1"),
    ]
    plan = build_gantt("r", decision(ranked(scenario("delay", rot[0], 60), 1, 0.9, checks)), snapshot(rot)).plans[0]
    bars = {b.flight_id: b for b in plan_bars(plan.tails[0])}
    assert [c.split(" — ")[0] for c in bars["F1"].constraints] == [
        "airworthiness",
        "curfew FRA (arrival)",
        "crew legality",
    ]
    assert [c.split(" — ")[0] for c in bars["F2"].constraints] == ["airworthiness"]  # names its tail only
    (c1,) = plan_bars(row(plan, "C1", crew=True))
    assert [c.split(" — ")[0] for c in c1.constraints] == ["crew illegal", "crew legality"]
    (c2,) = plan_bars(row(plan, "C2", crew=True))
    assert [c.split(" — ")[0] for c in c2.constraints] == ["crew legality"]


def test_the_window_covers_every_moved_bar_and_drops_bars_outside_it():
    rot = rotation([90, 90, 90, 90, 90, 90, 90])
    view = build_gantt("r", decision(ranked(scenario("delay", rot[0], 45), 1, 0.9)), snapshot(rot))
    assert view.start == rot[0].scheduled_departure - timedelta(hours=3)
    moved = [b for b in plan_bars(view.plans[0].tails[0]) if b.change != "unchanged"]
    assert view.end >= max(b.end for b in moved) and view.end - view.start <= timedelta(hours=36)
    assert all(b.end > view.start and b.start < view.end for r in view.plans[0].tails for b in r.bars)
    assert len({b.flight_id for b in view.plans[0].tails[0].bars}) < len(rot)


def test_phases_are_named_without_the_workflows_choice_states():
    at = datetime(2027, 1, 20, 8, tzinfo=UTC)
    states = [
        "Validate disruption",
        "Initial round done before?",
        "Initial round: seven agents",
        "Which agent? (initial)",
        "Crew compliance agent (initial)",
        "Collate initial round",
        "Revision round done before?",
        "Revision round: seven agents",
        "Collate revision round",
        "Safety gate",
        "Arbitrate",
        "Any valid plan?",
        "Await duty manager approval",
    ]
    spans = phase_spans([(s, at + timedelta(seconds=10 * i)) for i, s in enumerate(states)], None)
    assert [s.key for s in spans] == ["validating", "initial", "revision", "arbitrating", "awaiting_approval"]
    assert not any("?" in s.label for s in spans)
    assert [s.seconds for s in spans] == [
        20.0,
        50.0,
        30.0,
        20.0,
        None,
    ]  # a choice counts in the phase before it; the last still runs


def test_a_continuation_draws_the_diversion_then_the_leg_from_the_alternate_and_moves_the_next_flight():
    rot = rotation([90])
    landed = rot[0].scheduled_departure + timedelta(hours=5)
    there = rot[0].model_copy(update={"status": "DIVERTED", "diverted_to": "CGN", "estimated_arrival": landed})
    leg = ContinueFlight(
        flight_id="F1", registration=TAIL, aircraft_type="B789", origin="CGN", destination="FRA",
        departure=landed + timedelta(hours=2), arrival=landed + timedelta(hours=3), crew={"C1": "CPT", "C2": "FO"},
        reports={"C1": T0, "C2": T0}, in_duty=["C1", "C2"], passengers=180,
    )  # fmt: skip
    plan = scenario("divert", rot[0]).model_copy(
        update={"actions": [leg], "departure": leg.departure, "arrival": leg.arrival, "arrival_airport": "FRA"}
    )
    view = build_gantt("r", decision(ranked(plan, 1, 0.9)), snapshot([there, *rot[1:]]))
    tail = view.plans[0].tails[0]
    (diverted,) = plan_bars(tail, "diverted")
    assert (diverted.destination, diverted.end) == ("CGN", landed)  # as it flew, not re-timed from its origin
    (onward,) = plan_bars(tail, "ferry")
    assert (onward.origin, onward.destination, onward.start, onward.passengers) == ("CGN", "FRA", leg.departure, 180)
    (next_leg,) = [b for b in plan_bars(tail) if b.flight_id == "F2"]
    assert next_leg.change == "delayed" and next_leg.start >= leg.arrival
