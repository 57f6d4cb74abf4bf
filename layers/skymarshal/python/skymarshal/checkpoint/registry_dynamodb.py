"""The thread registry on the Checkpoints table (DynamoDB), and the registry chosen from the environment.

Item layout and rules: see threads.py. Reads are GetItem or Query, never Scan.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Callable, Iterator, Mapping
from datetime import datetime
from typing import Any

import boto3
from botocore.exceptions import ClientError

from ..data import aws
from ..data.schema import THREAD_STATUS_INDEX
from .config import CHECKPOINT_TTL_DAYS, CheckpointSettings
from .registry_memory import InMemoryThreadRegistry
from .threads import (
    EVENT_PREFIX,
    FINAL_STATUSES,
    META_SK,
    THREAD_PREFIX,
    THREAD_STATUSES,
    BaseThreadRegistry,
    ThreadClosed,
    ThreadEvent,
    ThreadInfo,
    UnknownThread,
    _since,
    _utcnow,
)

logger = logging.getLogger(__name__)


def _s(value: str) -> dict[str, str]:
    return {"S": value}


def _n(value: int | float) -> dict[str, str]:
    return {"N": repr(value) if isinstance(value, float) else str(value)}


class ThreadRegistry(BaseThreadRegistry):
    """The registry on the Checkpoints table (physical name `table_name`)."""

    def __init__(
        self,
        table_name: str,
        *,
        client: Any = None,
        session: boto3.Session | None = None,
        region_name: str | None = None,
        endpoint_url: str | None = None,
        ttl_days: int = CHECKPOINT_TTL_DAYS,
        clock: Callable[[], datetime] = _utcnow,
    ):
        super().__init__(ttl_days=ttl_days, clock=clock)
        self.table_name = table_name
        if client is None:
            client = (session or boto3.Session()).client(
                "dynamodb",
                region_name=region_name,
                endpoint_url=endpoint_url,
                config=aws.config(),  # the library's one retry configuration (data/aws.py)
            )
        self.client = client

    @staticmethod
    def _pk(thread_id: str) -> dict[str, str]:
        return _s(f"{THREAD_PREFIX}{thread_id}")

    @staticmethod
    def _info(item: Mapping[str, Any]) -> ThreadInfo:
        return ThreadInfo(
            thread_id=item["thread_id"]["S"],
            execution_id=item["execution_id"]["S"],
            agent=item["agent"]["S"],
            phase=item["phase"]["S"],
            status=item["thread_status"]["S"],
            created_at=item["created_at"]["S"],
            updated_at=item["updated_at"]["S"],
            status_changed_at=item["status_changed_at"]["S"],
            status_actor=item["status_actor"]["S"] if "status_actor" in item else None,
            status_detail=json.loads(item["status_detail"]["S"]) if "status_detail" in item else {},
            event_count=int(item["event_seq"]["N"]) if "event_seq" in item else 0,
            ttl=int(item["ttl"]["N"]),
        )

    @staticmethod
    def _event(item: Mapping[str, Any]) -> ThreadEvent:
        return ThreadEvent(
            thread_id=item["thread_id"]["S"],
            execution_id=item["execution_id"]["S"],
            agent=item["agent"]["S"],
            phase=item["phase"]["S"],
            event=item["event"]["S"],
            timestamp=item["timestamp"]["S"],
            seq=int(item["seq"]["N"]),
            confidence=float(item["confidence"]["N"]) if "confidence" in item else None,
            detail=json.loads(item["detail"]["S"]),
            ttl=int(item["ttl"]["N"]),
        )

    def get(self, thread_id: str) -> ThreadInfo | None:
        response = self.client.get_item(
            TableName=self.table_name, ConsistentRead=True, Key={"PK": self._pk(thread_id), "SK": _s(META_SK)}
        )
        item = response.get("Item")
        return self._info(item) if item else None

    def _create(self, info: ThreadInfo) -> bool:
        item = {
            "PK": self._pk(info.thread_id),
            "SK": _s(META_SK),
            "thread_id": _s(info.thread_id),
            "execution_id": _s(info.execution_id),
            "agent": _s(info.agent),
            "phase": _s(info.phase),
            "thread_status": _s(info.status),
            "created_at": _s(info.created_at),
            "updated_at": _s(info.updated_at),
            "status_changed_at": _s(info.status_changed_at),
            "event_seq": _n(0),
            "ttl": _n(info.ttl),
        }
        try:
            self.client.put_item(TableName=self.table_name, Item=item, ConditionExpression="attribute_not_exists(PK)")
        except ClientError as err:
            if err.response["Error"]["Code"] == "ConditionalCheckFailedException":
                return False
            raise
        return True

    def _change_status(self, thread_id: str, expected: str, info: ThreadInfo) -> bool:
        sets = [
            "thread_status = :new",
            "updated_at = :now",
            "status_changed_at = :now",
            "#ttl = :ttl",
            "status_detail = :detail",
        ]
        values = {
            ":new": _s(info.status),
            ":now": _s(info.updated_at),
            ":ttl": _n(info.ttl),
            ":detail": _s(json.dumps(info.status_detail, sort_keys=True)),
            ":expected": _s(expected),
        }
        if info.status_actor is not None:
            sets.append("status_actor = :actor")
            values[":actor"] = _s(info.status_actor)
        expression = "SET " + ", ".join(sets) + ("" if info.status_actor is not None else " REMOVE status_actor")
        try:
            self.client.update_item(
                TableName=self.table_name,
                Key={"PK": self._pk(thread_id), "SK": _s(META_SK)},
                UpdateExpression=expression,
                ConditionExpression="thread_status = :expected",
                ExpressionAttributeNames={"#ttl": "ttl"},
                ExpressionAttributeValues=values,
            )
        except ClientError as err:
            if err.response["Error"]["Code"] == "ConditionalCheckFailedException":
                return False
            raise
        return True

    def _append(
        self, thread_id: str, event: str, now: str, ttl: int, confidence: float | None, detail: str
    ) -> ThreadEvent:
        final = {f":final{i}": _s(status) for i, status in enumerate(sorted(FINAL_STATUSES))}
        try:
            response = self.client.update_item(
                TableName=self.table_name,
                Key={"PK": self._pk(thread_id), "SK": _s(META_SK)},
                UpdateExpression="SET updated_at = :now, #ttl = :ttl ADD event_seq :one",
                ConditionExpression=f"attribute_exists(PK) AND NOT (thread_status IN ({', '.join(final)}))",
                ExpressionAttributeNames={"#ttl": "ttl"},
                ExpressionAttributeValues={":now": _s(now), ":ttl": _n(ttl), ":one": _n(1), **final},
                ReturnValues="ALL_NEW",
            )
        except ClientError as err:
            if err.response["Error"]["Code"] != "ConditionalCheckFailedException":
                raise
            current = self.get(thread_id)
            if current is None:
                raise UnknownThread(thread_id) from None
            raise ThreadClosed(thread_id, current.status) from None
        meta = self._info(response["Attributes"])
        recorded = ThreadEvent(
            thread_id,
            meta.execution_id,
            meta.agent,
            meta.phase,
            event,
            now,
            meta.event_count,
            confidence,
            json.loads(detail),
            ttl,
        )
        item = {
            "PK": self._pk(thread_id),
            "SK": _s(f"{EVENT_PREFIX}{now}#{recorded.seq:08d}"),
            "thread_id": _s(thread_id),
            "execution_id": _s(meta.execution_id),
            "agent": _s(meta.agent),
            "phase": _s(meta.phase),
            "event": _s(event),
            "timestamp": _s(now),
            "seq": _n(recorded.seq),
            "detail": _s(detail),
            "ttl": _n(ttl),
        }
        if confidence is not None:
            item["confidence"] = _n(confidence)
        self.client.put_item(TableName=self.table_name, Item=item)
        return recorded

    def _query(self, **params: Any) -> Iterator[dict[str, Any]]:
        params = {"TableName": self.table_name, **params}
        while True:
            response = self.client.query(**params)
            yield from response.get("Items", [])
            if "LastEvaluatedKey" not in response:
                return
            params["ExclusiveStartKey"] = response["LastEvaluatedKey"]

    def events(self, thread_id: str) -> list[ThreadEvent]:
        items = self._query(
            KeyConditionExpression="PK = :pk AND begins_with(SK, :events)",
            ExpressionAttributeValues={":pk": self._pk(thread_id), ":events": _s(EVENT_PREFIX)},
            ScanIndexForward=True,
            ConsistentRead=True,
        )
        return [self._event(item) for item in items]

    def threads_by_status(self, status: str, since: datetime | str | None = None) -> list[ThreadInfo]:
        if status not in THREAD_STATUSES:
            raise ValueError(f"status {status!r} is not one of {', '.join(THREAD_STATUSES)}")
        condition, values = "thread_status = :status", {":status": _s(status)}
        floor = _since(since)
        if floor is not None:
            condition += " AND updated_at >= :since"
            values[":since"] = _s(floor)
        items = self._query(
            IndexName=THREAD_STATUS_INDEX,
            KeyConditionExpression=condition,
            ExpressionAttributeValues=values,
            ScanIndexForward=True,
        )
        return [self._info(item) for item in items]


def thread_registry_from_env(
    env: Mapping[str, str] = os.environ, *, session: boto3.Session | None = None
) -> BaseThreadRegistry:
    """ThreadRegistry on the Checkpoints table for backend `dynamodb`, else InMemoryThreadRegistry.

    Backend `none` also gets the in-memory registry, so callers never need to check for None.
    """
    settings = CheckpointSettings.from_env(env)
    if settings.backend == "dynamodb":
        registry: BaseThreadRegistry = ThreadRegistry(
            settings.table_name,
            session=session,
            region_name=settings.region_name,
            endpoint_url=settings.dynamodb_endpoint_url,
            ttl_days=settings.ttl_days,
        )
        description = f"ThreadRegistry table={settings.table_name}"
    else:
        registry = InMemoryThreadRegistry(ttl_days=settings.ttl_days)
        description = "InMemoryThreadRegistry"
    logger.info(
        "thread registry backend: %s (selected by %s)",
        description,
        settings.selected_by,
        extra={"checkpoint_backend": settings.backend},
    )
    return registry
