"""An execution's items in the checkpoints table: the event and report models, the run that records events and
change logs and commits the transactions (retrying only collisions and throttling), and reading the events back."""

from __future__ import annotations

import logging
import time
import zlib
from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field

from ...arbitration.actions import describe
from ...checkpoint.config import ttl_seconds
from ...models.operational import Flight
from ..aws.dynamodb import Key
from ..aws.errors import ClientError
from ..tables import WorkflowTables
from .changes import Change, ReasonCode

log = logging.getLogger("skymarshal.execution")
RETRYABLE = {"TransactionConflict", "ThrottlingError", "ProvisionedThroughputExceeded", "RequestLimitExceeded"}
ATTEMPTS = 4
EventKind = Literal["started", "completed", "failed", "compensated"]
RefusalCode = Literal["IN_PROGRESS", "SCENARIO_MISMATCH"]
RunStatus = Literal["running", "executed", "rolled_back", "compensation_failed"]
# A DynamoDB item holds 400 KB: a report larger than this (a network plan lists thousands of changed rows) is
# kept compressed in parts beside the run's record, which names how many.
REPORT_INLINE_BYTES = 300_000
REPORT_PART_BYTES = 350_000


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
    flight_id: str | None = None  # the flight the group changes: a network plan's progress, flight by flight
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


class ClaimLost(Exception):
    """The run's execution record was written by another attempt between the check and the first transaction."""


def execution_pk(execution_id: str) -> str:
    return f"EXECUTION#{execution_id}"


def record_key(run_id: str) -> dict[str, str]:
    """The run's execution record: one per run (a disruption, whichever of its executions carries it out)."""
    return {"PK": execution_pk(run_id), "SK": "STATE"}


def run_record(run_id: str, *, tables: WorkflowTables) -> dict | None:
    """The run's execution record as stored (strongly consistent), or None when nothing of it was executed."""
    return tables.checkpoints.get_item(Key=record_key(run_id), ConsistentRead=True).get("Item")


def item_ttl() -> int:
    return int(time.time()) + ttl_seconds()


class ExecutionRun:
    """One execution's writes to the checkpoints table (events, change logs) and its transactions."""

    def __init__(
        self,
        execution_id: str,
        tables: WorkflowTables,
        now: datetime | None,
        *,
        run_id: str | None = None,
        scenario_id: str | None = None,
    ):
        self.id, self.tables = execution_id, tables
        self.table = tables.checkpoints
        self.clock = (lambda: now) if now else (lambda: datetime.now(UTC))
        self.events: list[ExecutionEvent] = []
        # The run's record goes into the first transaction that changes a row (`transact`): with it, or not at all.
        self.run_id, self.scenario_id = run_id or execution_id, scenario_id
        self.claimed = scenario_id is None  # undo: no record to write

    def claim_item(self, status: RunStatus = "running", report: dict[str, Any] | None = None) -> dict:
        """The Put of the run's record: it must not exist, unless an earlier execution of the run rolled back."""
        item = {
            **record_key(self.run_id),
            "status": status,
            "scenario_id": self.scenario_id,
            "execution_name": self.id,
            "started_at": self.clock().isoformat(),
            "ttl": item_ttl(),
        }
        if report is not None:
            item |= {"finished_at": self.clock().isoformat(), **report}
        return {
            "Put": {
                "TableName": self.table.name,
                "Item": item,
                "ConditionExpression": "attribute_not_exists(PK) OR (#s = :rolled_back AND execution_name <> :me)",
                "ExpressionAttributeNames": {"#s": "status"},
                "ExpressionAttributeValues": {":rolled_back": "rolled_back", ":me": self.id},
            }
        }

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
            flight_id=getattr(action, "flight_id", None),
            reason_code=reason,
            message=message,
        )
        self.events.append(e)
        stamp = e.at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
        item = {k: v for k, v in e.model_dump(mode="json").items() if v is not None}
        try:  # the report carries every event; a lost copy must not stop a compensation half way
            self.table.put_item(
                Item={"PK": execution_pk(self.id), "SK": f"EVENT#{stamp}#{e.seq:04d}", **item, "ttl": item_ttl()}
            )
        except ClientError as exc:
            log.error("execution %s: event %d (%s) not stored: %s", self.id, e.seq, kind, exc)
        (log.warning if kind == "failed" else log.info)(
            "execution %s group %d %s%s", self.id, group, kind, f": {reason} {message}" if reason else ""
        )

    def log_changes(self, group: int, chunk: int, changes: list[Change]) -> None:
        """Before the chunk commits: its images, so `undo` works even if this process dies mid-plan."""
        self.table.put_item(
            Item={
                "PK": execution_pk(self.id),
                "SK": f"CHANGES#{group:03d}#{chunk:03d}",
                "ttl": item_ttl(),
                "changes": [
                    {"table": c.table, "key": c.key, "before": c.before, "after": c.after}
                    for c in changes
                    if not c.check_only
                ],
            }
        )

    def transact(self, changes: list[Change]) -> None:
        """One transaction; retried only when DynamoDB says it collided or throttled (never a failed condition).
        The first one that writes a row carries the run's record, last,
        so the record exists exactly when a change of the run does; ClaimLost when another attempt wrote it."""
        items = [c.transact_item(self.tables.naming) for c in changes]
        carries = not self.claimed and any(not c.check_only for c in changes)
        if carries:
            items.append(self.claim_item())
        if not items:  # e.g. undoing a group whose rows already held the plan's values: nothing was written
            return
        for attempt in range(ATTEMPTS):
            try:
                self.tables.resource.meta.client.transact_write_items(TransactItems=items)
                self.claimed = self.claimed or carries
                return
            except ClientError as exc:
                reasons = exc.response.get("CancellationReasons", [])
                if carries and len(reasons) == len(items) and reasons[-1].get("Code") == "ConditionalCheckFailed":
                    raise ClaimLost(f"execution {self.id}: run {self.run_id} already has an execution record") from exc
                codes = {r.get("Code") for r in reasons} - {"None", None}
                transient = exc.response["Error"]["Code"] in RETRYABLE or (codes and codes <= RETRYABLE)
                if not transient or attempt == ATTEMPTS - 1:
                    raise TransactionFailed(exc, changes) from exc
                time.sleep(0.05 * 2**attempt)


class TransactionFailed(Exception):
    """A transaction that was cancelled or could not run, with the changes it carried."""

    def __init__(self, error: ClientError, changes: list[Change]):
        super().__init__(str(error))
        self.error, self.changes = error, changes


def execution_items(table, execution_id: str, prefix: str) -> list[dict]:
    """Every item of the execution whose sort key starts with `prefix` (all pages)."""
    kwargs: dict[str, Any] = {
        "KeyConditionExpression": Key("PK").eq(execution_pk(execution_id)) & Key("SK").begins_with(prefix),
        "ConsistentRead": True,
    }
    items: list[dict] = []
    while True:
        page = table.query(**kwargs)
        items += page.get("Items", [])
        if "LastEvaluatedKey" not in page:
            return items
        kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]


def report_attributes(table, run_id: str, execution_id: str, report: ExecutionReport) -> dict[str, Any]:
    """The report as the run's record holds it: inline when it fits the item, else its compressed parts written
    here (before the record names them, so a record never names a missing part) and their count."""
    text = report.model_dump_json()
    if len(text.encode()) <= REPORT_INLINE_BYTES:
        return {"report": text}
    packed = zlib.compress(text.encode(), 6)
    parts = [packed[at : at + REPORT_PART_BYTES] for at in range(0, len(packed), REPORT_PART_BYTES)]
    with table.batch_writer() as batch:
        for n, part in enumerate(parts):
            batch.put_item(Item={**_part_key(run_id, execution_id, n), "ttl": item_ttl(), "part": part})
    return {"report_parts": len(parts)}


def recorded_report(table, record: dict) -> ExecutionReport:
    """The report a finished run's record holds (inline, or reassembled from its parts)."""
    if "report" in record:
        return ExecutionReport.model_validate_json(record["report"])
    run_id = record["PK"].removeprefix(execution_pk(""))
    keys = [_part_key(run_id, record["execution_name"], n) for n in range(int(record["report_parts"]))]
    packed = b"".join(bytes(table.get_item(Key=key, ConsistentRead=True)["Item"]["part"]) for key in keys)
    return ExecutionReport.model_validate_json(zlib.decompress(packed))


def _part_key(run_id: str, execution_id: str, n: int) -> dict[str, str]:
    return {"PK": execution_pk(run_id), "SK": f"REPORT#{execution_id}#{n:04d}"}


def execution_events(execution_id: str, *, tables: WorkflowTables) -> list[ExecutionEvent]:
    """The recorded events of an execution, in order."""
    items = execution_items(tables.checkpoints, execution_id, "EVENT#")
    fields = set(ExecutionEvent.model_fields)
    return sorted(
        (ExecutionEvent.model_validate({k: v for k, v in i.items() if k in fields}) for i in items), key=lambda e: e.seq
    )
