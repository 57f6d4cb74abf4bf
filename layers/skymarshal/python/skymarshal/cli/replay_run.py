"""The replay driver: a stream's events in time order through the real workflow on one account, each decision
made under a policy and executed, so the next disruption sees the state the last one left.

Policies (the duty manager's answer to each pending decision):
- ``rank1``: approve the arbitrator's rank 1.
- ``scripted``: a duty manager who avoids cancelling — the best-ranked plan that cancels nothing, else rank 1.
A run that escalates (the safety gate, no valid plan, a report the reader refuses) executes nothing: it counts
as the policy's documented fallback, **hold** — the disrupted flights wait until the cause clears, which is what
the tables then show with the stream's facts applied (``day.realize``) — and as escalated, never as skipped.

An executed wait on an estimate the report did not state is decided again at its re-decision point while the
stream's cause still holds the flight, or when the cause clears well before the wait's departure (``cleared_early``):
a disruption of its own, ``ID--redecide-N``.

Progress: one JSON line per decided event in a progress file (the first line holds each flight's tail before
the replay, for counting tail swaps). A replay interrupted (Ctrl-C, a crash) and started again skips the
events already decided; an event whose run had started carries on with that run (its execution name derives
from the stream and the event, so starting it again starts nothing new), so no event is decided twice.
"""

from __future__ import annotations

import heapq
import json
import os
import re
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from ..day.stream import Stream, StreamEvent
from ..workflow.deployment import DETAIL_TYPE, SOURCE
from ..workflow.models import REDECIDE_SUFFIX, ApprovalDecision, DisruptionRequest, base_name
from ..workflow.runs.client import RunNotFound
from ..workflow.runs.trigger import disruption_id_for, start

POLICIES = ("rank1", "scripted")
DECIDED_BY = {"rank1": "Replay Duty Manager (rank 1)", "scripted": "Replay Duty Manager (scripted)"}
RUN_TIMEOUT_S = 900
DELIVERY_TIMEOUT_S = 120  # from PutEvents to the Trigger's execution


@dataclass(frozen=True)
class Bus:
    """A deployed stack's disruption bus: a replay against it sends each report as an event the rule delivers to
    the Trigger, as any producer would (`events`: a boto3 EventBridge client)."""

    events: Any
    name: str


@dataclass(frozen=True)
class Outcome:
    event_id: str
    execution: str
    status: str  # executed | escalated | rejected | input_error | failed
    kind: str | None  # the executed plan's kind (tail_swap, delay, cancel, ...)
    seconds: float  # wall time from the report to the executed (or escalated) end, the duty manager's answer included
    reason: str | None = None  # why nothing was executed (the run's error or escalation), on one line
    rank1: str | None = None  # the arbitrator's rank 1 when the decision was asked for ("kind: title")
    # when the approved plan is looked at again if its cause has not cleared (ISO; None: it does not wait on it)
    redecide_at: str | None = None
    # the approved wait's departure (ISO), for a plan with a re-decision point: a cause that clears well before it
    # is decided again when it clears (``cleared_early``)
    departs_at: str | None = None

    @property
    def fell_back(self) -> bool:
        return self.status != "executed"


class ReplayProgress:
    """The progress file of one replay: the tails before it, then one line per decided event (appended and
    flushed to disk before the next event starts)."""

    def __init__(self, path: Path):
        self.path = path

    def load(self) -> tuple[dict[str, str] | None, dict[str, Outcome]]:
        if not self.path.exists():
            return None, {}
        tails, decided = None, {}
        for line in self.path.read_text().splitlines():
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                continue  # a line torn by a crash: that event was not recorded, so it is decided (resumed) again
            if "tails" in row:
                tails = row["tails"]
            elif "event_id" in row:
                decided[row["event_id"]] = Outcome(**row)
        return tails, decided

    def _append(self, row: dict[str, Any]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a") as out:
            out.write(json.dumps(row) + "\n")
            out.flush()
            os.fsync(out.fileno())

    def start(self, tails: dict[str, str]) -> None:
        self._append({"tails": tails})

    def record(self, outcome: Outcome) -> None:
        self._append(asdict(outcome))


def execution_name(stream: Stream, event: StreamEvent) -> str:
    return re.sub(r"[^A-Za-z0-9_-]", "-", f"day-{stream.header.stream_id}-{event.event_id}")[:80]


def answer(policy: str, decision: dict) -> ApprovalDecision:
    """The policy's answer to a pending decision."""
    who = DECIDED_BY[policy]
    ranked = decision.get("ranked") or []
    if policy == "scripted" and ranked and ranked[0]["scenario"].get("kind") == "cancel":
        keep = next((r for r in ranked[1:] if r["scenario"].get("kind") != "cancel"), None)
        if keep is not None:
            return ApprovalDecision(
                action="select",
                scenario_id=keep["scenario"]["scenario_id"],
                decided_by=who,
                comment="scripted duty manager: the best-ranked plan that cancels nothing",
            )
    return ApprovalDecision(action="approve", decided_by=who, comment=f"replay policy {policy}")


def _status(client, name: str) -> tuple[str, str | None, str | None]:
    """(status, the approved plan's kind or id, why nothing was executed)."""
    described = client.describe(name)
    output = client.output(name) or {}
    execution = output.get("execution") or {}
    if described["status"] == "SUCCEEDED":
        status = (output.get("outcome") or {}).get("status", "failed")
    else:
        status = "input_error" if described.get("error") in ("InvalidDisruption", "InputError") else "failed"
    if execution.get("status") == "executed":
        return "executed", (output.get("approval") or {}).get("scenario_id"), None
    escalation = output.get("escalation") or {}
    reason = escalation.get("message") or escalation.get("reason") or _cause(described.get("cause"))
    return status, None, (reason or status)[:300]


def _cause(cause: str | None) -> str | None:
    """A failed run's message, not its JSON envelope (a Lambda error's cause is {"errorMessage": ...})."""
    if not cause:
        return None
    try:
        return str(json.loads(cause).get("errorMessage", cause))
    except (ValueError, AttributeError):
        return cause


def send(bus: Bus, client, request: DisruptionRequest) -> str | None:
    """The report on the bus, named by its disruption id (sent again after a crash, it starts nothing new); the
    execution the Trigger starts for it, once it exists (None: none within DELIVERY_TIMEOUT_S)."""
    detail = {
        "prompt": request.prompt,
        "disruption_id": request.disruption_id,
        "ops_date": request.ops_date.isoformat() if request.ops_date else None,
        "reported_by": request.requested_by,
    }
    reply = bus.events.put_events(
        Entries=[{"Source": SOURCE, "DetailType": DETAIL_TYPE, "Detail": json.dumps(detail), "EventBusName": bus.name}]
    )
    if reply.get("FailedEntryCount"):
        from .common import CliError

        entry = reply["Entries"][0]
        raise CliError(f"the bus refused the report: {entry.get('ErrorCode')}: {entry.get('ErrorMessage')}")
    name = disruption_id_for(request.disruption_id)
    deadline = time.monotonic() + DELIVERY_TIMEOUT_S
    while time.monotonic() < deadline:
        try:
            client.describe(name)
            return name
        except RunNotFound:
            time.sleep(1.0)
    return None


def redecision_point(decision: dict, approved: dict) -> str | None:
    """When the approved plan is looked at again (issue 46 item 1): the decision's re-decision point, for a plan that
    waits on the cause with the flight's own aircraft and crew (a delay) on an estimate the report did not state — a
    swap, a cancellation or a rescue no longer waits on it, and a stated estimate not met is the reporter's to
    restate (the same words again would contradict the clock)."""
    estimate = decision.get("estimate") or {}
    if approved.get("kind") != "delay" or not decision.get("redecide_at") or estimate.get("source") == "stated":
        return None
    return str(decision["redecide_at"])


def _approved(decision: dict, reply: ApprovalDecision) -> dict:
    ranked = [r.get("scenario") or {} for r in decision.get("ranked") or []]
    if reply.action == "select":
        return next((s for s in ranked if s.get("scenario_id") == reply.scenario_id), {})
    return ranked[0] if ranked and reply.action == "approve" else {}


def decide_event(
    client,
    stream: Stream,
    event: StreamEvent,
    policy: str,
    bus: Bus | None = None,
    *,
    redecides: tuple[str, int, datetime] | None = None,
    report: str | None = None,
) -> Outcome:
    """One event through the workflow: started (or picked up where a crash left it), decided, executed.
    `redecides`: (the event's first run, n, when) — the disruption decided again at its n-th re-decision point, the
    report read with that moment's clock: a disruption of its own, `ID--redecide-n`, that takes the flight's claim
    from the one it follows (`DisruptionRequest.redecides`) and executes a plan of its own. `report`: what the OCC
    is told then, when it is more than the event's report (the cause cleared: ``cleared_report``)."""
    started = time.monotonic()
    name = execution_name(stream, event)
    day = event.flight_date or event.start.date()
    event_id = event.event_id
    follows = None
    if redecides is not None:  # named after the replay's own id (a bus's run id may already use all 64 characters)
        first, n, _ = redecides
        stem = f"{name[: 64 - len(REDECIDE_SUFFIX) - 1]}{REDECIDE_SUFFIX}"
        follows = first if n == 1 else f"{stem}{n - 1}"
        name, event_id = f"{stem}{n}", f"{event_id}{REDECIDE_SUFFIX}{n}"
    request = DisruptionRequest(
        disruption_id=name,
        prompt=report or event.report,
        source="cli",
        requested_by=DECIDED_BY[policy],
        reported_at=redecides[2] if redecides else event.at,
        ops_date=day,
        redecides=follows,
    )
    if redecides is not None or bus is None:  # a re-decision is the replay's own clock, never a producer's event
        start(request, executions=client.execution_port, state_machine_arn=client.arn)
    else:
        delivered = send(bus, client, request)
        if delivered is None:
            return Outcome(
                event.event_id,
                request.disruption_id,
                "failed",
                None,
                round(time.monotonic() - started, 1),
                f"the bus delivered no run within {DELIVERY_TIMEOUT_S} s: is the rule's target the Trigger?",
            )
        name = delivered
    progress = client.follow(name, timeout_s=RUN_TIMEOUT_S, poll_s=0.5)
    if progress.status == "ABORTED":  # local AWS restarted under the run: continue it from its checkpoints
        name = client.resume(name)["execution_name"]
        progress = client.follow(name, timeout_s=RUN_TIMEOUT_S, poll_s=0.5)
    rank1, again, departs = None, None, None
    while progress.awaiting_approval:
        decision = client.decision(name) or {}
        rank1 = rank1 or _rank1(decision)
        reply = answer(policy, decision)
        approved = _approved(decision, reply)
        again = redecision_point(decision, approved)
        departs = approved.get("departure") if again else None
        client.decide(name, reply)
        progress = client.follow(name, timeout_s=RUN_TIMEOUT_S, poll_s=0.5)
    status, kind, reason = _status(client, name)
    return Outcome(
        event_id,
        name,
        status,
        kind,
        round(time.monotonic() - started, 1),
        reason,
        rank1,
        again if status == "executed" else None,
        str(departs) if departs and status == "executed" else None,
    )


def _rank1(decision: dict) -> str | None:
    """The first ranked plan of a pending decision, as "kind: title" (None: nothing ranked)."""
    ranked = decision.get("ranked") or []
    if not ranked:
        return None
    scenario = ranked[0].get("scenario") or {}
    return f"{scenario.get('kind', '?')}: {scenario.get('title', scenario.get('scenario_id', '?'))}"


MAX_REDECISIONS = 4  # per event: how often the replay's duty manager looks again at a cause that has not cleared
# A cause that clears at least this long before the approved wait's departure is decided again when it clears (the
# station, the engineers or ATC tell the OCC); sooner than that, the wait stands
EARLY_CLEARANCE = timedelta(minutes=15)


def redecision_due(event: StreamEvent, outcome: Outcome) -> datetime | None:
    """When the executed plan of `event` is decided again: its re-decision point, if the stream's cause of one
    flight (its tail, its crew, the flight itself) has not cleared by then — what the OCC sees at that moment."""
    if outcome.redecide_at is None or event.holds not in ("flight", "tail", "crew"):
        return None
    at = datetime.fromisoformat(outcome.redecide_at.replace("Z", "+00:00"))
    return at if event.start <= at < event.end else None


def cleared_early(event: StreamEvent, outcome: Outcome) -> datetime | None:
    """When the executed wait of `event` is decided again because its cause cleared well before the wait's
    departure: the stream's end of the cause of one flight (its tail, its crew, the flight itself), for a wait on
    an estimate the report did not state (one with a re-decision point) — the moment the OCC learns it cleared.
    ``cause_hold``: "if the cause clears sooner, the decision is taken again then"."""
    if outcome.redecide_at is None or outcome.departs_at is None or event.holds not in ("flight", "tail", "crew"):
        return None
    departs = datetime.fromisoformat(outcome.departs_at.replace("Z", "+00:00"))
    return event.end if event.at < event.end <= departs - EARLY_CLEARANCE else None


def cleared_report(event: StreamEvent, at: datetime) -> str:
    """The event's report with the news that its cause cleared at `at` — a stated time, so the decision is taken
    with the cause's end known."""
    return f"{event.report} UPDATE: cause cleared at {at:%H%M}Z."


def replay(
    stream: Stream,
    client,
    progress: ReplayProgress,
    tails: Callable[[], dict[str, str]],
    *,
    policy: str = "rank1",
    echo: Callable[[str], None] = print,
    after_event: Callable[[Outcome], None] | None = None,
    bus: Bus | None = None,
    repaired: Callable[[datetime], object] | None = None,
) -> list[Outcome]:
    """Every event not yet decided, in time order, each executed plan that waits on a cause decided again at its
    re-decision point while the cause has not cleared (up to MAX_REDECISIONS times, in time order with the
    events); the outcomes of the whole replay (earlier ones included), the re-decisions after the events.
    `repaired(now)` tells the account what maintenance has signed off by each decision (day/repairs.py)."""
    news = repaired or (lambda now: None)
    before, decided = progress.load()
    if before is None:
        progress.start(tails())
    if decided:
        echo(f"resuming: {len(decided)} of {len(stream.events)} event(s) already decided")
    # (when, tie-break, event, its n-th re-decision, whether its cause has cleared by then)
    due: list[tuple[datetime, int, StreamEvent, int, bool]] = []
    again: list[str] = []

    def look_again(event: StreamEvent, outcome: Outcome, n: int) -> None:
        at, cleared = redecision_due(event, outcome), False
        if at is None:
            at, cleared = cleared_early(event, outcome), True
        if at is not None and n <= MAX_REDECISIONS:
            heapq.heappush(due, (at, len(again) + len(due), event, n, cleared))

    def settle(until: datetime | None) -> None:
        while due and (until is None or due[0][0] <= until):
            at, _, event, n, cleared = heapq.heappop(due)
            key = f"{event.event_id}{REDECIDE_SUFFIX}{n}"
            outcome = decided.get(key)
            if outcome is None:
                news(at)
                first = base_name(decided[event.event_id].execution)  # through a bus, the run the rule started
                told = cleared_report(event, at) if cleared else None
                outcome = decide_event(client, stream, event, policy, bus, redecides=(first, n, at), report=told)
                progress.record(outcome)
                decided[key] = outcome
                why = "cleared before the wait's departure" if cleared else "not cleared"
                echo(f"      {at:%H:%MZ} {key} {outcome.status} ({outcome.seconds:.0f} s)  {why}: decided again")
                if after_event is not None:
                    after_event(outcome)
            again.append(key)
            look_again(event, outcome, n + 1)

    for n, event in enumerate(stream.events, 1):
        settle(event.at)
        if event.event_id in decided:
            look_again(event, decided[event.event_id], 1)
            continue
        news(event.at)
        outcome = decide_event(client, stream, event, policy, bus)
        progress.record(outcome)
        decided[event.event_id] = outcome
        fallback = f" → fallback: hold ({outcome.reason})" if outcome.fell_back else ""
        echo(
            f"  {n:3d}/{len(stream.events)} {event.at:%H:%MZ} {event.event_id} {outcome.status}{fallback} ({outcome.seconds:.0f} s)  {event.report[:90]}"
        )
        if after_event is not None:
            after_event(outcome)
        look_again(event, outcome, 1)
    settle(None)
    return [decided[e.event_id] for e in stream.events] + [decided[k] for k in again]


def tails_before(progress: ReplayProgress) -> dict[str, str]:
    tails, _ = progress.load()
    return tails or {}
