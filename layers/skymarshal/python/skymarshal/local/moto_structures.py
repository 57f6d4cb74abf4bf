"""Step Functions answers written member by member, without moto's search for each member's value.

moto 5.2.5 serialises a response by walking the botocore output shape; for every member of every structure it
tries up to six aliases (the shape's name, a prefix cut, the class name, ...) each in camelCase and snake_case
before the key itself. An execution history is a list of events whose shape has about sixty members, nearly all
absent: reading a run's history (~1 MB, 190 events) cost ~95 ms of serialiser, and the suite read histories often
enough for that to be 4 % of its CPU (`py-spy`, twenty-ninth session).

A structure held as a plain `dict` whose keys are all members of its shape is written here by looking each member
up by its own name — what moto's alias search finds in that case, checked per shape: no member carries a
serialisation name, and no alias moto could try for one member (its shape's name, the parent-prefix cut, the
`dict` class-name cut, their snake_case forms) is another member's name. Every value still goes through moto's
own `_serialize` (timestamps, numbers, lists, maps, nested structures), so only the lookup is skipped.
Anything else — an object, a key outside the shape, a response class with transformers, another service — takes
moto's path. tests/local/test_moto_structures.py compares both on real histories and generated events.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from botocore import xform_name

_original: dict[str, Any] = {}
SERVICES = frozenset({"stepfunctions"})  # botocore's service name; the others keep moto's path


@cache
def plain_members(shape: Any) -> frozenset[str] | None:
    """The shape's member names when looking a `dict`'s key up by its own name is what moto's aliases would
    find (given the dict holds only member names), else None. Shapes are botocore's cached, shared objects."""
    members = shape.members
    names = frozenset(members)
    for key, member in members.items():
        if member.serialization.get("name", key) != key:
            return None  # ModelAlias
        aliases = {key[len(shape.name) :]} if key.lower().startswith(shape.name.lower()) else set()  # ShapePrefixAlias
        if key.lower().startswith("dict"):
            aliases.add(key[len("dict") :])  # ClassPrefixAlias, for a plain dict
        if member.type_name in ("list", "structure"):
            aliases.add(member.name)  # ShapeNameAlias
        aliases |= {xform_name(a) for a in aliases | {key}}
        if (aliases - {key}) & names:
            return None
    return names


def _picks_by_name(serializer: Any) -> bool:
    picker = serializer._value_picker
    return not getattr(picker, "response_transformers", None)


def _serialize_type_structure(self, serialized, value, shape, key):  # moto's signature
    members = (
        plain_members(shape)
        if type(value) is dict
        and not shape.is_document_type
        and self.service_model.service_name in SERVICES
        and _picks_by_name(self)
        else None
    )
    if members is None or not value.keys() <= members:
        _original["structure"](self, serialized, value, shape, key)
        return
    wrapper: Any = self.MAP_TYPE() if key else serialized
    for member_key, member_shape in shape.members.items():
        member_value = value.get(member_key)
        if member_value is not None:
            member_shape.parent = shape  # as moto sets it: a nested structure's aliases read it
            self._serialize(wrapper, member_value, member_shape, member_key)
    if key:
        self._default_serialize(serialized, wrapper, shape, key)


def install() -> None:
    """Once per process (idempotent), after moto_wire's hook on the same method: this one runs first and hands
    anything it does not take (DynamoDB's `AttributeValue` among them) to moto_wire's, which hands on to moto's."""
    from moto.core.serialize import BaseJSONSerializer

    if _original:
        return
    _original["structure"] = BaseJSONSerializer._serialize_type_structure
    BaseJSONSerializer._serialize_type_structure = _serialize_type_structure  # type: ignore[method-assign]
