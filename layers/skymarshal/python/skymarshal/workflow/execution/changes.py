"""A row change of an executed plan: its before- and after-images, its semantic guard, the TransactWriteItems
entry that writes it only if the row is still as it was read, and its inverse (the compensation); the typed
reasons a plan fails for."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from ...data import schema as s
from ..aws.dynamodb import Attr, ConditionBase, ConditionExpressionBuilder

ReasonCode = Literal[
    "CONDITION_FAILED",
    "ROW_MISSING",
    "SEATS_UNAVAILABLE",
    "INVALID_ROW",
    "TRANSACTION_ERROR",
    "COMPENSATION_FAILED",
    "ROTATION_BROKEN",  # the plan, against the tables as they now are, would leave a tail unable to fly a flight
]


class PlanError(Exception):
    """An action cannot be turned into writes; `code` is the typed reason the events record."""

    def __init__(self, code: ReasonCode, message: str):
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Change:
    table: str  # logical name
    key: dict[str, Any]
    before: dict[str, Any] | None  # None: created by the change
    after: dict[str, Any] | None  # None: deleted by the change
    guard: ConditionBase | None = None  # what the plan relies on beyond the attributes it writes

    @property
    def check_only(self) -> bool:
        return self.before is not None and self.before == self.after

    def inverse(self) -> Change:
        """The compensating change: back to the before-image, only if the after-image is still there."""
        return Change(self.table, self.key, self.after, self.before)

    def transact_item(self, naming: s.Naming) -> dict:
        """One TransactWriteItems entry (plain Python values: the resource's client serialises them)."""
        pk = s.TABLES_BY_NAME[self.table].partition.name
        base = {"TableName": naming(self.table), "ReturnValuesOnConditionCheckFailure": "ALL_OLD"}
        if self.before is None:
            return {"Put": {**base, "Item": self.after, **_condition(Attr(pk).not_exists())}}
        if self.after is None:
            return {
                "Delete": {**base, "Key": self.key, **_condition(all_of(_equal(self.before, self.before), self.guard))}
            }
        if self.check_only:
            return {"ConditionCheck": {**base, "Key": self.key, **_condition(all_of(Attr(pk).exists(), self.guard))}}
        written = sorted(k for k in {*self.before, *self.after} if self.before.get(k) != self.after.get(k))
        condition = _condition(all_of(Attr(pk).exists(), _equal(self.before, written), self.guard))
        sets = [k for k in written if k in self.after]
        removes = [k for k in written if k not in self.after]
        names = {f"#u{i}": k for i, k in enumerate(written)}
        values = {f":u{i}": self.after[k] for i, k in enumerate(written) if k in self.after}
        expression = " ".join(
            part
            for part in (
                "SET " + ", ".join(f"#u{written.index(k)} = :u{written.index(k)}" for k in sets) if sets else "",
                "REMOVE " + ", ".join(f"#u{written.index(k)}" for k in removes) if removes else "",
            )
            if part
        )
        update = {**base, "Key": self.key, "UpdateExpression": expression, **condition}
        update["ExpressionAttributeNames"] = {**condition["ExpressionAttributeNames"], **names}
        if values or condition.get("ExpressionAttributeValues"):
            update["ExpressionAttributeValues"] = {**condition.get("ExpressionAttributeValues", {}), **values}
        return {"Update": update}


def _equal(image: dict, attributes) -> ConditionBase:
    """Each attribute still holds its value in `image` (or is still absent from the row)."""
    parts = [Attr(a).eq(image[a]) if a in image else Attr(a).not_exists() for a in sorted(attributes)]
    return all_of(*parts)


def all_of(*parts: ConditionBase | None) -> ConditionBase:
    present = [p for p in parts if p is not None]
    out = present[0]
    for p in present[1:]:
        out = out & p
    return out


def _condition(condition: ConditionBase) -> dict:
    built = ConditionExpressionBuilder().build_expression(condition)
    out = {
        "ConditionExpression": built.condition_expression,
        "ExpressionAttributeNames": built.attribute_name_placeholders,
    }
    if built.attribute_value_placeholders:
        out["ExpressionAttributeValues"] = built.attribute_value_placeholders
    return out


def row_key(table: str, row: dict) -> dict:
    return {k: row[k] for k in s.TABLES_BY_NAME[table].key_names}
