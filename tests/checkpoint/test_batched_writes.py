"""The saver's puts collected into one request keep the library's rules: a conditional put of an item that is
already there is skipped (the others still written), and what cannot go as one transaction goes one by one."""

from __future__ import annotations

import uuid

import pytest
from botocore.exceptions import ClientError

from skymarshal.checkpoint.batched_writes import MAX_ITEMS, CollectingClient


class Counting:
    def __init__(self, client):
        self.client, self.calls = client, []

    def __getattr__(self, name):
        def call(**params):
            self.calls.append(name)
            return getattr(self.client, name)(**params)

        return call


def _item(pk: str, sk: str = "CHUNK", value: str = "v") -> dict:
    return {"PK": {"S": pk}, "SK": {"S": sk}, "value": {"S": value}}


@pytest.fixture
def collecting(ckpt_aws):
    counting = Counting(ckpt_aws.client("dynamodb"))
    return CollectingClient(counting), counting, ckpt_aws.table_name


def _stored(collecting, table, pk, sk="CHUNK"):
    client, _, _ = collecting
    return client.get_item(TableName=table, Key={"PK": {"S": pk}, "SK": {"S": sk}}).get("Item")


def test_the_puts_of_one_call_are_one_transaction(collecting):
    client, counting, table = collecting
    keys = [f"one-{uuid.uuid4().hex}-{i}" for i in range(5)]
    with client.collected():
        for key in keys:
            assert (
                client.put_item(TableName=table, Item=_item(key), ConditionExpression="attribute_not_exists(PK)") == {}
            )
        assert counting.calls == []  # nothing sent before the call ends
    assert counting.calls == ["transact_write_items"]
    assert all(_stored(collecting, table, key) for key in keys)


def test_an_item_already_there_is_kept_and_the_others_written(collecting):
    client, counting, table = collecting
    there, new = f"there-{uuid.uuid4().hex}", f"new-{uuid.uuid4().hex}"
    client.put_item(TableName=table, Item=_item(there, value="first"))
    with client.collected():
        client.put_item(
            TableName=table, Item=_item(there, value="second"), ConditionExpression="attribute_not_exists(PK)"
        )
        client.put_item(TableName=table, Item=_item(new), ConditionExpression="attribute_not_exists(PK)")
    assert counting.calls == ["put_item", "transact_write_items", "put_item", "put_item"]  # cancelled: one by one
    assert _stored(collecting, table, there)["value"] == {"S": "first"}
    assert _stored(collecting, table, new)


def test_an_unconditional_put_overwrites_as_before(collecting):
    client, _, table = collecting
    key = f"over-{uuid.uuid4().hex}"
    client.put_item(TableName=table, Item=_item(key, value="first"))
    with client.collected():
        client.put_item(TableName=table, Item=_item(key, value="second"))
        client.put_item(TableName=table, Item=_item(key, sk="META", value="meta"))
    assert _stored(collecting, table, key)["value"] == {"S": "second"}


def test_what_one_transaction_cannot_hold_goes_one_by_one(collecting):
    client, counting, table = collecting
    key = f"twice-{uuid.uuid4().hex}"
    with client.collected():  # the same item twice: a transaction would refuse it
        client.put_item(TableName=table, Item=_item(key, value="a"))
        client.put_item(TableName=table, Item=_item(key, value="b"))
    assert counting.calls == ["put_item", "put_item"] and _stored(collecting, table, key)["value"] == {"S": "b"}
    counting.calls.clear()
    with client.collected():
        for i in range(MAX_ITEMS + 1):
            client.put_item(TableName=table, Item=_item(f"many-{key}-{i}"))
    assert counting.calls == ["put_item"] * (MAX_ITEMS + 1)


def test_other_errors_are_raised_and_nothing_is_half_sent(collecting):
    client, counting, table = collecting
    with pytest.raises(ClientError), client.collected():
        client.put_item(TableName=table, Item=_item(f"a-{uuid.uuid4().hex}"))
        client.put_item(TableName="no-such-table", Item=_item("b"))
    with pytest.raises(RuntimeError), client.collected():
        client.put_item(TableName=table, Item=_item(f"c-{uuid.uuid4().hex}"))
        raise RuntimeError("the library failed before it finished")
    assert counting.calls == ["transact_write_items"]  # the failed call sent nothing
