"""moto_query answers a Query exactly as stock moto does: generated tables and Queries, each paged to its end.

Each example makes a table (S or N keys, with or without a sort key, GSIs on S and N keys with and without sort
keys and of each projection, an LSI), writes items (sparse index keys, numbers equal in value but not in text,
items of up to 390 KB so pages stop at 1 MB) and interleaves writes with Queries (every key condition, both
directions, Limit, filters, projections, Select COUNT, ExclusiveStartKeys from the pages and from any written
item). Every page — items, Count, ScannedCount, LastEvaluatedKey, or the error — must be stock moto's, and every
Query of a shape moto_query takes must have been answered by it.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from botocore.exceptions import ClientError
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from skymarshal.local import moto_gsi_maps, moto_query, moto_speedups

S_VALUES = ["a", "ab", "abc", "b", "B", "é", "a é", "z"]  # prefixes of each other; code points above ASCII
N_VALUES = ["0", "-0", "1", "1.0", "2.5", "10", "1E+1", "-3"]  # equal numbers in other texts
PAYLOADS = [0, 0, 0, 12, 3_000, 150_000, 390_000]  # characters: stored as text, compressed; pages reach 1 MB
INDEX_TYPES = {"g": "S", "h": "N", "r": "N", "t": "S", "l": "N"}
GROUPS = ["x", "y", "xy", "é"]  # the values of the GSI partition key g (h's are numbers: 0, -0, 1)
MAX_PAGES = 80


def _value(kind: str, i: int) -> str:
    """The i-th value of a type: the pool's, then others after them (a table's sort keys go up to 40)."""
    pool = S_VALUES if kind == "S" else N_VALUES
    if i < len(pool):
        return pool[i]
    return f"{pool[i % len(pool)]}{i}" if kind == "S" else f"{i * 7 % 23 - 11}{'.5' if i % 3 else ''}"


@st.composite
def schemas(draw) -> dict[str, Any]:
    """A table: its key types, GSIs (partition key, sort key or none, projection) and perhaps an LSI."""
    pk, sk = draw(st.sampled_from("SN")), draw(st.sampled_from(["S", "N", None]))
    sorts = [None, "r", "t"] + (["sk"] if sk else [])
    gsis = draw(
        st.lists(
            st.tuples(
                st.sampled_from(["g", "h", "pk"]),
                st.sampled_from(sorts),
                st.sampled_from(["ALL", "KEYS_ONLY", "INCLUDE"]),
            ),
            max_size=3,
            unique_by=lambda index: index[:2],
        )
    )
    return {"pk": pk, "sk": sk, "gsis": gsis, "lsi": bool(sk) and draw(st.booleans())}


def _types(schema: dict[str, Any]) -> dict[str, str]:
    return {**INDEX_TYPES, "pk": schema["pk"], **({"sk": schema["sk"]} if schema["sk"] else {})}


def _create(client, schema: dict[str, Any]) -> str:
    name = f"query-{uuid.uuid4().hex[:8]}"
    key = [{"AttributeName": "pk", "KeyType": "HASH"}]
    if schema["sk"]:
        key.append({"AttributeName": "sk", "KeyType": "RANGE"})
    used = {"pk", "sk"} if schema["sk"] else {"pk"}
    gsis = []
    for hash_, sort, projection in schema["gsis"]:
        schema_ = [{"AttributeName": hash_, "KeyType": "HASH"}]
        if sort:
            schema_.append({"AttributeName": sort, "KeyType": "RANGE"})
        used |= {hash_, sort} - {None}
        kept = {"ProjectionType": projection, **({"NonKeyAttributes": ["v"]} if projection == "INCLUDE" else {})}
        gsis.append({"IndexName": _index(hash_, sort), "KeySchema": schema_, "Projection": kept})
    extra: dict[str, Any] = {"GlobalSecondaryIndexes": gsis} if gsis else {}
    if schema["lsi"]:
        used.add("l")
        lsi = [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "l", "KeyType": "RANGE"}]
        extra["LocalSecondaryIndexes"] = [
            {"IndexName": "lsi", "KeySchema": lsi, "Projection": {"ProjectionType": "ALL"}}
        ]
    types = _types(schema)
    client.create_table(
        TableName=name,
        BillingMode="PAY_PER_REQUEST",
        KeySchema=key,
        AttributeDefinitions=[{"AttributeName": a, "AttributeType": types[a]} for a in sorted(used)],
        **extra,
    )
    return name


def _index(hash_: str, sort: str | None) -> str:
    return f"{hash_}-{sort or 'none'}"


def _indexes(schema: dict[str, Any]) -> list[tuple[str, str, str | None]]:
    """(name, partition key, sort key) of the table's indexes."""
    found = [(_index(h, s), h, s) for h, s, _ in schema["gsis"]]
    return found + ([("lsi", "pk", "l")] if schema["lsi"] else [])


ITEMS = st.fixed_dictionaries(
    {
        "pk": st.integers(0, 2),  # few partitions, of several items each
        "sk": st.integers(0, 7),
        # a quarter of the items lack each index key: sparse indexes
        **{a: st.sampled_from([None, 0, 1, 2] if a in "gh" else [None, 0, 1, 2, 3, 4, 5, 6, 7, 0, 4]) for a in "ghrtl"},
        "v": st.one_of(st.none(), st.integers(-3, 3), st.integers(-3, 3)),
        "payload": st.sampled_from(PAYLOADS),
    }
)


def _item(schema: dict[str, Any], fields: dict[str, Any]) -> dict[str, Any]:
    """The item's DynamoDB-JSON: each attribute's value drawn from its type's pool (None: left out, a sparse index)."""
    types = _types(schema)
    item: dict[str, Any] = {}
    for attr, index in fields.items():
        if attr in ("v", "payload") or index is None or attr not in types:
            continue
        item[attr] = {types[attr]: GROUPS[index % len(GROUPS)] if attr == "g" else _value(types[attr], index)}
    if fields["v"] is not None:
        item["v"] = {"N": str(fields["v"])}
    if fields["payload"]:
        item["p"] = {"S": ("é" if fields["payload"] < 100 else "x") * fields["payload"]}
    return item


CONDITIONS = st.sampled_from([None, "=", "<", "<=", ">", ">=", "BETWEEN", "begins_with"])
QUERIES = st.fixed_dictionaries(
    {
        "index": st.integers(-1, 3),  # -1: the table itself
        "hash": st.integers(0, 30),  # the partition of a written item (a value from the pool when none has the key)
        "condition": CONDITIONS,
        "bounds": st.tuples(st.integers(0, 12), st.integers(0, 12)),
        "forward": st.booleans(),
        "limit": st.sampled_from([None, None, 1, 2, 3]),
        "filter": st.sampled_from([None, None, None, None, "attribute_exists(v)", "v < :f", "attribute_not_exists(g)"]),
        "output": st.sampled_from([None, None, None, "pk, v", "#g, p", "COUNT"]),  # a ProjectionExpression, or Select
        "consistent": st.sampled_from([False, False, False, False, True]),
        "start": st.one_of(st.none(), st.none(), st.integers(0, 40)),  # a made-up ExclusiveStartKey to begin with
    }
)


def _request(table: str, schema: dict[str, Any], query: dict[str, Any], items: list[dict]) -> dict[str, Any]:
    """The Query's parameters, as a low-level client takes them (numbers in the texts drawn)."""
    indexes = _indexes(schema)
    types = _types(schema)
    chosen = indexes[query["index"] % len(indexes)] if query["index"] >= 0 and indexes else None
    hash_, sort = (chosen[1], chosen[2]) if chosen else ("pk", schema["sk"] and "sk")
    made_up = GROUPS[query["hash"] % len(GROUPS)] if hash_ == "g" else _value(types[hash_], query["hash"] % 8)
    holding = [item[hash_] for item in items if hash_ in item] or [{types[hash_]: made_up}]
    names, values = {"#h": hash_}, {":h": holding[query["hash"] % len(holding)]}
    condition = "#h = :h"
    if sort and query["condition"]:
        low, high = (_value(types[sort], i) for i in query["bounds"])
        names["#s"], values[":a"] = sort, {types[sort]: low}
        if query["condition"] == "BETWEEN":
            condition += " AND #s BETWEEN :a AND :b"
            values[":b"] = {types[sort]: high}
        elif query["condition"] == "begins_with":
            condition += " AND begins_with(#s, :a)"
        else:
            condition += f" AND #s {query['condition']} :a"
    request: dict[str, Any] = {
        "TableName": table,
        "KeyConditionExpression": condition,
        "ScanIndexForward": query["forward"],
    }
    if chosen:
        request["IndexName"] = chosen[0]
    for option, parameter in (("limit", "Limit"), ("consistent", "ConsistentRead")):
        if query[option]:
            request[parameter] = query[option]
    if query["output"] == "COUNT":
        request["Select"] = "COUNT"
    elif query["output"]:
        request["ProjectionExpression"] = query["output"]
        if "#g" in query["output"]:
            names["#g"] = "g"
    if query["filter"]:
        request["FilterExpression"] = query["filter"]
        if ":f" in query["filter"]:
            values[":f"] = {"N": "1"}
    key = ["pk", "sk"][: 2 if schema["sk"] else 1] + ([chosen[1], chosen[2]] if chosen else [])
    complete = [item for item in items if all(a in item for a in key if a)]  # DynamoDB refuses a key without them
    if query["start"] is not None and complete:
        started = complete[query["start"] % len(complete)]
        request["ExclusiveStartKey"] = {a: started[a] for a in key if a}
    request["ExpressionAttributeNames"], request["ExpressionAttributeValues"] = names, values
    return request


def _walk(client, request: dict[str, Any]) -> list[Any]:
    """Every page of the Query (without its metadata), or the error it ended with."""
    request, pages = dict(request), []
    for _ in range(MAX_PAGES):
        try:
            page = client.query(**request)
        except ClientError as error:
            pages.append(("error", error.response["Error"]))
            break
        except Exception as error:  # moto's own failure (a made-up start key it cannot compare), raised in-process
            pages.append(("raised", type(error).__name__, str(error)))
            break
        page.pop("ResponseMetadata", None)
        pages.append(page)
        if "LastEvaluatedKey" not in page:
            break
        request["ExclusiveStartKey"] = page["LastEvaluatedKey"]
    return pages


def _taken_here(request: dict[str, Any], schema: dict[str, Any], pages: list[Any]) -> bool:
    """Whether moto_query must have answered every page: a shape it takes (begins_with on a number, a consistent
    read of a GSI and errors are moto's own)."""
    condition = request["KeyConditionExpression"]
    sort = request["ExpressionAttributeNames"].get("#s")
    index = request.get("IndexName")
    return not (
        ("begins_with" in condition and _types(schema)[sort] == "N")
        or (request.get("ConsistentRead") and index not in (None, "lsi"))
        or any(isinstance(page, tuple) for page in pages)
    )


OPERATIONS = st.lists(
    st.one_of(
        st.tuples(st.just("query"), QUERIES),
        st.tuples(st.just("query"), QUERIES),
        st.tuples(st.just("put"), ITEMS),  # between Queries: a partition kept sorted must follow each write
        st.tuples(st.just("delete"), ITEMS),
    ),
    min_size=1,
    max_size=14,
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(schema=schemas(), items=st.lists(ITEMS, min_size=4, max_size=40), operations=OPERATIONS)
def test_every_page_is_stock_motos(account, schema, items, operations):
    moto_speedups.install()
    client = account.client("dynamodb")
    table = _create(client, schema)
    written = [_item(schema, {**fields, "sk": i}) for i, fields in enumerate(items)]  # each its own key
    try:
        for item in written:
            client.put_item(TableName=table, Item=item)
        for kind, fields in operations:
            if kind == "put":
                written.append(_item(schema, fields))
                client.put_item(TableName=table, Item=written[-1])
            elif kind == "delete":
                key = _item(schema, fields)
                client.delete_item(TableName=table, Key={a: key[a] for a in ("pk", "sk") if a in key})
            else:
                pages, answered = _compare(client, _request(table, schema, fields, written), schema)
                scanned = sum(page.get("ScannedCount", 0) for page in pages if isinstance(page, dict))
                event(f"pages: {min(len(pages), 3)}, items met: {min(scanned, 3)}")  # --hypothesis-show-statistics
                event("moto_query answered" if answered else "moto answered")
    finally:
        client.delete_table(TableName=table)


def _compare(client, request: dict[str, Any], schema: dict[str, Any]) -> tuple[list[Any], int]:
    """The Query's pages, the same with moto_query and without it, and how many moto_query answered."""
    before = moto_query.STATS["answered"]
    fast = _walk(client, request)
    answered = moto_query.STATS["answered"] - before
    with moto_speedups.disabled():
        stock = _walk(client, request)
    assert fast == stock
    if _taken_here(request, schema, fast):
        assert answered == len(fast), "a Query of a shape moto_query takes went to moto"
    return fast, answered


def test_a_gsi_partition_holds_the_numbers_moto_finds_equal():
    """moto compares numbers as Decimals: 1.0 is 1 and -0 is 0, but no digit of a long number is rounded away."""
    key = moto_gsi_maps.value_key
    assert key("N", "1") == key("N", "1.0") == key("N", "1E+0") == key("N", "0.1e1")
    assert key("N", "-0") == key("N", "0") == key("N", "0.000")
    assert key("N", "10") == key("N", "1E+1") != key("N", "1")
    assert key("N", "1.0000000000000000000000000000001") != key("N", "1")  # past Decimal's 28 digits
    assert key("N", "-2.50") == key("N", "-2.5") != key("N", "2.5")
    assert key("S", "1") != key("N", "1") and key("S", "1.0") != key("S", "1")


def test_the_page_size_is_motos():
    from moto.dynamodb.models.table import RESULT_SIZE_LIMIT

    assert moto_query.RESULT_SIZE_LIMIT == RESULT_SIZE_LIMIT


@pytest.mark.parametrize("forward", [True, False])
def test_a_page_stops_at_one_megabyte_where_moto_stops_it(account, forward):
    """Big items (390 KB) among small ones: a page stops where the next item would take it over 1 MB — also when
    that item does not meet the key condition (moto looks at its size first): then the next page is empty."""
    moto_speedups.install()
    client = account.client("dynamodb")
    schema = {"pk": "S", "sk": "N", "gsis": [("g", "r", "ALL")], "lsi": False}
    table = _create(client, schema)
    try:
        for sk, payload in enumerate([12, 390_000, 390_000, 12, 390_000, 0, 250_000, 390_000]):
            item = {
                "pk": {"S": "a"},
                "sk": {"N": str(sk)},
                "g": {"S": "x"},
                "r": {"N": str(sk)},
                "p": {"S": "x" * payload},
            }
            client.put_item(TableName=table, Item=item)
        counts = {}
        for condition, values in ((None, ()), ("<", ("4",)), (">", ("4",)), ("BETWEEN", ("3", "5")), ("<=", ("3",))):
            for index, (hash_, sort) in {None: ("pk", "sk"), "g-r": ("g", "r")}.items():
                names, bound = {"#h": hash_}, {":h": {"S": "a" if hash_ == "pk" else "x"}}
                expression = "#h = :h"
                if condition:
                    names["#s"] = sort
                    bound.update({f":v{i}": {"N": v} for i, v in enumerate(values)})
                    expression += f" AND #s {condition} :v0" + (" AND :v1" if condition == "BETWEEN" else "")
                request = {"TableName": table, "KeyConditionExpression": expression, "ScanIndexForward": forward}
                request.update(ExpressionAttributeNames=names, ExpressionAttributeValues=bound)
                if index:
                    request["IndexName"] = index
                pages, _ = _compare(client, request, schema)
                counts[condition, index] = [page["Count"] for page in pages]
        # the first item after those meeting the condition (item 4, of 390 KB, either way) stops the page
        for index in (None, "g-r"):
            assert counts["<", index] == ([4, 0] if forward else [4])
            assert counts[">", index] == ([3] if forward else [3, 0])
    finally:
        client.delete_table(TableName=table)
