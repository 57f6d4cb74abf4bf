"""Publishing an executed plan's messages for downstream systems: one EventBridge event per ASM/MVT message, one
with the contact list, on the message bus (`SKYMARSHAL_MESSAGE_BUS`; infra/messages.py). Locally the same call goes
to the emulated account's bus.

EventBridge, not SNS: the stack's integration point is already a bus (reports come in on one), a consumer — a
station's system, a crew app, a partner's gateway — subscribes with a rule on the event's content (the standard,
the action, a station) without SkyMarshal knowing it, PutEvents says per entry what it refused, and the bus needs
no key of its own (an encrypted topic would).

Never at the cost of the messages: Execute has stored them (S3, named in the audit) before this runs, and nothing
here raises. A message whose text fails its format check again here is not published (it never left the
builder either, `plan_messages`); an event the bus refuses, or a call that fails, is a `PublishFailure` in the
returned `Publication`, which Execute stores with the messages and in the audit record and counts in a metric
with its own alarm.
"""

from __future__ import annotations

import json
import logging
import os
from dataclasses import dataclass
from typing import Any

from ...messages import formats as fmt
from ...messages.models import OutboundMessage, PlanMessages, Publication, PublishFailure
from ..aws.events import EventBridgeBus
from ..deployment import CONTACTS_DETAIL_TYPE, MESSAGE_BUS_ENV, MESSAGE_DETAIL_TYPES, MESSAGE_SOURCE
from ..ports import EventBus, ServiceError

log = logging.getLogger("skymarshal.workflow.execution.publish")
BATCH = 10  # PutEvents takes at most ten entries a call
MAX_EVENT_BYTES = 256 * 1024  # an entry's size limit, detail and envelope together


@dataclass(frozen=True)
class MessageBus:
    """Where Execute publishes: the bus's name (None: not configured) and the EventBus port (EventBridge)."""

    name: str | None = None
    events: EventBus | None = None

    @classmethod
    def from_env(cls) -> MessageBus:
        name = os.environ.get(MESSAGE_BUS_ENV) or None
        return cls(name, EventBridgeBus() if name else None)


def _what(message: OutboundMessage) -> str:
    return f"{message.standard} {message.action} {message.flight_id}"


def message_id(run: dict[str, str], index: int | None) -> str:
    """A message's id, the same on every attempt: its run and its place in the stored messages (None: the contact
    list). Carried in the event's detail, so a consumer drops a message published twice (at least once, by id)."""
    return f"{run['disruption_id']}/{run['execution_name']}/{'contacts' if index is None else index}"


def _entries(
    messages: PlanMessages, bus: str, run: dict[str, str]
) -> tuple[list[tuple[str, str, dict]], list[PublishFailure]]:
    """(what, id, PutEvents entry) for each message that passes its format check and for the contact list."""
    entries: list[tuple[str, str, dict]] = []
    failed: list[PublishFailure] = []
    for index, m in enumerate(messages.messages):
        problem = fmt.problems_asm(m.text) if m.standard == "ASM" else fmt.problems_mvt(m.text)
        if problem is not None:  # refused when built; checked again here so none can leave malformed
            failed.append(PublishFailure(what=_what(m), error=f"format: {problem}"))
            continue
        ident = message_id(run, index)
        detail = {**run, "message_id": ident, **m.model_dump(mode="json")}
        entries.append((_what(m), ident, _entry(bus, MESSAGE_DETAIL_TYPES[m.standard], detail)))
    contacts = {
        **run,
        "message_id": message_id(run, None),
        "totals": messages.totals.model_dump(mode="json"),
        "crew": [c.model_dump(mode="json") for c in messages.crew],
        "stations": [s.model_dump(mode="json") for s in messages.stations],
        "passengers": [p.model_dump(mode="json") for p in messages.passengers],
    }
    entries.append(("contacts", message_id(run, None), _entry(bus, CONTACTS_DETAIL_TYPE, contacts)))
    return entries, failed


def _entry(bus: str, detail_type: str, detail: dict[str, Any]) -> dict[str, Any]:
    return {"EventBusName": bus, "Source": MESSAGE_SOURCE, "DetailType": detail_type, "Detail": json.dumps(detail)}


def publish(
    messages: PlanMessages,
    *,
    to: MessageBus,
    disruption_id: str,
    execution_name: str,
    skip: frozenset[str] = frozenset(),
) -> Publication:
    """Put the plan's events on the bus (none configured: nothing to do), but those whose id is in `skip` (taken by
    an earlier attempt, outbox.flush); what was taken and what was not, never an exception."""
    total, bus, events = len(messages.messages) + 1, to.name, to.events
    if bus is None or events is None:
        return Publication(bus=None, events=total, published=0)
    run = {"disruption_id": disruption_id, "execution_name": execution_name, "scenario_id": messages.scenario_id}
    entries, failed = _entries(messages, bus, run)
    sendable = []
    for what, ident, entry in entries:
        if ident in skip:
            continue
        if len(entry["Detail"].encode()) + 1024 > MAX_EVENT_BYTES:  # the envelope's share, generously
            failed.append(PublishFailure(what=what, error="larger than an event may be (256 KB): in S3 only"))
        else:
            sendable.append((what, ident, entry))
    sent: list[str] = []
    for start in range(0, len(sendable), BATCH):
        batch = sendable[start : start + BATCH]
        try:
            refused = events.put([entry for _, _, entry in batch])
        except ServiceError as exc:
            failed += [PublishFailure(what=what, error=f"{type(exc).__name__}: {exc}") for what, _, _ in batch]
            continue
        for (what, ident, _), error in zip(batch, refused, strict=True):
            if error is None:
                sent.append(ident)
            else:
                failed.append(PublishFailure(what=what, error=error))
    published = len(sent)
    if failed:
        log.error("%d of %d events of %s not published to %s", len(failed), total, execution_name, bus)
    return Publication(bus=bus, events=total, published=published, failed=failed, sent=sent)
