"""Driving the state machine from outside: start a run, follow it, answer its approval, read its record.

The CLI uses this against local AWS (moto running the synthesized definition) and the same calls work
against the deployed state machine. Progress comes from the execution history (state entered/exited
events), so what the terminal shows is what the Step Functions console shows.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable
from datetime import date, datetime
from typing import Any

from ..aws.sfn import SfnExecutions, SfnTaskTokens
from ..deployment import STATE_MACHINE_ENV
from ..models import RESUME_SUFFIX, ApprovalDecision, DisruptionRequest, base_name, is_run_of
from ..payloads import ArtifactStore
from ..tables import WorkflowTables
from .progress import TERMINAL, Progress, parse_history


class RunNotFound(LookupError):
    """No execution of that id."""


def new_disruption_id() -> str:
    return f"run-{datetime.now():%Y%m%d-%H%M%S}-{uuid.uuid4().hex[:6]}"


class WorkflowClient:
    def __init__(self, *, sfn: Any, state_machine_arn: str, store: ArtifactStore, tables: WorkflowTables, trail=None):
        self.sfn, self.arn, self.store = sfn, state_machine_arn, store
        self.execution_port = SfnExecutions(sfn)  # the Executions port runs start through (.executions() lists them)
        self.tables, self.trail = tables, trail

    @classmethod
    def from_env(cls) -> WorkflowClient:
        """In Lambda: the state machine from SKYMARSHAL_STATE_MACHINE_ARN, the stack's bucket, tables and key."""
        import os

        from ...data import aws
        from ..audit.trail import AuditTrail
        from ..tables import WorkflowTables

        arn = os.environ.get(STATE_MACHINE_ENV)
        if not arn:
            raise RuntimeError(f"{STATE_MACHINE_ENV} is not set: the API starts and follows runs of that state machine")
        store, tables = ArtifactStore(), WorkflowTables.from_env()
        return cls(
            sfn=aws.client("stepfunctions"),
            state_machine_arn=arn,
            store=store,
            tables=tables,
            trail=AuditTrail(tables=tables, objects=store.objects),
        )

    def execution_arn(self, name: str) -> str:
        return self.arn.replace(":stateMachine:", ":execution:") + f":{name}"

    def start(
        self,
        prompt: str,
        *,
        disruption_id: str | None = None,
        requested_by: str | None = None,
        source: str = "cli",
        reported_at: datetime | None = None,
        ops_date: date | None = None,
        facts: dict[str, str] | None = None,
    ) -> dict:
        """Start a run; `ops_date` (default: SKYMARSHAL_OPS_DATE, else the day of `reported_at`, default now) is the
        operating day the report's "today", "tonight" and "tomorrow" mean, unless the report states its own."""
        from .trigger import start

        request = DisruptionRequest(
            disruption_id=disruption_id or new_disruption_id(),
            prompt=prompt,
            source=source,
            requested_by=requested_by,
            **({"reported_at": reported_at} if reported_at else {}),
            ops_date=ops_date,
            facts=facts or {},
        )
        return start(request, executions=self.execution_port, state_machine_arn=self.arn)

    def describe(self, name: str) -> dict:
        try:
            return self.sfn.describe_execution(executionArn=self.execution_arn(name))
        except self.sfn.exceptions.ExecutionDoesNotExist:
            raise RunNotFound(f"no run {name!r}: see `skymarshal history` for the ids") from None

    def progress(self, name: str) -> Progress:
        status = self.describe(name)["status"]
        pages = self.sfn.get_paginator("get_execution_history").paginate(executionArn=self.execution_arn(name))
        return parse_history([event for page in pages for event in page["events"]], status)

    def follow(
        self,
        name: str,
        *,
        on_progress: Callable[[Progress], None] | None = None,
        timeout_s: float = 900,
        poll_s: float = 0.25,
    ) -> Progress:
        """Poll until the run waits for approval or ends."""
        deadline = time.monotonic() + timeout_s
        while True:
            progress = self._poll(name, watched=on_progress is not None)
            if progress is not None and on_progress:
                on_progress(progress)
            if progress is not None and progress.status in TERMINAL:
                return progress
            if progress is not None and progress.awaiting_approval and self.pending(name):
                return progress
            if time.monotonic() > deadline:
                current = (progress or self.progress(name)).current
                raise TimeoutError(f"run {name} still {current} after {timeout_s:.0f} s")
            time.sleep(poll_s)

    def _poll(self, name: str, *, watched: bool) -> Progress | None:
        """The run's progress, or None while nobody watches it and it neither ended nor waits for approval.

        The history is the whole run every time (moto does not page it): re-reading it each tick makes the
        local emulator serialise every state's input and output again, on the cores the run itself needs.
        Unwatched, the execution's status and the approvals table say when the history is worth reading."""
        if watched:
            return self.progress(name)
        if self.describe(name)["status"] in TERMINAL or self.pending(name):
            return self.progress(name)
        return None

    def pending(self, name: str) -> dict | None:
        from ..approvals import latest

        item = latest(name, tables=self.tables)
        return item if item and item["status"] == "pending" else None

    def decision(self, name: str) -> dict | None:
        """The arbitrator's full output of the newest attempt, or None before arbitration."""
        from ..approvals import latest

        # the newest attempt's: waiting for a decision, or decided and still executing (no output yet)
        item = latest(name, tables=self.tables)
        if item and (item["status"] == "pending" or self.describe(name)["status"] == "RUNNING"):
            summary = json.loads(item["decision"])
            return self.store.resolve(summary["output"])
        output = self.output(name)
        ref = (output or {}).get("decision", {}) or {}
        return self.store.resolve(ref["output"]) if ref.get("output") else None

    def decided(self, name: str) -> dict | None:
        """The newest answer a duty manager gave the run (action, plan, by whom, when), or None."""
        from ..approvals import latest

        item = latest(name, tables=self.tables)
        return json.loads(item["answer"]) if item and item["status"] == "decided" and item.get("answer") else None

    def decide(self, name: str, answer: ApprovalDecision, registry=None) -> dict:
        from ..approvals import decide

        return decide(
            name, answer, tables=self.tables, tokens=SfnTaskTokens(self.sfn), registry=registry, trail=self.trail
        )

    def output(self, name: str) -> dict | None:
        described = self.describe(name)
        return json.loads(described["output"]) if described.get("output") else None

    def executions(self, limit: int = 50, status: str | None = None) -> list[dict]:
        """The newest runs, optionally only those in one Step Functions status (RUNNING, SUCCEEDED, FAILED, ...)."""
        by_status = {"statusFilter": status} if status else {}
        pages = self.sfn.get_paginator("list_executions").paginate(
            stateMachineArn=self.arn, PaginationConfig={"MaxItems": limit}, **by_status
        )
        runs = [run for page in pages for run in page["executions"]]
        return sorted(runs, key=lambda e: e["startDate"], reverse=True)[:limit]

    def resume(self, name: str) -> dict:
        """A new execution of the same disruption that reuses the finished phases' checkpoints
        (locally; in AWS, `redrive_execution` resumes the failed execution itself)."""
        from .trigger import start

        described = self.describe(name)
        if described["status"] not in ("FAILED", "TIMED_OUT", "ABORTED"):
            raise ValueError(f"run {name} is {described['status']}: only a failed, timed-out or aborted run resumes")
        from ..execution.recovery import check_resumable, release_flight
        from .reuse import CheckpointRefused, reusable_rounds

        request = DisruptionRequest.model_validate({**json.loads(described["input"]), "resume": True, "resumes": name})
        check_resumable(name, request.disruption_id, tables=self.tables)  # its plan was applied: nothing to do
        # Refused here, on one line, before a new execution starts: a checkpoint that does not match its record
        # (Validate checks again, for a resume started another way). Such a run never resumes: its flight is freed.
        try:
            reusable_rounds(request.disruption_id, name, store=self.store, trail=self.trail)
        except CheckpointRefused as exc:
            released = release_flight(name, request.disruption_id, tables=self.tables, store=self.store)
            if released is None:
                raise
            raise CheckpointRefused(exc.code, f"{str(exc).removeprefix(exc.code + ': ')}; {released}") from None
        return start(
            request,
            executions=self.execution_port,
            state_machine_arn=self.arn,
            name=self._resume_name(request.disruption_id),
        )

    def continue_from(self, name: str, phase: str, *, requested_by: str | None = None) -> dict:
        """A new execution of the run's disruption that reuses its rounds up to and including `phase` (each as the
        audit trail hashed it) and runs everything after again: "continue from here" on a checkpoint."""
        from .reuse import reusable_rounds
        from .trigger import start

        described = self.describe(name)
        if described["status"] == "RUNNING":
            raise ValueError(f"run {name} is still running: continue from one of its checkpoints once it has ended")
        request = DisruptionRequest.model_validate(
            {
                **json.loads(described["input"]),
                "resume": True,
                "retry": False,
                "resumes": name,
                "reuse_through": phase,
                "requested_by": requested_by,
            }
        )
        rounds = reusable_rounds(request.disruption_id, name, store=self.store, trail=self.trail, through=phase)
        if not rounds or rounds[-1].phase != phase:
            raise ValueError(f"run {name} has no {phase} round checkpointed to continue from")
        return start(
            request,
            executions=self.execution_port,
            state_machine_arn=self.arn,
            name=self._resume_name(request.disruption_id),
        )

    def _resume_name(self, base: str) -> str:
        """`ID--resume-N`, the first N no execution holds."""
        taken = {e["name"] for e in self.executions(limit=1000)}
        return f"{base}{RESUME_SUFFIX}{next(i for i in range(1, 1000) if f'{base}{RESUME_SUFFIX}{i}' not in taken)}"

    def retry(self, name: str) -> dict:
        """A new execution of an escalated run's disruption that re-runs only the agents that failed, reusing the
        others' checkpointed answers (workflow/runs/retry.py); NotRetryable for a run that did not end escalated."""
        from .retry import retry_request
        from .trigger import start

        described = self.describe(name)
        request, retry_name = retry_request(described, {e["name"] for e in self.executions(limit=1000)})
        return start(request, executions=self.execution_port, state_machine_arn=self.arn, name=retry_name)

    def audit(self, name: str) -> dict:
        """The run's audit document: written by Learn, or assembled now for a run that did not reach it."""
        from ..audit.document import audit_document

        described = self.describe(name)
        request = json.loads(described["input"])
        disruption_id = request.get("disruption_id", base_name(name))
        related = {e["name"] for e in self.executions(limit=1000) if is_run_of(e["name"], disruption_id)} | {name}
        runs = sorted((self.describe(n) for n in related), key=lambda r: r["startDate"])  # in the order they ran
        names = [r["name"] for r in runs]
        executions = [
            {
                "name": r["name"],
                "status": r["status"],
                "started_at": str(r["startDate"]),
                "stopped_at": str(r.get("stopDate") or ""),
                "error": r.get("error"),
                "cause": r.get("cause"),
            }
            for r in runs
        ]
        trail = {}
        if self.trail is not None:  # the hash chain as stored now, and whether it still verifies
            trail = {
                "trail": [r.model_dump(mode="json") for r in self.trail.records(disruption_id)],
                "verification": self.trail.verify(disruption_id).model_dump(mode="json"),
            }
        # Always assembled again from the artifacts, never the stored export: an edited export is not what is
        # shown (and its hash in the chain makes the verification above fail).
        state = json.loads(described["output"]) if described.get("output") else None
        return {
            **audit_document(
                disruption_id, names, store=self.store, tables=self.tables, state=state, executions=executions
            ),
            "derived": True,
            **trail,
        }

    def verify(self, name: str):
        """Check the disruption's audit chain (hashes, links, the signed head, the artifacts it names) and the anchors
        outside it: each finished execution's output, the Object Lock bucket (workflow/audit/anchor.py)."""
        from ..audit.anchor import verify_anchored

        if self.trail is None:
            raise ValueError("this client has no audit trail configured")
        disruption_id = self.disruption_id(name)  # an unknown id is RunNotFound, not an empty chain
        runs = [self.describe(e["name"]) for e in self.executions(limit=1000) if is_run_of(e["name"], disruption_id)]
        return verify_anchored(self.trail, disruption_id, runs, objects=self.store.objects)

    def disruption_id(self, name: str) -> str:
        """The disruption a run is about: its input's, whatever the execution is called."""
        request = json.loads(self.describe(name).get("input") or "{}")
        return str(request.get("disruption_id") or base_name(name))
