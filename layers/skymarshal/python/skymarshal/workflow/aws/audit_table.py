"""The AuditStore port on the AuditTrail DynamoDB table: a chain's record and its idempotency pointer in one
transaction, the head put only forward, reads by key and by sort-key prefix."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any

from boto3.dynamodb.conditions import Key

from .errors import call

_NEW = "attribute_not_exists(SK)"


class DynamoAuditStore:
    """AuditStore over a boto3 Table (`WorkflowTables.audit_trail`)."""

    def __init__(self, table: Any):
        self.table = table

    def put_new(self, items: Sequence[Mapping[str, Any]]) -> bool:
        puts = [{"Put": {"TableName": self.table.name, "Item": dict(i), "ConditionExpression": _NEW}} for i in items]

        def write() -> bool:
            self.table.meta.client.transact_write_items(TransactItems=puts)
            return True

        return bool(call(write, {"TransactionCanceledException": False}))

    def put_head(self, item: Mapping[str, Any]) -> bool:
        def write() -> bool:
            self.table.put_item(
                Item=dict(item),
                ConditionExpression=f"{_NEW} OR seq < :seq",
                ExpressionAttributeValues={":seq": item["seq"]},
            )
            return True

        return bool(call(write, {"ConditionalCheckFailedException": False}))

    def get(self, pk: str, sk: str, *, consistent: bool = False) -> dict[str, Any] | None:
        item = call(lambda: self.table.get_item(Key={"PK": pk, "SK": sk}, ConsistentRead=consistent).get("Item"))
        return dict(item) if item is not None else None

    def query(self, pk: str, sk_prefix: str, *, newest_first: bool = False, limit: int | None = None) -> list[dict]:
        found: list[dict] = []
        start = None
        condition = Key("PK").eq(pk) & Key("SK").begins_with(sk_prefix)
        while True:
            extra = {**({"Limit": limit} if limit else {}), **({"ExclusiveStartKey": start} if start else {})}
            page = call(
                partial(self.table.query, KeyConditionExpression=condition, ScanIndexForward=not newest_first, **extra)
            )
            found += page.get("Items", [])
            start = page.get("LastEvaluatedKey")
            if not start or (limit and len(found) >= limit):
                return found[:limit] if limit else found
