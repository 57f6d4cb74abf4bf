"""The Collate step, free of Lambda: an agent Lambda's result for its Map (inline or by reference), a round's
seven results into the collation checkpointed in S3, and the revision round's reference to it."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from ...agents.graph import failure_response
from ...data.schema import AGENTS, SAFETY_AGENTS
from ...models.agent_response import AgentResponse
from ..audit.trail import AuditTrail
from ..models import PhaseResult
from ..payloads import AGENT_INLINE_LIMIT, ArtifactStore, is_ref, run_key

# -------------------------------------------------------------------------------------------- Collate


def agent_result(
    response: AgentResponse,
    *,
    disruption_id: str,
    store: ArtifactStore | None,
    execution_name: str | None = None,
    round_: int | None = None,
) -> dict[str, Any]:
    """What an agent Lambda returns to its Map: the response, or a reference when it is large (stored under the
    execution, and hashed into the round's audit record by Collate). `round_`: a debate round's number, so each
    debate round keeps its own copy (the audit trail hashed the earlier ones)."""
    body = response.model_dump(mode="json")
    if store is None:
        return body
    label = response.phase if round_ is None else f"{response.phase}-{round_}"
    key = run_key(disruption_id, execution_name or disruption_id, f"agent-{label}-{response.agent_name}")
    ref = store.ref(body, key, AGENT_INLINE_LIMIT)
    if ref.key is None:
        return body
    return {"agent_name": response.agent_name, "status": response.status, "ref": ref.model_dump(mode="json")}


def _response(entry: Any, phase: str, store: ArtifactStore) -> AgentResponse:
    if not isinstance(entry, dict) or "agent_name" not in entry:
        raise ValueError(f"a {phase} Map result is not an agent result: {str(entry)[:200]}")
    agent = entry["agent_name"]
    if "ref" in entry:
        return AgentResponse.model_validate(store.resolve(entry["ref"]))
    if "error" in entry and "recommendation" not in entry:  # the Map's Catch: the Lambda itself failed
        cause = str(entry.get("cause") or "")[:500]
        return failure_response(
            agent, phase, {}, f"the {agent} Lambda failed: {entry['error']}: {cause}", status="error"
        )
    try:
        return AgentResponse.model_validate(entry)
    except ValidationError:  # e.g. the handler's own input_error for a malformed event
        return failure_response(
            agent,
            phase,
            {},
            str(entry.get("message") or "the agent returned an unreadable result"),
            status="input_error" if entry.get("status") == "input_error" else "error",
        )


def collate(
    phase: str,
    results: list,
    *,
    disruption_id: str,
    store: ArtifactStore,
    execution_name: str | None = None,
    trail: AuditTrail | None = None,
    ran: list[str] | None = None,
    retries: str | None = None,
    round_: int | None = None,
) -> PhaseResult:
    """The Map's results → the collation (checkpointed in S3) and what the safety gate needs.

    `ran` is the agents the round's Map ran (all seven unless a retry re-ran only the failed ones): the others
    keep their answers from the saved collation of the run it retries (`retries`, an execution name). `round_`:
    a debate round's number (3 to 5), which names its artifacts (`collation-debate-3`)."""
    execution = execution_name or disruption_id
    label = phase if round_ is None else f"{phase}-{round_}"
    responses = {r.agent_name: r for r in (_response(e, phase, store) for e in results)}
    # Large agent outputs Collate read by reference: their bytes are hashed into the round's record too.
    agent_refs = [e["ref"] for e in results if isinstance(e, dict) and isinstance(e.get("ref"), dict)]
    kept = [a for a in AGENTS if ran is not None and a not in ran and a not in responses]
    if kept:
        saved = store.get(run_key(disruption_id, retries or disruption_id, f"collation-{phase}")) or {}
        for agent in kept:
            if agent in saved:
                responses[agent] = AgentResponse.model_validate(saved[agent])
    for agent in AGENTS:  # a missing result is a failed agent, never silently absent
        responses.setdefault(agent, failure_response(agent, phase, {}, "no result from the Map", status="error"))
    collation = {a: responses[a].model_dump(mode="json") for a in AGENTS}
    statuses = {a: responses[a].status for a in AGENTS}
    result = PhaseResult(
        phase=phase,
        round=round_,
        collation=store.save(run_key(disruption_id, execution, f"collation-{label}"), collation),
        statuses=statuses,
        failed=[a for a in AGENTS if statuses[a] != "ok"],
        # As the arbitrator reads it: a safety agent that did not answer "ok" cannot clear the flight.
        safety_failed=any(statuses[a] != "ok" for a in SAFETY_AGENTS),
    )
    checkpoint = run_key(disruption_id, execution, f"phase-{label}")
    store.put(checkpoint, result.model_dump(mode="json"))
    if trail is not None:
        trail.append(
            disruption_id,
            "round",
            f"round:{label}:{execution_name}",
            {
                "phase": label,
                "statuses": statuses,
                "safety_failed": result.safety_failed,
                "artifact": trail.artifact(store.bucket, run_key(disruption_id, execution, f"collation-{label}")),
                # the round checkpoint a resume reuses, and each large agent output, hashed like the collation
                "checkpoint": trail.artifact(store.bucket, checkpoint),
                "agent_outputs": [
                    trail.artifact(ref.get("bucket") or store.bucket, ref["key"])
                    for ref in agent_refs
                    if ref.get("key")
                ],
                **({"kept_from_earlier_run": kept} if kept else {}),
            },
            actor="collate",
            execution_name=execution_name,
        )
    return result


def resolve_others(others: Any, store: ArtifactStore | None) -> dict | None:
    """The revision round's `others`: the collation itself, or a reference to it."""
    if others is None or not is_ref(others):
        return others
    if store is None:
        raise ValueError("the collation is in S3 but no artifact store is configured")
    return store.resolve(others)
