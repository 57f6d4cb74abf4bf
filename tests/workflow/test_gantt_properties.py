"""Properties of the Gantt builder over generated rotations and plans: every bar ends no earlier than it starts,
every planned bar is an original flight, an original duty or a flight the plan adds (a ferry after a
diversion), the disrupted flight is planned exactly once on the tails, and no flight is planned earlier than
its schedule."""

from __future__ import annotations

from datetime import timedelta

from gantt_helpers import SPARE, T0, flight, ranked, rotation, scenario, snapshot, weather_window
from gantt_helpers import decision as make_decision
from hypothesis import given, settings
from hypothesis import strategies as st

from skymarshal.views.gantt import build_gantt

KINDS = ("delay", "tail_swap", "cancel", "divert", "crew_swap")


@st.composite
def cases(draw):
    rot = rotation(draw(st.lists(st.integers(min_value=40, max_value=600), min_size=0, max_size=6)))
    delays = st.integers(min_value=0, max_value=900)
    plans = []
    for rank in range(1, draw(st.integers(min_value=1, max_value=3)) + 1):
        kind = draw(st.sampled_from(KINDS))
        alternate = "CGN" if kind == "divert" else None
        s = scenario(kind, rot[0], draw(delays) if kind != "cancel" else 1440, alternate=alternate)
        plans.append(
            ranked(s.model_copy(update={"scenario_id": f"{s.scenario_id}#{rank}"}), rank, draw(st.floats(0, 1)))
        )
    regulatory = []
    if draw(st.booleans()):
        start = T0 + timedelta(minutes=draw(st.integers(min_value=0, max_value=1200)))
        regulatory.append(weather_window("FRA", start, start + timedelta(minutes=draw(st.integers(1, 600)))))
    spare = [flight(50, T0 + timedelta(minutes=draw(st.integers(-600, 1200))), "AUH", "LHR", tail=SPARE)]
    return rot, snapshot(rot, spare=spare, regulatory=regulatory), make_decision(*plans)


@settings(max_examples=150, deadline=None)
@given(cases())
def test_every_bar_is_well_formed_and_maps_to_an_original_or_a_new_flight(case):
    rot, ops, decision = case
    view = build_gantt("run", decision, ops)
    for plan in view.plans:
        rows = plan.tails + plan.crew
        original_flights = {b.flight_id for r in rows for b in r.bars if b.layer == "original" and b.flight_id}
        original_duties = {b.duty_key for r in rows for b in r.bars if b.layer == "original" and b.duty_key}
        for r in rows:
            for bar in r.bars:
                assert bar.end >= bar.start, bar
                if bar.layer != "plan":
                    continue
                assert (
                    bar.flight_id in original_flights
                    or bar.duty_key in original_duties
                    or (bar.new_flight and bar.change == "ferry")
                ), bar
        # The disrupted flight is planned once on the tails (a swap also marks where it left).
        disrupted = [b for r in plan.tails for b in r.bars if b.layer == "plan" and b.flight_id == ops.flight.flight_id]
        assert len([b for b in disrupted if b.change != "swapped_out"]) == 1
        # A plan moves flights later or leaves them: never before their schedule.
        schedule = {f.flight_id: f.scheduled_departure for f in rot}
        for b in (b for r in plan.tails for b in r.bars if b.layer == "plan" and b.flight_id in schedule):
            assert b.start >= schedule[b.flight_id]
