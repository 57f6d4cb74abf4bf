"""Choosing the checkpointer from the environment, the start-up log line, and the S3 lifecycle rule."""

from __future__ import annotations

import logging
import uuid

import boto3
import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph_checkpoint_aws import DynamoDBSaver

from skymarshal.checkpoint import (
    CHECKPOINT_LIFECYCLE_RULE_ID,
    CHECKPOINT_S3_PREFIX,
    CHECKPOINT_TTL_DAYS,
    CheckpointSettings,
    checkpointer_from_env,
    lifecycle_rule_id,
)

LOGGER = "skymarshal.checkpoint.saver"


def backend_lines(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == LOGGER and "checkpoint backend" in r.getMessage()]


# Feature: langgraph-dynamodb-integration, Property 25: Mode-Based Saver Selection
# Feature: langgraph-dynamodb-integration, Property 26: Environment Detection
# Feature: langgraph-dynamodb-integration, Property 28: Backend Logging
def test_memory_is_the_default_outside_lambda(caplog):
    caplog.set_level(logging.INFO, logger=LOGGER)
    saver = checkpointer_from_env({})
    assert isinstance(saver, InMemorySaver)
    [line] = backend_lines(caplog)
    assert "InMemorySaver" in line and "selected by default" in line
    assert caplog.records[-1].checkpoint_backend == "memory"


def test_explicit_memory_wins_over_lambda_detection(caplog):
    caplog.set_level(logging.INFO, logger=LOGGER)
    saver = checkpointer_from_env({"AWS_LAMBDA_FUNCTION_NAME": "fn", "SKYMARSHAL_CHECKPOINTER": " Memory "})
    assert isinstance(saver, InMemorySaver)
    assert "selected by SKYMARSHAL_CHECKPOINTER" in backend_lines(caplog)[0]


def test_none_disables_checkpointing_and_says_so(caplog):
    caplog.set_level(logging.INFO, logger=LOGGER)
    assert checkpointer_from_env({"SKYMARSHAL_CHECKPOINTER": "none", "AWS_LAMBDA_FUNCTION_NAME": "fn"}) is None
    assert "none" in backend_lines(caplog)[0]


@pytest.mark.parametrize("value", ["dynamo", "sqlite", "true", "in-memory"])
def test_a_bad_backend_names_the_variable_and_the_allowed_values(value):
    with pytest.raises(ValueError) as caught:
        checkpointer_from_env({"SKYMARSHAL_CHECKPOINTER": value})
    message = str(caught.value)
    assert "SKYMARSHAL_CHECKPOINTER" in message and repr(value) in message
    assert all(name in message for name in ("dynamodb", "memory", "none"))


def test_dynamodb_needs_the_artifacts_bucket():
    with pytest.raises(ValueError, match="SKYMARSHAL_ARTIFACTS_BUCKET"):
        checkpointer_from_env({"AWS_LAMBDA_FUNCTION_NAME": "fn"})


@pytest.mark.parametrize("days", ["0", "-3", "thirty", "1.5"])
def test_a_bad_ttl_is_refused(days):
    with pytest.raises(ValueError, match="SKYMARSHAL_CHECKPOINT_TTL_DAYS"):
        CheckpointSettings.from_env({"SKYMARSHAL_CHECKPOINT_TTL_DAYS": days})


def test_settings_read_names_endpoints_and_region():
    settings = CheckpointSettings.from_env(
        {
            "AWS_LAMBDA_FUNCTION_NAME": "fn",
            "SKYMARSHAL_TABLE_PREFIX": "dev-",
            "SKYMARSHAL_ARTIFACTS_BUCKET": "b",
            "AWS_ENDPOINT_URL": "http://127.0.0.1:5000",
            "AWS_ENDPOINT_URL_S3": "http://127.0.0.1:5001",
            "AWS_DEFAULT_REGION": "eu-west-1",
        }
    )
    assert (settings.backend, settings.selected_by) == ("dynamodb", "AWS_LAMBDA_FUNCTION_NAME")
    assert settings.table_name == "dev-Checkpoints"
    assert settings.dynamodb_endpoint_url == "http://127.0.0.1:5000"  # generic fallback
    assert settings.s3_endpoint_url == "http://127.0.0.1:5001"  # service-specific wins
    assert settings.region_name == "eu-west-1"
    assert settings.ttl_seconds == CHECKPOINT_TTL_DAYS * 86400 == 90 * 86400


def test_lambda_gets_a_dynamodb_saver_on_the_checkpoints_table(ckpt_aws, caplog):
    caplog.set_level(logging.INFO, logger=LOGGER)
    saver = checkpointer_from_env({**ckpt_aws.env, "AWS_LAMBDA_FUNCTION_NAME": "skymarshal-orchestrator"})
    assert isinstance(saver, DynamoDBSaver)
    assert saver.table_name == ckpt_aws.table_name
    assert (saver.storage.s3_bucket, saver.storage.s3_key_prefix) == (ckpt_aws.bucket, CHECKPOINT_S3_PREFIX)
    assert saver.storage.ttl_seconds == saver.repo.ttl_seconds == 90 * 86400
    assert saver.serializer.enable_compression is True
    [line] = backend_lines(caplog)
    assert "DynamoDBSaver" in line and ckpt_aws.table_name in line and "AWS_LAMBDA_FUNCTION_NAME" in line


# ---------------------------------------------------------------------------- the S3 lifecycle rule


def _fresh_bucket(ckpt_aws) -> str:
    bucket = f"skymarshal-ckpt-lc-{uuid.uuid4().hex[:8]}"
    ckpt_aws.client("s3").create_bucket(Bucket=bucket)
    return bucket


def _lifecycle_calls(ckpt_aws, env) -> tuple[DynamoDBSaver, list[str]]:
    session = boto3.Session(region_name=ckpt_aws.region)
    calls: list[str] = []
    session.events.register("before-call.s3", lambda model, **_: calls.append(model.name))
    saver = checkpointer_from_env(env, session=session)
    return saver, [c for c in calls if "Lifecycle" in c]


def test_on_a_bare_bucket_the_saver_writes_the_rule_id_we_predict(ckpt_aws):
    bucket = _fresh_bucket(ckpt_aws)
    _, calls = _lifecycle_calls(ckpt_aws, ckpt_aws.dynamodb_env(SKYMARSHAL_ARTIFACTS_BUCKET=bucket))
    assert calls == ["GetBucketLifecycleConfiguration", "PutBucketLifecycleConfiguration"]
    [rule] = ckpt_aws.client("s3").get_bucket_lifecycle_configuration(Bucket=bucket)["Rules"]
    assert rule["ID"] == CHECKPOINT_LIFECYCLE_RULE_ID == "checkpoints-ttl-expiration-90d"
    assert rule["Expiration"] == {"Days": 90}
    assert rule["Filter"]["And"]["Prefix"] == "checkpoints/"


def test_with_the_stack_rule_declared_the_saver_never_rewrites_the_lifecycle(ckpt_aws):
    """The CDK stack's rules (infra/storage.py): the checkpoint rule has our id and a prefix filter."""
    bucket = _fresh_bucket(ckpt_aws)
    rules = [
        {
            "ID": "noncurrent-versions",
            "Status": "Enabled",
            "Filter": {"Prefix": ""},
            "NoncurrentVersionExpiration": {"NoncurrentDays": 90},
        },
        {
            "ID": CHECKPOINT_LIFECYCLE_RULE_ID,
            "Status": "Enabled",
            "Filter": {"Prefix": "checkpoints/"},
            "Expiration": {"Days": CHECKPOINT_TTL_DAYS},
            "NoncurrentVersionExpiration": {"NoncurrentDays": 1},
        },
    ]
    s3 = ckpt_aws.client("s3")
    s3.put_bucket_lifecycle_configuration(Bucket=bucket, LifecycleConfiguration={"Rules": rules})
    before = s3.get_bucket_lifecycle_configuration(Bucket=bucket)["Rules"]
    _, calls = _lifecycle_calls(ckpt_aws, ckpt_aws.dynamodb_env(SKYMARSHAL_ARTIFACTS_BUCKET=bucket))
    assert calls == ["GetBucketLifecycleConfiguration"]
    assert s3.get_bucket_lifecycle_configuration(Bucket=bucket)["Rules"] == before


def test_a_different_retention_needs_a_different_rule_id(ckpt_aws):
    bucket = _fresh_bucket(ckpt_aws)
    env = ckpt_aws.dynamodb_env(SKYMARSHAL_ARTIFACTS_BUCKET=bucket, SKYMARSHAL_CHECKPOINT_TTL_DAYS="7")
    saver, _ = _lifecycle_calls(ckpt_aws, env)
    assert saver.storage.ttl_seconds == 7 * 86400
    [rule] = ckpt_aws.client("s3").get_bucket_lifecycle_configuration(Bucket=bucket)["Rules"]
    assert rule["ID"] == lifecycle_rule_id(7) == "checkpoints-ttl-expiration-7d"
