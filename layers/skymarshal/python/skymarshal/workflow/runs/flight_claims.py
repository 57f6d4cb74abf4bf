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

`SKYMARSHAL_ONE_RUN_PER_FLIGHT=0` turns the claim off (a sandbox replaying one demo flight again and again).
"""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta
from typing import Literal

from botocore.exceptions import ClientError
from pydantic import BaseModel

from ..deployment import FLIGHT_HOLD_ENV
from ..tables import WorkflowTables

CLAIMS_ENV = "SKYMARSHAL_ONE_RUN_PER_FLIGHT"
DEFAULT_HOLD_MINUTES = 360  # a recovered flight's plan is being flown: six hours covers its day's rotation
RUN_MARGIN = timedelta(hours=1)  # beyond the approval timeout: the rounds, arbitration, execution and Learn
RefusalCode = Literal["FLIGHT_RUN_IN_PROGRESS", "FLIGHT_RECENTLY_RECOVERED"]


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
            what = f"run {self.holder_execution_name} recovered it"
            after = f"a new run is accepted after {self.until} ({FLIGHT_HOLD_ENV})"
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
) -> None:
    """Take the flight for this disruption, or raise FlightClaimed naming the run that holds it."""
    at = now or datetime.now(UTC)
    try:
        tables.checkpoints.put_item(
            Item={
                **_key(flight_id),
                "disruption_id": disruption_id,
                "execution_name": execution_name,
                "status": "running",
                "claimed_at": at.isoformat(),
                "until": _epoch(at + timedelta(seconds=run_seconds) + RUN_MARGIN),
            },
            # free, ours already (a resume), released, or lapsed: one conditional write, no read-then-write race
            ConditionExpression="attribute_not_exists(PK) OR disruption_id = :d OR #s = :released OR #u < :now",
            ExpressionAttributeNames={"#s": "status", "#u": "until"},
            ExpressionAttributeValues={":d": disruption_id, ":released": "released", ":now": _epoch(at)},
        )
    except ClientError as exc:
        if exc.response["Error"]["Code"] != "ConditionalCheckFailedException":
            raise
        held = tables.checkpoints.get_item(Key=_key(flight_id), ConsistentRead=True).get("Item") or {}
        refusal = FlightRefusal(
            code="FLIGHT_RECENTLY_RECOVERED" if held.get("status") == "recovered" else "FLIGHT_RUN_IN_PROGRESS",
            flight_id=flight_id,
            holder_disruption_id=str(held.get("disruption_id", "?")),
            holder_execution_name=str(held.get("execution_name", "?")),
            until=_iso(int(held.get("until", 0))),
        )
        raise FlightClaimed(refusal, refusal.message(flight_number, flight_date)) from None


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
