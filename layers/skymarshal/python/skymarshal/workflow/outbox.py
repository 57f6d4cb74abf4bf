"""What Execute sends: the approved plan's messages and contact list (messages/), written beside the execution's
report as the run artifact `messages` (runs/<disruption>/<execution>/messages.json) and named in its audit record.

They are built from the tables as they are before the plan is carried out (the flights' scheduled times, their
rosters and bookings), so they are read before Execute writes; a retried step whose artifact is already there
builds nothing (the tables have moved on). Building them never stops an execution: a failure is logged and the
plan is carried out without them. Downstream systems read the artifact (an S3 event, in AWS); publishing to a
bus is left to the deployment.
"""

from __future__ import annotations

import logging
from typing import Any

from ..arbitration.models import Scenario
from ..data.access import DataHandle
from ..messages.build import plan_messages
from ..messages.models import PlanMessages
from ..messages.read import plan_facts
from ..models.disruption import Disruption
from .payloads import ArtifactStore, run_key
from .tables import WorkflowTables

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
    messages: PlanMessages | None, *, store: ArtifactStore, disruption_id: str, execution_name: str
) -> dict[str, Any]:
    """Store the messages of an executed plan; the counts the audit record names (empty when none were built)."""
    if messages is None:
        return {}
    store.put(run_key(disruption_id, execution_name, ARTIFACT), messages.model_dump(mode="json"))
    return {"messages": messages.totals.model_dump(), "refused_messages": len(messages.refused)}


def preview(decision: dict[str, Any], handle: DataHandle, limit: int = 3) -> list[PlanMessages]:
    """What each of the top ranked plans of a decision (the arbitrator's output, as stored) would send: shown at
    approval beside the plan. Read from the tables as they are now, as Execute will read them."""
    from ..arbitration.models import ArbitratorOutput

    output = ArbitratorOutput.model_validate(decision)
    return [plan_messages(r.scenario, plan_facts(handle, r.scenario), output.disruption) for r in output.ranked[:limit]]
