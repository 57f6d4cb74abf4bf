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

Checkpoints-table items of one execution (all with a `ttl`):
  PK = "EXECUTION#<id>"  SK = "STATE"                       claimed at start (conditional put), final report
  PK = "EXECUTION#<id>"  SK = "CHANGES#<group>#<chunk>"      before/after images, written before the chunk commits
  PK = "EXECUTION#<id>"  SK = "EVENT#<timestamp>#<seq:04d>"  started / completed / failed / compensated
The CHANGES items are a write-ahead log: `undo` can put back an executed plan, or what a dead attempt
committed, and only where the after-image is still there.
The event and report models and the run's table writes are in `workflow.execution_records`, the failure reasons
in `workflow.execution_reasons`, the row changes in `workflow.execution_changes` and `workflow.execution_plan`.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Any

from boto3.dynamodb.conditions import Attr
from botocore.exceptions import ClientError

from ..arbitration.actions import describe
from ..arbitration.models import Scenario
from ..data.schema import FLIGHTS
from ..models.operational import Flight
from .execution_changes import Change
from .execution_plan import Planner
from .execution_reasons import failure_reason
from .execution_records import (
    ChangedRow,
    ExecutionRefused,
    ExecutionReport,
    ExecutionRun,
    TransactionFailed,
    execution_items,
    execution_pk,
    item_ttl,
)
from .tables import WorkflowTables

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
    scenario: Scenario, *, execution_id: str, tables: WorkflowTables, now: datetime | None = None
) -> ExecutionReport:
    """Apply `scenario` once per `execution_id`: a repeated call returns the recorded report and applies
    nothing; a call while another is running raises ExecutionRefused("IN_PROGRESS")."""
    run = ExecutionRun(execution_id, tables, now)
    recorded = _claim(run, scenario)
    if recorded is not None:
        return recorded
    try:
        report = _apply(run, scenario)
    except Exception:  # only before the first group: _apply compensates anything later. Free the id for a retry.
        run.table.delete_item(
            Key={"PK": execution_pk(execution_id), "SK": "STATE"}, ConditionExpression=Attr("status").eq("running")
        )
        raise
    run.table.update_item(
        Key={"PK": execution_pk(execution_id), "SK": "STATE"},
        UpdateExpression="SET #s = :s, finished_at = :f, report = :r",
        ConditionExpression=Attr("status").eq("running"),
        ExpressionAttributeNames={"#s": "status"},
        ExpressionAttributeValues={":s": report.status, ":f": run.clock().isoformat(), ":r": report.model_dump_json()},
    )
    return report


def _claim(run: ExecutionRun, scenario: Scenario) -> ExecutionReport | None:
    key = {"PK": execution_pk(run.id), "SK": "STATE"}
    try:
        run.table.put_item(
            Item={
                **key,
                "status": "running",
                "scenario_id": scenario.scenario_id,
                "started_at": run.clock().isoformat(),
                "ttl": item_ttl(),
            },
            ConditionExpression=Attr("PK").not_exists(),
        )
        return None
    except ClientError as exc:
        if exc.response["Error"]["Code"] != "ConditionalCheckFailedException":
            raise
    state = run.table.get_item(Key=key, ConsistentRead=True)["Item"]
    if state["scenario_id"] != scenario.scenario_id:
        raise ExecutionRefused(
            "SCENARIO_MISMATCH",
            f"execution {run.id} was claimed for {state['scenario_id']}, not {scenario.scenario_id}",
        )
    if state["status"] == "running":
        raise ExecutionRefused(
            "IN_PROGRESS",
            f"execution {run.id} started at {state['started_at']} and has not "
            f"finished; if that attempt died, undo('{run.id}') puts back what it committed",
        )
    return ExecutionReport.model_validate_json(state["report"])


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
            for n, start in enumerate(range(0, len(changes), TRANSACTION_LIMIT)):
                chunk = changes[start : start + TRANSACTION_LIMIT]
                run.log_changes(index, n, chunk)
                run.transact(chunk)
                done.append(chunk)
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


def undo(execution_id: str, *, tables: WorkflowTables) -> int:
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
    if restored:
        run.table.update_item(
            Key={"PK": execution_pk(execution_id), "SK": "STATE"},
            UpdateExpression="SET undone_at = :t",
            ExpressionAttributeValues={":t": datetime.now(UTC).isoformat()},
        )
    return restored
