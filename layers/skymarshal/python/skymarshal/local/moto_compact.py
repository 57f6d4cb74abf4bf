"""A compact item store inside moto's DynamoDB table model: each item kept as one JSON string.

moto keeps an item as a dict of `DynamoType` objects, maps and lists as nested DynamoTypes. tracemalloc on
20,000 generated bookings: 2,239 bytes of moto's objects per item (one DynamoType per attribute was the
largest line, then the dicts), against 745 bytes for the item as one string; the seeded airline went from
about 4 GB to about 1 GB resident. Here `Item.attrs` becomes a property: the item
holds its attributes as the DynamoDB-JSON string it was written with (about 0.6 KB), and the DynamoType
dict is built when moto reads it. Decoded items are remembered (`_hot`) and turned back into strings by
`release()`, which moto_speedups calls at the end of every DynamoDB request while it holds the DynamoDB
lock — so no other request can be holding a decoded dict then. After a request that may write, the string
is re-encoded from the (possibly updated) dict; after a read it is only dropped.

An item's string longer than COMPRESS_ABOVE (a LangGraph checkpoint chunk, a run's record — not a booking) is
kept zlib-compressed: the local server keeps every run's checkpoints, and moto keeps them in memory for good.

A binary value is kept as its base64 text, as moto keeps one written over HTTP; items whose values cannot be
written as JSON at all stay decoded.
moto's own code is unchanged: it sees the same `attrs` dicts, built on demand. An item's size is remembered
with its string, and a Query's answer can be written from the strings without decoding them (`current_raw`).
"""

from __future__ import annotations

import base64
import json
import threading
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import orjson

_RAW, _ATTRS, _PINNED, _SIZE = "_sm_raw", "_sm_attrs", "_sm_pinned", "_sm_size"
# Items decoded since the last release(); list.append is atomic under the GIL, so readers outside the
# lock (an ImportTable thread) may add to it safely.
_hot: list = []
_originals: dict[str, Any] = {}
_request = threading.local()  # `reading`: the DynamoDB request this thread is answering changes no item
MAX_ITEM_BYTES = 405_000  # moto's own limit (400 KB plus its margin for attribute names)
COMPRESS_ABOVE = 4096  # characters of DynamoDB-JSON; a booking is ~0.6 KB, a checkpoint chunk up to ~350 KB


def pack(raw: str) -> str | bytes:
    """What an item keeps: its string, compressed (fastest level) when long."""
    return zlib.compress(raw.encode(), 1) if len(raw) > COMPRESS_ABOVE else raw


def unpack(stored: str | bytes) -> str | bytes:
    """The item's JSON (str or UTF-8 bytes: orjson reads either)."""
    return zlib.decompress(stored) if isinstance(stored, bytes) else stored


def _wire(value: Any) -> Any:
    from moto.dynamodb.models.dynamo_type import DynamoType

    if isinstance(value, DynamoType):
        return value.to_json()
    if isinstance(value, bytes):
        # A binary value as moto holds one written over HTTP (its base64 text): TransactWriteItems hands moto the
        # decoded bytes, and each LangGraph checkpoint's payload came this way — left decoded, ~450 items a run.
        return base64.b64encode(value).decode("ascii")
    raise TypeError(f"not JSON: {type(value).__name__}")


def _encode(attrs: dict) -> str | None:
    """The DynamoDB-JSON of a wire dict or a DynamoType dict, or None if it holds something JSON cannot."""
    try:
        return json.dumps(attrs, separators=(",", ":"), default=_wire)
    except (TypeError, ValueError):
        return None


def _decode(raw: str | bytes):
    from moto.dynamodb.models.dynamo_type import DynamoType, LimitedSizeDict

    attrs = LimitedSizeDict()
    for key, value in orjson.loads(raw).items():
        dict.__setitem__(attrs, key, DynamoType(value))  # skips the per-attribute size re-check: sizes were checked
    return attrs


def _get_attrs(self):
    state = self.__dict__
    attrs = state.get(_ATTRS)
    if attrs is None:
        attrs = _decode(unpack(state[_RAW]))
        state[_ATTRS] = attrs
        _hot.append(self)
    return attrs


def _set_attrs(self, attrs) -> None:
    self.__dict__[_ATTRS] = attrs
    self.__dict__.pop(_RAW, None)
    _hot.append(self)


def wire_attrs(item: Any) -> dict:
    """An item's attributes as DynamoDB-JSON without building DynamoTypes (for the speed-up index maps)."""
    raw = item.__dict__.get(_RAW)
    if raw is not None and _ATTRS not in item.__dict__:
        return orjson.loads(unpack(raw))
    return {key: value.to_json() for key, value in item.attrs.items()}


def _item_init(self, hash_key, range_key, attrs) -> None:
    from moto.dynamodb.exceptions import ItemSizeTooLarge
    from moto.dynamodb.models.dynamo_type import DynamoType
    from moto.dynamodb.models.utilities import bytesize

    self.hash_key, self.range_key = hash_key, range_key
    raw = _encode(attrs)
    # A JSON encoding is never shorter than DynamoDB's size of the same item (names and values in full,
    # plus quotes and type tags; numbers as their digits): only a long one needs moto's exact sum.
    if raw is None or len(raw) > MAX_ITEM_BYTES:
        values = {key: DynamoType(value) for key, value in attrs.items()}
        if sum(bytesize(key) + value.size() for key, value in values.items()) > MAX_ITEM_BYTES:
            raise ItemSizeTooLarge
    if raw is None:
        from moto.dynamodb.models.dynamo_type import LimitedSizeDict

        decoded = LimitedSizeDict()
        for key, value in values.items():
            dict.__setitem__(decoded, key, value)
        self.__dict__[_ATTRS], self.__dict__[_PINNED] = decoded, True
        return
    self.__dict__[_RAW] = pack(raw)


def current_raw(item: Any) -> str | bytes | None:
    """The item's stored string when it still says what the item holds: not decoded, or decoded only within a
    request that writes nothing (so nothing changed the dict); None otherwise."""
    state = item.__dict__
    raw = state.get(_RAW)
    if raw is not None and (_ATTRS not in state or getattr(_request, "reading", False)):
        return raw
    return None


def _item_size(self) -> int:
    """moto's size of the item, remembered with the string it was computed for. moto adds up every candidate's
    size on every Query (the 1 MB page), attribute by attribute after decoding it: two fifths of a local run's
    Query time went there, for items read again and again (flights, rosters)."""
    raw = current_raw(self)
    if raw is None:
        return _originals["size"](self)
    known = self.__dict__.get(_SIZE)
    if known is not None and known[0] is raw:
        return known[1]
    size = _originals["size"](self)
    self.__dict__[_SIZE] = (raw, size)
    return size


@contextmanager
def reading(read_only: bool) -> Iterator[None]:
    """Within a request that writes nothing, a decoded item still matches its stored string (nothing changed it),
    so its copies can share that string: moto deep-copies every Query result, attribute by attribute (a third
    of the whole-airline check's time), after it decoded each one to add up the response's size."""
    before = getattr(_request, "reading", False)
    _request.reading = read_only
    try:
        yield
    finally:
        _request.reading = before


def _item_deepcopy(self, memo):
    """A copy sharing the item's string (strings are immutable) when the string is current: the item was not
    decoded, or only read in this request; otherwise (a write may have changed the dict) the dict is copied as
    moto does."""
    import copy

    from moto.dynamodb.models.dynamo_type import LimitedSizeDict

    result = self.__class__.__new__(self.__class__)
    memo[id(self)] = result
    result.hash_key = copy.deepcopy(self.hash_key, memo)
    result.range_key = copy.deepcopy(self.range_key, memo)
    raw = current_raw(self)
    if raw is not None:
        result.__dict__[_RAW] = raw
        if _SIZE in self.__dict__:
            result.__dict__[_SIZE] = self.__dict__[_SIZE]
        return result
    attrs = LimitedSizeDict()
    for key, value in self.attrs.items():
        dict.__setitem__(attrs, key, copy.deepcopy(value, memo))
    result.attrs = attrs
    return result


def release(wrote: bool) -> None:
    """Turn the items decoded since the last call back into strings (call with the DynamoDB lock held)."""
    if not _hot:
        return
    items = _hot[:]
    del _hot[: len(items)]
    for item in items:
        state = item.__dict__
        attrs = state.get(_ATTRS)
        if attrs is None or state.get(_PINNED):
            continue
        if wrote or _RAW not in state:
            raw = _encode(attrs)
            if raw is None:
                state[_PINNED] = True
                continue
            state[_RAW] = pack(raw)
        del state[_ATTRS]


def install() -> None:
    """Idempotent; there is no uninstall: items already stored exist only as strings."""
    if _originals:
        return
    from moto.dynamodb.models.dynamo_type import Item

    _originals.update(init=Item.__init__, deepcopy=Item.__deepcopy__, size=Item.size)
    Item.__init__ = _item_init  # type: ignore[method-assign]
    Item.size = _item_size  # type: ignore[method-assign]
    Item.__deepcopy__ = _item_deepcopy  # type: ignore[method-assign]
    Item.attrs = property(_get_attrs, _set_attrs)  # type: ignore[assignment]
