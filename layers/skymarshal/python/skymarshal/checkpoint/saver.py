"""The LangGraph checkpointer, chosen from the environment (see config.py for the variables).

`dynamodb`: langgraph-checkpoint-aws `DynamoDBSaver` on the Checkpoints table, with payloads over
350 KB offloaded to the artifacts bucket under `checkpoints/`, TTL `CHECKPOINT_TTL_DAYS` and gzip
compression. `memory`: LangGraph's `InMemorySaver`. `none`: no checkpointer (graphs compile without
one and run in memory).

DynamoDBSaver 1.2.6 writes these items to the table (from unified_repository.py / storage_strategy.py):
  checkpoint   PK=f"CHECKPOINT_{thread_id}"                     SK=f"{ns}#{checkpoint_id}"
  writes       PK=f"WRITES_{thread_id}#{ns}#{checkpoint_id}"    SK=f"{task_id}#{idx}"
  payload      PK=f"CHUNK_{thread_id}#{ns}#{checkpoint_id}[#{task_id}#{idx}]"  SK="CHUNK"
Each item has `ttl` (epoch seconds). If a payload is over 350 KB (after compression) it goes to
s3://<bucket>/checkpoints/{thread_id}/checkpoints/{ns}/{checkpoint_id}[/writes/{task_id}/{idx}],
tagged `ttl-days=<days>`. Only the reference (`ref_loc`="S3", `ref_key`) stays in DynamoDB.
The items of one checkpoint, or of one task's writes, go in one TransactWriteItems (batched_writes.py).
The library sets adaptive retries (5 attempts) on its clients, which handles throttling backoff.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping

import boto3
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.memory import InMemorySaver

from ..data import aws
from .config import CHECKPOINT_LIFECYCLE_RULE_ID, CHECKPOINT_S3_PREFIX, CHECKPOINT_TTL_DAYS, CheckpointSettings

__all__ = [
    "CHECKPOINT_LIFECYCLE_RULE_ID",
    "CHECKPOINT_S3_PREFIX",
    "CHECKPOINT_TTL_DAYS",
    "CheckpointSettings",
    "build_checkpointer",
    "checkpointer_from_env",
    "dynamodb_saver",
]

logger = logging.getLogger(__name__)


def dynamodb_saver(settings: CheckpointSettings, *, session: boto3.Session | None = None) -> BaseCheckpointSaver:
    """DynamoDBSaver writing each checkpoint and each task's writes in one request (batched_writes.py)."""
    from .batched_writes import batched_saver

    if not settings.bucket_name:
        raise ValueError("DynamoDBSaver needs an artifacts bucket for payloads over 350 KB")
    offload = {"bucket_name": settings.bucket_name, "key_prefix": settings.key_prefix}
    if settings.s3_endpoint_url:
        offload["endpoint_url"] = settings.s3_endpoint_url
    return batched_saver(
        table_name=settings.table_name,
        session=session,
        region_name=settings.region_name,
        endpoint_url=settings.dynamodb_endpoint_url,
        ttl_seconds=settings.ttl_seconds,
        enable_checkpoint_compression=True,
        s3_offload_config=offload,
        boto_config=aws.config(),  # the library's one retry configuration (data/aws.py)
    )


def build_checkpointer(
    settings: CheckpointSettings, *, session: boto3.Session | None = None
) -> BaseCheckpointSaver | None:
    if settings.backend == "dynamodb":
        saver: BaseCheckpointSaver | None = dynamodb_saver(settings, session=session)
        description = (
            f"DynamoDBSaver table={settings.table_name} bucket={settings.bucket_name} "
            f"prefix={settings.key_prefix}/ ttl_days={settings.ttl_days} compression=on"
        )
    elif settings.backend == "memory":
        saver, description = InMemorySaver(), "InMemorySaver (checkpoints are lost when the process ends)"
    else:
        saver, description = None, "none (graphs run without a checkpointer)"
    logger.info(
        "checkpoint backend: %s (selected by %s)",
        description,
        settings.selected_by,
        extra={"checkpoint_backend": settings.backend, "checkpoint_backend_selected_by": settings.selected_by},
    )
    return saver


def checkpointer_from_env(
    env: Mapping[str, str] = os.environ, *, session: boto3.Session | None = None
) -> BaseCheckpointSaver | None:
    """The checkpointer for this process: DynamoDBSaver in Lambda, InMemorySaver elsewhere, or None.

    Raises ValueError if a variable has a value that is not allowed. `session` is passed on to
    DynamoDBSaver for credentials and event hooks.
    """
    return build_checkpointer(CheckpointSettings.from_env(env), session=session)
