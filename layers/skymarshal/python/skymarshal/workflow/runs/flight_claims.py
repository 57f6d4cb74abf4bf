"""One disruption per flight at a time: a run claims its flight (and day) at Validate, and Learn releases it.

Run ids deduplicate a repeated event, not a second report of the same trouble: two reports about EY123 on the
20th (two duty managers, an event and a console report) would otherwise each propose and execute a plan — a
second tail swap on a flight already swapped. So Validate puts a claim item in the Checkpoints table with a
condition (one item per flight; the flight id carries the day), and a second run for that flight is refused
with a typed reason naming the first run:

  PK = "FLIGHTRUN#<flight id>"  SK = "CLAIM"   disruption_id, execution_name, status, claimed_at, until

- `running` from Validate until Learn; it lapses at `until` (the approval timeout plus a margin), so a run that
  died without reaching Learn does not hold its flight for ever.
- Learn marks an executed plan `recovered` until the hold (`SKYMARSHAL_FLIGHT_HOLD_MINUTES`, 360) has passed,
  and any other ending (rejected, escalated, rolled back) `released`.
- The same disruption (a resumed run) may always claim its flight again.
- A disruption decided again at its re-decision point (`follows`: the cause not cleared by the estimate's upper
  bound, issue 46) takes the claim of the disruption it follows at once, however that one holds it.
- A recovered flight's hold refuses a second report of the same trouble, not a new one: a run whose cause is of
  another AHM 730 family (`cause`: a crew member sick on a flight just recovered from a defect) takes the claim at
  once, in one conditional write naming the run it follows.
- A claim whose run has ended is free at once, however the run ended (issue 48): the state machine sends every
  failure to a step that releases it (infra/workflow_stack.py), and a run that ended without reaching it — aborted,
  a terminal error no Catch takes (States.DataLimitExceeded), a Lambda killed mid-release — is found here: when a
  claim refuses, the holder's execution is looked up (DescribeExecution on `SKYMARSHAL_STATE_MACHINE_ARN`'s
  executions) and a holder no longer RUNNING loses its claim to the new run, in one conditional write naming it.
  Local start also frees the claims of the runs it brings back ABORTED (local/runs.py).

`SKYMARSHAL_ONE_RUN_PER_FLIGHT=0` turns the claim off (a sandbox replaying one demo flight again and again).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from pydantic import BaseModel

from ..aws.errors import ClientError
from ..deployment import FLIGHT_HOLD_ENV, STATE_MACHINE_ENV
from ..ports import ServiceError
from ..tables import WorkflowTables

log = logging.getLogger("skymarshal.workflow.runs.flight_claims")

CLAIMS_ENV = "SKYMARSHAL_ONE_RUN_PER_FLIGHT"
DEFAULT_HOLD_MINUTES = 360  # a recovered flight's plan is being flown: six hours covers its day's rotation
RUN_MARGIN = timedelta(hours=1)  # beyond the approval timeout: the rounds, arbitration, execution and Learn
RefusalCode = Literal["FLIGHT_RUN_IN_PROGRESS", "FLIGHT_RECENTLY_RECOVERED"]
ENDED = frozenset({"SUCCEEDED", "FAILED", "TIMED_OUT", "ABORTED"})  # Step Functions' terminal statuses
# An execution's name -> its Step Functions status; None when it cannot be told (then the claim stands).
ExecutionStatus = Callable[[str], "str | None"]


class FlightRefusal(BaseModel):
    """Why a run may not take its flight: the code, and the run that holds it."""

    code: RefusalCode
    flight_id: str
    holder_disruption_id: str
    holder_execution_name: str
    until: str

    def message(self, flight_number: str, flight_date: str) -> str:
        if self.code == "FLIGHT_RUN_IN_PROGRESS":
            what = f"run {self.holder_execution_name} is already handling it"
            after = f"follow or answer that run; its claim lapses at {self.until} if it never finishes"
        else:
            what = f"run {self.holder_execution_name} recovered it from the same cause"
            after = f"a new report of it is accepted after {self.until} ({FLIGHT_HOLD_ENV}); another cause at once"
        return f"{self.code}: {flight_number} on {flight_date}: {what}; {after}"


class FlightClaimed(Exception):
    def __init__(self, refusal: FlightRefusal, message: str):
        super().__init__(message)
        self.refusal = refusal


def enabled() -> bool:
    return os.environ.get(CLAIMS_ENV, "1").strip() not in ("0", "false", "off", "no")


def hold() -> timedelta:
    raw = os.environ.get(FLIGHT_HOLD_ENV, str(DEFAULT_HOLD_MINUTES))
    try:
        return timedelta(minutes=max(0, int(raw)))
    except ValueError:
        raise ValueError(f"{FLIGHT_HOLD_ENV}={raw!r} is not a whole number of minutes") from None


def _key(flight_id: str) -> dict[str, str]:
    return {"PK": f"FLIGHTRUN#{flight_id}", "SK": "CLAIM"}


def _epoch(at: datetime) -> int:
    return int(at.timestamp())


def _iso(epoch: int) -> str:
    return datetime.fromtimestamp(epoch, UTC).isoformat(timespec="minutes")


def claim(
    *,
    flight_id: str,
    flight_number: str,
    flight_date: str,
    disruption_id: str,
    execution_name: str,
    run_seconds: int,
    tables: WorkflowTables,
    now: datetime | None = None,
    execution_status: ExecutionStatus | None = None,
    cause: str | None = None,
    follows: str | None = None,
) -> None:
    """Take the flight for this disruption, or raise FlightClaimed naming the run that holds it. A holder whose
    execution has ended (`execution_status`; default: DescribeExecution on the state machine of the environment)
    gives way at once, a recovered flight's hold to a run of another `cause` (the AHM 730 family), and the
    disruption this one `follows` (decides again at its re-decision point) to it."""
    at = now or datetime.now(UTC)
    item = {
        **_key(flight_id),
        "disruption_id": disruption_id,
        "execution_name": execution_name,
        "status": "running",
        "claimed_at": at.isoformat(),
        "until": _epoch(at + timedelta(seconds=run_seconds) + RUN_MARGIN),
        **({"cause": cause} if cause else {}),
    }
    if _put(item, tables=tables, at=at):
        return
    held = _held(flight_id, tables) or {}
    if follows and _hand_over(held, item, follows, tables=tables):
        return
    if _take_over(held, item, tables=tables, status=execution_status, at=at):
        return
    held = _held(flight_id, tables) or held  # as now
    # the sweep settled an ended holder whose plan was executed with no hold (SKYMARSHAL_FLIGHT_HOLD_MINUTES=0):
    # released, as Learn would have left it, so this run may take it
    if held.get("status") == "released":
        if _put(item, tables=tables, at=at):
            return
        held = _held(flight_id, tables) or held  # another run took it meanwhile
    if _follow_recovered(held, item, tables=tables):
        return
    refusal = FlightRefusal(
        code="FLIGHT_RECENTLY_RECOVERED" if held.get("status") == "recovered" else "FLIGHT_RUN_IN_PROGRESS",
        flight_id=flight_id,
        holder_disruption_id=str(held.get("disruption_id", "?")),
        holder_execution_name=str(held.get("execution_name", "?")),
        until=_iso(int(held.get("until", 0))),
    )
    raise FlightClaimed(refusal, refusal.message(flight_number, flight_date))


def _put(item: dict[str, Any], *, tables: WorkflowTables, at: datetime) -> bool:
    """The claim, if the flight is free, ours already (a resume), released, or lapsed: one conditional write, no
    read-then-write race; False when another run holds it."""
    try:
        tables.checkpoints.put_item(
            Item=item,
            ConditionExpression="attribute_not_exists(PK) OR disruption_id = :d OR #s = :released OR #u < :now",
            ExpressionAttributeNames={"#s": "status", "#u": "until"},
            ExpressionAttributeValues={":d": item["disruption_id"], ":released": "released", ":now": _epoch(at)},
        )
    except ClientError as exc:
        if exc.response["Error"]["Code"] != "ConditionalCheckFailedException":
            raise
        return False
    return True


def _held(flight_id: str, tables: WorkflowTables) -> dict[str, Any] | None:
    return tables.checkpoints.get_item(Key=_key(flight_id), ConsistentRead=True).get("Item")


def _take_over(
    held: dict[str, Any],
    item: dict[str, Any],
    *,
    tables: WorkflowTables,
    status: ExecutionStatus | None,
    at: datetime,
) -> bool:
    """Take a running claim whose execution has ended without releasing it; False when it still runs, cannot be
    told, or another run took it first (the write names the holder it replaces: no race frees a live claim)."""
    holder = str(held.get("execution_name") or "")
    if held.get("status") != "running" or not holder:
        return False
    status = status or status_from_env()
    if status is None:
        return False
    ended = status(holder)
    if ended not in ENDED:
        return False
    if _plan_carried_out(held, tables=tables, at=at):
        return False
    try:
        tables.checkpoints.put_item(
            Item={**item, "replaced": holder, "replaced_status": ended},
            ConditionExpression="#s = :running AND execution_name = :holder",
            ExpressionAttributeNames={"#s": "status"},
            ExpressionAttributeValues={":running": "running", ":holder": holder},
        )
    except ClientError as exc:
        if exc.response["Error"]["Code"] != "ConditionalCheckFailedException":
            raise
        return False
    log.warning(
        "claim on %s: run %s ended %s without releasing it; taken by %s",
        item["PK"],
        holder,
        ended,
        item["execution_name"],
    )
    return True


def _hand_over(held: dict[str, Any], item: dict[str, Any], follows: str, *, tables: WorkflowTables) -> bool:
    """Take the claim of the disruption `follows` names (one conditional write naming it); False when another
    disruption holds the flight."""
    if held.get("disruption_id") != follows:
        return False
    try:
        tables.checkpoints.put_item(
            Item={**item, "follows": follows},
            ConditionExpression="disruption_id = :holder",
            ExpressionAttributeValues={":holder": follows},
        )
    except ClientError as exc:
        if exc.response["Error"]["Code"] != "ConditionalCheckFailedException":
            raise
        return False
    log.info("claim on %s: %s decided again as %s", item["PK"], follows, item["execution_name"])
    return True


def _follow_recovered(held: dict[str, Any], item: dict[str, Any], *, tables: WorkflowTables) -> bool:
    """Take a recovered flight's claim for a run of another cause (both claims name theirs; an older claim that
    does not keeps its hold); False when the cause is the same, unknown, or another run took the claim first."""
    cause, before = item.get("cause"), held.get("cause")
    if held.get("status") != "recovered" or not cause or not before or cause == before:
        return False
    try:
        tables.checkpoints.put_item(
            Item={**item, "follows": str(held.get("disruption_id", ""))},
            ConditionExpression="#s = :recovered AND disruption_id = :holder",
            ExpressionAttributeNames={"#s": "status"},
            ExpressionAttributeValues={":recovered": "recovered", ":holder": held.get("disruption_id", "")},
        )
    except ClientError as exc:
        if exc.response["Error"]["Code"] != "ConditionalCheckFailedException":
            raise
        return False
    log.info("claim on %s: recovered from %s, taken by %s for %s", item["PK"], before, item["execution_name"], cause)
    return True


def _plan_carried_out(held: dict[str, Any], *, tables: WorkflowTables, at: datetime) -> bool:
    """Whether the ended holder's plan was executed, or is half applied (its execution record still `running`):
    then the flight is not free. An executed plan holds it as Learn would have (`recovered`, for the hold period);
    a half-applied one keeps the claim until the run is resumed or settled (workflow/execution/recovery.py)."""
    from ..execution.records import run_record

    disruption_id = str(held.get("disruption_id") or "")
    record = run_record(disruption_id, tables=tables) if disruption_id else None
    state = (record or {}).get("status")
    if state == "executed":
        flight_id = str(held["PK"]).removeprefix("FLIGHTRUN#")
        release(flight_id=flight_id, disruption_id=disruption_id, recovered=True, tables=tables, now=at)
    return state in ("executed", "running")


def status_from_env() -> ExecutionStatus | None:
    """DescribeExecution on the executions of `SKYMARSHAL_STATE_MACHINE_ARN` (unset: None, no look-up). An error
    says nothing (None): a claim is never taken on a guess."""
    machine = os.environ.get(STATE_MACHINE_ENV)
    if not machine or ":stateMachine:" not in machine:
        return None
    from ..aws.sfn import SfnExecutions

    executions, port = machine.replace(":stateMachine:", ":execution:", 1), SfnExecutions()

    def status(execution_name: str) -> str | None:
        try:
            return port.status(f"{executions}:{execution_name}")  # None: no such execution
        except ServiceError as exc:  # unknown: the claim stands until it lapses or is released
            log.warning("claim holder %s: status unknown (%s)", execution_name, exc)
            return None

    return status


def release(
    *,
    flight_id: str,
    disruption_id: str,
    recovered: bool,
    tables: WorkflowTables,
    now: datetime | None = None,
    execution_name: str | None = None,
) -> None:
    """Learn's end of the claim: hold a recovered flight for the hold period, free it otherwise. Only the
    disruption that holds the claim moves it (a lapsed claim another run took since is left alone); with
    `execution_name`, only that run of it: a run rejected because its facts were corrected ends after the corrected
    run of the same disruption has claimed the flight, and must not free it (workflow/runs/correction.py)."""
    at = now or datetime.now(UTC)
    held_for = hold() if recovered else timedelta(0)
    values = {
        ":s": "recovered" if recovered and held_for else "released",
        ":u": _epoch(at + held_for),
        ":f": at.isoformat(),
        ":d": disruption_id,
    }
    condition = "disruption_id = :d"
    if execution_name is not None:
        condition += " AND (attribute_not_exists(execution_name) OR execution_name = :e)"
        values[":e"] = execution_name
    try:
        tables.checkpoints.update_item(
            Key=_key(flight_id),
            UpdateExpression="SET #s = :s, #u = :u, finished_at = :f",
            ConditionExpression=condition,
            ExpressionAttributeNames={"#s": "status", "#u": "until"},
            ExpressionAttributeValues=values,
        )
    except ClientError as exc:
        if exc.response["Error"]["Code"] != "ConditionalCheckFailedException":
            raise
