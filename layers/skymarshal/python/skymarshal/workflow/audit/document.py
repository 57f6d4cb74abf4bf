"""The audit document and a run's final status (the Learn step, in `learning`, writes both).

The audit document answers "what was decided, on what evidence, by whom, and what was done": the prompt,
both rounds, every arbitration attempt, each approval request and answer, the actions and their events,
the outcome, and every timestamp. It is assembled from the run's artifacts in S3 and the approval and
execution items in DynamoDB, so it can be rebuilt for a run that failed half way — and it is: the export
Learn writes is hashed into the audit chain (an `export` record), but what `skymarshal audit` and the API
show is assembled again from the artifacts and shown beside the chain's verification, never read back from
the stored export (an edited export fails verification instead of being shown).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from ..aws.dynamodb import Key
from ..payloads import RUNS_PREFIX, ArtifactStore, run_key
from ..tables import WorkflowTables


def run_status(state: dict) -> str:
    if state.get("escalation"):
        return "escalated"
    if (state.get("approval") or {}).get("action") == "reject":
        return "rejected"
    execution = state.get("execution") or {}
    return "executed" if execution.get("status") == "executed" else "failed"


def _approvals(execution_names: list[str], tables: WorkflowTables) -> list[dict]:
    table = tables.checkpoints
    out = []
    for name in execution_names:
        for item in table.query(KeyConditionExpression=Key("PK").eq(f"APPROVAL#{name}")).get("Items", []):
            out.append(
                {
                    "execution_name": name,
                    "attempt": int(item["SK"].split("#")[1]),
                    "status": item["status"],
                    "requested_at": item.get("requested_at"),
                    "expires_at": item.get("expires_at"),
                    "decided_by": item.get("decided_by"),
                    "decided_at": item.get("decided_at"),
                    "answer": json.loads(item["answer"]) if item.get("answer") else None,
                }
            )
    return out


def _decisions(store: ArtifactStore, disruption_id: str, execution_names: list[str]) -> list[dict[str, Any] | None]:
    """Every arbitration attempt of every execution, in order (None: an object gone since it was listed)."""
    out: list[dict[str, Any] | None] = []
    for name in execution_names:
        prefix = f"{RUNS_PREFIX}/{disruption_id}/{name}/decision-"
        listed = store.objects.keys(store.bucket, prefix)
        keys = sorted(listed, key=lambda k: int(k.rsplit("-", 1)[1].split(".")[0]))
        out += [store.get(k) for k in keys]
    return out


def _newest(store: ArtifactStore, disruption_id: str, execution_names: list[str], name: str) -> Any:
    """The artifact `name` of the newest execution that wrote one (a resumed run may not have reached it)."""
    for execution in reversed(execution_names):
        value = store.get(run_key(disruption_id, execution, name))
        if value is not None:
            return value
    return None


def _collation(store: ArtifactStore, disruption_id: str, names: list[str], state: dict | None, phase: str) -> Any:
    """A round's collation through its checkpoint (a reused round's checkpoint links to the earlier run's)."""
    key = "phase1" if phase == "initial" else "phase2"
    result = (state or {}).get(key) or _newest(store, disruption_id, names, f"phase-{phase}")
    if not result:
        return None
    try:
        return store.resolve(result["collation"])
    except LookupError:
        return None


def audit_document(
    disruption_id: str,
    execution_names: list[str],
    *,
    store: ArtifactStore,
    tables: WorkflowTables,
    state: dict | None = None,
    executions: list[dict] | None = None,
) -> dict:
    """Everything recorded about one disruption's run(s), newest execution last."""
    from ..execution.records import execution_events

    events = [e.model_dump(mode="json") for name in execution_names for e in execution_events(name, tables=tables)]
    request = (state or {}).get("request") or _newest(store, disruption_id, execution_names, "request")
    return {
        "disruption_id": disruption_id,
        "executions": executions or [{"name": n} for n in execution_names],
        "prompt": (request or {}).get("prompt"),
        "request": request,
        "rounds": {
            phase: _collation(store, disruption_id, execution_names, state, phase) for phase in ("initial", "revision")
        },
        "decisions": _decisions(store, disruption_id, execution_names),
        "approvals": _approvals(execution_names, tables),
        "execution": _newest(store, disruption_id, execution_names, "execution"),
        "execution_events": events,
        "escalation": (state or {}).get("escalation"),
        "outcome": (state or {}).get("outcome"),
        "assembled_at": datetime.now(UTC).isoformat(),
    }
