"""What an execution's planner reads and how it writes a change: rows by GetItem and Query only, a change as the
row's before- and after-image (checked to parse), and a reserve's call-out from the standby index. The Planner
(execution_plan.py) and the changes it delegates (execution_crew, execution_ferry, execution_positions) build on it."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from ...arbitration.models import Scenario
from ...data import schema as s
from ...data.rows import parse_row
from ...models.operational import CrewDuty
from ..aws.dynamodb import Attr, ConditionBase, Key
from ..tables import WorkflowTables
from .changes import Change, PlanError, row_key

OPERABLE = ("SCHEDULED", "DELAYED")  # a flight that has not left, been cancelled or diverted


class RowReader:
    """The rows an execution reads (GetItem and Query only) and the changes it builds from them, each marked with
    `execution_id`; what every action's planner needs, the Planner and the crew, ferry and position changes alike."""

    def __init__(self, tables: WorkflowTables, execution_id: str, scenario: Scenario):
        self.tables, self.execution_id, self.scenario = tables, execution_id, scenario
        self._checked = False  # the whole plan's rotations, checked before its first group writes anything

    # Reads: GetItem and Query only.
    def _get(self, table: str, key: dict) -> dict | None:
        return self.tables.table(table).get_item(Key=key, ConsistentRead=True).get("Item")

    def _query(self, table: str, condition, index: str | None = None) -> list[dict]:
        kwargs: dict[str, Any] = {"KeyConditionExpression": condition}
        if index:
            kwargs["IndexName"] = index
        else:
            kwargs["ConsistentRead"] = True
        items: list[dict] = []
        while True:
            page = self.tables.table(table).query(**kwargs)
            items += page.get("Items", [])
            if "LastEvaluatedKey" not in page:
                return items
            kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]

    def _flight(self, flight_id: str) -> dict:
        row = self._get(s.FLIGHTS, {"flight_id": flight_id})
        if row is None:
            raise PlanError("ROW_MISSING", f"flight {flight_id} is not in the flights table")
        return row

    def _change(
        self, table: str, before: dict | None, after: dict | None, guard: ConditionBase | None = None
    ) -> Change:
        image = after if after is not None else before
        if image is None:
            raise ValueError(f"a change to {table} needs the row before or after it")
        if after is not None and after != before:
            after = {k: v for k, v in {**after, "updated_by_execution": self.execution_id}.items() if v is not None}
            try:  # a row the readers cannot parse would break every later analysis of this flight
                parsed = parse_row(table, after)
            except ValidationError as exc:
                raise PlanError(
                    "INVALID_ROW", f"{table} row {row_key(table, after)} would not be valid: {exc.errors()[0]['msg']}"
                ) from None
            if isinstance(parsed, CrewDuty):  # its index key follows the sector's time, whoever moved it
                after = {k: v for k, v in after.items() if k != "sector_day"} | (
                    {"sector_day": parsed.sector_day} if parsed.sector_day else {}
                )
        return Change(table, row_key(table, image), before, after, guard)

    def call_out(self, standby: list[dict], reserve: str, report: str, station: str, local_day: Any) -> Change:
        """The reserve's standby that day leaves the standby index: when it covers the report it ends there (the
        call-out record stays: the FTL rules count standby before an FDP); one that had not begun is replaced by
        the duty (deleted)."""
        called = sorted(
            (r for r in standby if r["crew_id"] == reserve),
            key=lambda r: (not r["duty_start"] <= report <= r["duty_end"], r["duty_start"]),
        )
        if not called:
            raise PlanError("ROW_MISSING", f"reserve {reserve} is no longer on standby at {station} on {local_day}")
        sb = called[0]
        ended = (
            None
            if report <= sb["duty_start"]
            else {**{k: v for k, v in sb.items() if k != "standby_base_date"}, "duty_end": min(report, sb["duty_end"])}
        )
        return self._change(s.CREW_ROSTER, sb, ended, Attr("kind").eq("STANDBY"))

    def standby(self, station: str, days: set[str]) -> list[dict]:
        return [
            r
            for d in sorted(days)
            for r in self._query(s.CREW_ROSTER, Key("standby_base_date").eq(f"{station}#{d}"), s.STANDBY_INDEX)
        ]
