"""Checkpoint settings read from the environment. The saver and the thread registry both use them.

Environment:

* `SKYMARSHAL_CHECKPOINTER`: `dynamodb` | `memory` | `none`. Default: `dynamodb` inside Lambda
  (`AWS_LAMBDA_FUNCTION_NAME` is set), `memory` everywhere else.
* `SKYMARSHAL_TABLE_PREFIX`: prefix of the physical table names (see `skymarshal.data.schema.Naming`).
* `SKYMARSHAL_ARTIFACTS_BUCKET`: bucket for checkpoint payloads over 350 KB. Required for `dynamodb`.
* `SKYMARSHAL_CHECKPOINT_TTL_DAYS`: retention in days (default `CHECKPOINT_TTL_DAYS`). Infra must
  keep this equal to the days in the bucket's lifecycle rule id (see `lifecycle_rule_id`).
* `AWS_ENDPOINT_URL_DYNAMODB` / `AWS_ENDPOINT_URL_S3` (fallback `AWS_ENDPOINT_URL`): local emulator.
* `AWS_REGION` / `AWS_DEFAULT_REGION`.

How the S3 lifecycle works with langgraph-checkpoint-aws 1.2.6 (read from its
`checkpoint/dynamodb/storage_strategy.py`): when `ttl_seconds` and `s3_offload_config` are both set,
`StorageStrategy.__init__` calls `GetBucketLifecycleConfiguration` and looks for a rule whose ID is
`f"{key_prefix.replace('/', '-') or 'root'}-ttl-expiration-{max(1, ceil(ttl_seconds / 86400))}d"`.
It compares only the ID, not the rule's filter or expiration. If the ID is there, it does nothing
more. If not, it appends its own rule (filter: prefix `<key_prefix>/` AND tag `ttl-days=<days>`) and
calls `PutBucketLifecycleConfiguration`. That call replaces the whole configuration, so it would
write over the rules CloudFormation owns. Any `ClientError` here, AccessDenied included, is only
logged as a warning. Every offloaded object is written with the tag `ttl-days=<days>`, so
`s3:PutObjectTagging` is needed as well as `s3:PutObject`. If the stack declares a rule with
`CHECKPOINT_LIFECYCLE_RULE_ID`, the saver only reads the configuration and never writes it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from ..data.schema import CHECKPOINTS, Naming

CHECKPOINT_TTL_DAYS = 90  # seed 001: a run's checkpoints kept 90 days (infra: checkpointExpiryDays)
CHECKPOINT_S3_PREFIX = "checkpoints"  # key_prefix for DynamoDBSaver; objects land under "checkpoints/"

CHECKPOINTER_ENV = "SKYMARSHAL_CHECKPOINTER"
BUCKET_ENV = "SKYMARSHAL_ARTIFACTS_BUCKET"
TTL_DAYS_ENV = "SKYMARSHAL_CHECKPOINT_TTL_DAYS"
TABLE_PREFIX_ENV = "SKYMARSHAL_TABLE_PREFIX"
LAMBDA_ENV = "AWS_LAMBDA_FUNCTION_NAME"

Backend = Literal["dynamodb", "memory", "none"]
BACKENDS: tuple[Backend, ...] = ("dynamodb", "memory", "none")


def ttl_seconds(days: int = CHECKPOINT_TTL_DAYS) -> int:
    return days * 86400


def lifecycle_rule_id(days: int = CHECKPOINT_TTL_DAYS, key_prefix: str = CHECKPOINT_S3_PREFIX) -> str:
    """The rule ID that DynamoDBSaver(ttl_seconds=days*86400, key_prefix=...) looks for in the bucket."""
    prefix = key_prefix.strip("/")
    return f"{prefix.replace('/', '-') if prefix else 'root'}-ttl-expiration-{max(1, days)}d"


CHECKPOINT_LIFECYCLE_RULE_ID = lifecycle_rule_id()  # "checkpoints-ttl-expiration-90d"


@dataclass(frozen=True)
class CheckpointSettings:
    backend: Backend
    selected_by: str  # which variable decided: SKYMARSHAL_CHECKPOINTER, AWS_LAMBDA_FUNCTION_NAME or "default"
    table_name: str
    ttl_days: int = CHECKPOINT_TTL_DAYS
    bucket_name: str | None = None
    key_prefix: str = CHECKPOINT_S3_PREFIX
    region_name: str | None = None
    dynamodb_endpoint_url: str | None = None
    s3_endpoint_url: str | None = None

    @property
    def ttl_seconds(self) -> int:
        return ttl_seconds(self.ttl_days)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> CheckpointSettings:
        env = os.environ if env is None else env
        raw = (env.get(CHECKPOINTER_ENV) or "").strip().lower()
        if raw:
            if raw not in BACKENDS:
                raise ValueError(
                    f"{CHECKPOINTER_ENV}={env.get(CHECKPOINTER_ENV)!r} is not a checkpoint backend; "
                    f"allowed values: {', '.join(BACKENDS)}"
                )
            backend, selected_by = raw, CHECKPOINTER_ENV
        elif env.get(LAMBDA_ENV):
            backend, selected_by = "dynamodb", LAMBDA_ENV
        else:
            backend, selected_by = "memory", "default"

        ttl_raw = (env.get(TTL_DAYS_ENV) or "").strip()
        try:
            days = int(ttl_raw) if ttl_raw else CHECKPOINT_TTL_DAYS
        except ValueError:
            days = 0
        if days < 1:
            raise ValueError(f"{TTL_DAYS_ENV}={ttl_raw!r} must be a whole number of days, at least 1")

        bucket = (env.get(BUCKET_ENV) or "").strip() or None
        if backend == "dynamodb" and not bucket:
            raise ValueError(
                f"{CHECKPOINTER_ENV}=dynamodb (selected by {selected_by}) needs {BUCKET_ENV}: "
                "checkpoints over 350 KB are offloaded to that bucket"
            )
        return cls(
            backend=backend,
            selected_by=selected_by,
            table_name=Naming(prefix=env.get(TABLE_PREFIX_ENV, ""))(CHECKPOINTS),
            ttl_days=days,
            bucket_name=bucket,
            region_name=env.get("AWS_REGION") or env.get("AWS_DEFAULT_REGION") or None,
            dynamodb_endpoint_url=env.get("AWS_ENDPOINT_URL_DYNAMODB") or env.get("AWS_ENDPOINT_URL") or None,
            s3_endpoint_url=env.get("AWS_ENDPOINT_URL_S3") or env.get("AWS_ENDPOINT_URL") or None,
        )
