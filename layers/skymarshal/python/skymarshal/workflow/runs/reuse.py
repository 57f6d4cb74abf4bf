"""A resumed run reuses the rounds an earlier execution finished — only as that execution's audit trail hashed them.

A round checkpoint (`runs/<id>/<execution>/phase-<round>.json`) decides what the arbitrator will read, so an
edited one must not slip into a new run. Before reuse, the earlier execution's round record is looked up by
its key and the checkpoint and its collation are re-hashed against it; any difference refuses the resume on
one line (a typed code and the object). The resumed execution then writes its own checkpoint (linking to the
reused collation) and appends its own round record naming the record it reused (`record_reuse`), so the
earlier execution's artifacts are never rewritten and its chain still verifies.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from ..audit.trail import AuditRecord, AuditTrail
from ..models import PhaseResult
from ..payloads import ArtifactStore, run_key

PHASES = (("phase1", "initial"), ("phase2", "revision"))
RefusalCode = Literal["CHECKPOINT_UNRECORDED", "CHECKPOINT_CHANGED", "COLLATION_CHANGED"]


class CheckpointRefused(ValueError):
    """A round checkpoint that does not match its audit record; the message is one line."""

    def __init__(self, code: RefusalCode, message: str):
        super().__init__(f"{code}: {message}")
        self.code = code


class ReusableRound(BaseModel):
    model_config = ConfigDict(frozen=True)

    state_key: str  # phase1 | phase2
    phase: Literal["initial", "revision"]
    result: PhaseResult
    source_execution: str
    record: AuditRecord | None  # None: no audit trail configured (tests of the steps alone)


def reusable_rounds(
    disruption_id: str,
    previous: str,
    *,
    store: ArtifactStore,
    trail: AuditTrail | None,
    through: str | None = None,
) -> list[ReusableRound]:
    """The rounds `previous` finished, in order, each checked against its audit record (CheckpointRefused);
    `through`: stop after that round (a run continued from it runs the later ones again)."""
    rounds: list[ReusableRound] = []
    for state_key, phase in PHASES:
        if rounds and rounds[-1].phase == through:
            break
        key = run_key(disruption_id, previous, f"phase-{phase}")
        saved = store.get(key)
        if saved is None:
            break
        record = _checked(disruption_id, previous, phase, key, saved, store=store, trail=trail)
        rounds.append(
            ReusableRound(
                state_key=state_key,
                phase=phase,
                result=PhaseResult.model_validate(saved),
                source_execution=previous,
                record=record,
            )
        )
    return rounds


def _checked(
    disruption_id: str,
    previous: str,
    phase: str,
    key: str,
    saved: dict,
    *,
    store: ArtifactStore,
    trail: AuditTrail | None,
) -> AuditRecord | None:
    if trail is None:
        return None
    where = f"s3://{store.bucket}/{key}"
    record = trail.by_key(disruption_id, f"round:{phase}:{previous}")
    recorded = (record.body.get("checkpoint") or {}) if record else {}
    if record is None or recorded.get("key") != key:
        raise CheckpointRefused(
            "CHECKPOINT_UNRECORDED",
            f"the {phase} round of {previous} ({where}) has no audit record hashing it: not reused; "
            "start a new run instead",
        )
    if trail.artifact(store.bucket, key)["sha256"] != recorded.get("sha256"):
        raise CheckpointRefused(
            "CHECKPOINT_CHANGED",
            f"the {phase} round of {previous} ({where}) changed after audit record {record.seq}: not reused; "
            "start a new run instead",
        )
    collation = record.body.get("artifact") or {}
    ref = saved.get("collation") or {}
    if ref.get("key") not in (None, collation.get("key")) or (
        collation and trail.artifact(collation["bucket"], collation["key"])["sha256"] != collation.get("sha256")
    ):
        raise CheckpointRefused(
            "COLLATION_CHANGED",
            f"the {phase} collation of {previous} (s3://{collation.get('bucket')}/{collation.get('key')}) changed "
            f"after audit record {record.seq}: not reused; start a new run instead",
        )
    return record


def record_reuse(
    reused: ReusableRound,
    *,
    disruption_id: str,
    execution_name: str,
    store: ArtifactStore,
    trail: AuditTrail | None,
) -> PhaseResult:
    """The resumed execution's own checkpoint of a reused round, and its audit record linking to the old one."""
    result = reused.result.model_copy(update={"reused": True, "reused_from": reused.source_execution})
    checkpoint = run_key(disruption_id, execution_name, f"phase-{reused.phase}")
    store.put(checkpoint, result.model_dump(mode="json"))
    if trail is not None:
        old = reused.record.body if reused.record else {}
        trail.append(
            disruption_id,
            "round",
            f"round:{reused.phase}:{execution_name}",
            {
                "phase": reused.phase,
                "statuses": result.statuses,
                "safety_failed": result.safety_failed,
                "reused_from": {
                    "execution_name": reused.source_execution,
                    "seq": reused.record.seq if reused.record else None,
                    "hash": reused.record.hash if reused.record else None,
                },
                "artifact": old.get("artifact"),  # the collation itself is not copied: linked, and re-hashed
                "checkpoint": trail.artifact(store.bucket, checkpoint),
            },
            actor="validate",
            execution_name=execution_name,
        )
    return result
