"""The emulator speed-up answers exactly what stock moto answers, through writes that change GSI keys."""

from __future__ import annotations

import contextlib
import uuid
from decimal import Decimal
from typing import Any

import pytest
from boto3.dynamodb.conditions import And, Attr, ConditionExpressionBuilder, Key, Not, Or
from boto3.dynamodb.types import Binary, TypeSerializer
from botocore.exceptions import ClientError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skymarshal.local import moto_speedups

KEYS = st.sampled_from(["a", "b", "c", "d"])
# each sort-key comparison a Query can make: on the number index r and the string index t (begins_with)
COMPARISONS = ["gte", "gt", "between", "lt", "lte", "eq", "begins", "t_between", "t_lt"]
operation = st.one_of(
    st.tuples(st.just("put"), st.integers(0, 30), KEYS, st.integers(0, 9)),
    st.tuples(st.just("delete"), st.integers(0, 30)),
    st.tuples(st.just("update"), st.integers(0, 30), KEYS),
    st.tuples(st.just("update_range"), st.integers(0, 30), st.integers(0, 9)),  # moves it within its partition
    st.tuples(st.just("transact"), st.integers(0, 30), KEYS),
    st.tuples(st.just("query_base"), st.integers(0, 30)),
    # the table's own partition by its sort key, each way, with or without a Limit: the speed-up bisects it too
    st.tuples(
        st.just("query_base_range"),
        st.integers(0, 30),
        st.integers(0, 30),
        st.booleans(),
        st.sampled_from(["gte", "gt", "between", "lt", "lte", "eq"]),
        st.sampled_from([None, 1, 3]),
    ),
    st.tuples(st.just("query_gsi"), KEYS, st.integers(0, 9), st.booleans(), st.sampled_from(COMPARISONS)),
    # the newest (or oldest) few, with or without a sort-key condition, and no filter: a Limit the speed-up narrows to
    st.tuples(
        st.just("query_limit"),
        KEYS,
        st.integers(0, 9),
        st.booleans(),
        st.sampled_from([None, "gte", "lt"]),
        st.integers(1, 4),
    ),
)


@pytest.fixture(scope="module")
def table(account):
    name = f"speedups-{uuid.uuid4().hex[:8]}"
    client = account.client("dynamodb")
    client.create_table(
        TableName=name,
        BillingMode="PAY_PER_REQUEST",
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
        AttributeDefinitions=[
            {"AttributeName": n, "AttributeType": t}
            for n, t in (("pk", "S"), ("sk", "N"), ("g", "S"), ("r", "N"), ("t", "S"))
        ],
        GlobalSecondaryIndexes=[
            {
                "IndexName": f"g-{sort}-index",
                "Projection": {"ProjectionType": "ALL"},
                "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}, {"AttributeName": sort, "KeyType": "RANGE"}],
            }
            for sort in ("r", "t")
        ],
    )
    return account.resource().Table(name)


def _read(table, op):
    if op[0] == "query_base":
        return table.query(KeyConditionExpression=Key("pk").eq(f"p{op[1] % 5}"))["Items"]
    if op[0] == "query_base_range":
        _, p, sk, forward, comparison, limit = op
        sort_key = _compared("sk", sk, comparison, width=8)
        kwargs: dict[str, Any] = {"Limit": limit} if limit else {}
        answer = table.query(
            KeyConditionExpression=Key("pk").eq(f"p{p % 5}") & sort_key, ScanIndexForward=forward, **kwargs
        )
        return answer["Items"], answer.get("LastEvaluatedKey")
    if op[0] == "query_limit":
        _, g, r, forward, comparison, limit = op
        condition = Key("g").eq(g)
        if comparison is not None:
            condition &= Key("r").gte(r) if comparison == "gte" else Key("r").lt(r)
        answer = table.query(
            IndexName="g-r-index", KeyConditionExpression=condition, ScanIndexForward=forward, Limit=limit
        )
        return answer["Items"], answer.get("LastEvaluatedKey")
    _, g, r, forward, comparison = op
    sort_key = {
        "begins": Key("t").begins_with(_t(r)[:2]),
        "t_between": Key("t").between(_t(r), _t(r + 2)),
        "t_lt": Key("t").lt(_t(r)),
    }.get(comparison) or _compared("r", r, comparison, width=3)
    return table.query(
        IndexName="g-t-index" if comparison in ("begins", "t_between", "t_lt") else "g-r-index",
        KeyConditionExpression=Key("g").eq(g) & sort_key,
        ScanIndexForward=forward,
        FilterExpression=Attr("v").exists(),
    )["Items"]


def _compared(attribute: str, value: int, comparison: str, width: int):
    """The number sort-key condition `comparison` on `attribute` (between: `value` to `value + width`)."""
    key = Key(attribute)
    if comparison == "between":
        return key.between(value, value + width)
    return {"gte": key.gte, "gt": key.gt, "lt": key.lt, "lte": key.lte, "eq": key.eq}[comparison](value)


def _t(r: int) -> str:
    """The string sort key of an item whose number sort key is r (two share a prefix of two)."""
    return f"k{r // 2}-{r}"


# every kind of value a Query's answer read from the stored strings must carry as moto's own path does
RICH = {
    "b": Binary(b"\x00\xffhi"),
    "bs": {Binary(b"a"), Binary(b"\x01")},
    "ss": {"x", "y"},
    "ns": {Decimal("1.5"), Decimal(2)},
    "m": {"l": [Decimal("0.10"), "s", None, True, {"n": Binary(b"z")}], "e": ""},
}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=st.lists(operation, min_size=1, max_size=40))
def test_answers_match_stock_moto(table, ops):
    moto_speedups.install()
    for op in ops:
        kind = op[0]
        if kind == "put":
            table.put_item(
                Item={"pk": f"p{op[1] % 5}", "sk": op[1], "g": op[2], "r": op[3], "t": _t(op[3]), "v": 1, **RICH}
            )
        elif kind == "delete":
            table.delete_item(Key={"pk": f"p{op[1] % 5}", "sk": op[1]})
        elif kind == "update":
            with contextlib.suppress(ClientError):  # moves the item to another GSI partition: the key map must notice
                table.update_item(
                    Key={"pk": f"p{op[1] % 5}", "sk": op[1]},
                    UpdateExpression="SET g = :g",
                    ConditionExpression="attribute_exists(pk)",
                    ExpressionAttributeValues={":g": op[2]},
                )
        elif kind == "update_range":
            with contextlib.suppress(ClientError):  # the sort keys change: a partition's sorted order must notice
                table.update_item(
                    Key={"pk": f"p{op[1] % 5}", "sk": op[1]},
                    UpdateExpression="SET r = :r, t = :t",
                    ConditionExpression="attribute_exists(pk)",
                    ExpressionAttributeValues={":r": op[2], ":t": _t(op[2])},
                )
        elif kind == "transact":  # a transaction names its tables: theirs are the caches it must drop
            with contextlib.suppress(ClientError):  # the resource's client takes plain values
                table.meta.client.transact_write_items(
                    TransactItems=[
                        {
                            "Update": {
                                "TableName": table.name,
                                "Key": {"pk": f"p{op[1] % 5}", "sk": op[1]},
                                "UpdateExpression": "SET g = :g",
                                "ConditionExpression": "attribute_exists(pk)",
                                "ExpressionAttributeValues": {":g": op[2]},
                            }
                        }
                    ]
                )
        else:
            fast = _read(table, op)
            with moto_speedups.disabled():
                stock = _read(table, op)
            assert fast == stock


def test_a_write_drops_the_caches_of_the_tables_it_names_only():
    assert moto_speedups._written("backend.update_item", ("Checkpoints", {}), {}) == {"Checkpoints"}
    assert moto_speedups._written("backend.update_item", (), {"table_name": "flights"}) == {"flights"}
    transaction = [{"Put": {"TableName": "a"}}, {"Update": {"TableName": "b"}}, {"ConditionCheck": {"TableName": "a"}}]
    assert moto_speedups._written("backend.transact_write_items", (transaction,), {}) == {"a", "b"}
    assert moto_speedups._written("backend.transact_write_items", ([{"Put": {}}],), {}) is None  # unsure: all
    assert moto_speedups._written("backend.execute_statement", ("UPDATE x",), {}) is None  # PartiQL: all


def _serialized(operation: str, result: dict) -> str:
    from moto.core.responses import get_service_model
    from moto.core.serialize import XFormedAttributePicker, get_serializer_class

    model = get_service_model("dynamodb")
    serializer = get_serializer_class("dynamodb", "json")(
        operation_model=model.operation_model(operation), pretty_print=False, value_picker=XFormedAttributePicker()
    )
    return serializer.serialize(result)["body"]


WIRE_ITEMS = [
    {"pk": {"S": "p"}, "n": {"N": "1.50"}, "t": {"BOOL": False}, "z": {"NULL": True}, "e": {"S": ""}},
    {"m": {"M": {"a": {"L": [{"S": "x"}, {"N": "2"}, {"M": {}}]}, "b": {"SS": ["u", "v"]}}}, "l": {"L": []}},
    {"ns": {"NS": ["1", "2"]}, "b": {"B": "aGk="}, "odd": {"N": 3}},  # binary and a number not as text: moto's way
]


@pytest.mark.parametrize("operation", ["Query", "GetItem", "BatchGetItem"])
def test_items_are_written_into_responses_as_moto_writes_them(operation):
    from moto.core.serialize import BaseJSONSerializer

    from skymarshal.local import moto_wire

    result = {
        "Query": {"Items": WIRE_ITEMS, "Count": 3, "ScannedCount": 3},
        "GetItem": {"Item": WIRE_ITEMS[1]},
        "BatchGetItem": {"Responses": {"t": WIRE_ITEMS}, "UnprocessedKeys": {}},
    }[operation]
    moto_wire.install()
    fast = _serialized(operation, result)
    patched = BaseJSONSerializer._serialize_type_structure
    BaseJSONSerializer._serialize_type_structure = moto_wire._original["structure"]
    try:
        stock = _serialized(operation, result)
    finally:
        BaseJSONSerializer._serialize_type_structure = patched
    assert fast == stock
    assert moto_wire.is_wire(WIRE_ITEMS[1]["m"]) and not moto_wire.is_wire(WIRE_ITEMS[2]["b"])


_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)  # past 64 bits: orjson refuses, json writes them
    | st.floats()  # NaN and the infinities: orjson writes null, json NaN
    | st.text(max_size=6),  # non-ASCII and lone surrogates (orjson refuses those)
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4) | st.integers(0, 3), inner, max_size=3)
    ),  # a key not a string: refused
    max_leaves=10,
)


@settings(max_examples=300, deadline=None)
@given(body=st.dictionaries(st.text(max_size=4), _JSON, max_size=4), stored=st.lists(st.sampled_from(WIRE_ITEMS)))
def test_a_body_is_the_json_moto_writes(body, stored):
    """The body written by orjson reads back as the one json.dumps writes, a stored item as its attributes;
    where orjson would write something else (NaN, a key not a string, a big integer, a lone surrogate) the bytes are
    json.dumps's own."""
    import json
    import math

    from moto.core.serialize import BaseJSONSerializer

    from skymarshal.local import moto_wire

    moto_wire.install()
    serializer = BaseJSONSerializer.__new__(BaseJSONSerializer)
    serializer.pretty_print = False
    stock = json.dumps(body)
    written = moto_wire._serialize_body(serializer, body)
    if written != stock:  # orjson's: compact, UTF-8
        assert json.loads(written) == json.loads(stock)
        assert "null" not in written and "NaN" not in stock and "Infinity" not in stock
    ends = [math.nan, math.inf, {1: "a"}, 2**64, "\ud800"]
    assert all(moto_wire._serialize_body(serializer, {"v": end}) == json.dumps({"v": end}) for end in ends)
    items = {"Items": [moto_wire.Stored(json.dumps(item)) for item in stored], **body}
    assert json.loads(moto_wire._serialize_body(serializer, items)) == json.loads(json.dumps({"Items": stored, **body}))


def test_a_cancelled_transaction_leaves_the_table_as_it_was(table):
    """moto applies a transaction's writes one by one and restores its backup when a later part fails: the
    backup (moto_transact.py) holds only the items the transaction names, and puts them all back in place."""
    moto_speedups.install()
    pk = f"t{uuid.uuid4().hex[:6]}"
    table.put_item(Item={"pk": pk, "sk": 1, "g": "a", "r": 1, "v": 1})
    table.put_item(Item={"pk": pk, "sk": 2, "g": "b", "r": 2, "v": 2})
    before = sorted(table.query(KeyConditionExpression=Key("pk").eq(pk))["Items"], key=lambda i: i["sk"])
    client = table.meta.client  # the resource's client: plain values, serialised for us
    with pytest.raises(ClientError, match="TransactionCanceled"):
        client.transact_write_items(
            TransactItems=[
                {  # applied first, in place...
                    "Update": {
                        "TableName": table.name,
                        "Key": {"pk": pk, "sk": 1},
                        "UpdateExpression": "SET g = :g, v = :v",
                        "ExpressionAttributeValues": {":g": "c", ":v": 9},
                    }
                },
                {"Put": {"TableName": table.name, "Item": {"pk": pk, "sk": 3, "g": "a", "r": 3}}},
                {"Put": {"TableName": table.name, "Item": {"pk": f"{pk}n", "sk": 1, "g": "a", "r": 1}}},  # new hash
                {"Delete": {"TableName": table.name, "Key": {"pk": pk, "sk": 2}}},
                {  # ...then this fails: everything above is undone
                    "ConditionCheck": {
                        "TableName": table.name,
                        "Key": {"pk": pk, "sk": 4},
                        "ConditionExpression": "attribute_exists(pk)",
                    }
                },
            ]
        )
    after = sorted(table.query(KeyConditionExpression=Key("pk").eq(pk))["Items"], key=lambda i: i["sk"])
    assert after == before
    assert not table.query(KeyConditionExpression=Key("pk").eq(f"{pk}n"))["Items"]
    gsi = table.query(IndexName="g-r-index", KeyConditionExpression=Key("g").eq("c"))["Items"]
    assert not [i for i in gsi if i["pk"] == pk]
    # a transaction that succeeds is kept
    update = {"TableName": table.name, "Key": {"pk": pk, "sk": 1}, "UpdateExpression": "SET v = :v"}
    client.transact_write_items(TransactItems=[{"Update": {**update, "ExpressionAttributeValues": {":v": 5}}}])
    assert table.get_item(Key={"pk": pk, "sk": 1})["Item"]["v"] == 5


def test_a_transaction_sent_again_with_its_client_token_writes_nothing(table):
    """DynamoDB keeps a transaction's ClientRequestToken 10 minutes: the same request again (botocore's retry after a
    reply lost to a timeout) succeeds without writing; the token with other parameters is refused."""
    moto_speedups.install()
    pk = f"i{uuid.uuid4().hex[:6]}"
    table.put_item(Item={"pk": pk, "sk": 1, "g": "a", "r": 1, "v": 0})
    client = table.meta.client
    bump = {
        "TableName": table.name,
        "Key": {"pk": pk, "sk": 1},
        "UpdateExpression": "SET v = v + :one",
        "ConditionExpression": "v = :zero",
        "ExpressionAttributeValues": {":one": 1, ":zero": 0},
    }
    token = f"token-{pk}"
    client.transact_write_items(TransactItems=[{"Update": bump}], ClientRequestToken=token)
    client.transact_write_items(TransactItems=[{"Update": bump}], ClientRequestToken=token)  # its condition fails now
    assert table.get_item(Key={"pk": pk, "sk": 1})["Item"]["v"] == 1
    with pytest.raises(ClientError, match="IdempotentParameterMismatch"):
        client.transact_write_items(
            TransactItems=[{"Update": {**bump, "ExpressionAttributeValues": {":one": 2, ":zero": 0}}}],
            ClientRequestToken=token,
        )
    with pytest.raises(ClientError, match="TransactionCanceled"):  # a new token is a new request
        client.transact_write_items(TransactItems=[{"Update": bump}], ClientRequestToken=f"{token}-2")


NAMES = st.sampled_from(["status", "flight_id", "seats", "a.b"])
VALUES = st.one_of(st.integers(-5, 5), st.text("xyz", min_size=1, max_size=3))


def _leaf(name: str, kind: str, value) -> Any:
    attr = Attr(name)
    return {
        "eq": lambda: attr.eq(value),
        "ne": lambda: attr.ne(value),
        "lt": lambda: attr.lt(value),
        "between": lambda: attr.between(value, value),
        "in": lambda: attr.is_in([value, value]),
        "exists": attr.exists,
        "absent": attr.not_exists,
        "begins": lambda: attr.begins_with(str(value)),
    }[kind]()


LEAVES = st.builds(
    _leaf, NAMES, st.sampled_from(["eq", "ne", "lt", "between", "in", "exists", "absent", "begins"]), VALUES
)
CONDITIONS = st.recursive(
    LEAVES, lambda inner: st.one_of(st.builds(And, inner, inner), st.builds(Or, inner, inner), st.builds(Not, inner))
)


@settings(max_examples=150, deadline=None)
@given(CONDITIONS, st.data())
def test_a_condition_lexed_once_parses_as_stock_moto_parses_it(condition, data):
    """The lexed tokens are reused by text: the same expression with other names' values parses as stock moto does."""
    from moto.dynamodb.comparisons import get_filter_expression

    built = ConditionExpressionBuilder().build_expression(condition)
    names, values = (
        built.attribute_name_placeholders,
        {k: TypeSerializer().serialize(v) for k, v in built.attribute_value_placeholders.items()},
    )
    moto_speedups.install()
    first = repr(get_filter_expression(built.condition_expression, names, values))
    again = {k: TypeSerializer().serialize(data.draw(VALUES)) for k in values}  # same text, other values
    second = repr(get_filter_expression(built.condition_expression, names, again))
    with moto_speedups.disabled():
        assert first == repr(get_filter_expression(built.condition_expression, names, values))
        assert second == repr(get_filter_expression(built.condition_expression, names, again))


def test_a_sort_key_updated_is_found_at_its_new_place(table):
    """The partition's sorted order (kept for a Query's sort-key condition) follows an update of the sort key."""
    moto_speedups.install()
    table.put_item(Item={"pk": "p-moved", "sk": 99, "g": "moved", "r": 1, "t": _t(1), "v": 1})
    above = Key("g").eq("moved") & Key("r").gte(5)
    assert table.query(IndexName="g-r-index", KeyConditionExpression=above)["Items"] == []
    table.update_item(
        Key={"pk": "p-moved", "sk": 99}, UpdateExpression="SET r = :r", ExpressionAttributeValues={":r": 7}
    )
    assert [i["r"] for i in table.query(IndexName="g-r-index", KeyConditionExpression=above)["Items"]] == [7]
