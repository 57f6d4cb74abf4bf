"""CDK assertions on the synthesized data stack: tables exactly as schema.py says, one CMK, the bucket."""

from __future__ import annotations

import json
from typing import Any

import pytest
from aws_cdk.assertions import Match, Template

from infra import AppConfig
from infra.storage import CHECKPOINT_PREFIX, INCOMPLETE_UPLOAD_DAYS, NONCURRENT_VERSION_DAYS, checkpoint_rule_id
from skymarshal.data.schema import CHECKPOINTS, TABLES, Naming, TableSpec

DEFAULT_NAMING = Naming()  # cdk.json ships with no table prefix


def _resources(template: dict[str, Any], type_: str) -> dict[str, dict[str, Any]]:
    return {k: v for k, v in template["Resources"].items() if v["Type"] == type_}


def _table(template: dict[str, Any], spec: TableSpec) -> dict[str, Any]:
    name = DEFAULT_NAMING(spec.name)
    found = [r for r in _resources(template, "AWS::DynamoDB::Table").values() if r["Properties"]["TableName"] == name]
    assert len(found) == 1, f"expected exactly one table named {name!r}"
    return found[0]


def _key_schema(partition, sort) -> list[dict[str, str]]:
    schema = [{"AttributeName": partition.name, "KeyType": "HASH"}]
    if sort:
        schema.append({"AttributeName": sort.name, "KeyType": "RANGE"})
    return schema


def _key_id(template: dict[str, Any]) -> str:
    keys = _resources(template, "AWS::KMS::Key")
    assert len(keys) == 1, "one customer-managed key shared by every table and the bucket"
    return next(iter(keys))


def _anchor_bucket(template: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """(id, bucket) of the audit anchors' bucket: the one under Object Lock."""
    locked = {
        k: b for k, b in _resources(template, "AWS::S3::Bucket").items() if b["Properties"].get("ObjectLockEnabled")
    }
    assert len(locked) == 1, "one bucket under Object Lock: the audit anchors"
    return next(iter(locked.items()))


def _buckets(template: dict[str, Any]) -> tuple[str, dict[str, Any], str, dict[str, Any]]:
    """(artifacts id, artifacts, access-log id, access-log bucket): the KMS one is the artifacts bucket."""
    anchors_id, _ = _anchor_bucket(template)
    buckets = {k: b for k, b in _resources(template, "AWS::S3::Bucket").items() if k != anchors_id}
    assert len(buckets) == 2
    kms_ids = [
        k
        for k, b in buckets.items()
        if b["Properties"]["BucketEncryption"]["ServerSideEncryptionConfiguration"][0]["ServerSideEncryptionByDefault"][
            "SSEAlgorithm"
        ]
        == "aws:kms"
    ]
    assert len(kms_ids) == 1
    logs_id = next(k for k in buckets if k != kms_ids[0])
    return kms_ids[0], buckets[kms_ids[0]], logs_id, buckets[logs_id]


def test_one_table_per_spec(data_template: Template) -> None:
    data_template.resource_count_is("AWS::DynamoDB::Table", len(TABLES))


@pytest.mark.parametrize("spec", TABLES, ids=lambda s: s.name)
def test_table_matches_schema(data_template_json: dict[str, Any], spec: TableSpec) -> None:
    props = _table(data_template_json, spec)["Properties"]
    assert props["KeySchema"] == _key_schema(spec.partition, spec.sort)

    declared = {d["AttributeName"]: d["AttributeType"] for d in props["AttributeDefinitions"]}
    keys = [spec.partition, spec.sort] + [k for i in spec.indexes for k in (i.partition, i.sort)]
    assert declared == {k.name: k.type for k in keys if k}

    indexes = {i["IndexName"]: i for i in props.get("GlobalSecondaryIndexes", [])}
    assert set(indexes) == {i.name for i in spec.indexes}, "exactly the schema's GSIs"
    for index in spec.indexes:
        assert indexes[index.name]["KeySchema"] == _key_schema(index.partition, index.sort)
        assert indexes[index.name]["Projection"] == {"ProjectionType": "ALL"}

    if spec.ttl_attribute:
        assert props["TimeToLiveSpecification"] == {"AttributeName": spec.ttl_attribute, "Enabled": True}
    else:
        assert "TimeToLiveSpecification" not in props


@pytest.mark.parametrize("spec", TABLES, ids=lambda s: s.name)
def test_table_is_protected_and_on_demand(data_template_json: dict[str, Any], spec: TableSpec) -> None:
    table = _table(data_template_json, spec)
    props = table["Properties"]
    assert props["BillingMode"] == "PAY_PER_REQUEST"
    assert "ProvisionedThroughput" not in props
    assert props["PointInTimeRecoverySpecification"] == {"PointInTimeRecoveryEnabled": True}
    assert props["SSESpecification"] == {
        "SSEEnabled": True,
        "SSEType": "KMS",
        "KMSMasterKeyId": {"Fn::GetAtt": [_key_id(data_template_json), "Arn"]},
    }
    # cdk.json's default removal policy is retain.
    assert table["DeletionPolicy"] == table["UpdateReplacePolicy"] == "Retain"
    assert props["DeletionProtectionEnabled"] is True


def test_checkpoint_table_has_ttl(data_template: Template) -> None:
    data_template.has_resource_properties(
        "AWS::DynamoDB::Table",
        {
            "TableName": DEFAULT_NAMING(CHECKPOINTS),
            "KeySchema": [{"AttributeName": "PK", "KeyType": "HASH"}, {"AttributeName": "SK", "KeyType": "RANGE"}],
            "TimeToLiveSpecification": {"AttributeName": "ttl", "Enabled": True},
        },
    )


def test_key_rotates_and_is_retained(data_template: Template) -> None:
    data_template.has_resource(
        "AWS::KMS::Key", {"Properties": Match.object_like({"EnableKeyRotation": True}), "DeletionPolicy": "Retain"}
    )


def test_every_bucket_blocks_public_access_and_plain_http(data_template_json: dict[str, Any]) -> None:
    buckets = _resources(data_template_json, "AWS::S3::Bucket")
    policies = {
        p["Properties"]["Bucket"]["Ref"]: p["Properties"]["PolicyDocument"]["Statement"]
        for p in _resources(data_template_json, "AWS::S3::BucketPolicy").values()
    }
    for bucket_id, bucket in buckets.items():
        assert bucket["Properties"]["PublicAccessBlockConfiguration"] == {
            "BlockPublicAcls": True,
            "BlockPublicPolicy": True,
            "IgnorePublicAcls": True,
            "RestrictPublicBuckets": True,
        }
        assert bucket["DeletionPolicy"] == "Retain"
        arn = {"Fn::GetAtt": [bucket_id, "Arn"]}
        deny_http = [
            s
            for s in policies[bucket_id]
            if s["Effect"] == "Deny"
            and s["Action"] == "s3:*"
            and s["Principal"] == {"AWS": "*"}
            and s.get("Condition") == {"Bool": {"aws:SecureTransport": "false"}}
        ]
        assert len(deny_http) == 1, f"{bucket_id}: no deny on aws:SecureTransport=false"
        assert deny_http[0]["Resource"] == [arn, {"Fn::Join": ["", [arn, "/*"]]}]
        assert any(
            s["Effect"] == "Deny" and s.get("Condition") == {"NumericLessThan": {"s3:TlsVersion": 1.2}}
            for s in policies[bucket_id]
        ), f"{bucket_id}: TLS below 1.2 is not denied"


def test_artifacts_bucket(data_template_json: dict[str, Any]) -> None:
    _bucket_id, bucket, logs_id, _ = _buckets(data_template_json)
    props = bucket["Properties"]
    assert props["VersioningConfiguration"] == {"Status": "Enabled"}
    encryption = props["BucketEncryption"]["ServerSideEncryptionConfiguration"][0]
    assert encryption["ServerSideEncryptionByDefault"]["KMSMasterKeyID"] == {
        "Fn::GetAtt": [_key_id(data_template_json), "Arn"]
    }
    assert props["LoggingConfiguration"]["DestinationBucketName"] == {"Ref": logs_id}


def test_artifacts_lifecycle(data_template_json: dict[str, Any], synthesized) -> None:
    _, bucket, _, _ = _buckets(data_template_json)
    rules = {r["Id"]: r for r in bucket["Properties"]["LifecycleConfiguration"]["Rules"]}
    assert all(r["Status"] == "Enabled" for r in rules.values())

    everything = rules["noncurrent-versions"]
    assert everything["NoncurrentVersionExpiration"] == {"NoncurrentDays": NONCURRENT_VERSION_DAYS}
    assert everything["AbortIncompleteMultipartUpload"] == {"DaysAfterInitiation": INCOMPLETE_UPLOAD_DAYS}
    assert "Prefix" not in everything

    days = synthesized.stacks.config.checkpoint_expiry_days
    checkpoints = rules[checkpoint_rule_id(days)]
    assert checkpoints["Prefix"] == CHECKPOINT_PREFIX
    assert checkpoints["ExpirationInDays"] == days


def test_checkpoint_rule_id_is_the_one_the_saver_looks_for() -> None:
    # langgraph-checkpoint-aws 1.2.x: f"{key_prefix.replace('/', '-')}-ttl-expiration-{days}d"
    assert checkpoint_rule_id(30) == "checkpoints-ttl-expiration-30d"


def test_access_log_bucket_accepts_only_s3_logging(data_template_json: dict[str, Any]) -> None:
    bucket_id, _, logs_id, logs = _buckets(data_template_json)
    assert logs["Properties"]["BucketEncryption"]["ServerSideEncryptionConfiguration"][0][
        "ServerSideEncryptionByDefault"
    ] == {"SSEAlgorithm": "AES256"}  # log delivery cannot use SSE-KMS
    policy = next(
        p
        for p in _resources(data_template_json, "AWS::S3::BucketPolicy").values()
        if p["Properties"]["Bucket"] == {"Ref": logs_id}
    )
    allows = [s for s in policy["Properties"]["PolicyDocument"]["Statement"] if s["Effect"] == "Allow"]
    assert len(allows) == 2  # the artifacts' and the audit anchors' logs
    assert all(s["Principal"] == {"Service": "logging.s3.amazonaws.com"} for s in allows)
    anchors_id, _ = _anchor_bucket(data_template_json)
    assert [s["Condition"]["ArnLike"] for s in allows] == [
        {"aws:SourceArn": {"Fn::GetAtt": [bucket_id, "Arn"]}},
        {"aws:SourceArn": {"Fn::GetAtt": [anchors_id, "Arn"]}},
    ]


def test_outputs(data_template_json: dict[str, Any]) -> None:
    bucket_id, _, _, _ = _buckets(data_template_json)
    outputs = data_template_json["Outputs"]
    assert outputs["ArtifactsBucketName"]["Value"] == {"Ref": bucket_id}
    assert outputs["AuditAnchorBucketName"]["Value"] == {"Ref": _anchor_bucket(data_template_json)[0]}
    assert json.loads(outputs["TableNames"]["Value"]) == {t.name: DEFAULT_NAMING(t.name) for t in TABLES}
    assert "TablePrefix" not in outputs  # only emitted when a prefix is configured


def test_stack_exposes_tables_bucket_and_key(synthesized) -> None:
    data = synthesized.stacks.data
    assert set(data.tables) == {t.name for t in TABLES}
    assert data.bucket is not None and data.key is not None
    assert data.stack_name == f"SkyMarshal-{synthesized.stacks.config.stage}-Data"


def test_audit_anchor_bucket_locks_every_object_in_compliance_mode_and_is_always_retained(
    data_template: Template, synthesized
) -> None:
    days = synthesized.stacks.config.audit_anchor_retention_days
    data_template.has_resource(
        "AWS::S3::Bucket",
        {
            "Properties": Match.object_like(
                {
                    "ObjectLockEnabled": True,
                    "ObjectLockConfiguration": {
                        "ObjectLockEnabled": "Enabled",
                        "Rule": {"DefaultRetention": {"Mode": "COMPLIANCE", "Days": days}},
                    },
                    "VersioningConfiguration": {"Status": "Enabled"},
                    # SSE-S3: no key whose deletion or disabling could make a locked anchor unreadable
                    "BucketEncryption": {
                        "ServerSideEncryptionConfiguration": [
                            {"ServerSideEncryptionByDefault": {"SSEAlgorithm": "AES256"}}
                        ]
                    },
                }
            ),
            "DeletionPolicy": "Retain",
            "UpdateReplacePolicy": "Retain",
        },
    )
    assert days == AppConfig.audit_anchor_retention_days == 400  # cdk.json sets no other


def test_audit_anchor_bucket_logs_its_access_and_never_expires_an_anchor(data_template_json: dict[str, Any]) -> None:
    _, anchors = _anchor_bucket(data_template_json)
    _, _, logs_id, _ = _buckets(data_template_json)
    props = anchors["Properties"]
    assert props["LoggingConfiguration"] == {
        "DestinationBucketName": {"Ref": logs_id},
        "LogFilePrefix": "audit-anchors/",
    }
    for rule in props.get("LifecycleConfiguration", {}).get("Rules", []):
        assert not {"ExpirationInDays", "ExpirationDate", "NoncurrentVersionExpiration"} & set(rule), rule
    # no auto-delete custom resource reaches it: nothing but the TLS denials in its policy
    policy = next(
        p
        for p in _resources(data_template_json, "AWS::S3::BucketPolicy").values()
        if p["Properties"]["Bucket"] == {"Ref": _anchor_bucket(data_template_json)[0]}
    )
    assert {s["Effect"] for s in policy["Properties"]["PolicyDocument"]["Statement"]} == {"Deny"}
    assert not _resources(data_template_json, "Custom::S3AutoDeleteObjects")
