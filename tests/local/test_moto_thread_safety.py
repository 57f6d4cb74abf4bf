"""The emulator's DynamoDB under concurrency: reads racing transactions, with the speed-ups and compact items.

Before the lock (moto_speedups.LOCK), moto iterated a table in its transaction code while another thread's
Query filled the speed-up caches or a put added an item: `RuntimeError: dictionary changed size during
iteration`, and runs failed with TRANSACTION_ERROR. Each thread here checks what it reads.
"""

from __future__ import annotations

import threading

import boto3
import pytest
from boto3.dynamodb.conditions import Key
from moto import mock_aws

from skymarshal.local import moto_compact, moto_speedups

THREADS, ROUNDS = 4, 30


@pytest.fixture
def table():
    moto_speedups.install()
    with mock_aws():
        client = boto3.client("dynamodb", region_name="us-east-1")
        client.create_table(
            TableName="race",
            BillingMode="PAY_PER_REQUEST",
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
            AttributeDefinitions=[{"AttributeName": n, "AttributeType": "S"} for n in ("pk", "sk", "g")],
            GlobalSecondaryIndexes=[
                {
                    "IndexName": "g-index",
                    "Projection": {"ProjectionType": "ALL"},
                    "KeySchema": [
                        {"AttributeName": "g", "KeyType": "HASH"},
                        {"AttributeName": "sk", "KeyType": "RANGE"},
                    ],
                }
            ],
        )
        yield client
        # Under a worker's session-wide mock (the seeded account) this mock shares its backend: leave no table.
        client.delete_table(TableName="race")


def _writer(client, n: int, errors: list) -> None:
    try:
        for i in range(ROUNDS):
            client.transact_write_items(
                TransactItems=[
                    {
                        "Put": {
                            "TableName": "race",
                            "Item": {
                                "pk": {"S": f"w{n}"},
                                "sk": {"S": f"{i:04d}"},
                                "g": {"S": "hot"},
                                "v": {"N": str(i)},
                            },
                        }
                    },
                    {
                        "Update": {
                            "TableName": "race",
                            "Key": {"pk": {"S": "counter"}, "sk": {"S": f"{n}"}},
                            "UpdateExpression": "ADD v :one SET g = :g",
                            "ExpressionAttributeValues": {":one": {"N": "1"}, ":g": {"S": "hot"}},
                        }
                    },
                ]
            )
    except Exception as exc:  # a failure in a thread is the test's finding: record it
        errors.append(f"writer {n}: {type(exc).__name__}: {exc}")


def _reader(errors: list, stop: threading.Event) -> None:
    resource = boto3.resource("dynamodb", region_name="us-east-1").Table("race")
    try:
        while not stop.is_set():
            hot = resource.query(IndexName="g-index", KeyConditionExpression=Key("g").eq("hot"))["Items"]
            assert all(item["g"] == "hot" for item in hot)
            resource.query(KeyConditionExpression=Key("pk").eq("counter"))
            resource.scan(Limit=50)
    except Exception as exc:
        errors.append(f"reader: {type(exc).__name__}: {exc}")


def test_reads_race_transactions_without_errors_or_lost_writes(table):
    errors: list[str] = []
    stop = threading.Event()
    readers = [threading.Thread(target=_reader, args=(errors, stop)) for _ in range(THREADS)]
    writers = [threading.Thread(target=_writer, args=(table, n, errors)) for n in range(THREADS)]
    for thread in readers + writers:
        thread.start()
    for thread in writers:
        thread.join()
    stop.set()
    for thread in readers:
        thread.join()
    assert errors == []
    counters = table.query(
        TableName="race", KeyConditionExpression="pk = :c", ExpressionAttributeValues={":c": {"S": "counter"}}
    )["Items"]
    assert sorted(int(c["v"]["N"]) for c in counters) == [ROUNDS] * THREADS  # no increment lost
    written = table.query(
        TableName="race",
        IndexName="g-index",
        KeyConditionExpression="g = :g",
        ExpressionAttributeValues={":g": {"S": "hot"}},
    )["Count"]
    assert written == THREADS * ROUNDS + THREADS


def test_items_are_stored_compactly_and_decoded_only_during_a_request(table):
    table.put_item(TableName="race", Item={"pk": {"S": "a"}, "sk": {"S": "1"}, "m": {"M": {"x": {"L": [{"N": "1"}]}}}})
    table.update_item(
        TableName="race",
        Key={"pk": {"S": "a"}, "sk": {"S": "1"}},
        UpdateExpression="SET m.x[0] = :two",
        ExpressionAttributeValues={":two": {"N": "2"}},
    )
    from moto.dynamodb.models import dynamodb_backends

    stored = next(iter(dynamodb_backends["123456789012"]["us-east-1"].tables["race"].items.values()))
    item = next(iter(stored.values()))
    assert "_sm_attrs" not in item.__dict__ and '"N":"2"' in item.__dict__["_sm_raw"]  # the update was re-encoded
    got = table.get_item(TableName="race", Key={"pk": {"S": "a"}, "sk": {"S": "1"}})["Item"]
    assert got["m"] == {"M": {"x": {"L": [{"N": "2"}]}}}
    assert not moto_compact._hot


def test_a_long_item_is_kept_compressed_and_reads_back_whole(table):
    """A checkpoint-sized item (100 KB of repetitive JSON) is kept as compressed bytes, a short one as its string;
    reads, queries through the index and an update see the item as written."""
    blob = "checkpoint " * 10_000
    table.put_item(TableName="race", Item={"pk": {"S": "big"}, "sk": {"S": "1"}, "g": {"S": "z"}, "b": {"S": blob}})
    table.put_item(TableName="race", Item={"pk": {"S": "small"}, "sk": {"S": "1"}, "v": {"N": "1"}})
    from moto.dynamodb.models import dynamodb_backends

    items = dynamodb_backends["123456789012"]["us-east-1"].tables["race"].items
    big = next(iter(items[next(k for k in items if k.value == "big")].values()))
    small = next(iter(items[next(k for k in items if k.value == "small")].values()))
    assert isinstance(big.__dict__["_sm_raw"], bytes) and len(big.__dict__["_sm_raw"]) < len(blob) // 20
    assert isinstance(small.__dict__["_sm_raw"], str)
    assert table.get_item(TableName="race", Key={"pk": {"S": "big"}, "sk": {"S": "1"}})["Item"]["b"]["S"] == blob
    found = table.query(
        TableName="race",
        IndexName="g-index",
        KeyConditionExpression="g = :g",
        ExpressionAttributeValues={":g": {"S": "z"}},
    )["Items"]
    assert [i["b"]["S"] for i in found] == [blob]
    table.update_item(
        TableName="race",
        Key={"pk": {"S": "big"}, "sk": {"S": "1"}},
        UpdateExpression="SET v = :v",
        ExpressionAttributeValues={":v": {"N": "7"}},
    )
    assert isinstance(big.__dict__["_sm_raw"], bytes) and "_sm_attrs" not in big.__dict__
    got = table.get_item(TableName="race", Key={"pk": {"S": "big"}, "sk": {"S": "1"}})["Item"]
    assert got["v"] == {"N": "7"} and got["b"]["S"] == blob
    assert not moto_compact._hot


def test_a_binary_value_written_in_a_transaction_is_stored_as_text_and_reads_back_as_bytes(table):
    """TransactWriteItems hands moto decoded bytes (the checkpoint saver's payloads): kept as base64 text, not
    left decoded for good."""
    payload = bytes(range(256)) * 4
    table.transact_write_items(
        TransactItems=[
            {"Put": {"TableName": "race", "Item": {"pk": {"S": "bin"}, "sk": {"S": "1"}, "p": {"B": payload}}}},
            {
                "Put": {
                    "TableName": "race",
                    "Item": {"pk": {"S": "bin"}, "sk": {"S": "2"}, "s": {"BS": [b"a", b"\x00"]}},
                }
            },
        ]
    )
    from moto.dynamodb.models import dynamodb_backends

    items = dynamodb_backends["123456789012"]["us-east-1"].tables["race"].items
    stored = list(items[next(k for k in items if k.value == "bin")].values())
    assert all("_sm_attrs" not in item.__dict__ and "_sm_pinned" not in item.__dict__ for item in stored)
    got = table.get_item(TableName="race", Key={"pk": {"S": "bin"}, "sk": {"S": "1"}})["Item"]
    assert got["p"]["B"] == payload
    got = table.get_item(TableName="race", Key={"pk": {"S": "bin"}, "sk": {"S": "2"}})["Item"]
    assert sorted(got["s"]["BS"]) == [b"\x00", b"a"]
    assert not moto_compact._hot
