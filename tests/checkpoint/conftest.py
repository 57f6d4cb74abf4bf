"""Only the Checkpoints table and a bucket, each under its own unique name, in moto. Takes well under a second.

These tests start their own `mock_aws()` in a module-scoped fixture. They do not use the session
`account` fixture, which seeds the whole airline and takes about two minutes. moto 5.2.5 makes this
safe (moto/core/models.py, `MockAWS.start/stop`, and checked by
test_checkpoint_moto.py::test_nested_mock_shares_and_keeps_the_outer_backend):

* `MockAWS._nested_count` is a class attribute, so every `mock_aws()` is counted together. Only the
  start that takes the count from 0 to 1 calls `_enable_patching(reset=True)`, which runs
  `BackendDict.reset()`. Only the stop that takes it from 1 to 0 runs `_disable_patching`, which
  resets again. A nested start or stop leaves the backends alone.
* So if the session `account` mock is already running, this fixture's mock is nested: it shares
  that backend (the seeded tables stay) and stopping it wipes nothing. If no mock is running, this
  one is outermost: it starts empty and is reset when it stops, and the session mock starts fresh
  later. The order in which they start or stop does not matter either.
* Isolation therefore comes from names: a random table prefix and a random bucket name. The
  fixture deletes both at the end, so nothing is left in a shared session backend.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

import boto3
import pytest
from moto import mock_aws

from skymarshal.data.loader import table_definition
from skymarshal.data.schema import CHECKPOINTS, TABLES_BY_NAME, Naming

REGION = "us-east-1"


@dataclass
class CheckpointAws:
    naming: Naming
    bucket: str
    region: str = REGION
    env: dict[str, str] = field(default_factory=dict)

    @property
    def table_name(self) -> str:
        return self.naming(CHECKPOINTS)

    def client(self, service: str):
        return boto3.client(service, region_name=self.region)

    def dynamodb_env(self, **extra: str) -> dict[str, str]:
        """Environment for checkpointer_from_env / thread_registry_from_env pointing at these resources."""
        return {**self.env, "SKYMARSHAL_CHECKPOINTER": "dynamodb", **extra}


def create_checkpoint_resources(naming: Naming, bucket: str, region: str = REGION) -> None:
    ddb, s3 = boto3.client("dynamodb", region_name=region), boto3.client("s3", region_name=region)
    spec = TABLES_BY_NAME[CHECKPOINTS]
    ddb.create_table(**table_definition(spec, naming))
    ddb.update_time_to_live(
        TableName=naming(CHECKPOINTS), TimeToLiveSpecification={"Enabled": True, "AttributeName": spec.ttl_attribute}
    )
    s3.create_bucket(Bucket=bucket)


def delete_checkpoint_resources(naming: Naming, bucket: str, region: str = REGION) -> None:
    ddb, s3 = boto3.client("dynamodb", region_name=region), boto3.client("s3", region_name=region)
    ddb.delete_table(TableName=naming(CHECKPOINTS))
    for page in s3.get_paginator("list_object_versions").paginate(Bucket=bucket):
        for version in page.get("Versions", []) + page.get("DeleteMarkers", []):
            s3.delete_object(Bucket=bucket, Key=version["Key"], VersionId=version["VersionId"])
    s3.delete_bucket(Bucket=bucket)


@pytest.fixture(scope="module")
def ckpt_aws():
    tag = uuid.uuid4().hex[:8]
    naming = Naming(prefix=f"ck{tag}-")
    bucket = f"skymarshal-ckpt-test-{tag}"
    with mock_aws():
        create_checkpoint_resources(naming, bucket)
        yield CheckpointAws(
            naming=naming,
            bucket=bucket,
            env={"SKYMARSHAL_TABLE_PREFIX": naming.prefix, "SKYMARSHAL_ARTIFACTS_BUCKET": bucket, "AWS_REGION": REGION},
        )
        delete_checkpoint_resources(naming, bucket)
