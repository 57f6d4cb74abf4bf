"""DynamoDB items go into moto's responses as they are stored: already DynamoDB-JSON.

moto 5.2.5 serialises each response by walking the botocore output shape, and an item's every attribute
value is an `AttributeValue` structure of ten members, each looked up through its alias machinery: about
a quarter of a local disruption run's CPU went there (a Query of a hundred bookings took 0.4 s). moto's
DynamoDB keeps items in the wire form already (`{"S": "..."}`, `{"N": "12"}`, `{"M": {...}}`), so a value
whose every part is of that form is written as it is. Anything else (binary, a number not held as text,
a shape moto did not build that way) takes moto's own path, so the response is the same byte for byte
(tests/local/test_moto_speedups.py compares the two).

A Query's items come as their stored strings (moto_compact.current_raw), all of them or none, each `Stored`,
which the body embeds as it is: not decoded, converted or encoded again (the decode alone was 3 % of a workflow
module's CPU). A binary value is already its base64 text there, as the wire carries it.

The body is written by orjson (a twelfth of `json.dumps`'s time; 2 % of a workflow module's CPU): the same JSON,
compact and UTF-8. Where the two could differ, json.dumps writes it as moto does: a value orjson refuses (a key
not a string, an integer over 64 bits, a date), and any body with a `null` in it (orjson writes a NaN or an
infinity as null, json as NaN).
"""

from __future__ import annotations

import functools
import json
import threading
from typing import Any

import orjson

from .moto_compact import current_raw, unpack

_original: dict[str, Any] = {}
_request = threading.local()  # `answering`: this thread is inside DynamoHandler.query
_SCALAR = {"S": str, "N": str, "BOOL": bool, "NULL": bool}


class Stored:
    """One item's attributes as the DynamoDB-JSON string it is stored as (str, or UTF-8 bytes)."""

    __slots__ = ("raw",)

    def __init__(self, raw: str | bytes):
        self.raw = raw


class WireItems(list):
    """A response's items, every one `Stored`: written into the body as they are."""


def is_wire(value: Any) -> bool:
    """Whether `value` is one DynamoDB-JSON attribute value with no binary part, every number as text."""
    if not isinstance(value, dict) or len(value) != 1:
        return False
    ((kind, inner),) = value.items()
    if kind in _SCALAR:
        return isinstance(inner, _SCALAR[kind])
    if kind in ("SS", "NS"):
        return isinstance(inner, list) and all(isinstance(v, str) for v in inner)
    if kind == "M":
        return isinstance(inner, dict) and all(isinstance(k, str) and is_wire(v) for k, v in inner.items())
    if kind == "L":
        return isinstance(inner, list) and all(is_wire(v) for v in inner)
    return False  # B, BS (base64 on the way out) and anything unknown: moto's serialiser


def _serialize_type_structure(self, serialized, value, shape, key):  # moto's signature
    if key and shape.name == "AttributeValue" and is_wire(value):
        self._default_serialize(serialized, value, shape, key)
        return
    _original["structure"](self, serialized, value, shape, key)


def _serialize_type_list(self, serialized, value, shape, key):  # moto's signature
    if isinstance(value, WireItems):
        self._default_serialize(serialized, list(value), shape, key)
        return
    _original["list"](self, serialized, value, shape, key)


def _refused(value: Any) -> TypeError:
    return TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def _embedded(value: Any) -> orjson.Fragment:
    """orjson's `default`: a stored item's string as it is; anything else refused (json.dumps then writes it)."""
    if isinstance(value, Stored):
        return orjson.Fragment(value.raw)
    raise _refused(value)


def _decoded(value: Any) -> Any:
    """json.dumps's `default`: a stored item's attributes decoded; anything else refused as json refuses it."""
    if isinstance(value, Stored):
        return orjson.loads(value.raw)
    raise _refused(value)


_PASSTHROUGH = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS  # json.dumps refuses both


def _serialize_body(self, body: Any) -> str:  # moto's signature
    """moto's `json.dumps(body)` by orjson where the two write the same JSON (see the module's docstring)."""
    if not self.pretty_print:
        try:
            encoded = orjson.dumps(body, default=_embedded, option=_PASSTHROUGH)
        except TypeError:  # orjson.JSONEncodeError too
            encoded = None
        if encoded is not None and b"null" not in encoded:
            return encoded.decode()
    return json.dumps(body, indent=4 if self.pretty_print else None, default=_decoded)


class _Answered:
    """A Query's item as the response reads it (`attrs` only): its attributes as stored, not decoded."""

    __slots__ = ("attrs",)

    def __init__(self, attrs: Stored):
        self.attrs = attrs


def answering() -> bool:
    """Whether this thread is answering a Query request (its items then go out as their stored strings)."""
    return getattr(_request, "answering", False)


def as_answered(found: tuple) -> tuple:
    """Table.query's (items, ...) with the items read from their strings when a Query request is being answered:
    all of them, or none (moto's own way); anything else unchanged."""
    if not answering():
        return found
    items, *rest = found
    stored = [current_raw(item) for item in items]
    if any(raw is None for raw in stored):
        return found
    return ([_Answered(Stored(unpack(raw))) for raw in stored if raw is not None], *rest)


def answer_query(query):
    """DynamoHandler.query, marking its thread so the items it puts in the response come from their strings."""

    @functools.wraps(query)
    def answered(self):
        _request.answering = True
        try:
            return query(self)
        finally:
            _request.answering = False

    return answered


def _dynamo_to_dict(obj: Any) -> Any:
    """moto's conversion of a response, past a Query's items read from their strings."""
    items = obj.get("Items") if isinstance(obj, dict) else None
    if isinstance(items, list) and items and all(isinstance(item, Stored) for item in items):
        return {k: WireItems(v) if k == "Items" else _original["to_dict"](v) for k, v in obj.items()}
    return _original["to_dict"](obj)


def install() -> None:
    """Once per process (idempotent); never undone: the answers are the same either way."""
    from moto.core.serialize import BaseJSONSerializer
    from moto.dynamodb import responses

    if _original:
        return
    _original["structure"] = BaseJSONSerializer._serialize_type_structure
    _original["list"] = BaseJSONSerializer._serialize_type_list
    _original["to_dict"] = responses.dynamo_to_dict
    _original["body"] = BaseJSONSerializer._serialize_body
    BaseJSONSerializer._serialize_type_structure = _serialize_type_structure  # type: ignore[method-assign]
    BaseJSONSerializer._serialize_type_list = _serialize_type_list  # type: ignore[method-assign]
    BaseJSONSerializer._serialize_body = _serialize_body  # type: ignore[method-assign]
    responses.dynamo_to_dict = _dynamo_to_dict
