"""The what-if overlay: rows a report's facts change or add, seen through the data handle, never written.

A disruption report states things the tables do not hold yet (a sick captain, an AOG defect with no work
order, an ATC slot, a closure). Validate turns those facts into an `Overlay`: patches to existing rows and
rows added. Every agent and the arbitrator read through a `DataHandle` carrying it, so all of them reason
on the same what-if picture; the tables change only when a plan is executed.

Each entry names the fact it comes from. The overlay is applied the way DynamoDB would answer: a GetItem or
BatchGetItem sees the patched or added row by its key; a Query sees an added row when the row satisfies the
query's key condition on that index, in the index's sort order.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from boto3.dynamodb.conditions import ConditionBase
from pydantic import BaseModel, ConfigDict, Field

from .schema import TABLES_BY_NAME

Item = dict[str, Any]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class RowPatch(_Frozen):
    """Fields set on one existing row, found by its primary key."""

    table: str
    key: dict[str, str]
    fields: dict[str, Any]
    fact: str  # the fact it applies, e.g. "crew_unavailable"


class RowAddition(_Frozen):
    """A row the report implies and the table does not hold (e.g. an AOG defect's work order)."""

    table: str
    item: dict[str, Any]
    fact: str


class Overlay(_Frozen):
    patches: list[RowPatch] = Field(default_factory=list)
    additions: list[RowAddition] = Field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.patches or self.additions)

    def describe(self) -> list[str]:
        """One line per entry, for the audit and the analysis' data sources."""
        lines = [f"{p.table} {_key_text(p.key)}: {sorted(p.fields)} ({p.fact})" for p in self.patches]
        lines += [f"{a.table} + {_key_text(_key_of(a.table, a.item))} ({a.fact})" for a in self.additions]
        return lines

    # ------------------------------------------------------------------ applied by the data handle

    def got(self, table: str, key: dict[str, Any], item: Item | None) -> Item | None:
        """A GetItem's answer through the overlay."""
        for added in self.additions:
            if added.table == table and _key_of(table, added.item) == _plain(key):
                return _dynamo(added.item)
        return self._patched(table, item) if item is not None else None

    def batch_got(self, table: str, keys: list[dict[str, Any]], items: list[Item]) -> list[Item]:
        """A BatchGetItem's answer through the overlay: each key's row patched, or the row added for it."""
        found = {_key_of(table, item): item for item in items}
        answers = (self.got(table, key, found.get(_plain(key))) for key in keys)
        return [item for item in answers if item is not None]

    def queried(
        self, table: str, items: list[Item], condition: ConditionBase, index: str | None, forward: bool
    ) -> list[Item]:
        """A Query's items through the overlay: patched, with the added rows the key condition selects."""
        mine = [a.item for a in self.additions if a.table == table]
        if not any(p.table == table for p in self.patches) and not mine:
            return items
        matches = _condition(condition)
        added = {_key_of(table, i): _dynamo(i) for i in mine if matches(i)}
        # an added row stands in for a stored row of the same key (e.g. an hour's weather observation)
        out = [self._patched(table, item) for item in items if _key_of(table, item) not in added]
        if not added:
            return out
        spec = TABLES_BY_NAME[table]
        sort = (spec.index(index).sort if index else spec.sort) or None
        out.extend(added.values())
        if sort is not None:
            out.sort(key=lambda i: (i.get(sort.name) is None, i.get(sort.name) or ""), reverse=not forward)
        return out

    def _patched(self, table: str, item: Item) -> Item:
        key = _key_of(table, item)
        fields: Item = {}
        for patch in self.patches:
            if patch.table == table and _plain(patch.key) == key:
                fields.update(patch.fields)
        return {**item, **_dynamo(fields)} if fields else item


def _key_of(table: str, item: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted((name, str(item.get(name))) for name in TABLES_BY_NAME[table].key_names))


def _plain(key: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted((k, str(v)) for k, v in key.items()))


def _key_text(key: Any) -> str:
    pairs = key.items() if isinstance(key, dict) else key
    return ", ".join(f"{k}={v}" for k, v in pairs)


def _dynamo(value: dict[str, Any]) -> Item:
    """JSON values as boto3's resource returns them (numbers as Decimal)."""
    loaded: Item = json.loads(json.dumps(value, default=str), parse_float=Decimal, parse_int=Decimal)
    return loaded


_COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "=": lambda a, b: a == b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
}


def _condition(condition: ConditionBase) -> Callable[[Item], bool]:
    """A key condition (what boto3's Key(...) builds: =, <, <=, >, >=, BETWEEN, begins_with, AND) as a test."""
    expression = condition.get_expression()
    operator, values = expression["operator"], expression["values"]
    if operator == "AND":
        left, right = (_condition(v) for v in values)
        return lambda item: left(item) and right(item)
    name = values[0].name

    def value(item: Item) -> Any:
        found = item.get(name)
        return None if found is None else (str(found) if isinstance(values[1], str) else Decimal(str(found)))

    if operator == "BETWEEN":
        return lambda item: (v := value(item)) is not None and values[1] <= v <= values[2]
    if operator == "begins_with":
        return lambda item: (v := value(item)) is not None and str(v).startswith(values[1])
    compare = _COMPARE[operator]
    return lambda item: (v := value(item)) is not None and compare(v, values[1])
