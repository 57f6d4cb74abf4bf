"""Execute an approved scenario against the operational tables, all or nothing.

Grouping: one group per action. An action is what the duty manager approved line by line (`describe`), so
it is the unit the execution events report; DynamoDB cannot touch one item twice in a transaction, and
several actions write the same flight row (swap + delay, delay + divert), so per-action groups also keep
each transaction legal. Rows that must commit together are inside one action (a reserve takes the seat
only as the rostered member is released; a passenger moves only as the target flight's counts rise).
A group is one TransactWriteItems; past 100 items it is split into chunks that are undone as a unit.
When any group fails, every chunk already committed is compensated in reverse order, so the tables are
never left half changed; a compensation that fails stops there and is reported (`compensation_failed`),
leaving a prefix of the plan applied and the rows named, for a human to reconcile.

Exactly once per run: a run (a disruption: its first execution, its resumes and retries) has one execution record,
  PK = "EXECUTION#<run id>"  SK = "STATE"   status, scenario_id, execution_name, started_at, report (once finished)
  PK = "EXECUTION#<run id>"  SK = "REPORT#<execution>#<n>"  a report too large for the record, compressed, in parts
which is read before anything is changed and written in the same transaction as the run's first row change
(`ExecutionRun.transact`, conditional on its absence). So the record exists exactly when a change of the run
does: a second attempt — a retried step, a resumed run after a crash, a concurrent duplicate — finds it and
returns the recorded report (applying nothing), or is refused while it says `running` (IN_PROGRESS: that attempt
died mid-plan or is still going; local recovery puts back what it committed). Only a record that says
`rolled_back` lets a later execution of the run try again.

Checkpoints-table items of one execution (all with a `ttl`):
  PK = "EXECUTION#<id>"  SK = "CHANGES#<group>#<chunk>"      before/after images, written before the chunk commits
  PK = "EXECUTION#<id>"  SK = "EVENT#<timestamp>#<seq:04d>"  started / completed / failed / compensated
The CHANGES items are a write-ahead log: `undo` can put back an executed plan, or what a dead attempt
committed, and only where the after-image is still there.
The event and report models and the run's table writes are in `workflow.execution.records`, the failure reasons
in `workflow.execution.reasons`, the row changes in `workflow.execution.changes` and `workflow.execution.plan`.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Any

from ...arbitration.actions import describe
from ...arbitration.models import Scenario
from ...data.schema import FLIGHTS
from ...models.operational import Flight
from ..aws.dynamodb import Attr
from ..aws.errors import ClientError
from ..tables import WorkflowTables
from .changes import Change
from .plan import Planner
from .reasons import failure_reason
from .records import (
    ChangedRow,
    ClaimLost,
    ExecutionRefused,
    ExecutionReport,
    ExecutionRun,
    TransactionFailed,
    execution_items,
    record_key,
    recorded_report,
    report_attributes,
    run_record,
)

log = logging.getLogger("skymarshal.execution")
TRANSACTION_LIMIT = 100  # DynamoDB's TransactWriteItems maximum


def _rows(chunks: list[list[Change]]) -> list[ChangedRow]:
    return [
        ChangedRow(table=c.table, key={k: str(v) for k, v in c.key.items()})
        for chunk in chunks
        for c in chunk
        if not c.check_only
    ]


def execute(
    scenario: Scenario,
    *,
    execution_id: str,
    tables: WorkflowTables,
    now: datetime | None = None,
    run_id: str | None = None,
) -> ExecutionReport:
    """Apply `scenario` once per run (`run_id`, by default `execution_id`): a repeated call, by any execution of
    the run, returns the recorded report and applies nothing; while an attempt's record says running,
    ExecutionRefused("IN_PROGRESS")."""
    run = ExecutionRun(execution_id, tables, now, run_id=run_id, scenario_id=scenario.scenario_id)
    recorded = _recorded(run, scenario)
    if recorded is not None:
        return recorded
    try:
        report = _apply(run, scenario)
        stored = report_attributes(run.table, run.run_id, run.id, report)
        if run.claimed:  # the record went in with the first change: it is ours to finish
            ((name, value),) = stored.items()
            run.table.update_item(
                Key=record_key(run.run_id),
                UpdateExpression="SET #s = :s, finished_at = :f, #r = :r",
                ConditionExpression=Attr("status").eq("running") & Attr("execution_name").eq(run.id),
                ExpressionAttributeNames={"#s": "status", "#r": name},
                ExpressionAttributeValues={":s": report.status, ":f": run.clock().isoformat(), ":r": value},
            )
        else:  # nothing was written (a plan with no row to change, or its first group failed): recorded now
            run.tables.resource.meta.client.transact_write_items(TransactItems=[run.claim_item(report.status, stored)])
    except ClaimLost:
        recorded = _recorded(run, scenario)
        if recorded is None:  # it rolled back in the meantime: another attempt, not this one, may try again
            raise ExecutionRefused("IN_PROGRESS", f"run {run.run_id} was executed concurrently; retry") from None
        return recorded
    except ClientError as exc:  # the end-of-plan record lost its condition to another attempt — or to this one's own
        # write, applied with its reply lost and retried by botocore: the record then says what this attempt did
        if exc.response["Error"]["Code"] not in ("TransactionCanceledException", "ConditionalCheckFailedException"):
            raise
        recorded = _recorded(run, scenario)
        if recorded is None:
            raise
        return recorded
    return report


def _recorded(run: ExecutionRun, scenario: Scenario) -> ExecutionReport | None:
    """The run's recorded report, checked before any change: None when the run may execute (no record, or an
    earlier execution of the run rolled back); ExecutionRefused for another plan or an attempt still running."""
    state = run_record(run.run_id, tables=run.tables)
    if state is None or (state["status"] == "rolled_back" and state.get("execution_name", run.id) != run.id):
        return None
    by = state.get("execution_name", run.id)
    if state["scenario_id"] != scenario.scenario_id:
        raise ExecutionRefused(
            "SCENARIO_MISMATCH",
            f"run {run.run_id} was executed by {by} for {state['scenario_id']}, not {scenario.scenario_id}",
        )
    if state["status"] == "running":
        raise ExecutionRefused(
            "IN_PROGRESS",
            f"execution {by} of run {run.run_id} started at {state['started_at']} and has not "
            f"finished; if that attempt died, undo('{by}') puts back what it committed",
        )
    return recorded_report(run.table, state)


def _apply(run: ExecutionRun, scenario: Scenario) -> ExecutionReport:
    planner = Planner(run.tables, run.id, scenario)
    first = scenario.actions[0].flight_id if scenario.actions else None
    found = (
        run.tables.table(FLIGHTS).get_item(Key={"flight_id": first}, ConsistentRead=True).get("Item") if first else None
    )
    base = {
        "execution_id": run.id,
        "scenario_id": scenario.scenario_id,
        "groups": len(scenario.actions),
        "actions": [describe(a) for a in scenario.actions],
        "flight_before": Flight.model_validate(found) if found else None,
    }
    applied: list[tuple[int, Any, list[list[Change]]]] = []  # (group, action, committed chunks)
    for index, action in enumerate(scenario.actions):
        done: list[list[Change]] = []
        try:
            run.event("started", index, action)
            changes = planner.changes(action)
            start = 0
            while start < len(changes):
                size = TRANSACTION_LIMIT - (0 if run.claimed else 1)  # room for the record the first change carries
                chunk = changes[start : start + size]
                run.log_changes(index, len(done), chunk)
                run.transact(chunk)
                done.append(chunk)
                start += size
        except ClaimLost:  # another attempt holds the run: nothing of this one was committed
            raise
        except Exception as exc:  # a condition failed, a row is gone, or the transaction could not run
            code, message = failure_reason(exc)
            run.event("failed", index, action, code, message)
            if done:  # the group's committed chunks are undone with it, as a unit
                applied.append((index, action, done))
            status, unrestored = _compensate(run, applied)
            changed = _rows([c for _, _, chunks in applied for c in chunks])
            return ExecutionReport(
                **base,
                status=status,
                events=run.events,
                error=message,
                reason_code=code,
                changed=changed,
                unrestored=unrestored,
            )
        applied.append((index, action, done))
        written = sum(1 for chunk in done for c in chunk if not c.check_only)
        run.event(
            "completed",
            index,
            action,
            message=f"{written} row(s) written in {len(done)} transaction(s)"
            if written
            else "no operational row to change",
        )
    return ExecutionReport(
        **base, status="executed", events=run.events, changed=_rows([c for _, _, chunks in applied for c in chunks])
    )


def _compensate(run: ExecutionRun, applied: list) -> tuple[str, list[ChangedRow]]:
    """Undo committed groups newest first; stop at the first that cannot be undone and name what remains."""
    for position in range(len(applied) - 1, -1, -1):
        index, action, chunks = applied[position]
        for n in range(len(chunks) - 1, -1, -1):
            try:
                run.transact([c.inverse() for c in reversed(chunks[n]) if not c.check_only])
            except Exception as exc:
                _, message = failure_reason(exc)
                remaining = chunks[: n + 1] + [c for _, _, later in applied[:position] for c in later]
                run.event(
                    "failed",
                    index,
                    action,
                    "COMPENSATION_FAILED",
                    f"could not restore group {index}: {message}; groups 0..{index} still hold the plan's "
                    "values — the rows are listed in the report for a human to reconcile",
                )
                return "compensation_failed", _rows(remaining)
        run.event("compensated", index, action, message=f"{len(_rows(chunks))} row(s) restored to their before-images")
    return "rolled_back", []


def undo(execution_id: str, *, tables: WorkflowTables, run_id: str | None = None) -> int:
    """Put back every row an execution still holds changed (tests, drills, a dead attempt): each logged chunk,
    newest first, is inverted only if its after-image is still there. Returns the rows restored."""
    run = ExecutionRun(execution_id, tables, None)
    restored = 0
    for item in sorted(execution_items(run.table, execution_id, "CHANGES#"), key=lambda i: i["SK"], reverse=True):
        changes = [Change(c["table"], c["key"], c.get("before"), c.get("after")) for c in item["changes"]]
        try:
            run.transact([c.inverse() for c in reversed(changes)])
            restored += len(changes)
        except (
            TransactionFailed
        ) as exc:  # already restored (rolled back), never committed, or changed since: left alone
            log.info("undo %s %s skipped: %s", execution_id, item["SK"], failure_reason(exc)[1])
    if restored:  # noted on the run's record, when this execution wrote it
        try:
            run.table.update_item(
                Key=record_key(run_id or execution_id),
                UpdateExpression="SET undone_at = :t",
                ConditionExpression=Attr("PK").exists()
                & (Attr("execution_name").eq(execution_id) | Attr("execution_name").not_exists()),
                ExpressionAttributeValues={":t": datetime.now(UTC).isoformat()},
            )
        except ClientError as exc:
            if exc.response["Error"]["Code"] != "ConditionalCheckFailedException":
                raise
    return restored
