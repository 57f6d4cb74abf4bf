"""A run's history as the duty manager reads it: the rounds it checkpointed (each a point to continue from) and
every agent's and the arbitrator's thread with its ordered records (start, decisions with their confidence,
completion or failure, the human outcome) — for the console, `skymarshal checkpoints ID` and a JSON export.

Continuing from a round starts a new execution of the same disruption that reuses the rounds up to and including
it, each only as the audit trail hashed it (workflow/runs/reuse.py), and runs everything after it again.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..checkpoint.registry_dynamodb import ThreadRegistry
from ..checkpoint.threads import BaseThreadRegistry, thread_id
from ..data.schema import AGENTS, CHECKPOINTS
from ..workflow.models import PhaseResult
from ..workflow.payloads import run_key
from ..workflow.runs.reuse import PHASES

if TYPE_CHECKING:
    from ..workflow.runs.client import WorkflowClient


def checkpoint_registry(wf: WorkflowClient) -> ThreadRegistry:
    """The thread registry of the run's checkpoint table, on a plain DynamoDB client: the resource's own one
    serialises values itself, and the registry writes DynamoDB JSON."""
    import boto3

    resource_client = wf.tables.resource.meta.client
    plain = boto3.client(
        "dynamodb", region_name=resource_client.meta.region_name, endpoint_url=resource_client.meta.endpoint_url
    )
    return ThreadRegistry(wf.tables.naming(CHECKPOINTS), client=plain)


RoundName = Literal["initial", "revision"]
THREADS = [*((agent, phase) for _, phase in PHASES for agent in AGENTS), ("arbitrator", "arbitration")]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ThreadRecord(_Model):
    """One record of a thread, in order: what the agent (or the arbitrator) did, and when."""

    seq: int
    event: str  # start | decision | error | completion | status:<new status> ...
    timestamp: str
    confidence: float | None = None
    detail: dict[str, Any] = Field(default_factory=dict)


class ThreadHistory(_Model):
    thread_id: str
    agent: str
    phase: str
    status: str
    status_actor: str | None = None
    updated_at: str
    records: list[ThreadRecord]


class RoundCheckpoint(_Model):
    """A round the run checkpointed: what each agent answered, and whether a new run can continue from it."""

    phase: RoundName
    key: str  # the checkpoint's object in the artifacts bucket
    statuses: dict[str, str]
    reused_from: str | None = None  # the round was itself reused from this execution
    can_continue: bool  # every safety agent answered: reusing it cannot hide a failed safety check


class RunHistory(_Model):
    execution_name: str
    disruption_id: str
    status: str
    started_at: datetime
    stopped_at: datetime | None = None
    rounds: list[RoundCheckpoint]
    threads: list[ThreadHistory]


def run_history(wf: WorkflowClient, name: str, registry: BaseThreadRegistry | None = None) -> RunHistory:
    """The execution's checkpointed rounds and its threads (RunNotFound for an unknown run); the threads from the
    run's checkpoint table unless a registry is given."""
    import json

    registry = registry or checkpoint_registry(wf)
    described = wf.describe(name)
    disruption_id = json.loads(described["input"]).get("disruption_id", name)
    rounds = []
    for _, phase in PHASES:
        key = run_key(disruption_id, name, f"phase-{phase}")
        saved = wf.store.get(key)
        if saved is None:
            break
        result = PhaseResult.model_validate(saved)
        rounds.append(
            RoundCheckpoint(
                phase=result.phase,
                key=key,
                statuses=result.statuses,
                reused_from=result.reused_from,
                can_continue=not result.safety_failed,
            )
        )
    threads = []
    for agent, phase in THREADS:
        info = registry.get(thread_id(name, agent, phase))
        if info is None:
            continue
        records = [
            ThreadRecord(seq=e.seq, event=e.event, timestamp=e.timestamp, confidence=e.confidence, detail=e.detail)
            for e in registry.events(info.thread_id)
        ]
        threads.append(
            ThreadHistory(
                thread_id=info.thread_id,
                agent=agent,
                phase=phase,
                status=info.status,
                status_actor=info.status_actor,
                updated_at=info.updated_at,
                records=records,
            )
        )
    return RunHistory(
        execution_name=name,
        disruption_id=disruption_id,
        status=described["status"],
        started_at=described["startDate"],
        stopped_at=described.get("stopDate"),
        rounds=rounds,
        threads=threads,
    )
