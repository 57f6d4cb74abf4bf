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
"""

from __future__ import annotations

import logging
import time
from datetime import UTC, datetime
from typing import Any, Literal

from boto3.dynamodb.conditions import Attr, AttributeBase, ConditionBase, Key
from boto3.dynamodb.types import TypeDeserializer
from botocore.exceptions import ClientError
from pydantic import AwareDatetime, BaseModel, ConfigDict, Field

from ..arbitration.actions import describe
from ..arbitration.models import Scenario
from ..checkpoint.config import ttl_seconds
from ..data.schema import FLIGHTS
from ..models.operational import Flight
from .execution_plan import Change, PlanError, Planner, ReasonCode
from .tables import WorkflowTables

log = logging.getLogger("skymarshal.execution")
TRANSACTION_LIMIT = 100  # DynamoDB's TransactWriteItems maximum
RETRYABLE = {"TransactionConflict", "ThrottlingError", "ProvisionedThroughputExceeded", "RequestLimitExceeded"}
ATTEMPTS = 4
EventKind = Literal["started", "completed", "failed", "compensated"]
RefusalCode = Literal["IN_PROGRESS", "SCENARIO_MISMATCH"]
_typed = TypeDeserializer()


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ExecutionEvent(_Model):
    execution_id: str
    seq: int
    at: AwareDatetime
    event: EventKind
    group: int
    action_kinds: list[str]
    description: str
    reason_code: ReasonCode | None = None
    message: str | None = None


class ChangedRow(_Model):
    table: str
    key: dict[str, str]


class ExecutionReport(_Model):
    execution_id: str
    scenario_id: str
    status: Literal["executed", "rolled_back", "compensation_failed"]
    actions: list[str]  # one describe() line per action of the scenario
    groups: int
    events: list[ExecutionEvent] = Field(default_factory=list)
    error: str | None = None
    reason_code: ReasonCode | None = None
    changed: list[ChangedRow] = Field(default_factory=list)  # every row a committed transaction wrote
    unrestored: list[ChangedRow] = Field(default_factory=list)  # compensation_failed: rows still holding the plan
    flight_before: Flight | None = None  # the disrupted flight as execution found it (Learn records this one)


class ExecutionRefused(Exception):
    """The execution id is taken: still running (a concurrent retry), or claimed for another scenario."""

    def __init__(self, code: RefusalCode, message: str):
        super().__init__(message)
        self.code = code


def _pk(execution_id: str) -> str:
    return f"EXECUTION#{execution_id}"


def _ttl() -> int:
    return int(time.time()) + ttl_seconds()


class _Run:
    def __init__(self, execution_id: str, tables: WorkflowTables, now: datetime | None):
        self.id, self.tables = execution_id, tables
        self.table = tables.checkpoints
        self.clock = (lambda: now) if now else (lambda: datetime.now(UTC))
        self.events: list[ExecutionEvent] = []

    def event(
        self, kind: EventKind, group: int, action, reason: ReasonCode | None = None, message: str | None = None
    ) -> None:
        e = ExecutionEvent(
            execution_id=self.id,
            seq=len(self.events),
            at=self.clock(),
            event=kind,
            group=group,
            action_kinds=[action.kind],
            description=describe(action),
            reason_code=reason,
            message=message,
        )
        self.events.append(e)
        stamp = e.at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
        item = {k: v for k, v in e.model_dump(mode="json").items() if v is not None}
        try:  # the report carries every event; a lost copy must not stop a compensation half way
            self.table.put_item(Item={"PK": _pk(self.id), "SK": f"EVENT#{stamp}#{e.seq:04d}", **item, "ttl": _ttl()})
        except ClientError as exc:
            log.error("execution %s: event %d (%s) not stored: %s", self.id, e.seq, kind, exc)
        (log.warning if kind == "failed" else log.info)(
            "execution %s group %d %s%s", self.id, group, kind, f": {reason} {message}" if reason else ""
        )

    def log_changes(self, group: int, chunk: int, changes: list[Change]) -> None:
        """Before the chunk commits: its images, so `undo` works even if this process dies mid-plan."""
        self.table.put_item(
            Item={
                "PK": _pk(self.id),
                "SK": f"CHANGES#{group:03d}#{chunk:03d}",
                "ttl": _ttl(),
                "changes": [
                    {"table": c.table, "key": c.key, "before": c.before, "after": c.after}
                    for c in changes
                    if not c.check_only
                ],
            }
        )

    def transact(self, changes: list[Change]) -> None:
        """One transaction; retried only when DynamoDB says it collided or throttled (never a failed condition)."""
        items = [c.transact_item(self.tables.naming) for c in changes]
        if not items:  # e.g. undoing a group whose rows already held the plan's values: nothing was written
            return
        for attempt in range(ATTEMPTS):
            try:
                self.tables.resource.meta.client.transact_write_items(TransactItems=items)
                return
            except ClientError as exc:
                codes = {r.get("Code") for r in exc.response.get("CancellationReasons", [])} - {"None", None}
                transient = exc.response["Error"]["Code"] in RETRYABLE or (codes and codes <= RETRYABLE)
                if not transient or attempt == ATTEMPTS - 1:
                    raise _Failed(exc, changes) from exc
                time.sleep(0.05 * 2**attempt)


class _Failed(Exception):
    def __init__(self, error: ClientError, changes: list[Change]):
        super().__init__(str(error))
        self.error, self.changes = error, changes


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
    run = _Run(execution_id, tables, now)
    recorded = _claim(run, scenario)
    if recorded is not None:
        return recorded
    try:
        report = _apply(run, scenario)
    except Exception:  # only before the first group: _apply compensates anything later. Free the id for a retry.
        run.table.delete_item(
            Key={"PK": _pk(execution_id), "SK": "STATE"}, ConditionExpression=Attr("status").eq("running")
        )
        raise
    run.table.update_item(
        Key={"PK": _pk(execution_id), "SK": "STATE"},
        UpdateExpression="SET #s = :s, finished_at = :f, report = :r",
        ConditionExpression=Attr("status").eq("running"),
        ExpressionAttributeNames={"#s": "status"},
        ExpressionAttributeValues={":s": report.status, ":f": run.clock().isoformat(), ":r": report.model_dump_json()},
    )
    return report


def _claim(run: _Run, scenario: Scenario) -> ExecutionReport | None:
    key = {"PK": _pk(run.id), "SK": "STATE"}
    try:
        run.table.put_item(
            Item={
                **key,
                "status": "running",
                "scenario_id": scenario.scenario_id,
                "started_at": run.clock().isoformat(),
                "ttl": _ttl(),
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


def _apply(run: _Run, scenario: Scenario) -> ExecutionReport:
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
            code, message = _reason(exc)
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


def _compensate(run: _Run, applied: list) -> tuple[str, list[ChangedRow]]:
    """Undo committed groups newest first; stop at the first that cannot be undone and name what remains."""
    for position in range(len(applied) - 1, -1, -1):
        index, action, chunks = applied[position]
        for n in range(len(chunks) - 1, -1, -1):
            try:
                run.transact([c.inverse() for c in reversed(chunks[n]) if not c.check_only])
            except Exception as exc:
                _, message = _reason(exc)
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


def _reason(exc: Exception) -> tuple[ReasonCode, str]:
    if isinstance(exc, PlanError):
        return exc.code, str(exc)
    if isinstance(exc, _Failed):
        error = exc.error.response
        reasons = error.get("CancellationReasons", [])
        failed = [
            (exc.changes[i], r)
            for i, r in enumerate(reasons[: len(exc.changes)])
            if r.get("Code") == "ConditionalCheckFailed"
        ]
        if failed:
            return "CONDITION_FAILED", "; ".join(_stale(c, r.get("Item")) for c, r in failed[:3]) + (
                f" (and {len(failed) - 3} more)" if len(failed) > 3 else ""
            )
        return "TRANSACTION_ERROR", f"{error['Error']['Code']}: {error['Error'].get('Message', '')}"
    return "TRANSACTION_ERROR", f"{type(exc).__name__}: {exc}"


def _stale(change: Change, item: dict | None) -> str:
    """What is different about a row whose condition failed, in words."""
    row = f"{change.table} {'/'.join(str(v) for v in change.key.values())}"
    now = {k: _typed.deserialize(v) for k, v in item.items()} if item else None
    if change.before is None:
        return f"{row} already exists"
    if now is None:
        return f"{row} is gone"
    moved = [
        f"{k} is {now.get(k)!r}, planned on {change.before.get(k)!r}"
        for k in sorted({*change.before, *now})
        if k != "updated_by_execution" and now.get(k) != change.before.get(k)
    ]
    if moved:
        return f"{row} changed since it was read: " + ", ".join(moved[:3])
    if change.guard is None:
        return f"{row} changed"
    return f"{row} no longer meets the plan's condition {_text(change.guard)}: " + ", ".join(
        f"{name} is {now.get(name)!r}" for name in sorted(set(_names(change.guard)))
    )


def _text(condition: ConditionBase) -> str:
    expression = condition.get_expression()
    values = [
        _text(v) if isinstance(v, ConditionBase) else v.name if isinstance(v, AttributeBase) else repr(v)
        for v in expression["values"]
    ]
    return expression["format"].format(*values, operator=expression["operator"])


def _names(condition: ConditionBase):
    for value in condition.get_expression()["values"]:
        if isinstance(value, ConditionBase):
            yield from _names(value)
        elif isinstance(value, AttributeBase):
            yield value.name


def _items(table, execution_id: str, prefix: str) -> list[dict]:
    """Every item of the execution whose sort key starts with `prefix` (all pages)."""
    kwargs: dict[str, Any] = {
        "KeyConditionExpression": Key("PK").eq(_pk(execution_id)) & Key("SK").begins_with(prefix),
        "ConsistentRead": True,
    }
    items: list[dict] = []
    while True:
        page = table.query(**kwargs)
        items += page.get("Items", [])
        if "LastEvaluatedKey" not in page:
            return items
        kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]


def execution_events(execution_id: str, *, tables: WorkflowTables) -> list[ExecutionEvent]:
    """The recorded events of an execution, in order."""
    items = _items(tables.checkpoints, execution_id, "EVENT#")
    fields = set(ExecutionEvent.model_fields)
    return sorted(
        (ExecutionEvent.model_validate({k: v for k, v in i.items() if k in fields}) for i in items), key=lambda e: e.seq
    )


def undo(execution_id: str, *, tables: WorkflowTables) -> int:
    """Put back every row an execution still holds changed (tests, drills, a dead attempt): each logged chunk,
    newest first, is inverted only if its after-image is still there. Returns the rows restored."""
    run = _Run(execution_id, tables, None)
    restored = 0
    for item in sorted(_items(run.table, execution_id, "CHANGES#"), key=lambda i: i["SK"], reverse=True):
        changes = [Change(c["table"], c["key"], c.get("before"), c.get("after")) for c in item["changes"]]
        try:
            run.transact([c.inverse() for c in reversed(changes)])
            restored += len(changes)
        except _Failed as exc:  # already restored (rolled back), never committed, or changed since: left alone
            log.info("undo %s %s skipped: %s", execution_id, item["SK"], _reason(exc)[1])
    if restored:
        run.table.update_item(
            Key={"PK": _pk(execution_id), "SK": "STATE"},
            UpdateExpression="SET undone_at = :t",
            ExpressionAttributeValues={":t": datetime.now(UTC).isoformat()},
        )
    return restored
