"""A short replay end to end on the emulated account: two events drawn from the session's airline through the
synthesized state machine, rank 1 approved and executed; interrupted after its first decision (before that
decision reached the progress file) and started again, it decides each event exactly once."""

from __future__ import annotations

import uuid
from collections import Counter
from datetime import date

import pytest

from skymarshal.cli.replay_run import ReplayProgress, replay
from skymarshal.cli.replay_scorecard import account_scorecard
from skymarshal.data import schema as s
from skymarshal.day.draw import draw_day
from skymarshal.day.state import tails_of
from skymarshal.day.stream import AirlineRef, Stream, StreamHeader
from skymarshal.workflow.models import REDECIDE_SUFFIX

DAY = date(2027, 1, 20)


def two_events(airline):
    crew_on: dict[str, list] = {}
    for row in airline.tables[s.CREW_ROSTER]:
        if row.flight_id and row.kind == "FLIGHT":
            crew_on.setdefault(row.flight_id, []).append(row)
    drawn = draw_day(
        airline.tables[s.DISRUPTION_HISTORY],
        airline.tables[s.FLIGHTS],
        DAY,
        "ordinary",
        11,
        lambda f: crew_on.get(f, []),
    )
    return tuple(e for e in drawn if e.holds in ("tail", "flight"))[:2]


def header_for(airline, prefix: str) -> StreamHeader:
    """A stream's header on the session's airline, its id fresh (runs are named after it)."""
    config = airline.config
    return StreamHeader(
        stream_id=f"{prefix}{uuid.uuid4().hex[:6]}",
        seed=11,
        intensity="ordinary",
        days=[DAY],
        airline=AirlineRef(seed=config.seed, start=config.start, days=config.days, load_factor=config.load_factor),
    )


def test_an_interrupted_replay_resumes_without_deciding_any_event_twice(wf, account, airline, restore, tmp_path):
    events = two_events(airline)
    assert len(events) == 2
    stream = Stream(header=header_for(airline, "t"), events=events)
    handle = account.handle()
    decided: Counter[str] = Counter()
    real_decide = wf.decide

    def counting(name, answer, registry=None):
        decided[name] += 1
        restore.append(name)
        return real_decide(name, answer, registry)

    wf.decide = counting
    progress = ReplayProgress(tmp_path / "day.progress.jsonl")
    real_record = progress.record

    def crash_once(outcome):
        progress.record = real_record
        raise KeyboardInterrupt  # Ctrl-C after the first decision executed, before it was written down

    progress.record = crash_once
    try:
        with pytest.raises(KeyboardInterrupt):
            replay(stream, wf, progress, lambda: tails_of(handle, [DAY]), echo=lambda _: None)
        lines: list[str] = []
        outcomes = replay(stream, wf, progress, lambda: pytest.fail("the tails are read once"), echo=lines.append)
    finally:
        wf.decide = real_decide
    assert [o.event_id for o in outcomes] == [e.event_id for e in events]
    assert all(n == 1 for n in decided.values()), decided
    assert len(progress.load()[1]) == 2
    assert not any(line.startswith("resuming") for line in lines)  # nothing was recorded before the crash
    again = replay(stream, wf, progress, lambda: {}, echo=lines.append)
    assert again == outcomes and lines[-1].startswith("resuming: 2 of 2")
    card = account_scorecard(handle, stream, outcomes, progress.load()[0] or {}, "rank1")
    assert card.decisions == 2 and card.escalated == sum(o.fell_back for o in outcomes)
    assert card.rotation_breaks == 0, card.rotation_break_notes


class RuleToTrigger:
    """A bus whose rule delivers each matching entry to the Trigger, as the deployed stack's does (synchronously
    here); counts the executions it started."""

    def __init__(self, wf):
        self.wf, self.started = wf, Counter()

    def put_events(self, Entries):
        from skymarshal.cli.run_cmds import _as_delivered
        from skymarshal.workflow.runs.trigger import start_for_event

        for entry in Entries:
            reply = start_for_event(
                _as_delivered(entry), executions=self.wf.execution_port, state_machine_arn=self.wf.arn
            )
            self.started[reply["execution_name"]] += reply["started"]
        return {"FailedEntryCount": 0, "Entries": [{"EventId": str(uuid.uuid4())} for _ in Entries]}


def test_a_replay_through_the_bus_names_each_run_by_its_event_and_a_resend_starts_nothing(
    wf, account, airline, restore, tmp_path
):
    from skymarshal.cli.replay_run import Bus, execution_name
    from skymarshal.workflow.runs.trigger import disruption_id_for

    event = two_events(airline)[0]
    stream = Stream(header=header_for(airline, "b"), events=(event,))
    bus = RuleToTrigger(wf)
    progress = ReplayProgress(tmp_path / "bus.progress.jsonl")
    real_decide = wf.decide
    wf.decide = lambda name, answer, registry=None: restore.append(name) or real_decide(name, answer, registry)
    try:
        outcomes = replay(stream, wf, progress, lambda: {}, echo=lambda _: None, bus=Bus(bus, "test-bus"))
    finally:
        wf.decide = real_decide
    name = disruption_id_for(execution_name(stream, event))
    assert outcomes[0].execution == name
    # a re-decision (the cause cleared early, or not by its point) is the replay's own run, named after the event
    assert all(o.execution.startswith(f"{execution_name(stream, event)}{REDECIDE_SUFFIX}") for o in outcomes[1:])
    request = __import__("json").loads(wf.describe(name)["input"])
    assert request["source"] == "eventbridge" and request["ops_date"] == DAY.isoformat()
    assert outcomes[0].status in ("executed", "escalated", "rejected", "input_error")
    from skymarshal.cli.replay_run import send
    from skymarshal.workflow.models import DisruptionRequest

    again = DisruptionRequest(disruption_id=execution_name(stream, event), prompt=event.report, ops_date=DAY)
    assert send(Bus(bus, "test-bus"), wf, again) == name  # a producer's retry meets the run: nothing new
    assert bus.started == Counter({name: 1})
