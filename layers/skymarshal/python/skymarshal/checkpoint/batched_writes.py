"""DynamoDBSaver with each `put` and `put_writes` sent as one request instead of one PutItem per item.

langgraph-checkpoint-aws 1.2.6 writes a checkpoint as two PutItems (the metadata item and its payload chunk)
and a task's writes as two per channel: an agent's run of four nodes made about 46 requests to the
Checkpoints table — more than its reads of the airline — each a round trip in AWS and a turn of the one
lock locally. Here the library builds exactly the items it always did; its PutItems are collected while
the call runs (in that thread only) and sent together as one TransactWriteItems, conditions and all.

Same items, same rules: a conditional put (`attribute_not_exists(PK)`, the library's only condition) that
finds its item already there is skipped, as the library skips it. A transaction is all or nothing, so when
it is cancelled (an item already there, a conflicting write) or cannot be sent as one (over 100 items or
4 MB, one item twice) the items are put one by one exactly as the library would have. IAM authorizes a
TransactWriteItems Put as dynamodb:PutItem, the permission the saver already has.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from botocore.exceptions import ClientError

MAX_ITEMS = 100  # TransactWriteItems' limit
MAX_BYTES = 3_500_000  # under its 4 MB, counting the payloads roughly


class CollectingClient:
    """A DynamoDB client whose PutItems wait in a batch while the calling thread has one open."""

    def __init__(self, client: Any):
        self._client = client
        self._local = threading.local()
        # LangGraph puts a checkpoint from a background thread while a task's writes are put: one batch at a
        # time, as the library's own puts never overlapped a transaction (stock moto deep-copies a table for
        # a transaction, which a concurrent put breaks; DynamoDB itself would not mind)
        self._sending = threading.Lock()

    def __getattr__(self, name: str) -> Any:  # every other operation is the client's own
        return getattr(self._client, name)

    def put_item(self, **params: Any) -> dict[str, Any]:
        batch = getattr(self._local, "batch", None)
        if batch is None:
            return self._client.put_item(**params)
        batch.append(params)
        return {}

    @contextmanager
    def collected(self) -> Iterator[None]:
        if getattr(self._local, "batch", None) is not None:  # nested: the outer call sends everything
            yield
            return
        self._local.batch = []
        try:
            yield
            batch = self._local.batch
        finally:
            self._local.batch = None
        with self._sending:
            self.send(batch)

    def send(self, batch: list[dict[str, Any]]) -> None:
        if len(batch) > 1 and _fits_one_transaction(batch):
            try:
                self._client.transact_write_items(TransactItems=[{"Put": params} for params in batch])
                return
            except ClientError as err:
                if err.response["Error"]["Code"] != "TransactionCanceledException":
                    raise
        for params in batch:  # one by one, as the library puts them
            try:
                self._client.put_item(**params)
            except ClientError as err:
                if (
                    err.response["Error"]["Code"] != "ConditionalCheckFailedException"
                    or "ConditionExpression" not in params
                ):
                    raise


def _fits_one_transaction(batch: list[dict[str, Any]]) -> bool:
    keys = {(p["TableName"], p["Item"]["PK"]["S"], p["Item"]["SK"]["S"]) for p in batch}
    size = sum(len(value.get("B", b"")) + 1024 for p in batch for value in p["Item"].values())
    return len(batch) <= MAX_ITEMS and len(keys) == len(batch) and size <= MAX_BYTES


def batched_saver(**kwargs: Any) -> Any:
    """A DynamoDBSaver (same arguments) whose put and put_writes each make one request to the table."""
    from langgraph_checkpoint_aws import DynamoDBSaver

    class BatchedDynamoDBSaver(DynamoDBSaver):
        def __init__(self, **arguments: Any):
            super().__init__(**arguments)
            self.collecting = CollectingClient(self.client)
            self.repo.dynamodb_client = self.collecting  # the metadata items
            self.storage.dynamodb_client = self.collecting  # the payload chunks (S3 offloads are unchanged)

        def put(self, config: Any, checkpoint: Any, metadata: Any, new_versions: Any) -> Any:
            with self.collecting.collected():
                return super().put(config, checkpoint, metadata, new_versions)

        def put_writes(self, config: Any, writes: Any, task_id: str, task_path: str = "") -> None:
            with self.collecting.collected():
                super().put_writes(config, writes, task_id, task_path)

    return BatchedDynamoDBSaver(**kwargs)
