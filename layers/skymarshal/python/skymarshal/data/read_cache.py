"""A read cache for one invocation (one agent's round, one arbitration): each row and each Query read once.

An agent's analysis and the arbitrator's validation of several scenarios ask for the same rows again and
again (a crew member's duty history for every candidate pairing, a tail's work orders for every swap).
Within one invocation the tables do not change under the reader in a way it could rely on (DynamoDB reads
are not a snapshot either), so the second answer is the first one.

The cache holds the table's own answers, before the what-if overlay (data/overlay.py): the data handle
applies the overlay to a cached answer exactly as to a fresh one, and handles sharing a cache with
different overlays or agents cannot see each other's what-ifs. The access check runs before the cache is
consulted, so an agent cannot read a row through the cache that its row of the matrix refuses.

Never give one to a long-lived handle: a cache lives as long as the handle that `DataHandle.with_read_cache`
returned, and a step that writes (Execute) must read the tables as they are now.
"""

from __future__ import annotations

import threading
from typing import Any

from boto3.dynamodb.conditions import AttributeBase, ConditionBase

Item = dict[str, Any]
RowKey = tuple[str, tuple[tuple[str, str], ...]]
Request = tuple[Any, ...]  # a Query: table, index, key condition, direction


def row_key(table: str, key: dict[str, Any]) -> RowKey:
    """A primary key as a hashable value; numbers and strings alike by their text, as the overlay keys them."""
    return table, tuple(sorted((name, str(value)) for name, value in key.items()))


def condition_key(condition: ConditionBase) -> tuple[Any, ...]:
    """A boto3 key condition (Key(...).eq(...) & ...) as a hashable value: operator, attribute names, values."""
    expression = condition.get_expression()
    parts: list[Any] = [expression["operator"]]
    for value in expression["values"]:
        if isinstance(value, ConditionBase):
            parts.append(condition_key(value))
        elif isinstance(value, AttributeBase):
            parts.append(("attr", value.name))
        else:
            parts.append((type(value).__name__, str(value)))
    return tuple(parts)


class ReadCache:
    """Rows by primary key (from GetItem and BatchGetItem alike) and complete Query answers, thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._rows: dict[RowKey, Item | None] = {}
        self._queries: dict[Request, list[Item]] = {}

    def row(self, table: str, key: dict[str, Any]) -> tuple[bool, Item | None]:
        """(False, None) when the row was never read; else (True, the row or None if the table has none)."""
        at = row_key(table, key)
        with self._lock:
            if at not in self._rows:
                return False, None
            found = self._rows[at]
        return True, (_copy(found) if found is not None else None)

    def remember_rows(
        self, table: str, keys: list[dict[str, Any]], items: list[Item], key_names: tuple[str, ...]
    ) -> None:
        """A read's answer for these keys: the rows found, and None for each key the table does not hold."""
        found = {row_key(table, {n: item.get(n) for n in key_names}): item for item in items}
        with self._lock:
            for key in keys:
                at = row_key(table, key)
                self._rows[at] = _copy(found[at]) if at in found else None

    def query(self, request: Request) -> list[Item] | None:
        with self._lock:
            found = self._queries.get(request)
        return [_copy(item) for item in found] if found is not None else None

    def remember_query(self, request: Request, items: list[Item]) -> None:
        with self._lock:
            self._queries[request] = [_copy(item) for item in items]


def _copy(item: Item) -> Item:
    # A reader may set a field on a row it was given; the cached row must stay the table's answer.
    return dict(item)
