"""Where the day is decided: each event's cost to the day, split into what the cause did and what the policy's
decision did, so a loss is traced to the decision that made it.

For event i of a policy, with the tables before its decision (``before``), after it (``after``) and the events
revealed up to it (``known``) and before it (``earlier``), every figure a scorecard of the day (``score``):
- the cause's cost: the day before the decision with the event revealed, minus the same tables without it —
  what the event does to the day if nobody acts (the wait every policy starts from);
- the decision's cost: the day after the decision, minus the day before it, both with the same events — what
  the decision changed against waiting, knowing what the policy knew then.
The costs telescope: summed over a policy's events they are its day with every event, minus the quiet day. A
later event can make an earlier decision look better or worse than it did when taken; this is the cost as it
stood at the time, which is what a duty manager can be asked about.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date

from pydantic import BaseModel, ConfigDict

from .realize import DayState
from .scorecard import Scorecard, score
from .stream import StreamEvent


class Kpis(BaseModel):
    """The scorecard's figures a decision is judged on (a difference of two days when it is a cost)."""

    model_config = ConfigDict(frozen=True)

    passenger_delay_minutes: int
    cost_usd: float  # EU261/UK261 compensation + care + operating cost
    cancellations: int
    stranded_overnight: int
    d15: float
    crew_violations: int

    @classmethod
    def of(cls, card: Scorecard) -> Kpis:
        return cls(
            passenger_delay_minutes=card.passenger_delay_minutes,
            cost_usd=round(card.compensation_usd + card.care_usd + card.operating_cost_usd, 2),
            cancellations=card.cancellations,
            stranded_overnight=card.stranded_overnight,
            d15=card.d15,
            crew_violations=card.crew_violations,
        )

    def minus(self, other: Kpis) -> Kpis:
        return Kpis(
            passenger_delay_minutes=self.passenger_delay_minutes - other.passenger_delay_minutes,
            cost_usd=round(self.cost_usd - other.cost_usd, 2),
            cancellations=self.cancellations - other.cancellations,
            stranded_overnight=self.stranded_overnight - other.stranded_overnight,
            d15=round(self.d15 - other.d15, 4),
            crew_violations=self.crew_violations - other.crew_violations,
        )


class EventStep(BaseModel):
    """One policy's answer to one event and its cost to the day."""

    model_config = ConfigDict(frozen=True)

    event_id: str
    policy: str
    choice: str  # what the policy decided (a baseline's actions; SkyMarshal's rank 1 and what was executed)
    cause: Kpis | None  # None: the tables before the decision were not kept (a resumed replay)
    decision: Kpis | None


Scorer = Callable[[DayState, Sequence[StreamEvent]], Scorecard]


class Tracer:
    """Scores the day around each decision of one policy: the day before the first event is the quiet day."""

    def __init__(self, policy: str, days: Sequence[date], scorer: Scorer | None = None):
        self.policy, self.days = policy, list(days)
        self._previous: Kpis | None = None  # the day after the last decision, with the events known then
        # a caller's scorer may answer from its memo (a greedy baseline has already scored the day it chose)
        self.score: Scorer = scorer or (lambda state, known: score(self.policy, state, known, self.days))

    def step(
        self,
        event: StreamEvent,
        known: Sequence[StreamEvent],
        before: DayState | None,
        after: DayState | None,
        choice: str,
    ) -> EventStep:
        if before is None or after is None:
            self._previous = None
            return EventStep(event_id=event.event_id, policy=self.policy, choice=choice, cause=None, decision=None)
        earlier = self._previous or Kpis.of(self.score(before, known[:-1]))
        held = Kpis.of(self.score(before, known))
        decided = held if after is before else Kpis.of(self.score(after, known))
        self._previous = decided
        return EventStep(
            event_id=event.event_id,
            policy=self.policy,
            choice=choice,
            cause=held.minus(earlier),
            decision=decided.minus(held),
        )


def changes(before: DayState, after: DayState, crew: bool = True) -> str:
    """What a decision wrote, in an OCC's words: flights cancelled, retimed, moved to another tail, crew replaced
    by reserves (`crew`: compared; an account's crews are read lazily, one Query a flight, so not there); "wait"
    when it wrote nothing (the flights wait until the cause lets them go)."""
    cancelled, retimed, moved, reserves = [], [], [], []
    for fid, f in after.flights.items():
        old = before.flights.get(fid)
        if old is None:
            continue
        if f.status == "CANCELLED" and old.status != "CANCELLED":
            cancelled.append(f"{f.flight_number}/{f.flight_date:%d}")  # a rotation's numbers recur day after day
        elif f.aircraft_registration != old.aircraft_registration:
            moved.append(f"{f.flight_number}→{f.aircraft_registration}")
        elif f.departure != old.departure:
            retimed.append(f"{f.flight_number} {f.departure:%H:%MZ}")
        if crew and after.crew_on.get(fid) is not before.crew_on.get(fid):
            ids_before = {r.crew_id for r in before.crew_on.get(fid, ())}
            added = [r.crew_id for r in after.crew_on.get(fid, ()) if r.crew_id not in ids_before]
            if added:
                reserves.append(f"{len(added)} on {f.flight_number}")
    parts = [
        f"cancel {', '.join(sorted(cancelled))}" if cancelled else "",
        f"swap {', '.join(sorted(moved))}" if moved else "",
        f"reserves {', '.join(sorted(reserves))}" if reserves else "",
        f"retime {', '.join(sorted(retimed))}" if retimed else "",
    ]
    return "; ".join(p for p in parts if p) or "wait"


def _signed(value: float, fmt: str) -> str:
    return ("+" if value > 0 else "") + fmt.format(value)


def describe_cost(k: Kpis | None) -> str:
    if k is None:
        return "not traced (resumed)"
    return (
        f"{_signed(k.passenger_delay_minutes, '{:,}')} pax-min, {_signed(k.cost_usd, '{:,.0f}')} USD, "
        f"{_signed(k.cancellations, '{:d}')} cnl, {_signed(k.stranded_overnight, '{:d}')} overnight, "
        f"{_signed(k.crew_violations, '{:d}')} crew, D15 {_signed(k.d15 * 100, '{:.1f}')} pt"
    )


def trace_table(events: Sequence[StreamEvent], steps: Sequence[EventStep], title: str = "") -> str:
    """Per event: the event, then each policy's choice, the cause's cost and the decision's cost to the day."""
    by_event: dict[str, list[EventStep]] = {}
    for s in steps:
        by_event.setdefault(s.event_id, []).append(s)
    width = max((len(s.policy) for s in steps), default=8) + 2
    lines = [title] if title else []
    for e in events:
        lines.append(f"{e.at:%H:%MZ} {e.event_id} {e.holds} {e.cause} {e.minutes} min: {e.report[:80]}")
        for s in by_event.get(e.event_id, []):
            lines.append(
                f"  {s.policy:{width}s}{s.choice[:70]}\n  {'':{width}s}  cause {describe_cost(s.cause)}"
                f"\n  {'':{width}s}  decision {describe_cost(s.decision)}"
            )
    return "\n".join(lines)
