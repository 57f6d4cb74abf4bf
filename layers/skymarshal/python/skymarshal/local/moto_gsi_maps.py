"""Per-attribute maps of a moto table's items (for GSI queries by partition key), kept up to date through writes.

moto_speedups answers a GSI Query with an equality on the partition key from a map of the table's items by that
attribute's value. Rebuilding a map reads every item of the table (a JSON parse each): dropping the maps on every
write made each Query after a write — Execute alternates them, group by group — re-read the whole bookings table
(about a tenth of a fog closure's CPU). A write whose keys are known instead moves just the items at those keys:
each one's old entry is taken out before the write and its new one put in after. A write whose keys cannot be read
(PartiQL, a malformed request) or that fails (a cancelled transaction restores tables wholesale) drops the maps,
as before. tests/local/test_moto_speedups.py checks Query answers against stock moto through every kind of write.
"""

from __future__ import annotations

import json
from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Iterable
from decimal import Decimal, InvalidOperation
from typing import Any

from .moto_compact import wire_attrs

MAPS = "_skymarshal_maps"  # on a Table: attribute name → {(type, canonical JSON value): [items]}
# on a Table: (attribute or None for the table's own partitions, range attribute, group, value type) → (sorted
# values, their items); dropped on any write to the table
RANGES = "_skymarshal_ranges"
Key = tuple[Any, Any]  # (hash DynamoType, range DynamoType or None)
GroupKey = tuple[str, str]


def group_key(item: Any, attribute: str) -> GroupKey | None:
    """The map key of the item's value of `attribute`, or None when the item lacks it (not in that index)."""
    value = wire_attrs(item).get(attribute)  # no DynamoTypes built for the whole table
    if value is None:
        return None
    ((kind, plain),) = value.items()
    return value_key(kind, plain)


def value_key(kind: str, plain: Any) -> GroupKey:
    """The map key of one value: its JSON text, or for a number its value — moto finds 1.0 equal to 1 (Decimals)."""
    number = finite_number(plain) if kind == "N" else None
    if number is None:
        return kind, json.dumps(plain, sort_keys=True)
    sign, digits, exponent = number.as_tuple()
    shown = "".join(map(str, digits)).rstrip("0")
    if not shown:
        return kind, "0e0"  # -0 is 0
    exponent = int(exponent) + len(digits) - len(shown)  # exact: no context rounds it, as normalize() would
    return kind, f"{'-' if sign else ''}{shown}e{exponent}"  # never a JSON text (those of strings start with ")


def finite_number(plain: Any) -> Decimal | None:
    """A finite number's Decimal, else None (moto cannot compare the others as equal)."""
    try:
        number = Decimal(plain) if isinstance(plain, str) else None
    except InvalidOperation:
        return None
    return number if number is not None and number.is_finite() else None


def by_attribute(table: Any, attribute: str) -> dict[GroupKey, list]:
    maps = table.__dict__.setdefault(MAPS, {})
    if attribute not in maps:
        groups: dict[GroupKey, list] = defaultdict(list)
        # moto sorts a GSI query's candidates itself, so their order here does not matter.
        for bucket in table.items.values():
            for item in bucket.values() if table.range_key_attr else (bucket,):
                key = group_key(item, attribute)
                if key is not None:
                    groups[key].append(item)
        maps[attribute] = groups
    return maps[attribute]


def _plain(value: dict | None) -> tuple[str, Any] | None:
    """A DynamoDB-JSON S or N value as a comparable one (Decimal for N); anything else None (never narrowed)."""
    if not value:
        return None
    ((kind, plain),) = value.items()
    if kind == "S":
        return kind, plain
    if kind == "N":
        try:
            return kind, Decimal(plain)
        except InvalidOperation:
            return None
    return None


def in_range(
    table: Any, attribute: str, group: GroupKey, range_attr: str, comparison: str, bounds: list[tuple[str, Any]]
) -> list | None:
    """The items of a GSI partition (`attribute`'s value `group`) whose `range_attr` can meet `comparison` against
    `bounds` (each (type, value) as DynamoDB-JSON gives it): a superset of the answer moto then filters, found by
    bisecting the partition sorted by that attribute once — moto's own filter decodes and sorts every item of the
    partition on each Query (a type's flights over the whole schedule: ~60 ms). None: not narrowed (another
    comparison, or types that differ)."""
    wanted = _wanted(bounds)
    if wanted is None:
        return None
    kind, values = wanted
    return _narrowed(_sorted(table, attribute, group, range_attr, kind), comparison, values)


def in_partition(table: Any, hash_key: Any, comparison: str, bounds: list[tuple[str, Any]]) -> list | None:
    """`in_range` for the table's own partition `hash_key` (a DynamoType) and its sort key: a member's year of
    roster rows was decoded, sized and compared on each Query of one week (None: not narrowed)."""
    wanted = _wanted(bounds)
    bucket = table.items.get(hash_key)
    if wanted is None or not table.range_key_attr or not isinstance(bucket, dict):
        return None
    kind, values = wanted
    ranges = table.__dict__.setdefault(RANGES, {})
    key = (None, table.range_key_attr, (hash_key.type, json.dumps(hash_key.value, sort_keys=True)), kind)
    if key not in ranges:  # by each item's own key (a DynamoType moto keeps): no item's attributes decoded
        keyed = [(found[1], item) for item in bucket.values() if (found := _key_value(item.range_key, kind))]
        keyed.sort(key=lambda pair: pair[0])
        ranges[key] = ([v for v, _ in keyed], [i for _, i in keyed])
    return _narrowed(ranges[key], comparison, values)


def _key_value(key: Any, kind: str) -> tuple[str, Any] | None:
    found = _plain({key.type: key.value}) if key is not None else None
    return found if found is not None and found[0] == kind else None


def _wanted(bounds: list[tuple[str, Any]]) -> tuple[str, list[Any]] | None:
    """The bounds' one type and their comparable values, or None (none given, or of types that differ)."""
    plain = [_plain({kind: value}) for kind, value in bounds]
    found = [p for p in plain if p is not None]
    if not found or len(found) != len(plain) or len({kind for kind, _ in found}) != 1:
        return None
    return found[0][0], [value for _, value in found]


def _narrowed(ordered: tuple[list, list], comparison: str, wanted: list[Any]) -> list | None:
    values, items = ordered
    op, first = comparison.upper(), wanted[0]
    lo, hi = 0, len(values)
    if op in ("=", "EQ"):
        lo, hi = bisect_left(values, first), bisect_right(values, first)
    elif op in ("<", "LT"):
        hi = bisect_left(values, first)
    elif op in ("<=", "LE"):
        hi = bisect_right(values, first)
    elif op in (">", "GT"):
        lo = bisect_right(values, first)
    elif op in (">=", "GE"):
        lo = bisect_left(values, first)
    elif op == "BETWEEN" and len(wanted) == 2:
        lo, hi = bisect_left(values, first), bisect_right(values, wanted[1])
    elif op == "BEGINS_WITH" and isinstance(first, str):
        lo = bisect_left(values, first)
        hi = lo
        while hi < len(values) and values[hi].startswith(first):
            hi += 1
    else:
        return None
    # with the nearest item outside the range on each side: moto visits it (and skips it) after the range in either
    # direction, which is how it knows to say where a Query with a Limit stopped (LastEvaluatedKey)
    return items[max(lo - 1, 0) : hi + 1]


def _sorted(table: Any, attribute: str, group: GroupKey, range_attr: str, kind: str) -> tuple[list, list]:
    ranges = table.__dict__.setdefault(RANGES, {})
    key = (attribute, range_attr, group, kind)
    if key not in ranges:
        ranges[key] = _sorted_pairs(by_attribute(table, attribute).get(group, []), range_attr, kind)
    return ranges[key]


def _sorted_pairs(items: Iterable[Any], range_attr: str, kind: str) -> tuple[list, list]:
    """The items with a `kind` value of `range_attr` (an item without it is not in the index), sorted by it: the
    values, and the items in that order."""
    keyed = []
    for item in items:
        found = _plain(wire_attrs(item).get(range_attr))
        if found is not None and found[0] == kind:
            keyed.append((found[1], item))
    keyed.sort(key=lambda pair: pair[0])
    return [v for v, _ in keyed], [i for _, i in keyed]


def drop(table: Any) -> None:
    table.__dict__.pop(MAPS, None)
    table.__dict__.pop(RANGES, None)


def item_at(table: Any, key: Key) -> Any:
    bucket = table.items.get(key[0])
    if bucket is None or not table.range_key_attr:
        return bucket
    return bucket.get(key[1])


def before_write(table: Any, keys: Iterable[Key]) -> list[tuple[Key, Any, dict[str, GroupKey | None]]]:
    """What the maps hold for each key now: taken out in `after_write` (nothing to do without maps)."""
    maps = table.__dict__.get(MAPS)
    if not maps:
        return []
    found = []
    for key in dict.fromkeys(keys):
        old = item_at(table, key)
        found.append((key, old, {a: group_key(old, a) for a in maps} if old is not None else {}))
    return found


def after_write(table: Any, before: list[tuple[Key, Any, dict[str, GroupKey | None]]]) -> None:
    """Each key's old item out of the maps, its item now (the same object when updated in place) in."""
    table.__dict__.pop(RANGES, None)  # sorted again by the next Query that narrows (reads far outnumber writes)
    maps = table.__dict__.get(MAPS)
    if not maps:
        return
    for key, old, old_keys in before:
        new = item_at(table, key)
        for attribute, groups in maps.items():
            gone = old_keys.get(attribute)
            if old is not None and gone is not None and gone in groups:
                groups[gone] = [i for i in groups[gone] if i is not old]
            now = group_key(new, attribute) if new is not None else None
            if now is not None:
                groups[now].append(new)
