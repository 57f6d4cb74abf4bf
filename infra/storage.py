"""The artifacts bucket (checkpoint offload, audit exports), its server-access-log bucket, the audit chains'
anchor bucket under Object Lock, and the settings every SkyMarshal bucket shares."""

from __future__ import annotations

from typing import Any

from aws_cdk import Duration, RemovalPolicy
from aws_cdk import aws_kms as kms
from aws_cdk import aws_s3 as s3
from constructs import Construct

from skymarshal.workflow.audit.anchor import PREFIX as ANCHOR_PREFIX

# Key prefixes inside the artifacts bucket. The checkpoint saver must be configured with
# s3_offload_config={"bucket_name": ..., "key_prefix": "checkpoints"} for the expiry rule to apply.
CHECKPOINT_PREFIX = "checkpoints/"
EXPORT_PREFIX = "exports/"

NONCURRENT_VERSION_DAYS = 90
INCOMPLETE_UPLOAD_DAYS = 7
ACCESS_LOG_DAYS = 365


def checkpoint_rule_id(expiry_days: int) -> str:
    """The lifecycle rule id langgraph-checkpoint-aws 1.2.x looks for before writing its own rule.

    With `ttl_seconds` set, DynamoDBSaver reads the bucket's lifecycle configuration at start-up and
    adds a rule named `<key_prefix with / as ->-ttl-expiration-<days>d` if none has that id. Declaring
    that rule here (prefix-wide, so it also catches untagged objects) keeps the lifecycle owned by
    CloudFormation: the saver finds it and never rewrites the bucket configuration at run time.
    """
    return f"{CHECKPOINT_PREFIX.strip('/').replace('/', '-')}-ttl-expiration-{expiry_days}d"


def secure_bucket_options(*, removal_policy: RemovalPolicy, auto_delete_objects: bool) -> dict[str, Any]:
    """`s3.Bucket` settings every SkyMarshal bucket shares: private, TLS 1.2+ only, no ACLs."""
    return dict(
        block_public_access=s3.BlockPublicAccess.BLOCK_ALL,
        enforce_ssl=True,
        minimum_tls_version=1.2,
        object_ownership=s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
        removal_policy=removal_policy,
        # CloudFormation cannot delete a bucket that still holds objects or versions: `destroy`
        # stacks empty the buckets first (CDK's auto-delete custom resource, no Docker needed).
        auto_delete_objects=auto_delete_objects,
    )


def noncurrent_versions_rule() -> s3.LifecycleRule:
    """Old object versions and abandoned uploads expire; delete markers left alone are cleaned up."""
    return s3.LifecycleRule(
        id="noncurrent-versions",
        noncurrent_version_expiration=Duration.days(NONCURRENT_VERSION_DAYS),
        abort_incomplete_multipart_upload_after=Duration.days(INCOMPLETE_UPLOAD_DAYS),
        expired_object_delete_marker=True,
    )


def access_log_bucket(scope: Construct, construct_id: str, **common: Any) -> s3.Bucket:
    """A server-access-log target, `common` being `secure_bucket_options(...)`.

    No cdk-nag acknowledgement needed: AwsSolutions-S1 counts a bucket that receives another
    bucket's access logs as compliant, and logging the log bucket itself would never end.
    Keep the target in the logged bucket's own stack: across stacks, aws-cdk-lib (2.275,
    `Bucket.allowLogDelivery`) writes the log-delivery grant into the target's policy without its
    aws:SourceArn/aws:SourceAccount conditions.
    """
    # S3 server access logs can only be delivered to an SSE-S3 bucket, not an SSE-KMS one.
    return s3.Bucket(
        scope,
        construct_id,
        encryption=s3.BucketEncryption.S3_MANAGED,
        lifecycle_rules=[
            s3.LifecycleRule(
                id="expire-access-logs",
                expiration=Duration.days(ACCESS_LOG_DAYS),
                abort_incomplete_multipart_upload_after=Duration.days(INCOMPLETE_UPLOAD_DAYS),
            )
        ],
        **common,
    )


class ArtifactStorage(Construct):
    """`bucket`: KMS-encrypted, versioned, TLS-only; `access_logs`: its server access log target."""

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        key: kms.IKey,
        removal_policy: RemovalPolicy,
        checkpoint_expiry_days: int,
        auto_delete_objects: bool,
    ) -> None:
        super().__init__(scope, construct_id)
        common = secure_bucket_options(removal_policy=removal_policy, auto_delete_objects=auto_delete_objects)
        self.access_logs = access_log_bucket(self, "AccessLogs", **common)

        self.bucket = s3.Bucket(
            self,
            "Artifacts",
            encryption=s3.BucketEncryption.KMS,
            encryption_key=key,
            # S3 Bucket Key: S3 derives object keys from a bucket-level key instead of calling KMS
            # for every object, which keeps checkpoint traffic cheap.
            bucket_key_enabled=True,
            versioned=True,
            server_access_logs_bucket=self.access_logs,
            server_access_logs_prefix="artifacts/",
            lifecycle_rules=[
                noncurrent_versions_rule(),
                s3.LifecycleRule(
                    id=checkpoint_rule_id(checkpoint_expiry_days),
                    prefix=CHECKPOINT_PREFIX,
                    expiration=Duration.days(checkpoint_expiry_days),
                    # An expired checkpoint is only kept as a noncurrent version for a day.
                    noncurrent_version_expiration=Duration.days(1),
                ),
            ],
            **common,
        )


class AuditAnchorStorage(Construct):
    """`bucket`: where Learn leaves each finished run's audit head (`anchors/<disruption id>/<seq>.json`,
    workflow/audit/anchor.py), under a default Object Lock retention in COMPLIANCE mode: no one, the account's
    root included, deletes or overwrites a version before it ends, so a rolled-back chain cannot hide its anchor.

    Always retained, whatever the stage's removal policy: CloudFormation cannot empty a bucket of locked
    versions, and the auto-delete custom resource would fail on them (and must never be given the chance).
    SSE-S3, not the data key: an anchor is a record number, a hash, a count and a state (nothing secret), the
    grants stay S3 actions only, and no key's deletion or disabling can make a locked anchor unreadable while
    it must still be kept (the data key follows the stage's removal policy).
    """

    def __init__(self, scope: Construct, construct_id: str, *, access_logs: s3.IBucket, retention_days: int) -> None:
        super().__init__(scope, construct_id)
        self.prefix = ANCHOR_PREFIX
        self.bucket = s3.Bucket(
            self,
            "Bucket",
            encryption=s3.BucketEncryption.S3_MANAGED,
            versioned=True,  # Object Lock protects versions; S3 requires versioning with it
            object_lock_enabled=True,
            object_lock_default_retention=s3.ObjectLockRetention.compliance(Duration.days(retention_days)),
            server_access_logs_bucket=access_logs,
            server_access_logs_prefix="audit-anchors/",
            # No expiry: an anchor is kept as long as the chain it anchors (the AuditTrail table keeps its records).
            lifecycle_rules=[
                s3.LifecycleRule(
                    id="abort-incomplete-uploads",
                    abort_incomplete_multipart_upload_after=Duration.days(INCOMPLETE_UPLOAD_DAYS),
                )
            ],
            **secure_bucket_options(removal_policy=RemovalPolicy.RETAIN, auto_delete_objects=False),
        )
