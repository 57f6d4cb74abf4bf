"""The outbox closes (issue 48 item 3): Execute killed between storing a plan's messages and publishing them, then
recovered — by the retried step (`write(None, resend=True)`) or by the sweep at start-up — publishes every message
exactly once by id; a bus that refused some entries gets only those again; a run whose messages are all published
is left alone. The store is an in-memory ObjectStore, the bus EventBridge's PutEvents answered as the service
answers it (an EventId per entry taken), so the ids counted are the ones a consumer would see."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from memory_ports import MemoryObjects
from test_publish import Events, _message, _plan

from skymarshal.workflow.aws.events import EventBridgeBus
from skymarshal.workflow.execution import outbox
from skymarshal.workflow.execution.publish import MessageBus
from skymarshal.workflow.payloads import ArtifactStore, run_key

pytestmark = pytest.mark.unit
WHERE = {"disruption_id": "d-1", "execution_name": "d-1"}


class Killed(BaseException):
    """The Lambda dying: nothing in the step catches it."""


class KilledBus:
    """A bus whose first PutEvents never returns: the process dies there."""

    def put(self, entries):
        raise Killed("Execute killed between storing and publishing")


def _ids(events: Events) -> Counter:
    return Counter(json.loads(entry["Detail"])["message_id"] for entry in events.put)


def _store() -> ArtifactStore:
    return ArtifactStore("artifacts", MemoryObjects())


def _kill_after_storing(store: ArtifactStore, n: int) -> None:
    with pytest.raises(Killed):
        outbox.write(_plan([_message(i) for i in range(n)]), store=store, bus=MessageBus("bus", KilledBus()), **WHERE)
    stored = store.get(run_key("d-1", "d-1", "messages"))
    assert stored is not None and stored["publication"] is None  # stored, never published: pending


@settings(max_examples=25, deadline=None)
@given(n=st.integers(0, 25))
def test_a_kill_between_storing_and_publishing_is_published_once_by_the_retried_step(n):
    store, events = _store(), Events()
    _kill_after_storing(store, n)
    bus = MessageBus("bus", EventBridgeBus(events))
    sent = outbox.write(None, store=store, bus=bus, resend=True, **WHERE)  # the retried Execute builds nothing
    assert sent["publication"]["status"] == "published" and sent["publication"]["published"] == n + 1
    assert _ids(events) == Counter({f"d-1/d-1/{i}": 1 for i in range(n)} | {"d-1/d-1/contacts": 1})
    outbox.write(None, store=store, bus=bus, resend=True, **WHERE)  # a further retry sends nothing again
    assert outbox.sweep(store, bus=bus) == {"runs": 0, "pending": 0, "published": 0}  # all published: no marker
    assert all(count == 1 for count in _ids(events).values())


def test_the_sweep_publishes_what_no_retry_came_back_for():
    store, events = _store(), Events()
    _kill_after_storing(store, 3)
    counts = outbox.sweep(store, bus=MessageBus("bus", EventBridgeBus(events)))
    assert counts == {"runs": 1, "pending": 1, "published": 4}
    assert sorted(_ids(events)) == ["d-1/d-1/0", "d-1/d-1/1", "d-1/d-1/2", "d-1/d-1/contacts"]
    publication = store.get(run_key("d-1", "d-1", "messages"))["publication"]
    assert publication["published"] == 4 and publication["failed"] == [] and len(publication["sent"]) == 4
    assert outbox.sweep(store, bus=MessageBus("bus", EventBridgeBus(events))) == {
        "runs": 0,
        "pending": 0,
        "published": 0,
    }


def test_the_sweep_reads_only_the_runs_marked_pending():
    """A run whose messages were all published leaves no marker: the sweep neither lists nor reads it."""
    store, events = _store(), Events()
    outbox.write(_plan([_message(0)]), store=store, bus=MessageBus("bus", EventBridgeBus(events)), **WHERE)
    assert store.objects.keys(store.bucket, outbox.PENDING_PREFIX) == []
    store.objects.put(store.bucket, outbox.pending_key("d-2", "d-2"), b"{}")  # cut short before storing anything
    assert outbox.sweep(store, bus=MessageBus("bus", EventBridgeBus(events))) == {
        "runs": 1,
        "pending": 0,
        "published": 0,
    }
    assert store.objects.keys(store.bucket, outbox.PENDING_PREFIX) == []


def test_entries_the_bus_refused_are_sent_again_and_only_they():
    store = _store()
    refusing = Events(refuse=frozenset({"EY1-20270120"}))
    sent = outbox.write(
        _plan([_message(i) for i in range(3)]), store=store, bus=MessageBus("bus", EventBridgeBus(refusing)), **WHERE
    )
    assert sent["publication"]["status"] == "partly_published" and sent["publication"]["published"] == 3
    events = Events()
    counts = outbox.sweep(store, bus=MessageBus("bus", EventBridgeBus(events)))
    assert counts == {"runs": 1, "pending": 1, "published": 1}
    assert list(_ids(events)) == ["d-1/d-1/1"]  # the refused one, once; the others not again
    assert (
        outbox.flush(store=store, bus=MessageBus("bus", EventBridgeBus(events)), **WHERE)["publication"]["status"]
        == "published"
    )


def test_a_rolled_back_plan_publishes_nothing_even_with_messages_stored():
    store, events = _store(), Events()
    _kill_after_storing(store, 2)
    assert outbox.write(None, store=store, bus=MessageBus("bus", EventBridgeBus(events)), resend=False, **WHERE) == {}
    assert events.put == []


def test_the_sweep_names_the_messages_it_rewrote_in_the_audit_and_the_chain_verifies():
    """The execution's audit record hashed the stored messages while the bus had refused one; the sweep publishes it
    and rewrites them: its own audit record names them as they now are, so the chain verifies (issue 48's fault
    bench: ARTIFACT_CHANGED), and an edit made after that is still caught."""
    from memory_ports import MemoryAuditStore, MemorySigner

    from skymarshal.workflow.audit.trail import AuditTrail
    from skymarshal.workflow.steps.decision import publication_noted

    store = _store()
    trail = AuditTrail(store=MemoryAuditStore(), signer=MemorySigner("k"), key_id="k", objects=store.objects)
    refusing = Events(refuse=frozenset({"EY1-20270120"}))
    outbox.write(
        _plan([_message(i) for i in range(3)]), store=store, bus=MessageBus("bus", EventBridgeBus(refusing)), **WHERE
    )
    key = run_key("d-1", "d-1", "messages")
    trail.append(
        "d-1", "execution", "execution:d-1", {"messages_artifact": trail.artifact("artifacts", key)}, actor="x"
    )
    noted = publication_noted(trail, store)
    assert outbox.sweep(store, bus=MessageBus("bus", EventBridgeBus(Events())), noted=noted)["published"] == 1
    assert [r.kind for r in trail.records("d-1")] == ["execution", "messages_published"]
    assert trail.verify("d-1").ok, trail.verify("d-1").problems
    assert outbox.sweep(store, bus=MessageBus("bus", EventBridgeBus(Events())), noted=noted)["published"] == 0
    assert len(trail.records("d-1")) == 2  # nothing rewritten, nothing recorded
    store.objects.put("artifacts", key, b'{"edited": true}')
    assert "ARTIFACT_CHANGED" in {p.code for p in trail.verify("d-1").problems}


def test_a_sweep_the_bus_refuses_wholly_still_leaves_a_chain_that_verifies():
    """Killed before any publication, then swept while the bus takes nothing: the stored messages change (no
    publication → not published) though no event was taken; the audit names them again, and a further sweep that
    changes nothing rewrites nothing and records nothing."""
    from memory_ports import MemoryAuditStore, MemorySigner

    from skymarshal.workflow.audit.trail import AuditTrail
    from skymarshal.workflow.steps.decision import publication_noted

    store = _store()
    trail = AuditTrail(store=MemoryAuditStore(), signer=MemorySigner("k"), key_id="k", objects=store.objects)
    _kill_after_storing(store, 2)
    key = run_key("d-1", "d-1", "messages")
    trail.append(
        "d-1", "execution", "execution:d-1", {"messages_artifact": trail.artifact("artifacts", key)}, actor="x"
    )
    down = Events(down=frozenset(range(1, 10)))  # every PutEvents call fails outright
    noted = publication_noted(trail, store)
    outbox.sweep(store, bus=MessageBus("bus", EventBridgeBus(down)), noted=noted)
    assert down.put == [] and trail.verify("d-1").ok, trail.verify("d-1").problems
    assert [r.kind for r in trail.records("d-1")] == ["execution", "messages_published"]
    before = store.objects.get("artifacts", key)
    outbox.sweep(store, bus=MessageBus("bus", EventBridgeBus(Events(down=frozenset(range(1, 10))))), noted=noted)
    assert store.objects.get("artifacts", key) == before and len(trail.records("d-1")) == 2
    assert trail.verify("d-1").ok
