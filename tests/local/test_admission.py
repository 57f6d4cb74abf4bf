"""Load that queues (issue 48 item 6): the local functions are admitted a few at a time, the oldest run's first, and
a function's context — an agent's deadline — starts when it is admitted, not while it waits."""

from __future__ import annotations

import threading
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skymarshal.local import admission as adm
from skymarshal.local import workflow as local_workflow

pytestmark = pytest.mark.unit


def _hold(gate: adm.Admission, run: str, seen: list, peak: list, release: threading.Event) -> None:
    with gate.slot(run):
        seen.append(run)
        peak.append(gate.running)
        release.wait(5)


@settings(max_examples=25, deadline=None)
@given(slots=st.integers(1, 4), runs=st.lists(st.sampled_from("abc"), min_size=1, max_size=10))
def test_never_more_than_the_slots_run_at_once_and_every_invocation_is_admitted(slots, runs):
    gate, seen, peak, release = adm.Admission(slots), [], [], threading.Event()
    threads = [threading.Thread(target=_hold, args=(gate, r, seen, peak, release)) for r in runs]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 5
    while len(seen) < min(slots, len(runs)) and time.monotonic() < deadline:
        time.sleep(0.005)
    assert len(seen) == min(slots, len(runs))  # the slots fill, no more
    release.set()
    for t in threads:
        t.join(5)
    assert sorted(seen) == sorted(runs) and max(peak) <= slots and gate.running == 0


def test_a_free_slot_goes_to_the_oldest_run_first_whatever_order_its_invocations_came():
    gate, order = adm.Admission(1), []
    first = threading.Event()

    def task(run: str, wait: threading.Event | None = None) -> None:
        with gate.slot(run):
            order.append(run)
            if wait is not None:
                wait.wait(5)

    holder = threading.Thread(target=task, args=("old", first))
    holder.start()
    while gate.running == 0:
        time.sleep(0.005)
    threads = [threading.Thread(target=task, args=(r,)) for r in ("new", "newer", "old")]  # old's second call last
    for t in threads:
        t.start()
        time.sleep(0.05)  # arrive in this order
    first.set()
    for t in [holder, *threads]:
        t.join(5)
    assert order == ["old", "old", "new", "newer"]


def test_the_run_is_read_from_what_each_step_is_given():
    assert adm.run_of({"execution_id": "r1", "agent": "finance"}) == "r1"  # an agent's Map item
    assert adm.run_of({"execution_name": "r2"}) == "r2"  # Validate
    assert adm.run_of({"state": {"request": {"disruption_id": "r3"}}}) == "r3"  # Arbitrate, Execute, Learn
    assert adm.run_of({"state": "not a dict"}) is None


@pytest.mark.parametrize("raw", ["0", "-2", "seven", "1.5"])
def test_a_bad_slot_count_is_refused_on_one_line(monkeypatch, raw):
    monkeypatch.setenv(adm.SLOTS_ENV, raw)
    with pytest.raises(ValueError, match=adm.SLOTS_ENV):
        adm.slots_from_env()


def test_a_functions_deadline_starts_when_it_is_admitted_not_while_it_queues(monkeypatch):
    """With the one slot taken for 0.3 s, a queued invocation still finds its whole time remaining when it runs."""
    remaining: list[int] = []
    gate = adm.Admission(1)
    monkeypatch.setattr(local_workflow._registry, "admission", gate)
    monkeypatch.setattr(local_workflow._registry, "wrap", None)
    monkeypatch.setitem(
        local_workflow._registry.functions, "Probe", lambda e, c: remaining.append(c.get_remaining_time_in_millis())
    )
    release = threading.Event()
    holder = threading.Thread(target=lambda: _hold(gate, "other", [], [], release))
    holder.start()
    while gate.running == 0:
        time.sleep(0.005)
    caller = threading.Thread(target=local_workflow._dispatch, args=(None, "Probe", None, b"{}", {}, {}))
    caller.start()
    time.sleep(0.3)
    assert remaining == []  # still queued
    release.set()
    for t in (holder, caller):
        t.join(5)
    (left,) = remaining
    assert left > 900_000 - 200  # the 0.3 s in the queue did not count
