"""A DynamoDB transaction backs up the items it names, not the tables it names, and puts them back in place.

moto 5.2.5's `transact_write_items` deep-copies each table a transaction names before applying it, and puts the
copy in the table's place if any part fails. Executing a plan writes flights and bookings in transactions: each one
copied every booking of the airline (8 million item copies for one plan, over three minutes); even a shallow copy
of the item map, one per transaction, was a tenth of the fixed test sequence's time. A transaction can only change
the items it names (Put, Update, Delete, ConditionCheck by key), so here the "copy" of such a table is the live
table itself, and the items the keys reach are deep-copied aside: on failure they are put back (a key that had no
item is removed) in the live table, whose speed-up caches moto_speedups then drops. A table whose keys cannot be read
is deep-copied whole, as moto does. tests/local/test_moto_speedups.py checks a cancelled transaction whose first
writes had already been applied.

And a transaction keeps its ClientRequestToken, as DynamoDB does for 10 minutes: the same request again (botocore
sends the token it generated once on every retry, so a retry after a reply lost to a timeout is one) succeeds
without writing; the token with other parameters is IdempotentParameterMismatchException. moto ignores the token,
so such a retry found its own first writes and failed its conditions — a rolled-back plan AWS would not have.
"""

from __future__ import annotations

import copy
import hashlib
import json
import threading
import time
from typing import Any

_state = threading.local()
_CACHES = ("_skymarshal_sorted", "_skymarshal_maps", "_skymarshal_ranges")  # moto_speedups' per-table caches


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
    """During a transaction that names only keys of this table: the table itself (its items are backed up by
    `transact`). Otherwise as `copy.deepcopy` copies a plain object, without the caches."""
    if self.name in (getattr(_state, "in_place", None) or ()):
        return self
    result = self.__class__.__new__(self.__class__)
    memo[id(self)] = result
    for name, value in self.__dict__.items():
        if name not in _CACHES:
            result.__dict__[name] = copy.deepcopy(value, memo)
    return result


Images = list[tuple[Any, Any, Any]]  # (hash, range, the item's deep copy or None when there was none)


def _before_images(table: Any, keys: set[tuple[Any, Any]]) -> Images:
    images = []
    for hash_value, range_value in keys:
        bucket = table.items.get(hash_value)
        found = bucket if table.range_key_attr is None or bucket is None else bucket.get(range_value)
        images.append((hash_value, range_value, copy.deepcopy(found) if found is not None else None))
    return images


def _put_back(table: Any, images: Images) -> None:
    """The named items as they were: restored, or removed where the transaction created them."""
    for hash_value, range_value, item in images:
        if table.range_key_attr is None:
            if item is None:
                table.items.pop(hash_value, None)
            else:
                table.items[hash_value] = item
            continue
        bucket = table.items.get(hash_value)
        if item is not None:
            table.items[hash_value][range_value] = item  # a defaultdict: a bucket the transaction emptied comes back
        elif bucket is not None:
            bucket.pop(range_value, None)
            if not bucket:
                del table.items[hash_value]


def transact(original: Any) -> Any:
    """Wrap the backend's `transact_write_items` so its backups are the named items, put back in place."""

    def wrapped(self: Any, *args: Any, **kwargs: Any) -> Any:
        transact_items = kwargs["transact_items"] if "transact_items" in kwargs else args[0]
        keys = touched_keys(self, transact_items)
        images = {name: _before_images(self.tables[name], found) for name, found in keys.items()}
        _state.in_place = set(keys)
        try:
            return original(self, *args, **kwargs)
        except BaseException:
            for name, found in images.items():
                _put_back(self.tables[name], found)
            raise
        finally:
            _state.in_place = None

    return wrapped


IDEMPOTENCY_WINDOW_S = 600.0  # DynamoDB keeps a transaction's client token this long after it completed
_tokens: dict[str, tuple[str, float]] = {}  # token → (the request's digest, when it completed)
_tokens_lock = threading.Lock()


def _digest(body: dict[str, Any]) -> str:
    asked = {k: v for k, v in body.items() if k not in ("ClientRequestToken", "ReturnConsumedCapacity")}
    return hashlib.sha256(json.dumps(asked, sort_keys=True, default=str).encode()).hexdigest()


def idempotent(original: Any) -> Any:
    """Wrap DynamoHandler.transact_write_items: a token seen completing in the window answers without writing."""

    def wrapped(self: Any) -> Any:
        from moto.dynamodb.exceptions import DynamodbException

        token = self.body.get("ClientRequestToken")
        if not token:
            return original(self)
        digest, now = _digest(self.body), time.monotonic()
        with _tokens_lock:
            for old in [t for t, (_, at) in _tokens.items() if now - at > IDEMPOTENCY_WINDOW_S]:
                del _tokens[old]
            seen = _tokens.get(token)
        if seen is not None:
            if seen[0] != digest:
                raise DynamodbException(
                    "com.amazonaws.dynamodb.v20120810#IdempotentParameterMismatchException",
                    "The request uses the same client token as a previous, but non-identical request.",
                )
            from moto.core.responses import ActionResult

            return ActionResult({"ConsumedCapacity": [], "ItemCollectionMetrics": {}})
        result = original(self)
        with _tokens_lock:
            _tokens[token] = (digest, time.monotonic())
        return result

    wrapped.__wrapped__ = original  # type: ignore[attr-defined]
    return wrapped


def install() -> None:
    """Idempotent: tables deep-copy as above (outside a transaction, exactly as before minus the caches); a
    transaction's client token is kept."""
    from moto.dynamodb.models.table import Table
    from moto.dynamodb.responses import DynamoHandler

    if getattr(Table, "__deepcopy__", None) is not _table_deepcopy:
        Table.__deepcopy__ = _table_deepcopy  # type: ignore[attr-defined]
    if not hasattr(DynamoHandler.transact_write_items, "__wrapped__"):
        DynamoHandler.transact_write_items = idempotent(DynamoHandler.transact_write_items)  # type: ignore[method-assign]
