"""Make moto's DynamoDB fast enough for a realistic airline, without changing what it answers.

moto 5.2.5 answers every Query by sorting the whole table (`Table.all_items`) and then filtering it,
and ImportTable parses its input with a pure-Python JSON parser. With ~600k items that is seconds per
query and minutes per seed. This adapter, installed on the local emulator only:

1. caches each table's sorted item list, dropped on every write (put, delete, update, transaction);
2. for a Query with an equality on the partition key (table or GSI), lets moto's own query code run
   over just the items with that key value (from a per-attribute map rebuilt after writes);
3. parses ImportTable's DynamoDB-JSON lines with the standard library's json;
4. keeps each item as one DynamoDB-JSON string (moto_compact.py): about a tenth of moto's memory;
5. serialises DynamoDB requests with one lock (`LOCK`): moto's table model is not thread-safe (a Query
   iterating a table while a transaction adds to it raised "dictionary changed size during iteration"),
   and the caches above are filled during reads. moto answers a request in about a millisecond here, so
   one lock costs little; the local server holds the same lock while it journals a write (durable.py);
6. writes stored items into responses as the DynamoDB-JSON they already are (moto_wire.py), a Query's
   straight from their strings: not decoded to moto's types, converted back and serialised again (and a
   Step Functions answer's members looked up by name, not alias by alias: moto_structures.py);
7. backs up only the items a transaction names, not whole tables (moto_transact.py);
8. keeps no list of every model object moto ever made (moto_instances.py): a replaced item, a transaction's
   backup, an overwritten S3 object is freed as Python frees it;
9. lexes each condition expression's text once (`_lex_condition_expression`; moto lexes it per conditional write,
   twice in a transaction, slicing the string at every token: a fifth of a plan's transactions). The tokens are
   immutable tuples; names and values are read after;
10. lists a response class's method names once (`_method_names`; moto's `inspect.getmembers` per request: 2 %);
11. builds botocore's User-Agent header once per client (client_speedups.py; 4 %), and keeps a DynamoDB answer's
   values as `json.loads` built them where botocore would return them unchanged (13 % of a run's CPU);
12. answers a Query from its partition sorted once, paging as moto does, no item decoded or copied (moto_query.py).

moto still evaluates every condition and filter, and sorts and pages each Query of another shape; test_moto_speedups
and test_moto_query check answers are identical without the adapter. moto is pinned: this relies on its internals.
"""

from __future__ import annotations

import functools
import json
import threading
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from . import client_speedups, moto_instances, moto_query, moto_structures, moto_transact
from . import moto_gsi_maps as gsi_maps
from .moto_compact import install as compact_install
from .moto_compact import reading, release
from .moto_wire import answer_query, as_answered
from .moto_wire import install as wire_install

_state = threading.local()
LOCK = threading.RLock()  # every DynamoDB request, ImportTable's writes, and the server's journal appends
# The DynamoDB operations that change a table or its items (PartiQL statements counted as writes: they may be).
# Named, not inferred from a list of reads, so an operation added to moto later is a read only once it is named.
WRITES = frozenset(
    {
        "PutItem",
        "UpdateItem",
        "DeleteItem",
        "BatchWriteItem",
        "TransactWriteItems",
        "ExecuteStatement",
        "BatchExecuteStatement",
        "ExecuteTransaction",
        "CreateTable",
        "UpdateTable",
        "DeleteTable",
        "UpdateTimeToLive",
        "UpdateContinuousBackups",
        "RestoreTableFromBackup",
        "RestoreTableToPointInTime",
        "ImportTable",
        "TagResource",
        "UntagResource",
        "PutResourcePolicy",
        "DeleteResourcePolicy",
    }
)
_originals: dict[str, Any] = {}
_storage: dict[str, Any] = {}
_CACHE = "_skymarshal_sorted"


def _invalidate(table: Any) -> None:
    table.__dict__.pop(_CACHE, None)
    gsi_maps.drop(table)


def _all_items(self) -> list:
    narrowed = getattr(_state, "narrowed", None)
    if narrowed is not None and narrowed[0] is self:
        return list(narrowed[1])
    cached = self.__dict__.get(_CACHE)
    if cached is None:
        cached = _originals["all_items"](self)
        self.__dict__[_CACHE] = cached
    return list(cached)


def _query(
    self,
    hash_key,
    range_comparison,
    range_objs,
    limit,
    exclusive_start_key,
    scan_index_forward,
    projection_expressions,
    index_name=None,
    *args,
    hash_key_conditions=None,
    **kwargs,
):
    found = moto_query.answer(self, {k: v for k, v in locals().items() if k != "self"})  # the arguments by name
    if found is not None:
        return as_answered(found)
    candidates = None
    if index_name is None and hash_key is not None:
        bucket = self.items.get(hash_key)
        if bucket is None:
            candidates = []
        elif self.range_key_attr:
            bounds = [(o.type, o.value) for o in range_objs]
            candidates = gsi_maps.in_partition(self, hash_key, range_comparison, bounds) if range_comparison else None
            if candidates is None:
                candidates = sorted(bucket.values(), key=lambda item: item.range_key)
        else:
            candidates = [bucket]
    elif index_name is not None and hash_key_conditions and len(hash_key_conditions) == 1:
        attribute, value = hash_key_conditions[0]
        group = gsi_maps.value_key(value.type, value.value)
        range_attr = _index_range_key(self, index_name)
        narrows = value.type != "N" or group[1][:1] != '"'  # not a number moto could compare: all items to moto
        if narrows and range_comparison and range_attr and len(kwargs.get("range_key_conditions") or ()) <= 1:
            candidates = gsi_maps.in_range(
                self, attribute, group, range_attr, range_comparison, [(o.type, o.value) for o in range_objs]
            )
        if candidates is None and narrows:
            candidates = gsi_maps.by_attribute(self, attribute).get(group, [])
    _state.narrowed = (self, candidates) if candidates is not None else None
    try:
        found = _originals["query"](
            self,
            hash_key,
            range_comparison,
            range_objs,
            limit,
            exclusive_start_key,
            scan_index_forward,
            projection_expressions,
            index_name,
            *args,
            hash_key_conditions=hash_key_conditions,
            **kwargs,
        )
    finally:
        _state.narrowed = None
    return as_answered(found)


def _index_range_key(table: Any, index_name: str) -> str | None:
    """The sort key of one of the table's indexes (a single one), or None."""
    index = next((i for i in (*table.global_indexes, *table.indexes) if i.name == index_name), None)
    ranges = [k["AttributeName"] for k in index.schema if k["KeyType"] == "RANGE"] if index is not None else []
    return ranges[0] if len(ranges) == 1 else None


@contextmanager
def _writing(tables: dict[Any, set[gsi_maps.Key] | None]) -> Iterator[None]:
    """Around the outermost write of a request (a transaction's puts and updates are writes inside it): each
    table's sorted list dropped, its GSI maps moved item by item where the keys are known (None: dropped)."""
    if getattr(_state, "writing", False):
        yield
        return
    _state.writing = True
    before = {table: gsi_maps.before_write(table, keys) for table, keys in tables.items() if keys is not None}
    try:
        yield
    except BaseException:
        for table in tables:
            _invalidate(table)  # a cancelled transaction restores whole tables: rebuild from what is there
        raise
    else:
        for table, keys in tables.items():
            table.__dict__.pop(_CACHE, None)
            if keys is None:
                gsi_maps.drop(table)
            else:
                gsi_maps.after_write(table, before[table])
    finally:
        _state.writing = False


def _table_key(table: Any, attrs: dict) -> gsi_maps.Key | None:
    """The (hash, range) DynamoTypes of a request's key or item, or None when it cannot be read."""
    from moto.dynamodb.models.dynamo_type import DynamoType

    try:
        hash_value = DynamoType(attrs[table.hash_key_attr])
        return hash_value, DynamoType(attrs[table.range_key_attr]) if table.range_key_attr else None
    except (KeyError, TypeError, AttributeError, IndexError):
        return None


def _writer(name: str):
    """Table.put_item (by its item) and Table.delete_item (by its key)."""

    def wrapped(self, *args, **kwargs):
        if name == "put_item":
            attrs = kwargs["item_attrs"] if "item_attrs" in kwargs else args[0]
            key = _table_key(self, attrs) if isinstance(attrs, dict) else None
        else:
            hash_key = kwargs["hash_key"] if "hash_key" in kwargs else args[0]
            range_key = kwargs.get("range_key", args[1] if len(args) > 1 else None)
            key = (hash_key, range_key if self.range_key_attr else None)
        with _writing({self: {key} if key is not None else None}):
            return _originals[name](self, *args, **kwargs)

    return wrapped


def _written(name: str, args: tuple, kwargs: dict) -> set[str] | None:
    """The tables a backend write names, or None when it may write anywhere (PartiQL)."""
    if name == "backend.update_item":
        return {kwargs["table_name"] if "table_name" in kwargs else args[0]}
    if name == "backend.transact_write_items":
        items = kwargs["transact_items"] if "transact_items" in kwargs else args[0]
        named = {op.get("TableName") for item in items for op in item.values() if isinstance(op, dict)}
        return None if None in named else {str(n) for n in named}
    return None


def _written_keys(backend: Any, name: str, args: tuple, kwargs: dict) -> dict[Any, set[gsi_maps.Key] | None]:
    """Each table a backend write may change, with the keys it names (None: not known, so every item)."""
    named = _written(name, args, kwargs)
    tables: dict[Any, set[gsi_maps.Key] | None] = {
        t: None for n, t in backend.tables.items() if named is None or n in named
    }
    if name == "backend.update_item":
        table = backend.tables.get(next(iter(named or ()), None))
        key = kwargs["key"] if "key" in kwargs else (args[1] if len(args) > 1 else None)
        found = _table_key(table, key) if table is not None and isinstance(key, dict) else None
        if table is not None and found is not None:
            tables[table] = {found}
    elif name == "backend.transact_write_items":
        items = kwargs["transact_items"] if "transact_items" in kwargs else args[0]
        for table_name, keys in moto_transact.touched_keys(backend, items).items():
            tables[backend.tables[table_name]] = keys
    return tables


def _backend_writer(name: str):
    """Backend operations that may change items in place: the caches of the tables they write follow them.

    Only those tables: a checkpoint's UpdateItem used to drop every table's maps, and the next Query on bookings
    rebuilt the map of the whole table (about a tenth of a run's CPU)."""

    def wrapped(self, *args, **kwargs):
        call = _originals.get(name.replace("backend.", "narrow."), _originals[name])
        with _writing(_written_keys(self, name, args, kwargs)):
            return call(self, *args, **kwargs)

    return wrapped


def _fast_json_parse(original: str) -> list:
    if getattr(_state, "importing", False):
        return [json.loads(line) for line in original.splitlines() if line.strip()]
    return _originals["json_parse"](original=original)


def _process_s3_files(self, *args, **kwargs):
    # ImportTable writes from its own thread: under the lock, as a request would.
    with LOCK:
        _state.importing = True
        try:
            return _originals["process_s3_files"](self, *args, **kwargs)
        finally:
            _state.importing = False
            release(wrote=True)


def _call_action(self):
    """One DynamoDB request at a time; decoded items go back to strings before the lock is let go."""
    writes = self._get_action() in WRITES
    with LOCK, reading(not writes):
        try:
            return _storage["call_action"](self)
        finally:
            release(wrote=writes)


_LEXED_LIMIT = 2048  # distinct expression texts kept; a plan's writes use a few dozen
_lexed: dict[str, tuple] = {}


def _lex_condition_expression(self: Any) -> Any:
    """moto's token list for the expression's text, lexed once (a fresh deque: the parser consumes it)."""
    text = self.condition_expression
    tokens = _lexed.get(text)
    if tokens is None:
        tokens = tuple(_originals["lex"](self))
        if len(_lexed) >= _LEXED_LIMIT:
            _lexed.clear()
        _lexed[text] = tokens
    return deque(tokens)


@functools.cache
def _method_names(clazz: type) -> frozenset[str]:
    """moto's `method_names_from_class`, once per class: a response class's functions are fixed once imported (the
    patches here replace functions under the same names)."""
    return frozenset(_storage["method_names"](clazz))


def _install_storage() -> None:
    """The compact items and the lock: once per process, never undone (stored items exist in that form)."""
    from moto.core import responses
    from moto.dynamodb.responses import DynamoHandler

    if DynamoHandler.call_action is _call_action:
        return
    _storage["method_names"] = responses.method_names_from_class
    responses.method_names_from_class = _method_names  # type: ignore[assignment]
    moto_instances.install()  # every model object moto made stayed alive for its dashboard
    client_speedups.install()  # botocore's User-Agent once per client and features; DynamoDB answers not re-walked
    compact_install()
    wire_install()
    moto_structures.install()  # after moto_wire's hook: a Step Functions history not searched alias by alias
    _storage["call_action"] = DynamoHandler.call_action
    DynamoHandler.call_action = _call_action
    DynamoHandler.query = answer_query(DynamoHandler.query)


def install() -> None:
    """Idempotent: patch moto's DynamoDB Table, backend and ImportTable."""
    _install_storage()
    if _originals:
        return
    import py_partiql_parser
    from moto.dynamodb.comparisons import ConditionExpressionParser
    from moto.dynamodb.models import DynamoDBBackend
    from moto.dynamodb.models.table import Table
    from moto.dynamodb.models.table_import import TableImport

    _originals.update(
        lex=ConditionExpressionParser._lex_condition_expression,
        all_items=Table.all_items,
        query=Table.query,
        put_item=Table.put_item,
        delete_item=Table.delete_item,
        json_parse=py_partiql_parser.JsonParser.__dict__["parse"],
        process_s3_files=TableImport._process_s3_files,
    )
    for name in ("update_item", "transact_write_items", "execute_statement", "batch_execute_statement"):
        _originals[f"backend.{name}"] = getattr(DynamoDBBackend, name)
        setattr(DynamoDBBackend, name, _backend_writer(f"backend.{name}"))
    # a transaction's backup copies only the items it names (moto_transact.py), inside the cache dropping above
    _originals["narrow.transact_write_items"] = moto_transact.transact(_originals["backend.transact_write_items"])
    moto_transact.install()
    ConditionExpressionParser._lex_condition_expression = _lex_condition_expression
    Table.all_items = _all_items
    Table.query = _query
    Table.put_item = _writer("put_item")
    Table.delete_item = _writer("delete_item")
    py_partiql_parser.JsonParser.parse = staticmethod(_fast_json_parse)
    TableImport._process_s3_files = _process_s3_files


def uninstall() -> None:
    """Back to moto's query code (the compact items and the lock stay)."""
    if not _originals:
        return
    import py_partiql_parser
    from moto.dynamodb.comparisons import ConditionExpressionParser
    from moto.dynamodb.models import DynamoDBBackend
    from moto.dynamodb.models.table import Table
    from moto.dynamodb.models.table_import import TableImport

    ConditionExpressionParser._lex_condition_expression = _originals["lex"]
    Table.all_items, Table.query = _originals["all_items"], _originals["query"]
    Table.put_item, Table.delete_item = _originals["put_item"], _originals["delete_item"]
    py_partiql_parser.JsonParser.parse = _originals["json_parse"]  # the staticmethod descriptor
    TableImport._process_s3_files = _originals["process_s3_files"]
    for name in ("update_item", "transact_write_items", "execute_statement", "batch_execute_statement"):
        setattr(DynamoDBBackend, name, _originals[f"backend.{name}"])
    _originals.clear()


@contextmanager
def disabled() -> Iterator[None]:
    """Run a block on stock moto's query code (used by the equivalence test)."""
    was_installed = bool(_originals)
    uninstall()
    try:
        yield
    finally:
        if was_installed:
            install()
