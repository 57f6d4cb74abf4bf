"""The AuditStore port on the AuditTrail DynamoDB table: a chain's record and its idempotency pointer in one
transaction, the head put only forward, reads by key and by sort-key prefix."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from boto3.dynamodb.conditions import Key
from botocore.exceptions import BotoCoreError, ClientError

from .errors import service_error


class DynamoAuditStore:
    """AuditStore over a boto3 Table (`WorkflowTables.audit_trail`)."""

    def __init__(self, table: Any):
        self.table = table

    def put_new(self, items: Sequence[Mapping[str, Any]]) -> bool:
        puts = [
            {"Put": {"TableName": self.table.name, "Item": dict(i), "ConditionExpression": "attribute_not_exists(SK)"}}
            for i in items
        ]
        try:
            self.table.meta.client.transact_write_items(TransactItems=puts)
        except ClientError as exc:
            if exc.response["Error"]["Code"] == "TransactionCanceledException":
                return False
            raise service_error(exc) from exc
        except BotoCoreError as exc:
            raise service_error(exc) from exc
        return True

    def put_head(self, item: Mapping[str, Any]) -> bool:
        try:
            self.table.put_item(
                Item=dict(item),
                ConditionExpression="attribute_not_exists(SK) OR seq < :seq",
                ExpressionAttributeValues={":seq": item["seq"]},
            )
        except ClientError as exc:
            if exc.response["Error"]["Code"] == "ConditionalCheckFailedException":
                return False
            raise service_error(exc) from exc
        except BotoCoreError as exc:
            raise service_error(exc) from exc
        return True

    def get(self, pk: str, sk: str, *, consistent: bool = False) -> dict[str, Any] | None:
        try:
            item = self.table.get_item(Key={"PK": pk, "SK": sk}, ConsistentRead=consistent).get("Item")
        except (ClientError, BotoCoreError) as exc:
            raise service_error(exc) from exc
        return dict(item) if item is not None else None

    def query(self, pk: str, sk_prefix: str, *, newest_first: bool = False, limit: int | None = None) -> list[dict]:
        found: list[dict] = []
        start = None
        condition = Key("PK").eq(pk) & Key("SK").begins_with(sk_prefix)
        try:
            while True:
                page = self.table.query(
                    KeyConditionExpression=condition,
                    ScanIndexForward=not newest_first,
                    **({"Limit": limit} if limit else {}),
                    **({"ExclusiveStartKey": start} if start else {}),
                )
                found += page.get("Items", [])
                start = page.get("LastEvaluatedKey")
                if not start or (limit and len(found) >= limit):
                    return found[:limit] if limit else found
        except (ClientError, BotoCoreError) as exc:
            raise service_error(exc) from exc
