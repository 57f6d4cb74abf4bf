"""After a crash: what an interrupted execution of the state machine actually did, read from the tables.

An execution that was running when local AWS died comes back without its last steps (its history is saved once a
second); the tables are the truth. The run's execution record (workflow/execution/execute.py), written in the same
transaction as its first change, says whether the plan was applied:

- no record (or an earlier execution's rollback): nothing was executed; the run is resumable.
- `running`, written by this execution: it died mid-plan. What it committed is put back (`undo`, only rows that
  still hold its after-images), the record says rolled_back (reason INTERRUPTED), and a resume executes it again.
- finished, by this execution: the execution happened. Learn is completed if it had not recorded the outcome (the
  history record, the flight claim, the audit outcome), and the run is recorded as executed, not aborted.

`settle` answers with a one-line message for whoever restarted the server, and the state the execution ended
in (its output) when it counts as finished.
"""

from __future__ import annotations

import json
import logging
from typing import Any, Literal

from pydantic import BaseModel

from ..approvals import latest
from ..models import ExecutionSummary, Outcome, base_name
from ..payloads import ArtifactStore, run_key
from ..steps.attempts import attempt_of, report_artifact
from ..steps.validate import STATE_KEYS
from ..tables import WorkflowTables
from .execute import undo
from .records import ExecutionReport, record_key, recorded_report, run_record

log = logging.getLogger("skymarshal.recovery")
Verdict = Literal["not_executed", "interrupted", "executed"]


class Settled(BaseModel):
    execution_name: str
    disruption_id: str
    verdict: Verdict
    message: str  # one line
    output: dict[str, Any] | None = None  # the run's final state, when it counts as finished


def disruption_of_input(execution_name: str, execution_input: str | None) -> str:
    try:
        request = json.loads(execution_input or "{}")
    except ValueError:
        request = {}
    return str(request.get("disruption_id") or base_name(execution_name))


def settle(
    execution_name: str,
    execution_input: str | None,
    *,
    tables: WorkflowTables,
    store: ArtifactStore,
    handle: Any = None,
    trail: Any = None,
) -> Settled:
    """What the interrupted execution did, made consistent: see the module's docstring."""
    disruption_id = disruption_of_input(execution_name, execution_input)
    record = run_record(disruption_id, tables=tables)
    # the record of this execution's latest attempt (a plan decided again is an attempt of its own: attempts.py)
    by = str(record.get("execution_name", disruption_id)) if record is not None else ""
    attempt = attempt_of(by, execution_name) if record is not None else None
    mine = attempt is not None

    def settled(verdict: Verdict, message: str, output: dict | None = None) -> Settled:
        return Settled(
            execution_name=execution_name,
            disruption_id=disruption_id,
            verdict=verdict,
            message=message,
            output=output,
        )

    if record is None or not mine:
        return settled("not_executed", f"{execution_name}: nothing was executed; `skymarshal resume` continues it")
    if record["status"] == "running":
        restored = undo(by, tables=tables, run_id=disruption_id)
        report = ExecutionReport(
            execution_id=by,
            scenario_id=str(record["scenario_id"]),
            status="rolled_back",
            actions=[],
            groups=0,
            error=f"interrupted by a restart of local AWS; {restored} row(s) put back",
            reason_code="TRANSACTION_ERROR",
        )
        tables.checkpoints.update_item(
            Key=record_key(disruption_id),
            UpdateExpression="SET #s = :s, report = :r, interrupted = :t",
            ConditionExpression="#s = :running AND execution_name = :me",
            ExpressionAttributeNames={"#s": "status"},
            ExpressionAttributeValues={
                ":s": "rolled_back",
                ":r": report.model_dump_json(),
                ":t": True,
                ":running": "running",
                ":me": by,
            },
        )
        return settled(
            "interrupted",
            f"{execution_name}: interrupted mid-execution; {restored} row(s) put back — "
            "`skymarshal resume` executes it again",
        )
    report = recorded_report(tables.checkpoints, record)
    state = _state_at_execute(execution_name, disruption_id, report, attempt or 1, tables=tables, store=store)
    if state is not None and trail is not None:  # Execute may have died before its audit record
        from ..steps.decision import record_execution

        record_execution(trail, store, disruption_id, execution_name, report)
    outcome = _learned(execution_name, disruption_id, trail)
    if outcome is None and state is not None:
        from ..learning.learn import learn_step

        outcome = learn_step(state, store=store, handle=handle, tables=tables, trail=trail)
    if outcome is not None and outcome.anchor is None and trail is not None:  # Learn had finished: its head
        from ..audit.anchor import anchor_head

        outcome = outcome.model_copy(update={"anchor": anchor_head(trail, disruption_id, objects=store.objects)})
    output = {**(state or {}), "outcome": outcome.model_dump(mode="json") if outcome else None}
    return settled(
        "executed",
        f"{execution_name}: executed {report.scenario_id} ({report.status}) before the restart; "
        f"recorded as executed{f', history {outcome.history_id}' if outcome and outcome.history_id else ''}",
        output,
    )


def _learned(execution_name: str, disruption_id: str, trail) -> Outcome | None:
    """Learn's outcome, when it had recorded it in the audit trail before the crash."""
    record = trail.by_key(disruption_id, f"outcome:{execution_name}") if trail is not None else None
    if record is None:
        return None
    return Outcome.model_validate({k: v for k, v in record.body.items() if k in Outcome.model_fields})


def _state_at_execute(
    execution_name: str,
    disruption_id: str,
    report: ExecutionReport,
    attempt: int,
    *,
    tables: WorkflowTables,
    store: ArtifactStore,
) -> dict | None:
    """The run's state as Execute left it: the validated request (its S3 artifact), the decision and the answer (the
    approval item), the execution (its record). None when one of them is missing."""
    approval = latest(execution_name, tables=tables)
    request = store.get(run_key(disruption_id, execution_name, "request"))
    if approval is None or not approval.get("answer") or request is None:
        log.warning("%s: executed, but its request or approval is missing; Learn not completed", execution_name)
        return None
    state: dict[str, Any] = dict.fromkeys(STATE_KEYS)
    state |= {
        "request": request,
        "decision": json.loads(approval["decision"]),
        "approval": json.loads(approval["answer"]),
        "execution": ExecutionSummary(
            status=report.status,
            scenario_id=report.scenario_id,
            actions=report.actions,
            error=report.error,
            reason_code=report.reason_code,
            attempt=attempt,
        ).model_dump(mode="json"),
    }
    key = run_key(disruption_id, execution_name, report_artifact(attempt))
    if store.get(key) is None:  # Execute died before saving its report (never rewritten: the trail hashes it)
        store.put(key, report.model_dump(mode="json"))
    return state


class NothingToResume(ValueError):
    """The run's plan was executed (or is being executed): a resume would have nothing to do. One line."""


def check_resumable(execution_name: str, disruption_id: str, *, tables: WorkflowTables) -> None:
    """NothingToResume when the run's execution record says its plan was applied or is being applied."""
    record = run_record(disruption_id, tables=tables)
    if record is None or record["status"] == "rolled_back":
        return
    by = record.get("execution_name", disruption_id)
    if record["status"] == "running":
        raise NothingToResume(
            f"ALREADY_EXECUTING: {execution_name}: the run's execution by {by} started at {record['started_at']} "
            "and has not finished; restart local AWS to settle it, or undo it"
        )
    raise NothingToResume(
        f"ALREADY_EXECUTED: {execution_name}: nothing to resume — {by} executed {record['scenario_id']} "
        f"({record['status']}) at {record.get('finished_at', record['started_at'])}"
    )


def release_flight(
    execution_name: str, disruption_id: str, *, tables: WorkflowTables, store: ArtifactStore
) -> str | None:
    """Free the flight claim of a run that cannot be resumed (a new report of the flight is accepted at once);
    the words that say so, or None when there was no claim to free (no flight, or claims switched off)."""
    from ..runs import flight_claims as flight_claims

    request = store.get(run_key(disruption_id, execution_name, "request")) or {}
    flight_id = request.get("flight_id")
    if not flight_id or not flight_claims.enabled():
        return None
    flight_claims.release(flight_id=flight_id, disruption_id=disruption_id, recovered=False, tables=tables)
    return f"its claim on {request.get('flight_number') or flight_id} is released: a new report of it is accepted"
