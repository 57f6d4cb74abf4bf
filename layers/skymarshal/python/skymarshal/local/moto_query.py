"""moto's `Table.query`, for the request shapes the emulator is sent, answered from each partition sorted once.

moto 5.2.5 answers a Query by decoding every candidate item to DynamoTypes, comparing its keys again, sorting the
partition, walking it item by item (ExclusiveStartKey, the key condition, sizes) and deep-copying the page: about a
tenth of a test run's CPU. Here a partition's items are sorted once by moto's own sort key (each key attribute's
cast value: the string, or a Decimal for N) and kept until the table's next write (in moto_gsi_maps' RANGES, which
every write drops). A Query bisects that order for its ExclusiveStartKey and key condition and reproduces moto's loop:

- the loop checks the page before it looks at an item: a full page (Limit), or one this item's size would take over
  1 MB, stops it with LastEvaluatedKey at the page's last item — so the next item of the partition, whether or not
  it meets the key condition, is what makes a LastEvaluatedKey (none when the page ends the partition);
- ScannedCount is the page's length (moto counts only items that meet the key condition, without QueryFilter);
- an item's size is bounded by the length of its DynamoDB-JSON (moto_compact: never shorter than moto's size), so
  exact sizes are read only for a page near 1 MB.

A page with no filter or projection goes out as its items' stored strings (moto_wire), not deep-copied; otherwise
moto's own tail (copy, index projection, FilterExpression, ProjectionExpression) runs on the page. Any other shape —
QueryFilter, multi-attribute keys, key values neither S nor N (or of two types), a consistent read of a GSI, a
Limit below 1 — gets None, and moto answers it. tests/local/test_moto_query.py pages
generated Queries to the end against stock moto.
"""

from __future__ import annotations

import copy
import zlib
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Iterator
from itertools import accumulate
from typing import Any

from . import moto_gsi_maps as gsi_maps
from .moto_compact import current_raw, wire_attrs
from .moto_wire import answering

STATS: Counter[str] = Counter()  # "answered" / "declined": the tests check that the fast path ran
RESULT_SIZE_LIMIT = 1_000_000  # moto's page size (tests/local/test_moto_query.py checks it is moto's)
_PARTITIONS = object()  # the key, in a table's RANGES dict, of the partitions kept here: dropped with it
_BOUND = "_sm_bound"  # on a compressed item: (its stored bytes, the length of their JSON)
_MAX_KEPT = 100_000  # items in one table's kept partitions before all are dropped (memory)
_OPS = frozenset({"=", "<", "<=", ">", ">=", "BETWEEN", "BEGINS_WITH"})  # moto's key conditions, upper-cased


class _Partition:
    """A partition's items in moto's sort order, their sort keys' cast values and their sizes' bounds."""

    __slots__ = ("after", "before", "bounds", "items", "keys", "ranges", "types")

    def __init__(self, rows: list[tuple[tuple, Any, int]], types: tuple[str, ...]):
        rows.sort(key=lambda row: row[0])  # a key ends with the table's own key: unique, so no ties to order
        self.keys = [key for key, _, _ in rows]
        self.items = [item for _, item, _ in rows]
        self.bounds = [bound for _, _, bound in rows]
        self.types = types
        self.ranges = [key[1] for key in self.keys] if len(types) > 1 else []  # what a key condition compares
        self.before = [0, *accumulate(self.bounds, max)]  # before[i]: the largest bound of items[:i]
        self.after = [*accumulate(reversed(self.bounds), max)][::-1] + [0]  # after[i]: of items[i:]


class _Kept(dict):
    """A table's kept partitions, with how many items they hold."""

    held = 0


def answer(table: Any, request: dict[str, Any]) -> tuple | None:
    """(items, scanned count, LastEvaluatedKey) as moto's Table.query returns them, or None: a shape left to moto.
    `request` holds Table.query's arguments by name, its extra positional ones as `args`, keyword ones as `kwargs`."""
    plan = _plan(table, request)
    found = None
    if plan is not None:
        partition = _partition(table, *plan[:4])
        found = _page(table, partition, plan[2], plan[4], request) if partition is not None else None
    STATS["declined" if found is None else "answered"] += 1
    return found


def _plan(table: Any, request: dict[str, Any]) -> tuple | None:
    """(cache key, where the candidates are, sort attributes, the index's own sort key if it must be present,
    the attribute a key condition compares), or None."""
    args, kwargs, limit, comparison = request["args"], request["kwargs"], request["limit"], request["range_comparison"]
    if len(args) > 2 or set(kwargs) - {"range_key_conditions"} or type(request["scan_index_forward"]) is not bool:
        return None  # QueryFilter (moto's filter_kwargs), or arguments not as moto's backend passes them
    if not (limit is None or (type(limit) is int and limit >= 1)) or comparison not in (None, *_OPS):
        return None
    if not isinstance(request["exclusive_start_key"], dict | None):
        return None
    conditions = kwargs.get("range_key_conditions") or []
    if len(conditions) > 1 or bool(conditions) != bool(comparison) or (conditions and conditions[0][1] != comparison):
        return None
    if request["index_name"] is not None:
        return _index_plan(table, request, conditions)
    hash_key, compared = request["hash_key"], table.range_key_attr
    if (
        hash_key is None
        or _cast(hash_key.type, hash_key.value) is None
        or (conditions and conditions[0][0] != compared)
    ):
        return None
    attrs = table._generate_attr_to_sort_by([table.hash_key_attr], [table.range_key_attr])
    key = (None, hash_key.type, _cast(hash_key.type, hash_key.value))
    return key, ("table", hash_key), attrs, None, compared


def _index_plan(table: Any, request: dict[str, Any], conditions: list) -> tuple | None:
    from moto.dynamodb.models.table import GlobalSecondaryIndex

    name, hash_conditions = request["index_name"], request["hash_key_conditions"] or []
    index = next((i for i in table.all_indexes() if i.name == name), None)
    consistent = request["args"][0] if request["args"] else False
    if index is None or (consistent and index in table.global_indexes) or len(hash_conditions) != 1:
        return None  # moto's validation answers these
    hashes = [k["AttributeName"] for k in index.schema if k["KeyType"] == "HASH"]
    ranges = [k["AttributeName"] for k in index.schema if k["KeyType"] == "RANGE"]
    attribute, value = hash_conditions[0]
    if len(hashes) != 1 or len(ranges) > 1 or attribute != hashes[0] or _cast(value.type, value.value) is None:
        return None
    if ranges:
        sort = ranges[0]
    elif request["range_comparison"]:
        return None  # moto raises
    else:  # moto's stand-in sort key for an index without one
        global_ = isinstance(index, GlobalSecondaryIndex) and table.range_key_attr
        sort = table.range_key_attr if global_ else table.hash_key_attr
    if conditions and conditions[0][0] != sort:
        return None
    attrs = table._generate_attr_to_sort_by([attribute, table.hash_key_attr], [sort, table.range_key_attr])
    # the candidates: the table's own partition (an LSI's), else moto_gsi_maps' items with that value
    source = ("table", value) if attribute == table.hash_key_attr else ("group", attribute, value)
    key = (name, value.type, _cast(value.type, value.value))
    return key, source, attrs, ranges[0] if ranges else None, sort


def _cast(kind: str, value: Any) -> Any:
    """moto's `cast_value` of an S or N key value; None for any other, or for a number moto could not order."""
    if not isinstance(value, str) or kind not in ("S", "N"):
        return None
    return value if kind == "S" else gsi_maps.finite_number(value)


def _partition(table: Any, key: tuple, source: tuple, attrs: list[str], required: str | None) -> _Partition | None:
    ranges = table.__dict__.setdefault(gsi_maps.RANGES, {})
    kept = ranges.get(_PARTITIONS)
    if kept is None or kept.held > _MAX_KEPT:
        kept = ranges[_PARTITIONS] = _Kept()
    cache_key = (*key, tuple(attrs))
    if cache_key not in kept:
        partition = _build(_candidates(table, source, attrs, required))
        kept[cache_key] = partition
        kept.held += len(partition.items) if partition is not None else 0
    return kept[cache_key]


def _build(candidates: Iterator[tuple[Any, list]]) -> _Partition | None:
    """The partition, or None when moto would not sort it as a Query here does (a key attribute missing, neither S
    nor N, or of two types)."""
    rows: list[tuple[tuple, Any, int]] = []
    types: list[str] | None = None
    for item, values in candidates:
        pairs = [next(iter(v.items())) if isinstance(v, dict) and len(v) == 1 else ("?", None) for v in values]
        key = tuple(_cast(kind, plain) for kind, plain in pairs)
        kinds = [kind for kind, _ in pairs]
        if None in key or (types is not None and kinds != types):
            return None
        types = kinds
        rows.append((key, item, _bound(item)))
    return _Partition(rows, tuple(types or ()))


def _candidates(table: Any, source: tuple, attrs: list[str], required: str | None) -> Iterator[tuple[Any, list]]:
    """(item, its values of `attrs` as DynamoDB-JSON) for each item moto's query would sort."""
    if source[0] == "table":
        bucket = table.items.get(source[1])
        members = [] if bucket is None else list(bucket.values()) if table.range_key_attr else [bucket]
        own = {table.hash_key_attr: "hash_key", table.range_key_attr: "range_key"}
        for item in members:
            if required is None and all(a in own for a in attrs):  # the item's own key: nothing read
                yield item, [getattr(item, own[a]).to_json() for a in attrs]
                continue
            wire = wire_attrs(item)
            if required is None or required in wire:  # an index holds only the items with its sort key
                yield item, [wire.get(a) for a in attrs]
        return
    _, attribute, value = source
    wanted = _cast(value.type, value.value)
    for item in gsi_maps.by_attribute(table, attribute).get(gsi_maps.value_key(value.type, value.value), []):
        wire = wire_attrs(item)
        found = wire.get(attribute)
        if found is None or len(found) != 1 or _cast(*next(iter(found.items()))) != wanted or value.type not in found:
            continue  # moto compares each candidate's partition key again (its type, and its value as moto casts it)
        if required is None or required in wire:
            yield item, [wire.get(a) for a in attrs]


def _bound(item: Any) -> int:
    """A number never below moto's size of the item: the length of its stored JSON (moto_compact), else its size."""
    raw = current_raw(item)
    if isinstance(raw, str):
        return len(raw)
    if isinstance(raw, bytes):  # compressed: its length once per stored string
        known = item.__dict__.get(_BOUND)
        if known is None or known[0] is not raw:
            known = item.__dict__[_BOUND] = (raw, len(zlib.decompress(raw)))
        return known[1]
    return item.size()


def _start(partition: _Partition, start: dict[str, Any], attrs: list[str]) -> tuple | None:
    """The ExclusiveStartKey as a sort key, or None when moto would compare it otherwise (a key missing, of another
    type): moto raises then, or compares across types."""
    values = []
    for attr, kind in zip(attrs, partition.types):
        given = start.get(attr)
        if not (isinstance(given, dict) and len(given) == 1 and kind in given):
            return None
        values.append(_cast(kind, given[kind]))
    return None if None in values else tuple(values)


def _block(partition: _Partition, op: str, objs: list[Any]) -> tuple[int, int] | None:
    """The items meeting the key condition, as positions [lo, hi) in sort order (None: moto's compare would raise, or
    compare across types)."""
    kind, values = partition.types[1], partition.ranges
    wanted = [_cast(o.type, o.value) if o.type == kind else None for o in objs]
    if None in wanted or len(wanted) != (2 if op == "BETWEEN" else 1) or (op == "BEGINS_WITH" and kind != "S"):
        return None
    first = wanted[0]
    if op == "=":
        return bisect_left(values, first), bisect_right(values, first)
    if op in ("<", "<="):
        return 0, (bisect_left if op == "<" else bisect_right)(values, first)
    if op in (">", ">="):
        return (bisect_right if op == ">" else bisect_left)(values, first), len(values)
    lo = bisect_left(values, first)
    if op == "BETWEEN":
        return lo, max(lo, bisect_right(values, wanted[1]))
    hi = lo
    while hi < len(values) and values[hi].startswith(first):
        hi += 1
    return lo, hi


def _page(table: Any, partition: _Partition, attrs: list[str], compared: str, request: dict[str, Any]) -> tuple | None:
    forward, limit, comparison = request["scan_index_forward"], request["limit"], request["range_comparison"]
    count = len(partition.items)
    if partition.after[0] > RESULT_SIZE_LIMIT:
        return None  # an item whose bound alone is over a page: moto's loop is not skipped past it here
    # the items the loop visits: those after the ExclusiveStartKey in the scan's direction, positions [first, last)
    first, last = 0, count
    if request["exclusive_start_key"] is not None and count:
        start = _start(partition, request["exclusive_start_key"], attrs)
        if start is None:
            return None
        first, last = (
            (bisect_right(partition.keys, start), count) if forward else (0, bisect_left(partition.keys, start))
        )
    lo, hi = first, last  # of those, the ones meeting the key condition (all of them without one)
    if comparison and count:
        block = _block(partition, comparison, request["range_objs"]) if attrs[1:2] == [compared] else None
        if block is None:
            return None
        lo = max(block[0], first)
        hi = max(lo, min(block[1], last))
    page, full = _fill(partition, range(lo, hi) if forward else range(hi - 1, lo - 1, -1), limit)
    rest = range(hi, last) if forward else range(lo - 1, first - 1, -1)  # visited after the page, meeting nothing
    if not full and page and rest:
        full = len(page) == limit or _over(partition, page, rest, forward, lo, hi)
    key = table._get_last_evaluated_key(page[-1], request["index_name"]) if full else None
    return _tail(table, page, request), len(page), key


def _fill(partition: _Partition, order: range, limit: int | None) -> tuple[list, bool]:
    """moto's loop over the items meeting the key condition: the page, and whether it stopped full."""
    page: list = []
    total, exact = 0, False  # the page's size: the sum of bounds, or exact once that nears a page
    for i in order:
        if len(page) == limit:
            return page, True
        item = partition.items[i]
        if not exact and total + partition.bounds[i] > RESULT_SIZE_LIMIT:
            total, exact = sum(p.size() for p in page), True
        size = item.size() if exact else partition.bounds[i]
        if exact and total + size > RESULT_SIZE_LIMIT:
            return page, True
        total += size
        page.append(item)
    return page, False


def _over(partition: _Partition, page: list, rest: range, forward: bool, lo: int, hi: int) -> bool:
    """Whether an item visited after the whole block [lo, hi) went into the page would take it over 1 MB (the rest
    runs to the partition's end: an ExclusiveStartKey only moves where the scan starts)."""
    largest = partition.after[hi] if forward else partition.before[lo]
    if sum(partition.bounds[lo:hi]) + largest <= RESULT_SIZE_LIMIT:
        return False
    total = sum(item.size() for item in page)
    return any(total + partition.items[i].size() > RESULT_SIZE_LIMIT for i in rest)


def _tail(table: Any, page: list, request: dict[str, Any]) -> list:
    """moto's last steps on a page: a copy, the index's projection, the filter, the projection expression — or the
    page itself when none changes it and it goes out as its items' stored strings (moto_wire)."""
    from moto.dynamodb.comparisons import OpDefault

    args, projections, name = request["args"], request["projection_expressions"], request["index_name"]
    condition = args[1] if len(args) > 1 else None
    index = table.get_index(name) if name else None
    projected = (
        index is not None and index.projection and index.projection.get("ProjectionType") in ("KEYS_ONLY", "INCLUDE")
    )
    plain = (condition is None or type(condition) is OpDefault) and not projections and not projected
    if plain and answering() and all(current_raw(item) is not None for item in page):
        return page
    results = copy.deepcopy(page)
    if index is not None:
        results = [index.project(r) for r in results]
    if condition is not None:
        results = [item for item in results if condition.expr(item)]
    if projections:
        results = [r.project(projections) for r in results]
    return results
