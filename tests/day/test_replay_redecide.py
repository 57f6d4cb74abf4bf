"""The re-decision point, triggered by the replay's clock (issue 46 item 1): an executed plan that waits on a cause
whose end the report did not state is decided again at the decision's re-decision point while the stream's cause
has not cleared — a disruption of its own (`ID--redecide-N`) that takes the flight's claim from the one it follows
and executes a plan of its own."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta

import pytest
from test_replay_resume import header_for

from skymarshal.cli.replay_run import (
    EARLY_CLEARANCE,
    MAX_REDECISIONS,
    Outcome,
    ReplayProgress,
    cleared_early,
    cleared_report,
    redecision_due,
    redecision_point,
    replay,
)
from skymarshal.data import schema as s
from skymarshal.day.draw import plain_report
from skymarshal.day.state import tails_of
from skymarshal.day.stream import Stream, StreamEvent
from skymarshal.intake.clearance_words import stated_estimates
from skymarshal.workflow.models import REDECIDE_SUFFIX

DAY = date(2027, 1, 20)
AT = datetime(2027, 1, 20, 9, tzinfo=UTC)


def _event(holds: str = "flight", hours: float = 6) -> StreamEvent:
    return StreamEvent(
        event_id="E001", at=AT, holds=holds, family="weather", code=71, cause="weather", history_type="weather",
        flight_id="EY1-20270120" if holds != "station" else None, flight_number="EY1" if holds != "station" else None,
        flight_date=DAY if holds != "station" else None, station="AUH" if holds == "station" else None, start=AT,
        end=AT + timedelta(hours=hours), report="held by fog",
    )  # fmt: skip


def _outcome(redecide: datetime | None, departs: datetime | None = None) -> Outcome:
    return Outcome(
        "E001", "run", "executed", "delay:60", 1.0, None, None,
        redecide.isoformat() if redecide else None, departs.isoformat() if departs else None,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("kind", "source", "expected"),
    [("delay", "policy", True), ("delay", "history", True), ("delay", "stated", False), ("tail_swap", "policy", False)],
)
def test_only_a_wait_on_an_estimate_the_report_did_not_state_is_looked_at_again(kind, source, expected):
    decision = {"redecide_at": "2027-01-20T10:30:00Z", "estimate": {"source": source}}
    assert (redecision_point(decision, {"kind": kind}) is not None) is expected
    assert redecision_point({"estimate": {"source": "policy"}}, {"kind": "delay"}) is None  # no point: nothing to do


def test_a_plan_is_decided_again_only_while_the_streams_cause_still_holds_it():
    point = AT + timedelta(hours=2)
    assert redecision_due(_event(hours=6), _outcome(point)) == point
    assert redecision_due(_event(hours=1), _outcome(point)) is None  # cleared before the point: nothing to look at
    assert redecision_due(_event(hours=6), _outcome(None)) is None
    assert redecision_due(_event("station", hours=6), _outcome(point)) is None  # a network plan is not re-run here


def test_a_wait_whose_cause_clears_well_before_its_departure_is_decided_again_when_it_clears():
    """The cause clears (the stream's end) before the approved wait leaves: the OCC is told then, and decides again
    with the cause's end known — for a wait on an estimate the report did not state, by more than EARLY_CLEARANCE."""
    cleared = _event(hours=2)  # clears at 11:00Z
    point = AT + timedelta(hours=5)
    assert cleared_early(cleared, _outcome(point, departs=AT + timedelta(hours=3))) == cleared.end
    assert cleared_early(cleared, _outcome(point, departs=cleared.end + EARLY_CLEARANCE - timedelta(minutes=1))) is None
    assert cleared_early(cleared, _outcome(None, departs=AT + timedelta(hours=3))) is None  # a stated estimate
    assert cleared_early(cleared, _outcome(point)) is None  # no wait's departure recorded
    assert cleared_early(_event("station", hours=2), _outcome(point, departs=AT + timedelta(hours=3))) is None
    assert redecision_due(cleared, _outcome(AT + timedelta(hours=3), departs=AT + timedelta(hours=4))) is None


def test_the_cleared_report_states_the_clearance_as_a_time_the_reader_reads():
    at = AT + timedelta(hours=2, minutes=25)
    told = cleared_report(_event(), at)
    assert told.startswith("held by fog")
    (estimate,) = stated_estimates(told)
    assert estimate.clock == (11, 25) and estimate.zone == "utc" and not estimate.departure


def _fog_hold(airline) -> StreamEvent:
    """A hub departure in the middle of the day held by fog for ten hours, the report stating no end."""
    flights = sorted(
        (f for f in airline.tables[s.FLIGHTS] if f.origin == "AUH" and f.flight_date == DAY),
        key=lambda f: abs((f.scheduled_departure - DAY_NOON).total_seconds()),
    )
    f = flights[0]
    at = f.scheduled_departure - timedelta(minutes=45)
    return StreamEvent(
        event_id="E001", at=at, holds="flight", family="weather", code=71, cause="weather", history_type="weather",
        flight_id=f.flight_id, flight_number=f.flight_number, flight_date=f.flight_date, start=at,
        end=at + timedelta(hours=10), report=plain_report("weather", f, "dense fog at AUH (RVR below 200 m)"),
    )  # fmt: skip


DAY_NOON = datetime(2027, 1, 20, 12, tzinfo=UTC)


def test_a_fog_hold_with_no_stated_end_is_decided_again_as_its_own_run_of_the_disruption(
    wf, account, airline, restore, tmp_path, monkeypatch
):
    monkeypatch.setenv("SKYMARSHAL_ONE_RUN_PER_FLIGHT", "1")  # the claim must let the re-decision in
    event = _fog_hold(airline)
    header = header_for(airline, "r")
    handle = account.handle()
    real_decide = wf.decide
    wf.decide = lambda name, answer, registry=None: restore.append(name) or real_decide(name, answer, registry)
    lines: list[str] = []
    try:
        outcomes = replay(
            Stream(header=header, events=(event,)),
            wf,
            ReplayProgress(tmp_path / "redecide.progress.jsonl"),
            lambda: tails_of(handle, [DAY]),
            echo=lines.append,
        )
    finally:
        wf.decide = real_decide
    first = outcomes[0]
    assert first.status == "executed" and first.kind and first.kind.startswith("delay"), first
    assert first.redecide_at is not None, "a wait on the policy's estimate carries its re-decision point"
    again = outcomes[1:]
    assert 1 <= len(again) <= MAX_REDECISIONS, lines
    assert (
        again[0].event_id == f"E001{REDECIDE_SUFFIX}1" and again[0].execution == f"{first.execution}{REDECIDE_SUFFIX}1"
    )
    assert again[0].status != "input_error", again[0].reason  # not refused by the flight's claim
    request = json.loads(wf.describe(again[0].execution)["input"])
    assert request["disruption_id"] == again[0].execution and request["redecides"] == first.execution
    assert datetime.fromisoformat(request["reported_at"].replace("Z", "+00:00")) == redecision_due(event, first)
