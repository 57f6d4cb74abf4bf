"""The per-invocation read cache (data/read_cache.py): each row and each Query read once, under the overlay."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from boto3.dynamodb.conditions import Key

from skymarshal.data import schema as s
from skymarshal.data.access import AccessDenied, DataHandle
from skymarshal.data.overlay import Overlay, RowPatch
from skymarshal.data.read_cache import condition_key
from skymarshal.data.schema import Naming

MEMBERS = [{"crew_id": f"C{i}", "name": f"Crew {i}", "base": "AUH"} for i in range(4)]
DUTIES = [
    {"crew_id": "C1", "duty_key": "2027-01-19T06:00:00Z", "flight_id": "EY1-20270119"},
    {"crew_id": "C1", "duty_key": "2027-01-20T06:00:00Z", "flight_id": "EY1-20270120"},
    {"crew_id": "C2", "duty_key": "2027-01-20T06:00:00Z", "flight_id": "EY1-20270120"},
]


class FakeResource:
    """boto3's DynamoDB resource as far as the handle uses it, counting requests."""

    def __init__(self) -> None:
        self.rows = {s.CREW_MEMBERS: MEMBERS, s.CREW_ROSTER: DUTIES}
        self.requests: list[str] = []
        self.naming = Naming(prefix="t-")

    def _items(self, physical: str) -> list[dict]:
        table = physical.removeprefix("t-")
        return [dict(r) for r in self.rows.get(table, [])]

    def Table(self, physical: str):  # boto3 spells it so
        resource = self

        class _Table:
            def get_item(self, Key):
                resource.requests.append("GetItem")
                found = [r for r in resource._items(physical) if all(r.get(k) == v for k, v in Key.items())]
                return {"Item": found[0]} if found else {}

            def query(self, KeyConditionExpression, ExpressionAttributeNames, ExpressionAttributeValues, **kwargs):
                resource.requests.append("Query")
                test = _built(KeyConditionExpression, ExpressionAttributeNames, ExpressionAttributeValues)
                return {"Items": [r for r in resource._items(physical) if test(r)]}

        return _Table()

    def batch_get_item(self, RequestItems):
        self.requests.append("BatchGetItem")
        ((physical, request),) = RequestItems.items()
        keys = request["Keys"]
        rows = self._items(physical)
        found = [r for k in keys for r in rows if all(r.get(n) == v for n, v in k.items())]
        return {"Responses": {physical: found}}


def _built(expression: str, names: dict, values: dict):
    """The handle's built key condition (`#n0 = :v0`, `AND #n1 BETWEEN :v1 AND :v2`) as a test of an item."""
    equal = [(names[n], values[v]) for n, v in re.findall(r"(#n\d+) = (:v\d+)", expression)]
    between = [
        (names[n], values[a], values[b]) for n, a, b in re.findall(r"(#n\d+) BETWEEN (:v\d+) AND (:v\d+)", expression)
    ]
    return lambda r: all(r.get(n) == v for n, v in equal) and all(a <= r.get(n, "") <= b for n, a, b in between)


@pytest.fixture
def resource() -> FakeResource:
    return FakeResource()


def _handle(resource: FakeResource, agent: str | None = None, overlay: Overlay | None = None) -> DataHandle:
    return DataHandle(agent, naming=resource.naming, resource=resource, overlay=overlay)


def test_without_a_cache_every_read_is_a_request(resource):
    handle = _handle(resource)
    handle.get(s.CREW_MEMBERS, {"crew_id": "C1"})
    handle.get(s.CREW_MEMBERS, {"crew_id": "C1"})
    assert resource.requests == ["GetItem", "GetItem"]


def test_a_row_is_read_once_whether_by_get_or_batch_get(resource):
    handle = _handle(resource).with_read_cache()
    assert handle.get(s.CREW_MEMBERS, {"crew_id": "C1"})["name"] == "Crew 1"
    assert handle.get(s.CREW_MEMBERS, {"crew_id": "C9"}) is None  # a missing row is an answer too
    rows = handle.batch_get(s.CREW_MEMBERS, [{"crew_id": c} for c in ("C3", "C1", "C9", "C2")])
    assert [r["crew_id"] for r in rows] == ["C3", "C1", "C2"]  # in the keys' order, cached or fetched
    assert handle.batch_get(s.CREW_MEMBERS, [{"crew_id": "C2"}, {"crew_id": "C3"}])[0]["crew_id"] == "C2"
    assert resource.requests == ["GetItem", "GetItem", "BatchGetItem"]
    assert handle.calls == {f"GetItem:{s.CREW_MEMBERS}": 2, f"BatchGetItem:{s.CREW_MEMBERS}": 1}


def test_a_query_is_asked_once_per_key_condition(resource):
    handle = _handle(resource).with_read_cache()
    window = Key("crew_id").eq("C1") & Key("duty_key").between("2027-01-19", "2027-01-21")
    assert len(handle.query(s.CREW_ROSTER, window)) == 2
    again = Key("crew_id").eq("C1") & Key("duty_key").between("2027-01-19", "2027-01-21")
    assert len(handle.query(s.CREW_ROSTER, again)) == 2
    assert len(handle.query(s.CREW_ROSTER, Key("crew_id").eq("C2"))) == 1  # another condition: another request
    handle.query(s.CREW_ROSTER, window, forward=False)  # another direction: another request
    handle.query(s.CREW_ROSTER, window, limit=1)  # a limited answer is never cached
    handle.query(s.CREW_ROSTER, window, limit=1)
    assert resource.requests == ["Query"] * 5


def test_a_reader_changing_a_row_does_not_change_the_cache(resource):
    handle = _handle(resource).with_read_cache()
    handle.get(s.CREW_MEMBERS, {"crew_id": "C1"})["name"] = "changed"
    handle.query(s.CREW_ROSTER, Key("crew_id").eq("C2"))[0]["flight_id"] = "changed"
    assert handle.get(s.CREW_MEMBERS, {"crew_id": "C1"})["name"] == "Crew 1"
    assert handle.query(s.CREW_ROSTER, Key("crew_id").eq("C2"))[0]["flight_id"] == "EY1-20270120"


def test_the_cache_sits_under_the_overlay(resource):
    """Handles sharing a cache with different what-ifs each see their own: the cache holds the table's answer."""
    sick = Overlay(
        patches=[RowPatch(table=s.CREW_MEMBERS, key={"crew_id": "C1"}, fields={"base": "DXB"}, fact="crew_unavailable")]
    )
    plain = _handle(resource).with_read_cache()
    what_if = plain.with_overlay(sick)
    assert plain.get(s.CREW_MEMBERS, {"crew_id": "C1"})["base"] == "AUH"
    assert what_if.get(s.CREW_MEMBERS, {"crew_id": "C1"})["base"] == "DXB"
    assert what_if.batch_get(s.CREW_MEMBERS, [{"crew_id": "C1"}])[0]["base"] == "DXB"
    assert plain.get(s.CREW_MEMBERS, {"crew_id": "C1"})["base"] == "AUH"
    assert resource.requests == ["GetItem"]


def test_the_access_check_comes_before_the_cache(resource):
    shared = _handle(resource).with_read_cache()
    shared.query(s.CREW_ROSTER, Key("crew_id").eq("C1"))
    guest = shared.for_agent("guest_experience")
    with pytest.raises(AccessDenied):
        guest.query(s.CREW_ROSTER, Key("crew_id").eq("C1"))
    with pytest.raises(AccessDenied):
        guest.get(s.CREW_ROSTER, {"crew_id": "C1", "duty_key": "2027-01-19T06:00:00Z"})


def test_condition_keys_tell_values_and_types_apart():
    assert condition_key(Key("a").eq("1")) == condition_key(Key("a").eq("1"))
    assert condition_key(Key("a").eq("1")) != condition_key(Key("a").eq(Decimal(1)))
    assert condition_key(Key("a").eq("1")) != condition_key(Key("b").eq("1"))
    assert condition_key(Key("a").eq("1") & Key("b").gt("x")) != condition_key(Key("a").eq("1") & Key("b").gte("x"))
