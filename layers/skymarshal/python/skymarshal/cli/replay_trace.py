"""Where the day is decided, for SkyMarshal's replay: the account's tables read before the first decision and
after each one (``day.state.from_handle``: Queries on keys and GSIs), and each event's cause and decision scored
the way the baselines' are (``day.trace``) — with what rank 1 was and what was executed, so a loss is traced to
the decision that made it. An event decided by an earlier, interrupted replay has no tables before it here: its
cost (and the next one's) is shown as not traced rather than guessed.
"""

from __future__ import annotations

from collections.abc import Callable

from ..day.realize import DayState
from ..day.stream import Stream
from ..day.trace import EventStep, Tracer, changes
from ..workflow.models import REDECIDE_SUFFIX
from .replay_run import Outcome


def choice(outcome: Outcome, before: DayState | None, after: DayState | None) -> str:
    """Rank 1 and what the replay executed (or the hold it fell back to)."""
    ranked = f"rank 1: {outcome.rank1}" if outcome.rank1 else "nothing ranked"
    if outcome.status != "executed":
        return f"{ranked}; {outcome.status} → hold"
    done = changes(before, after, crew=False) if before is not None and after is not None else outcome.kind
    return f"{ranked}; executed {outcome.kind or ''}: {done}"


class ReplayTracer:
    """Collects SkyMarshal's steps while a replay runs: `start()` before the first event, `after(outcome)` as the
    replay's ``after_event``. Only two table states are held at a time."""

    def __init__(self, stream: Stream, read: Callable[[], DayState], policy: str):
        self.stream, self.read = stream, read
        self.tracer = Tracer(f"skymarshal-{policy}", stream.header.days)
        self.before: DayState | None = None
        self.steps: list[EventStep] = []
        self.seen = -1  # the last stream event decided (a re-decision's causes are those reported so far)

    def start(self, already_decided: int) -> None:
        """The tables before the first event still to decide; none traced before it (decided by an earlier run)."""
        self.before = self.read()
        self.seen = already_decided - 1
        for e in self.stream.events[:already_decided]:
            self.steps.append(self.tracer.step(e, [], None, None, "decided by an earlier run (not traced)"))

    def after(self, outcome: Outcome) -> None:
        """A re-decision (`E001--redecide-1`) is a step of its own under its id, with the causes reported so far
        (none new: its cost is all the decision's)."""
        events = list(self.stream.events)
        root = outcome.event_id.split(REDECIDE_SUFFIX)[0]
        i = next(n for n, e in enumerate(events) if e.event_id == root)
        self.seen = max(self.seen, i)
        event = events[i] if root == outcome.event_id else events[i].model_copy(update={"event_id": outcome.event_id})
        after = self.read()
        known = events[: self.seen + 1]
        self.steps.append(self.tracer.step(event, known, self.before, after, choice(outcome, self.before, after)))
        self.before = after
