"""A DynamoDB transaction backs up the items it names, not the whole of every table it names.

moto 5.2.5's `transact_write_items` deep-copies each table a transaction names before applying it, to
restore the copy if any part fails. Executing a plan writes flights and bookings in transactions: each one
copied every booking of the airline (8 million item copies for one plan, over three minutes). A
transaction can only change the items it names (Put, Update, Delete, ConditionCheck by key), so the backup
here copies the table's item map shallowly, and deep-copies only the buckets and items those keys reach;
everything else is shared with the live table, which the transaction does not touch. Restored on failure,
it is the table as it was. The speed-up caches (moto_speedups.py) are left out of the backup: a restored
table rebuilds them on its next query. tests/local/test_moto_speedups.py checks a cancelled transaction
whose first write had already been applied.
"""

from __future__ import annotations

import copy
import threading
from typing import Any

_state = threading.local()
_CACHES = ("_skymarshal_sorted", "_skymarshal_maps")  # moto_speedups' per-table caches


def touched_keys(backend: Any, transact_items: list[dict[str, Any]]) -> dict[str, set[tuple[Any, Any]]]:
    """Per table name, the (hash, range) DynamoTypes of the items a transaction names. A table with a key this
    cannot read (malformed: moto's validation will answer it) is left out, and so backed up whole."""
    from moto.dynamodb.models.dynamo_type import DynamoType

    keys: dict[str, set[tuple[Any, Any]]] = {}
    unreadable: set[str] = set()
    for item in transact_items:
        for kind, op in item.items():
            table = backend.tables.get(op.get("TableName")) if isinstance(op, dict) else None
            if table is None:
                continue
            key = op.get("Item") if kind == "Put" else op.get("Key")
            try:
                hash_value = DynamoType(key[table.hash_key_attr])
                range_value = DynamoType(key[table.range_key_attr]) if table.range_key_attr else None
                keys.setdefault(table.name, set()).add((hash_value, range_value))
            except (KeyError, TypeError, AttributeError, IndexError):
                unreadable.add(table.name)
    return {name: found for name, found in keys.items() if name not in unreadable}


def _table_deepcopy(self: Any, memo: dict[int, Any]) -> Any:
    """As `copy.deepcopy` copies a plain object (`__dict__` deep-copied), but during a transaction only what
    its keys reach of the item map, and never the caches."""
    touched = (getattr(_state, "keys", None) or {}).get(self.name)
    result = self.__class__.__new__(self.__class__)
    memo[id(self)] = result
    for name, value in self.__dict__.items():
        if name in _CACHES:
            continue
        if name == "items" and touched is not None:
            result.__dict__[name] = _items_backup(self, touched, memo)
        else:
            result.__dict__[name] = copy.deepcopy(value, memo)
    return result


def _items_backup(table: Any, touched: set[tuple[Any, Any]], memo: dict[int, Any]) -> Any:
    items = copy.copy(table.items)  # the defaultdict, its buckets shared
    for hash_value, range_value in touched:
        bucket = table.items.get(hash_value)
        if bucket is None:
            continue  # a new hash key: the restored table simply lacks it
        if table.range_key_attr is None:
            items[hash_value] = copy.deepcopy(bucket, memo)
            continue
        if items[hash_value] is bucket:
            items[hash_value] = dict(bucket)  # a Put may add a range key to this bucket
        if range_value in bucket:
            items[hash_value][range_value] = copy.deepcopy(bucket[range_value], memo)
    return items


def transact(original: Any) -> Any:
    """Wrap the backend's `transact_write_items` so its backups are the narrow ones above."""

    def wrapped(self: Any, *args: Any, **kwargs: Any) -> Any:
        transact_items = kwargs["transact_items"] if "transact_items" in kwargs else args[0]
        _state.keys = touched_keys(self, transact_items)
        try:
            return original(self, *args, **kwargs)
        finally:
            _state.keys = None

    return wrapped


def install() -> None:
    """Idempotent: tables deep-copy as above (outside a transaction, exactly as before minus the caches)."""
    from moto.dynamodb.models.table import Table

    if getattr(Table, "__deepcopy__", None) is not _table_deepcopy:
        Table.__deepcopy__ = _table_deepcopy  # type: ignore[attr-defined]
