"""What Execute sends: the approved plan's messages and contact list (messages/), written beside the execution's
report as the run artifact `messages` (runs/<disruption>/<execution>/messages.json) and named in its audit record.

They are built from the tables as they are before the plan is carried out (the flights' scheduled times, their
rosters and bookings), so they are read before Execute writes; a retried step whose artifact is already there
builds nothing (the tables have moved on). Building them never stops an execution: a failure is logged and the
plan is carried out without them. Once stored they are published on the message bus for downstream systems
(publish.py); what the bus took is stored with them and named in the audit record.

The outbox closes (issue 48): stored is the commitment, publishing catches up. Each event carries a message id
(publish.message_id) and the stored publication lists the ids the bus took (`sent`), so
- a retried Execute that finds its messages stored (a crash between storing and publishing, a bus that refused some
  entries) publishes those not yet taken (`flush`), and only those;
- `sweep` does the same for every run whose messages are not all published — at local start (local/runs.py), so
  none is left silent there. It finds them by a marker, `outbox/<disruption>/<execution>.json`, put before the
  messages are stored and removed once the bus took every event, so its work is the pending runs', not every run
  kept. No scheduled rule runs it in AWS yet: there a run's pending messages are published when its Execute is
  retried (or resumed), and otherwise stay stored, counted in the audit record and the `MessagesPublishFailed`
  alarm;
- delivery is at least once: a crash after the bus took an event and before its id was stored sends it again with
  the same id, which a consumer drops.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from ...arbitration.models import Scenario
from ...data.access import DataHandle
from ...messages.build import plan_messages
from ...messages.models import PlanMessages, Publication
from ...messages.read import plan_facts
from ...models.disruption import Disruption
from ..payloads import ArtifactStore, run_key
from ..ports import ServiceError
from ..tables import WorkflowTables
from .publish import MessageBus, publish

log = logging.getLogger("skymarshal.workflow")
ARTIFACT = "messages"
PENDING_PREFIX = "outbox/"  # outbox/<disruption>/<execution>.json: that run's messages are not all published


def pending_key(disruption_id: str, execution_name: str) -> str:
    return f"{PENDING_PREFIX}{disruption_id}/{execution_name}.json"


def prepare(
    scenario: Scenario,
    disruption: Disruption | None,
    *,
    tables: WorkflowTables,
    store: ArtifactStore,
    disruption_id: str,
    execution_name: str,
) -> PlanMessages | None:
    """The plan's messages, read before it is carried out; None when this execution already wrote them."""
    if store.get(run_key(disruption_id, execution_name, ARTIFACT)) is not None:
        return None
    try:
        handle = DataHandle(naming=tables.naming, resource=tables.resource)
        return plan_messages(scenario, plan_facts(handle, scenario), disruption)
    except Exception:  # the plan is carried out all the same: what it sends is said from the tables afterwards
        log.exception("messages of %s for %s could not be built", scenario.scenario_id, execution_name)
        return None


def write(
    messages: PlanMessages | None,
    *,
    store: ArtifactStore,
    disruption_id: str,
    execution_name: str,
    bus: MessageBus | None = None,
    resend: bool = False,
    noted: Noted | None = None,
) -> dict[str, Any]:
    """Store the messages of an executed plan, then publish them on the message bus and store them again with what
    the bus took; the counts the audit record names (empty when none were built). Stored first: a publication that
    fails, or a crash between the two, loses no message. With no messages built and `resend` (a retried Execute of
    an executed plan), the messages an earlier attempt stored and did not publish are published now (`flush`)."""
    if messages is None:
        if not resend:
            return {}
        return flush(store=store, disruption_id=disruption_id, execution_name=execution_name, bus=bus, noted=noted)
    key, marker = run_key(disruption_id, execution_name, ARTIFACT), pending_key(disruption_id, execution_name)
    store.put(marker, {})  # first: a crash from here on leaves the run for the sweep
    store.put(key, messages.model_dump(mode="json"))
    published = publish(messages, to=bus or MessageBus(), disruption_id=disruption_id, execution_name=execution_name)
    stored = messages.model_copy(update={"publication": published})
    store.put(key, stored.model_dump(mode="json"))
    if not pending(stored):
        _unmark(store, marker)
    return _summary(messages, published)


def pending(messages: PlanMessages) -> bool:
    """Stored and not all published: never tried (no publication), or some events not taken by a configured bus."""
    publication = messages.publication
    return publication is None or publication.status in ("partly_published", "not_published")


# Told when a publication rewrote a run's stored messages: (disruption, execution, artifact key, events published),
# so the audit names the artifact as it now is (workflow/steps/decision.publication_noted).
Noted = Callable[[str, str, str, int], None]


def flush(
    *,
    store: ArtifactStore,
    disruption_id: str,
    execution_name: str,
    bus: MessageBus | None = None,
    noted: Noted | None = None,
) -> dict[str, Any]:
    """Publish what an execution stored and the bus has not taken: the counts, as `write` returns them ({} when
    nothing was stored)."""
    key, marker = run_key(disruption_id, execution_name, ARTIFACT), pending_key(disruption_id, execution_name)
    stored = store.get(key)
    if stored is None:
        _unmark(store, marker)  # a crash before the messages were stored: nothing to send
        return {}
    messages = PlanMessages.model_validate(stored)
    if not pending(messages):
        assert messages.publication is not None
        _unmark(store, marker)
        return _summary(messages, messages.publication)
    before = messages.publication
    taken = frozenset(before.sent if before else ())
    now = publish(
        messages, to=bus or MessageBus(), disruption_id=disruption_id, execution_name=execution_name, skip=taken
    )
    merged = now.model_copy(update={"sent": sorted(taken | set(now.sent)), "published": len(taken | set(now.sent))})
    settled = messages.model_copy(update={"publication": merged})
    if settled != messages:  # rewritten only when the publication changed, and then named in the audit again
        store.put(key, settled.model_dump(mode="json"))
        if noted is not None:
            noted(disruption_id, execution_name, key, merged.published)
    if not pending(settled):
        _unmark(store, marker)
    log.warning(
        "messages of %s: %d published now, %d before, %d not taken",
        execution_name,
        now.published,
        len(taken),
        len(merged.failed),
    )
    return _summary(messages, merged)


def sweep(store: ArtifactStore, *, bus: MessageBus | None = None, noted: Noted | None = None) -> dict[str, int]:
    """Every run marked pending (`outbox/`), its messages published now (local start): counts of runs looked at,
    runs with messages pending, and events published by this sweep. A run whose messages were all published left
    no marker, so the work is the pending runs', not every run kept."""
    counts = {"runs": 0, "pending": 0, "published": 0}
    for marker in store.objects.keys(store.bucket, PENDING_PREFIX):
        parts = marker.removeprefix(PENDING_PREFIX).removesuffix(".json").split("/")
        if len(parts) != 2:  # outbox/<disruption>/<execution>.json
            continue
        disruption_id, execution_name = parts
        counts["runs"] += 1
        stored = store.get(run_key(disruption_id, execution_name, ARTIFACT))
        if stored is not None and pending(PlanMessages.model_validate(stored)):
            counts["pending"] += 1
        before = int(((stored or {}).get("publication") or {}).get("published") or 0)
        after = flush(store=store, disruption_id=disruption_id, execution_name=execution_name, bus=bus, noted=noted)
        counts["published"] += int(after.get("publication", {}).get("published", 0)) - before
    return counts


def _unmark(store: ArtifactStore, marker: str) -> None:
    """The run is no longer pending. Best effort: a marker left behind costs the next sweep one read, while a failed
    delete must not fail the Execute that published everything."""
    try:
        store.objects.delete(store.bucket, marker)
    except ServiceError as exc:
        log.warning("outbox marker %s not removed: %s", marker, exc)


def _summary(messages: PlanMessages, published: Publication) -> dict[str, Any]:
    return {
        "messages": messages.totals.model_dump(),
        "refused_messages": len(messages.refused),
        "publication": {
            "status": published.status,
            "bus": published.bus,
            "events": published.events,
            "published": published.published,
            "failed": [f.model_dump() for f in published.failed],
        },  # not the ids the bus took: they are in the stored messages the audit record names and hashes
    }


def preview(decision: dict[str, Any], handle: DataHandle, limit: int = 3) -> list[PlanMessages]:
    """What each of the top ranked plans of a decision (the arbitrator's output, as stored) would send: shown at
    approval beside the plan. Read from the tables as they are now, as Execute will read them."""
    from ...arbitration.models import ArbitratorOutput

    output = ArbitratorOutput.model_validate(decision)
    return [plan_messages(r.scenario, plan_facts(handle, r.scenario), output.disruption) for r in output.ranked[:limit]]
