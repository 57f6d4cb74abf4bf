"""Where the day is decided (issue 46 item 6): each event's cause and decision cost, for a baseline and for
SkyMarshal's replay (rank 1, what was executed), adding up to the day. No AWS: hand-built tables."""

from __future__ import annotations

from datetime import date, timedelta

from day_rows import state
from hypothesis import given, settings
from hypothesis import strategies as st
from test_legal_baselines import crewed, hold

from skymarshal.cli.replay_run import Outcome
from skymarshal.cli.replay_trace import ReplayTracer
from skymarshal.day.baselines import POLICIES, play_baseline
from skymarshal.day.scorecard import score
from skymarshal.day.stream import AirlineRef, Stream, StreamHeader
from skymarshal.day.trace import Kpis, changes, trace_table

DAY = date(2027, 1, 20)


@given(
    minutes=st.lists(st.integers(0, 16 * 60), min_size=1, max_size=3),
    name=st.sampled_from(sorted(POLICIES)),
)
@settings(max_examples=25, deadline=None)
def test_the_costs_of_causes_and_decisions_add_up_to_the_day(minutes, name):
    events = sorted(
        (
            hold(kind, m, at_hour=6 + n, fid=("F1", "F2")[n % 2])
            for n, (kind, m) in enumerate(zip(["tail", "flight", "crew"], minutes))
        ),
        key=lambda e: (e.at, e.event_id),
    )
    day = play_baseline(name, crewed(), events, [DAY], trace=True)
    assert [s.event_id for s in day.steps] == [e.event_id for e in events]
    quiet = Kpis.of(score(name, crewed(), [], [DAY]))
    final = Kpis.of(score(name, day.state, events, [DAY]))
    total = final.minus(quiet)
    summed = (sum(s.cause.passenger_delay_minutes + s.decision.passenger_delay_minutes for s in day.steps),
              sum(s.cause.cancellations + s.decision.cancellations for s in day.steps),
              round(sum(s.cause.cost_usd + s.decision.cost_usd for s in day.steps), 0))  # fmt: skip
    assert summed == (total.passenger_delay_minutes, total.cancellations, round(total.cost_usd, 0))


def test_a_decision_that_waits_costs_nothing_beyond_its_cause():
    day = play_baseline("delay-unconstrained", crewed(), [hold("tail", 11 * 60)], [DAY], trace=True)
    (step,) = day.steps
    assert step.choice == "wait"
    assert (step.decision.passenger_delay_minutes, step.decision.cost_usd, step.decision.cancellations) == (0, 0, 0)
    assert step.cause.passenger_delay_minutes > 0 and step.cause.crew_violations > 0


def test_a_cancellation_is_named_and_costed_against_waiting():
    day = play_baseline("cancel-first", crewed(), [hold("tail", 120)], [DAY], trace=True)
    (step,) = day.steps
    assert step.choice == "cancel EY21/20, EY22/20"
    assert step.decision.cancellations == 2
    assert "cancel EY21/20, EY22/20" in trace_table([hold("tail", 120)], day.steps)


def test_changes_names_a_reserve_call_and_a_retime():
    before = crewed()
    after = play_baseline("delay", crewed(fra_reserve=True), [hold("tail", 11 * 60)], [DAY]).state
    described = changes(before, after)
    assert "reserves 1 on EY21" in described
    assert changes(before, before) == "wait"


def _stream(events) -> Stream:
    header = StreamHeader(
        stream_id="t",
        seed=1,
        intensity="ordinary",
        days=[DAY],
        airline=AirlineRef(seed=1, start=DAY - timedelta(days=1), days=3, load_factor=0.1),
    )
    return Stream(header=header, events=tuple(events))


def test_the_replay_traces_rank_1_what_was_executed_and_its_cost():
    events = [hold("tail", 120), hold("flight", 30, at_hour=9, fid="F2")]
    tables = iter([state(), _cancelled(state(), "F1", "F2"), _cancelled(state(), "F1", "F2")])
    tracer = ReplayTracer(_stream(events), lambda: next(tables), "rank1")
    tracer.start(0)
    tracer.after(Outcome(events[0].event_id, "x", "executed", "cancel:rotation", 1.0, None, "cancel: Cancel EY21"))
    tracer.after(Outcome(events[1].event_id, "y", "escalated", None, 1.0, "no valid plan", None))
    first, second = tracer.steps
    assert (
        first.choice.startswith("rank 1: cancel: Cancel EY21; executed") and "cancel EY21/20, EY22/20" in first.choice
    )
    assert first.decision is not None and first.decision.cancellations == 2
    assert second.choice == "nothing ranked; escalated → hold" and second.decision.passenger_delay_minutes == 0


def test_events_decided_by_an_earlier_run_are_not_traced():
    events = [hold("tail", 120), hold("flight", 30, at_hour=9, fid="F2")]
    tracer = ReplayTracer(_stream(events), state, "rank1")
    tracer.start(1)
    tracer.after(Outcome(events[1].event_id, "y", "executed", "delay", 1.0))
    assert tracer.steps[0].cause is None and tracer.steps[0].decision is None
    assert tracer.steps[1].decision is not None


def _cancelled(tables, *fids):
    for fid in fids:
        tables.flights[fid] = tables.flights[fid].model_copy(update={"status": "CANCELLED"})
    return tables
