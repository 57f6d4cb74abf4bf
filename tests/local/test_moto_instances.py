"""The emulator's moto frees what the account no longer refers to: a replaced item, a transaction's backup."""

from __future__ import annotations

import gc
import uuid
import weakref

import pytest
from botocore.exceptions import ClientError

from skymarshal.local import moto_instances, moto_speedups
from skymarshal.local.emulator import REGION
from skymarshal.local.seeding import ACCOUNT_ID


@pytest.fixture
def table(account):
    name = f"instances-{uuid.uuid4().hex[:8]}"
    client = account.client("dynamodb")
    client.create_table(
        TableName=name,
        BillingMode="PAY_PER_REQUEST",
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
    )
    yield account.resource().Table(name)
    client.delete_table(TableName=name)


def _stored(table_name: str, pk: str):
    from moto.dynamodb.models import dynamodb_backends
    from moto.dynamodb.models.dynamo_type import DynamoType

    return dynamodb_backends[ACCOUNT_ID][REGION].tables[table_name].items[DynamoType({"S": pk})]


def test_a_replaced_item_is_freed(table):
    moto_speedups.install()
    table.put_item(Item={"pk": "a", "v": 1})
    first = weakref.ref(_stored(table.name, "a"))
    table.put_item(Item={"pk": "a", "v": 2})
    table.update_item(Key={"pk": "a"}, UpdateExpression="SET v = :v", ExpressionAttributeValues={":v": 3})
    gc.collect()
    assert first() is None, "moto still holds the item a put replaced"
    assert moto_instances.tracked() == 0


def test_a_transactions_backup_is_freed_whether_it_commits_or_not(table, monkeypatch):
    """moto deep-copies each table a transaction names as its backup, and a cancelled one puts the copy in the
    table's place: once it returns, the one table object alive is the account's."""
    from moto.dynamodb.models.table import Table

    moto_speedups.install()
    copies: list[weakref.ref] = []
    deepcopy = Table.__deepcopy__

    def spy(self, memo):
        made = deepcopy(self, memo)
        copies.append(weakref.ref(made))
        return made

    monkeypatch.setattr(Table, "__deepcopy__", spy)
    table.put_item(Item={"pk": "a", "v": 1})
    update = {"TableName": table.name, "Key": {"pk": "a"}, "UpdateExpression": "SET v = :v"}
    client = table.meta.client
    client.transact_write_items(TransactItems=[{"Update": {**update, "ExpressionAttributeValues": {":v": 2}}}])
    with pytest.raises(ClientError, match="TransactionCanceled"):
        client.transact_write_items(
            TransactItems=[
                {"Update": {**update, "ExpressionAttributeValues": {":v": 3, ":w": 9}, "ConditionExpression": "v = :w"}}
            ]
        )
    gc.collect()
    assert len(copies) == 2
    from moto.dynamodb.models import dynamodb_backends

    current = dynamodb_backends[ACCOUNT_ID][REGION].tables[table.name]
    alive = [c() for c in copies if c() is not None and c() is not current]
    assert not alive, "a transaction's backup of the table is still alive"
    assert copies[1]() is current  # the cancelled transaction's backup is the table now
