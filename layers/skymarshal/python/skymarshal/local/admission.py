"""Load that queues instead of starving (issue 48 item 6): the local functions share one process and its cores, so
runs started together would each run at a fraction of their speed — eight at once took an agent 118–138 s where
it takes 2 s alone, past its deadline. Invocations are admitted `slots` at a time, the oldest run's first (then in
the order they came), and a function's Lambda context — so an agent's deadline — starts when it is admitted: its
time counts what it ran, not what it waited for a core. In AWS each function has its own CPU and the same limit is
configuration (the Map's MaxConcurrency, reserved concurrency), not this code.
"""

from __future__ import annotations

import itertools
import os
import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager

SLOTS_ENV = "SKYMARSHAL_LOCAL_SLOTS"
# One round of one run at once: a run alone keeps all seven agents in flight (a model call waits on the network,
# not a core), and the runs behind it wait their turn instead of slowing it.
DEFAULT_SLOTS = 7
REMEMBERED_RUNS = 4096  # the order of this many runs is kept: bounded memory under any load


def slots_from_env() -> int:
    """`SKYMARSHAL_LOCAL_SLOTS` (a whole number ≥ 1), else the default; a bad value is refused on one line."""
    raw = os.environ.get(SLOTS_ENV, "").strip()
    if not raw:
        return DEFAULT_SLOTS
    if not raw.isdigit() or int(raw) < 1:
        raise ValueError(f"{SLOTS_ENV}={raw!r}: a whole number of concurrent invocations, at least 1")
    return int(raw)


class Admission:
    """At most `slots` invocations at once; a free slot goes to the waiting invocation of the run seen first."""

    def __init__(self, slots: int) -> None:
        if slots < 1:
            raise ValueError("at least one slot")
        self.slots = slots
        self._free = threading.Condition()
        self._running = 0
        self._waiting: list[tuple[int, int]] = []  # (run's order, arrival), admitted smallest first
        self._arrivals = itertools.count()
        self._runs: OrderedDict[str, int] = OrderedDict()
        self._next_run = itertools.count()

    @property
    def running(self) -> int:
        return self._running

    def _order(self, run: str | None) -> int:
        if run is None:
            return next(self._next_run)  # no run named: as a run of its own, arrived now
        if run not in self._runs:
            self._runs[run] = next(self._next_run)
            if len(self._runs) > REMEMBERED_RUNS:
                self._runs.popitem(last=False)
        return self._runs[run]

    @contextmanager
    def slot(self, run: str | None) -> Iterator[None]:
        """Wait for a slot (oldest run first), hold it while the body runs, then give it to the next in line."""
        with self._free:
            ticket = (self._order(run), next(self._arrivals))
            self._waiting.append(ticket)
            while self._running >= self.slots or min(self._waiting) != ticket:
                self._free.wait()
            self._waiting.remove(ticket)
            self._running += 1
            self._free.notify_all()  # the next in line may also fit
        try:
            yield
        finally:
            with self._free:
                self._running -= 1
                self._free.notify_all()


def run_of(event: dict) -> str | None:
    """The run an invocation belongs to, by what its payload names (the execution, else the disruption)."""
    for key in ("execution_id", "execution_name", "disruption_id"):
        if isinstance(event.get(key), str):
            return event[key]
    state = event.get("state")
    request = state.get("request") if isinstance(state, dict) else None
    found = request.get("disruption_id") if isinstance(request, dict) else None
    return found if isinstance(found, str) else None
