"""What Execute sends: the approved plan's messages and contact list (messages/), written beside the execution's
report as the run artifact `messages` (runs/<disruption>/<execution>/messages.json) and named in its audit record.

They are built from the tables as they are before the plan is carried out (the flights' scheduled times, their
rosters and bookings), so they are read before Execute writes; a retried step whose artifact is already there
builds nothing (the tables have moved on). Building them never stops an execution: a failure is logged and the
plan is carried out without them. Once stored they are published on the message bus for downstream systems
(publish.py); what the bus took is stored with them and named in the audit record.
"""

from __future__ import annotations

import logging
from typing import Any

from ...arbitration.models import Scenario
from ...data.access import DataHandle
from ...messages.build import plan_messages
from ...messages.models import PlanMessages
from ...messages.read import plan_facts
from ...models.disruption import Disruption
from ..payloads import ArtifactStore, run_key
from ..tables import WorkflowTables
from .publish import MessageBus, publish

log = logging.getLogger("skymarshal.workflow")
ARTIFACT = "messages"


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
) -> dict[str, Any]:
    """Store the messages of an executed plan, then publish them on the message bus and store them again with what
    the bus took; the counts the audit record names (empty when none were built). Stored first: a publication that
    fails, or a crash between the two, loses no message."""
    if messages is None:
        return {}
    key = run_key(disruption_id, execution_name, ARTIFACT)
    store.put(key, messages.model_dump(mode="json"))
    published = publish(messages, to=bus or MessageBus(), disruption_id=disruption_id, execution_name=execution_name)
    store.put(key, messages.model_copy(update={"publication": published}).model_dump(mode="json"))
    return {
        "messages": messages.totals.model_dump(),
        "refused_messages": len(messages.refused),
        "publication": {
            "status": published.status,
            "bus": published.bus,
            "events": published.events,
            "published": published.published,
            "failed": [f.model_dump() for f in published.failed],
        },
    }


def preview(decision: dict[str, Any], handle: DataHandle, limit: int = 3) -> list[PlanMessages]:
    """What each of the top ranked plans of a decision (the arbitrator's output, as stored) would send: shown at
    approval beside the plan. Read from the tables as they are now, as Execute will read them."""
    from ...arbitration.models import ArbitratorOutput

    output = ArbitratorOutput.model_validate(decision)
    return [plan_messages(r.scenario, plan_facts(handle, r.scenario), output.disruption) for r in output.ranked[:limit]]
